//go:build amd64 && gc && !purego

package batch

import (
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

//go:generate go run -C ../../gen ./kernel -out ../internal/batch/kernels_amd64.s -stubs ../internal/batch/kernels_amd64.go -pkg batch

// The assembly kernels use BMI2 (SHLX, BZHI) to place each group's bits,
// and the collide kernels POPCNT to count the pairs they leave to Go.
// x/sys/cpu reports AVX2 and AVX-512F only when the OS saves the YMM and
// ZMM state, and honours GODEBUG=cpu.avx2=off, cpu.avx512f=off and
// cpu.bmi2=off. The AVX-512 kernels also require AVX2, so that
// GODEBUG=cpu.avx2=off turns all assembly off.
var (
	haveAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT
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

// OverlapsBlock returns the bits of the first n boxes of b that overlap
// the query: bit i set when box i does. It panics unless 0 <= n <= 16. The
// assembly kernels test all 8 lanes of b's first group when n <= 8, and
// all 16 lanes otherwise, whatever the lanes past n hold (they are memory
// of b), and drop the bits past n: a partial group would take the general
// kernel's masked tail, which costs more than a whole group
// (BenchmarkOverlapsShort, n=7 against n=15). A block of at most 8 boxes
// is read in its first group alone, with the AVX2 kernel on AVX-512
// machines too: one group is one instruction's lanes either way. The Go
// kernel, which costs per box, tests the n in use.
func OverlapsBlock(q *Query, b *Block, n int) uint64 {
	keep := blockBits("OverlapsBlock", "boxes", n)
	q6 := (*[6]float32)(unsafe.Pointer(q))
	impl := current.Load()
	if impl != Generic && n <= GroupLanes {
		return overlapsGroupAVX2(q6, (*[48]float32)(unsafe.Pointer(&b[0]))) & keep
	}
	switch impl {
	case AVX512:
		return overlapsBlockAVX512(q6, (*[96]float32)(unsafe.Pointer(b))) & keep
	case AVX2:
		return overlapsBlockAVX2(q6, (*[96]float32)(unsafe.Pointer(b))) & keep
	default:
		return overlapsBlockGeneric(q, b, n)
	}
}

// Prefetch asks the CPU to start loading the size bytes at p into its
// cache and returns at once: a caller about to read several scattered
// blocks names them all first, so that their cache misses overlap. It
// changes no result and never faults; where there is no assembly it does
// nothing.
func Prefetch(p unsafe.Pointer, size uintptr) {
	if size > 0 {
		prefetchLines((*byte)(p), size)
	}
}

// PrefetchL2 is Prefetch into the L2 cache, not the L1 (PREFETCHT1).
func PrefetchL2(p unsafe.Pointer, size uintptr) {
	if size > 0 {
		prefetchLinesL2((*byte)(p), size)
	}
}

// PrefetchFar is Prefetch for lines read well after the request, a few
// links further along a chain of misses: PrefetchL2 on Intel processors,
// Prefetch on others.
// Which is faster is a matter of measurement, and the two vendors'
// processors measured opposite ways: package world's step_ahead.go names
// the benchmark and the machines.
func PrefetchFar(p unsafe.Pointer, size uintptr) {
	if size > 0 {
		prefetchFar((*byte)(p), size)
	}
}

// prefetchFar is PrefetchFar's kernel, chosen once by the vendor string of
// CPUID leaf 0: a variable, not a test in PrefetchFar, so that PrefetchFar
// inlines to one call in the loops that ask for links ahead.
var prefetchFar = farKernel(Vendor())

func farKernel(vendor string) func(*byte, uintptr) {
	if vendor == "GenuineIntel" {
		return prefetchLinesL2
	}
	return prefetchLines
}

// Vendor returns the processor's vendor string, as CPUID leaf 0 gives it:
// "GenuineIntel", "AuthenticAMD", or another.
func Vendor() string {
	b, d, c := cpuVendor()
	v := make([]byte, 0, 12)
	for _, r := range []uint32{b, d, c} {
		v = append(v, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
	}
	return string(v)
}

// PrefetchMarked asks the CPU to start loading, for each h of hs whose
// slot i = h>>8 has bit i%64 of bits[i/64] set, the span bytes at base +
// stride·i, and returns at once: one call for the records of a list of
// handles, where a call of Prefetch for each costs about as much as the
// misses it overlaps when the records sit in the L3 cache. A slot past
// bits is not asked for. It changes no result and never faults; where
// there is no assembly it does nothing. It panics unless 0 < span <= 64.
func PrefetchMarked(base unsafe.Pointer, stride, span uintptr, hs []uint32, bits []uint64) {
	markedSpan(span)
	if len(hs) > 0 {
		prefetchMarked((*byte)(base), stride, span, &hs[0], len(hs), unsafe.SliceData(bits), len(bits))
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

func reaches(cx, cy, ux, uy, hx, hy []float32, rx, ry []float64) {
	switch current.Load() {
	case AVX512:
		reachesAVX512(cx, cy, ux, uy, hx, hy, rx, ry)
	case AVX2:
		reachesAVX2(cx, cy, ux, uy, hx, hy, rx, ry)
	default:
		reachesGeneric(cx, cy, ux, uy, hx, hy, rx, ry)
	}
}

func intervals(c, c2, along, across, hx, hy, lo, hi []float32) {
	switch current.Load() {
	case AVX512:
		intervalsAVX512(c, c2, along, across, hx, hy, lo, hi)
	case AVX2:
		intervalsAVX2(c, c2, along, across, hx, hy, lo, hi)
	default:
		intervalsGeneric(c, c2, along, across, hx, hy, lo, hi)
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

// The kernel reads a Record as 8 floats, the box's six fields first.
var (
	_ [unsafe.Sizeof(Record{}) - 32]byte
	_ [32 - unsafe.Sizeof(Record{})]byte
	_ [unsafe.Offsetof(Record{}.HY) - 20]byte
	_ [20 - unsafe.Offsetof(Record{}.HY)]byte
)

// pairKeys decides the pairs of keys into out, or returns false, having
// written nothing, when an index is outside recs: whole groups of 16 with
// the AVX-512 kernel or of 8 with the AVX2 one, which check the indices of
// all of them first, and the rest through Go, checked before the kernel
// runs.
func pairKeys(recs []Record, keys []uint64, out []uint64) bool {
	n, whole, impl := len(keys), 0, current.Load()
	switch impl {
	case AVX512:
		whole = n &^ 15
	case AVX2:
		whole = n &^ 7
	}
	if !keysInside(len(recs), keys[whole:]) {
		return false
	}
	if whole > 0 {
		floats := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(recs))), 8*len(recs))
		ok := false
		if impl == AVX512 {
			ok = pairKeysAVX512(floats, keys[:whole], out)
		} else {
			ok = pairKeysAVX2(floats, keys[:whole], out)
		}
		if !ok {
			return false
		}
	}
	pairKeysGeneric(recs, keys, whole, n, out)
	return true
}

// keepKeys copies with the assembly up to the key it stops at, or up to a
// group with a box outside touched, and leaves that key or group, and the
// keys past the last whole group, to Go.
func keepKeys(prev, touched, cur []uint64, pairs []uint32, next uint64) int {
	m := 0
	switch current.Load() {
	case AVX512:
		m = keepKeysAVX512(prev, touched, cur, pairs, next)
	case AVX2:
		m = keepKeysAVX2(prev, touched, cur, pairs, next)
	}
	return keepKeysGeneric(prev, touched, cur, pairs, next, m)
}

// hitWords returns out as the words the assembly kernels store, Q in the
// low half and C in the high half of each: the layout of a Hit on a
// little-endian machine.
func hitWords(out []Hit) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(out))), len(out))
}

