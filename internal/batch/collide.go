package batch

import (
	"fmt"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// PairColumns is the number of columns of a pair list laid out for
// [CollideColumns]: the first boxes' CX, CY, UX, UY, HX, HY, then the
// second boxes'.
const PairColumns = 12

// collideChunk is how many pairs collideGrouped copies into columns on the
// stack before each kernel call: 12 columns of 64 floats are 3 KiB, and
// the copies stay in L1 between the loop that writes them and the kernel.
const collideChunk = 64

// CollideColumns writes into out[k] the contact manifold of pair k of n
// pairs laid out as columns: column c is cols[c*n : (c+1)*n] (see
// [PairColumns]), and the manifold is exactly obb.Box.Collide's, bit for
// bit, for the pair's first box against its second with the given margin.
// It writes out[0:n] and nothing else, and allocates nothing.
//
// It panics, before writing anything, if cols is shorter than 12n or out
// shorter than n.
func CollideColumns(cols []float32, n int, margin float32, out []obb.Manifold) {
	if n < 0 || len(cols) < PairColumns*n {
		panic(fmt.Sprintf("batch: %d column floats for %d pairs, need %d", len(cols), n, PairColumns*n))
	}
	if len(out) < n {
		panic(fmt.Sprintf("batch: out has room for %d manifolds, need %d", len(out), n))
	}
	if n > 0 {
		collideColumns(cols[:PairColumns*n], n, margin, out[:n])
	}
}

// Collide writes into out[k] the contact manifold of box ij[2k] of a and
// box ij[2k+1] of b, exactly obb.Box.Collide's with the given margin. It
// writes out[0 : len(ij)/2] and nothing else, and allocates nothing.
//
// With the avx2 or avx512 implementation, the kernel copies the pairs'
// fields from the columns, 8 or 16 pairs per step; the last len(ij)/2 % 8
// (or 16) pairs are copied into columns for [CollideColumns]. Every index
// is checked before the assembly runs, so the kernel reads only boxes that
// exist.
//
// It panics, before writing anything, if len(ij) is odd, out is shorter
// than len(ij)/2, a set's columns differ in length, or an index is outside
// its set.
func Collide(a, b *soa.Boxes, ij []int32, margin float32, out []obb.Manifold) {
	n := checkPairList(a, b, ij)
	if len(out) < n {
		panic(fmt.Sprintf("batch: out has room for %d manifolds, need %d", len(out), n))
	}
	collidePairs(a, b, ij, margin, out[:n])
}

// CollideUnchecked is Collide for a caller that has checked every index of
// ij against its set, as package pairs does to return an IndexError: it
// checks the lengths of the columns, the list and out, and not the indices
// again, which took a seventh of Finder.Collide's time (BenchmarkCollide).
// An index outside its set makes the assembly read outside the columns.
func CollideUnchecked(a, b *soa.Boxes, ij []int32, margin float32, out []obb.Manifold) {
	a.Len()
	b.Len()
	n := len(ij) / 2
	if len(ij)%2 != 0 || len(out) < n {
		panic(fmt.Sprintf("batch: %d indices and room for %d manifolds", len(ij), len(out)))
	}
	collidePairs(a, b, ij, margin, out[:n])
}

// collideGrouped is Collide by copying the pairs' boxes into columns on
// the stack, 64 pairs at a time, for CollideColumns.
func collideGrouped(a, b *soa.Boxes, ij []int32, margin float32, out []obb.Manifold) {
	var cols [PairColumns * collideChunk]float32
	n := len(ij) / 2
	// The columns sliced to one length, so that one index check serves
	// six loads.
	acx, bcx := a.CX, b.CX
	acy, aux, auy, ahx, ahy := a.CY[:len(acx)], a.UX[:len(acx)], a.UY[:len(acx)], a.HX[:len(acx)], a.HY[:len(acx)]
	bcy, bux, buy, bhx, bhy := b.CY[:len(bcx)], b.UX[:len(bcx)], b.UY[:len(bcx)], b.HX[:len(bcx)], b.HY[:len(bcx)]
	for from := 0; from < n; from += collideChunk {
		m := min(collideChunk, n-from)
		pairs := ij[2*from : 2*(from+m)]
		c := cols[:PairColumns*m]
		c0, c1, c2, c3, c4, c5 := c[0:m], c[m:2*m], c[2*m:3*m], c[3*m:4*m], c[4*m:5*m], c[5*m:6*m]
		c6, c7, c8, c9, c10, c11 := c[6*m:7*m], c[7*m:8*m], c[8*m:9*m], c[9*m:10*m], c[10*m:11*m], c[11*m:12*m]
		for k := range c0 {
			i, j := pairs[2*k], pairs[2*k+1]
			c0[k], c1[k], c2[k], c3[k], c4[k], c5[k] = acx[i], acy[i], aux[i], auy[i], ahx[i], ahy[i]
			c6[k], c7[k], c8[k], c9[k], c10[k], c11[k] = bcx[j], bcy[j], bux[j], buy[j], bhx[j], bhy[j]
		}
		collideColumns(c, m, margin, out[from:from+m])
	}
}

// collidePairsGeneric is Collide in Go: obb.Box.Collide on each pair.
func collidePairsGeneric(a, b *soa.Boxes, ij []int32, margin float32, out []obb.Manifold) {
	for k := range out {
		out[k] = boxAt(a, ij[2*k]).Collide(boxAt(b, ij[2*k+1]), margin)
	}
}

// boxAt is soa.Boxes.At without its check of every column's length, which
// the caller has made.
func boxAt(s *soa.Boxes, i int32) obb.Box {
	return obb.Box{Center: obb.Vec2{X: s.CX[i], Y: s.CY[i]}, Axis: obb.Vec2{X: s.UX[i], Y: s.UY[i]}, Half: obb.Vec2{X: s.HX[i], Y: s.HY[i]}}
}

// SetPair writes the boxes a and b of pair k into columns laid out for
// [CollideColumns] with n pairs.
func SetPair(cols []float32, n, k int, a, b *obb.Box) {
	c := cols[:PairColumns*n]
	c[k], c[n+k], c[2*n+k] = a.Center.X, a.Center.Y, a.Axis.X
	c[3*n+k], c[4*n+k], c[5*n+k] = a.Axis.Y, a.Half.X, a.Half.Y
	c[6*n+k], c[7*n+k], c[8*n+k] = b.Center.X, b.Center.Y, b.Axis.X
	c[9*n+k], c[10*n+k], c[11*n+k] = b.Axis.Y, b.Half.X, b.Half.Y
}

// collideGeneric is CollideColumns in Go: obb.Box.Collide on each pair.
func collideGeneric(cols []float32, n int, margin float32, out []obb.Manifold) {
	for k := range out[:n] {
		out[k] = collideAt(cols, n, k, margin)
	}
}

// collideAt returns obb.Box.Collide for pair k of n pairs laid out as
// columns.
func collideAt(cols []float32, n, k int, margin float32) obb.Manifold {
	at := func(c int) float32 { return cols[c*n+k] }
	a := obb.Box{Center: obb.Vec2{X: at(0), Y: at(1)}, Axis: obb.Vec2{X: at(2), Y: at(3)}, Half: obb.Vec2{X: at(4), Y: at(5)}}
	b := obb.Box{Center: obb.Vec2{X: at(6), Y: at(7)}, Axis: obb.Vec2{X: at(8), Y: at(9)}, Half: obb.Vec2{X: at(10), Y: at(11)}}
	return a.Collide(b, margin)
}
