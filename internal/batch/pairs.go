package batch

import (
	"fmt"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// Pairs is the narrow phase over a candidate pair list. ij holds the pairs
// interleaved, i0, j0, i1, j1, ...; Pairs sets bit k%64 of out[k/64] when
// box ij[2k] of a overlaps box ij[2k+1] of b, exactly as obb.Box.Overlaps
// says, and clears it otherwise. It writes out[0 : Words(len(ij)/2)] and
// nothing else, and allocates nothing.
//
// With the avx2 or avx512 implementation it decides 8 pairs per step with
// AVX2 gathers (VGATHERDPS) of both boxes' fields; the last len(ij)/2 % 8
// pairs, and every pair with the generic implementation, go through Go.
// Every index is checked before the assembly runs, so a gather reads only
// boxes that exist.
//
// It panics, before writing anything, if len(ij) is odd, out is shorter
// than Words(len(ij)/2), a set's columns differ in length, or an index is
// outside its set.
func Pairs(a, b *soa.Boxes, ij []int32, out []uint64) {
	n := checkPairList(a, b, ij)
	if len(out) < Words(n) {
		panic(fmt.Sprintf("batch: out has %d words, need %d for %d pairs", len(out), Words(n), n))
	}
	pairs(a, b, ij, out)
}

// checkPairList returns the number of pairs of ij, after checking that
// the list is whole, the sets' columns are equal in length and every index
// is inside its set, or panics.
func checkPairList(a, b *soa.Boxes, ij []int32) int {
	na, nb := a.Len(), b.Len()
	if len(ij)%2 != 0 {
		panic(fmt.Sprintf("batch: pair list has odd length %d", len(ij)))
	}
	for k := 0; k < len(ij); k += 2 {
		if i := ij[k]; uint(i) >= uint(na) {
			panic(fmt.Sprintf("batch: pair %d: first index %d is outside [0, %d)", k/2, i, na))
		}
		if j := ij[k+1]; uint(j) >= uint(nb) {
			panic(fmt.Sprintf("batch: pair %d: second index %d is outside [0, %d)", k/2, j, nb))
		}
	}
	return len(ij) / 2
}

// Record is a box as PairKeys reads it: its six fields in 32 bytes, so
// that a box's fields lie in one cache line when the array starts on one.
// Gathered from six columns, a box picked at random from a set larger than
// the cache missed it up to six times.
type Record struct {
	CX, CY, UX, UY, HX, HY float32
	_                      [2]float32
}

// Set makes r the record of box b.
func (r *Record) Set(b obb.Box) {
	r.CX, r.CY, r.UX, r.UY, r.HX, r.HY = b.Center.X, b.Center.Y, b.Axis.X, b.Axis.Y, b.Half.X, b.Half.Y
}

// Box returns the box of r.
func (r *Record) Box() obb.Box {
	return obb.Box{Center: obb.Vec2{X: r.CX, Y: r.CY}, Axis: obb.Vec2{X: r.UX, Y: r.UY}, Half: obb.Vec2{X: r.HX, Y: r.HY}}
}

// PairKeys is Pairs over a pair list kept as package world keeps its
// candidates, both boxes from one array of records: key k names records
// keys[k]>>40 and uint32(keys[k])>>8 (two handles, whose low bytes are
// generations, in a key's halves), and PairKeys sets bit k%64 of out[k/64]
// when their boxes overlap, exactly as obb.Box.Overlaps says, and clears
// it otherwise. It writes out[0 : Words(len(keys))] and nothing else, and
// allocates nothing. The assembly takes the indices from the keys as it
// loads them, where Pairs would need them written out as a list first,
// and checks them all before it reads a record.
//
// It panics, before writing anything, if out is shorter than
// Words(len(keys)) or an index is outside recs.
func PairKeys(recs []Record, keys []uint64, out []uint64) {
	if len(out) < Words(len(keys)) {
		panic(fmt.Sprintf("batch: out has %d words, need %d for %d pairs", len(out), Words(len(keys)), len(keys)))
	}
	if !pairKeys(recs, keys, out) {
		badKey(len(recs), keys)
	}
}

// keysInside reports whether every index of keys is below n. It finds the
// largest half of all keys without a branch a key, but with the maximum
// carried from key to key, which is a visible share of the RTS scene's step
// (BenchmarkWorldStep) when it runs over every key (checkRecords in
// gen/kernel). It runs over the keys past the assembly's last whole group,
// and over all of them only for the generic implementation, whose test of
// each pair costs far more.
func keysInside(n int, keys []uint64) bool {
	var top uint32
	for _, k := range keys {
		top = max(top, uint32(k>>32), uint32(k))
	}
	return int(top>>8) < n
}

// badKey panics naming the first pair of keys with an index not below n.
func badKey(n int, keys []uint64) {
	for p, k := range keys {
		if i := int(k >> 40); i >= n {
			panic(fmt.Sprintf("batch: pair %d: first index %d is outside [0, %d)", p, i, n))
		}
		if j := int(uint32(k) >> 8); j >= n {
			panic(fmt.Sprintf("batch: pair %d: second index %d is outside [0, %d)", p, j, n))
		}
	}
	panic("batch: PairKeys found an index outside the records and then none")
}

// pairKeysGeneric decides the pairs of keys [from, n) into out, keeping
// the bits of the pairs before from in their word.
func pairKeysGeneric(recs []Record, keys []uint64, from, n int, out []uint64) {
	for lo := from &^ 63; lo < n; lo += 64 {
		first, end := max(lo, from), min(lo+64, n)
		word := out[lo>>6] & (1<<(first-lo) - 1)
		for k := first; k < end; k++ {
			if recs[keys[k]>>40].Box().Overlaps(recs[uint32(keys[k])>>8].Box()) {
				word |= 1 << (k - lo)
			}
		}
		out[lo>>6] = word
	}
}

// pairsGeneric decides pairs [from, n) into out, keeping the bits of the
// pairs before from in their word. It calls obb.Box.Overlaps, which lane
// copies operation by operation: both boxes change with every pair, and
// passing them in registers beat building a Query for lane's pointer
// (BenchmarkPairKernel, impl=generic).
func pairsGeneric(a, b *soa.Boxes, ij []int32, from, n int, out []uint64) {
	var word uint64
	if from&63 != 0 {
		word = out[from>>6]
	}
	for k := from; k < n; k++ {
		i, j := ij[2*k], ij[2*k+1]
		// Not soa.Boxes.At: it checks every column's length on every call,
		// and Pairs has checked the columns and the indices.
		first := obb.Box{Center: obb.Vec2{X: a.CX[i], Y: a.CY[i]}, Axis: obb.Vec2{X: a.UX[i], Y: a.UY[i]}, Half: obb.Vec2{X: a.HX[i], Y: a.HY[i]}}
		second := obb.Box{Center: obb.Vec2{X: b.CX[j], Y: b.CY[j]}, Axis: obb.Vec2{X: b.UX[j], Y: b.UY[j]}, Half: obb.Vec2{X: b.HX[j], Y: b.HY[j]}}
		if first.Overlaps(second) {
			word |= 1 << (k & 63)
		}
		if k&63 == 63 {
			out[k>>6] = word
			word = 0
		}
	}
	if n&63 != 0 && n > from {
		out[n>>6] = word
	}
}
