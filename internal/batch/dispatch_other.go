//go:build !amd64 || !gc || purego

package batch

import (
	"unsafe"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// Without the amd64 assembly, Go is the only implementation and every
// kernel is its Go form.
const (
	haveAVX2   = false
	haveAVX512 = false
)

// Overlaps sets bit i%64 of out[i/64] when box i overlaps the query and
// clears it otherwise, for the equal-length, non-empty columns given; out
// has at least Words(len(cx)) words.
func Overlaps(q *Query, cx, cy, ux, uy, hx, hy []float32, out []uint64) {
	overlapsGeneric(q, cx, cy, ux, uy, hx, hy, out)
}

// OverlapsBlock returns the bits of the first n boxes of b that overlap
// the query: bit i set when box i does. It panics unless 0 <= n <= 16.
func OverlapsBlock(q *Query, b *Block, n int) uint64 {
	blockBits("OverlapsBlock", "boxes", n)
	return overlapsBlockGeneric(q, b, n)
}

// Prefetch asks the CPU to start loading the size bytes at p into its
// cache; where there is no assembly it does nothing.
func Prefetch(p unsafe.Pointer, size uintptr) {}

// PrefetchL2 is Prefetch into the L2 cache; where there is no assembly it
// does nothing.
func PrefetchL2(p unsafe.Pointer, size uintptr) {}

// PrefetchFar is Prefetch for lines read well after the request; where
// there is no assembly it does nothing.
func PrefetchFar(p unsafe.Pointer, size uintptr) {}

// Vendor returns the processor's vendor string where the assembly can
// read it; here, "".
func Vendor() string { return "" }

// PrefetchMarked asks for the records of the marked slots of hs, as the
// amd64 form does; where there is no assembly it does nothing. It panics
// unless 0 < span <= 64.
func PrefetchMarked(base unsafe.Pointer, stride, span uintptr, hs []uint32, bits []uint64) {
	markedSpan(span)
}

func runsPruned(qs, b *soa.Boxes, qreach, reach []float32, runs []int32, out []uint64) {
	runsPrunedGeneric(qs, b, qreach, reach, runs, out)
}

func sweep(b *soa.Boxes, lo, hi, reach []float32, q, c, end int, out []Hit) (nextQ, nextC, candidates, hits int) {
	return sweepGeneric(b, lo, hi, reach, q, c, end, out)
}

func reaches(cx, cy, ux, uy, hx, hy []float32, rx, ry []float64) {
	reachesGeneric(cx, cy, ux, uy, hx, hy, rx, ry)
}

func intervals(c, c2, along, across, hx, hy, lo, hi []float32) {
	intervalsGeneric(c, c2, along, across, hx, hy, lo, hi)
}

func pairs(a, b *soa.Boxes, ij []int32, out []uint64) {
	pairsGeneric(a, b, ij, 0, len(ij)/2, out)
}

func pairKeys(recs []Record, keys []uint64, out []uint64) bool {
	if !keysInside(len(recs), keys) {
		return false
	}
	pairKeysGeneric(recs, keys, 0, len(keys), out)
	return true
}

func keepKeys(prev, touched, cur []uint64, pairs []uint32, next uint64) int {
	return keepKeysGeneric(prev, touched, cur, pairs, next, 0)
}

func collideColumns(cols []float32, n int, margin float32, out []obb.Manifold) {
	collideGeneric(cols, n, margin, out)
}

func collidePairs(a, b *soa.Boxes, ij []int32, margin float32, out []obb.Manifold) {
	collidePairsGeneric(a, b, ij, margin, out)
}

func meets(r *Rect, b *Bounds, n int, keep uint32) uint32 { return meetsGeneric(r, b, n) }

func meetsBelow(r *Rect, b *Bounds, h *[BlockLanes]uint32, limit uint32, n int, keep uint32) uint32 {
	return meetsBelowGeneric(r, b, h, limit, n)
}
