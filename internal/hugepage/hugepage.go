// Package hugepage grows the large arrays that a world of millions of boxes
// reads at scattered places, asking the operating system to back them with
// huge pages.
//
// A query in such a world reads a few blocks of 640 bytes each, anywhere in
// an array of hundreds of megabytes: with pages of 4 KiB every block lies
// on its own page, whose translation the TLB no longer holds, and each read
// waits for a page walk as well as for memory. Pages of 2 MiB cover the
// array with a hundredth as many translations.
//
// On Linux, transparent huge pages back a region when the system's setting
// (/sys/kernel/mm/transparent_hugepage/enabled) is "always", or is
// "madvise" and the region was advised with madvise(MADV_HUGEPAGE). Most
// distributions ship "madvise", and the Go runtime gives no such advice for
// the heap, so Grow gives it, in that setting only, for each new array of
// MinBytes or more, before anything writes to it: the pages are then huge
// from their first fault, with no later copy. It withdraws the advice from
// the array it replaces (madvise(MADV_NOHUGEPAGE), which in that setting
// is the default behaviour), so that the runtime's reuse of the old memory
// behaves as before; the memory of the last arrays of a dropped World keeps
// it. Elsewhere, and when a call fails, Grow is slices.Grow: the advice
// changes how fast memory is reached, never what it holds.
//
// With the advice, World.Query and World.Any take less time on the uniform
// and RTS scenes at a million boxes and more, and so does the all-moved step
// (BenchmarkWorldQuery and BenchmarkWorldStep, against a World built without
// it, on a virtual machine, whose host maps the guest's memory with pages of
// its own).
package hugepage

import (
	"slices"
	"unsafe"
)

// MinBytes is the smallest array Grow advises: two huge pages. Smaller
// arrays are a few pages of 4 KiB that the TLB holds anyway.
const MinBytes = 4 << 20

// Grow returns s with room for at least n more elements, as slices.Grow
// does, keeping its elements; s must not be used after. When it allocates
// an array of MinBytes or more on a system that takes advice, the new
// array is advised before the copy and the old one's advice withdrawn.
func Grow[S ~[]E, E any](s S, n int) S {
	if uint(n) <= uint(cap(s)-len(s)) {
		return s // inlined: the callers append one element at a time
	}
	return grow(s, n)
}

func grow[S ~[]E, E any](s S, n int) S {
	if n < 0 {
		panic("hugepage: Grow with a negative count")
	}
	var e E
	size := unsafe.Sizeof(e)
	c := max(len(s)+n, cap(s)+cap(s)/4)
	if size == 0 || uintptr(c) < MinBytes/size || !advising() {
		return slices.Grow(s, n)
	}
	t := make(S, len(s), c)
	advise(unsafe.Pointer(unsafe.SliceData(t)), uintptr(c)*size, true)
	copy(t, s)
	if cap(s) > 0 {
		advise(unsafe.Pointer(unsafe.SliceData(s)), uintptr(cap(s))*size, false)
	}
	return t
}