// collideColumns runs the collide kernel on n pairs laid out as columns
// and finishes in Go the pairs it leaves, marked by Count -1: those whose
// first reference face fails the clip.
func collideColumns(cols []float32, n int, margin float32, out []obb.Manifold) {
	var left int
	switch current.Load() {
	case AVX512:
		left = collideAVX512(cols, n, margin, manifoldWords(out))
	case AVX2:
		left = collideAVX2(cols, n, margin, manifoldWords(out))
	default:
		collideGeneric(cols, n, margin, out)
		return
	}
	for k := 0; left > 0; k++ {
		if out[k].Count < 0 {
			out[k] = collideAt(cols, n, k, margin)
			left--
		}
	}
}

// collidePairs runs the pair-list collide kernel on the whole groups of
// pairs and finishes in Go the pairs it leaves; the last pairs, fewer than
// a group, go through collideGrouped.
func collidePairs(a, b *soa.Boxes, ij []int32, margin float32, out []obb.Manifold) {
	n, whole, left := len(out), 0, 0
	switch current.Load() {
	case AVX512:
		if whole = n &^ 15; whole > 0 {
			left = collidePairsAVX512(a.CX, a.CY, a.UX, a.UY, a.HX, a.HY, b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, ij[:2*whole], margin, manifoldWords(out[:whole]))
		}
	case AVX2:
		if whole = n &^ 7; whole > 0 {
			left = collidePairsAVX2(a.CX, a.CY, a.UX, a.UY, a.HX, a.HY, b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, ij[:2*whole], margin, manifoldWords(out[:whole]))
		}
	default:
		collidePairsGeneric(a, b, ij, margin, out)
		return
	}
	for k := 0; left > 0; k++ {
		if out[k].Count < 0 {
			out[k] = boxAt(a, ij[2*k]).Collide(boxAt(b, ij[2*k+1]), margin)
			left--
		}
	}
	if whole < n {
		collideGrouped(a, b, ij[2*whole:], margin, out[whole:])
	}
}

// The collide kernels write an obb.Manifold as six 8-byte words: the
// normal, the count, and each point's position, then separation and ID.
// The size is checked here; TestManifoldLayout checks the offsets.
const _ = -uint(unsafe.Sizeof(obb.Manifold{}) ^ 48)

func manifoldWords(out []obb.Manifold) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(out))), 6*len(out))
}

// meets and meetsBelow test all 16 lanes with the assembly, whatever the
// lanes past n hold (they are memory of b and h), and keep the bits of
// keep, the first n; the Go kernels test the n in use.
func meets(r *Rect, b *Bounds, n int, keep uint32) uint32 {
	r4, b64 := (*[4]float32)(unsafe.Pointer(r)), (*[64]float32)(unsafe.Pointer(b))
	switch current.Load() {
	case AVX512:
		return meetsAVX512(r4, b64) & keep
	case AVX2:
		return meetsAVX2(r4, b64) & keep
	default:
		return meetsGeneric(r, b, n)
	}
}

func meetsBelow(r *Rect, b *Bounds, h *[BlockLanes]uint32, limit uint32, n int, keep uint32) uint32 {
	r4, b64 := (*[4]float32)(unsafe.Pointer(r)), (*[64]float32)(unsafe.Pointer(b))
	switch current.Load() {
	case AVX512:
		return meetsBelowAVX512(r4, b64, h, limit) & keep
	case AVX2:
		return meetsBelowAVX2(r4, b64, h, limit) & keep
	default:
		return meetsBelowGeneric(r, b, h, limit, n)
	}
}
