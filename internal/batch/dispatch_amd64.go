//go:build amd64 && gc && !purego

package batch

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/obb2d/obb2d/soa"
)

//go:generate go run -C ../../gen ./kernel -out ../internal/batch/kernels_amd64.s -stubs ../internal/batch/kernels_amd64.go -pkg batch

// The assembly kernels use BMI2 (SHLX, BZHI) to place each group's bits.
// x/sys/cpu reports AVX2 and AVX-512F only when the OS saves the YMM and
// ZMM state, and honours GODEBUG=cpu.avx2=off, cpu.avx512f=off and
// cpu.bmi2=off. The AVX-512 kernels also require AVX2, so that
// GODEBUG=cpu.avx2=off turns all assembly off.
var (
	haveAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasBMI2
	haveAVX512 = haveAVX2 && cpu.X86.HasAVX512F
)

// This file is the dispatch table: each kernel's implementations, chosen by
// one load of current. A switch rather than function values, because a call
// through a function value makes its slice arguments escape, and a caller's
// bitset on the stack would then move to the heap on every call.

// Overlaps sets bit i%64 of out[i/64] when box i overlaps the query and
// clears it otherwise, for the equal-length, non-empty columns given; out
// has at least Words(len(cx)) words.
func Overlaps(q *Query, cx, cy, ux, uy, hx, hy []float32, out []uint64) {
	switch current.Load() {
	case AVX512:
		overlapsAVX512(q.CX, q.CY, q.UX, q.UY, q.HX, q.HY, cx, cy, ux, uy, hx, hy, out)
	case AVX2:
		overlapsAVX2(q.CX, q.CY, q.UX, q.UY, q.HX, q.HY, cx, cy, ux, uy, hx, hy, out)
	default:
		overlapsGeneric(q, cx, cy, ux, uy, hx, hy, out)
	}
}

func runsPruned(qs, b *soa.Boxes, qreach, reach []float32, runs []int32, out []uint64) {
	switch current.Load() {
	case AVX512:
		runsPrunedAVX512(qs.CX, qs.CY, qs.UX, qs.UY, qs.HX, qs.HY, qreach, b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, reach, runs, out)
	case AVX2:
		runsPrunedAVX2(qs.CX, qs.CY, qs.UX, qs.UY, qs.HX, qs.HY, qreach, b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, reach, runs, out)
	default:
		runsPrunedGeneric(qs, b, qreach, reach, runs, out)
	}
}

func sweep(b *soa.Boxes, lo, hi, reach []float32, q, c, end int, out []Hit) (nextQ, nextC, candidates, hits int) {
	switch current.Load() {
	case AVX512:
		return sweepAVX512(b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, reach, lo, hi, q, c, end, hitWords(out))
	case AVX2:
		return sweepAVX2(b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, reach, lo, hi, q, c, end, hitWords(out))
	default:
		return sweepGeneric(b, lo, hi, reach, q, c, end, out)
	}
}

// pairs decides the pairs of ij into out. Only an AVX2 gather kernel is
// generated (the avx512 implementation uses it too); it takes whole groups
// of 8 pairs, and the rest go through Go.
func pairs(a, b *soa.Boxes, ij []int32, out []uint64) {
	n, whole := len(ij)/2, 0
	if current.Load() != Generic {
		whole = n &^ 7
	}
	if whole > 0 {
		pairsAVX2(a.CX, a.CY, a.UX, a.UY, a.HX, a.HY, b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, ij[:2*whole], out)
	}
	pairsGeneric(a, b, ij, whole, n, out)
}

// hitWords returns out as the words the assembly kernels store, Q in the
// low half and C in the high half of each: the layout of a Hit on a
// little-endian machine.
func hitWords(out []Hit) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(out))), len(out))
}
