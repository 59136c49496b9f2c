package kernel

import (
	"fmt"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// PairOverlaps is the narrow phase over a candidate pair list. ij holds the
// pairs interleaved, i0, j0, i1, j1, ...; PairOverlaps sets bit k%64 of
// out[k/64] when box ij[2k] of a overlaps box ij[2k+1] of b, exactly as
// a.At(ij[2k]).Overlaps(b.At(ij[2k+1])) says, and clears it otherwise. For
// pairs within one set, pass the set as both a and b. It writes
// out[0 : Words(len(ij)/2)] and nothing else, and allocates nothing.
//
// With the avx2 or avx512 implementation it decides 8 pairs per step with
// AVX2 gathers (VGATHERDPS) of both boxes' fields; the last len(ij)/2 % 8
// pairs, and every pair with the generic implementation, go through the
// pure-Go lane test. The gathers read only the boxes the pairs name.
//
// It panics, before writing anything, if len(ij) is odd, out is shorter than
// Words(len(ij)/2), a set's columns differ in length, or an index is outside
// its set.
func PairOverlaps(a, b *soa.Boxes, ij []int32, out []uint64) {
	na, nb := a.Len(), b.Len()
	if len(ij)%2 != 0 {
		panic(fmt.Sprintf("kernel: pair list has odd length %d", len(ij)))
	}
	n := len(ij) / 2
	if len(out) < Words(n) {
		panic(fmt.Sprintf("kernel: out has %d words, need %d for %d pairs", len(out), Words(n), n))
	}
	for k := 0; k < len(ij); k += 2 {
		if i := ij[k]; uint(i) >= uint(na) {
			panic(fmt.Sprintf("kernel: pair %d: first index %d is outside [0, %d)", k/2, i, na))
		}
		if j := ij[k+1]; uint(j) >= uint(nb) {
			panic(fmt.Sprintf("kernel: pair %d: second index %d is outside [0, %d)", k/2, j, nb))
		}
	}
	whole := 0
	if current.Load() != implGeneric {
		whole = n &^ 7
	}
	if whole > 0 {
		pairsAVX2(a.CX, a.CY, a.UX, a.UY, a.HX, a.HY, b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, ij[:2*whole], out)
	}
	pairsGeneric(a, b, ij, whole, n, out)
}

// pairsGeneric decides pairs [from, n) into out, keeping the bits of the
// pairs before from in their word. It calls obb.Box.Overlaps itself, which
// the lane function copies operation by operation: here both boxes change
// with every pair, and passing them in registers beat building a Query for
// the lane function's pointer (alternating runs of BenchmarkPairKernel,
// generic, 8 rounds: 168 to 82 ns a pair on the grouped list, 169 to 95 on
// the shuffled one). The lane function keeps its pointer for the
// one-against-many kernel, whose query does not change: a lane function
// that took the query by value measured 13% slower there on the placement
// map and 20% on the dense scene (BenchmarkOverlaps, n=4096, 10 rounds).
func pairsGeneric(a, b *soa.Boxes, ij []int32, from, n int, out []uint64) {
	var word uint64
	if from&63 != 0 {
		word = out[from>>6]
	}
	for k := from; k < n; k++ {
		i, j := ij[2*k], ij[2*k+1]
		// Not soa.Boxes.At: it checks every column's length on every call,
		// and PairOverlaps has checked the columns and the indices.
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
