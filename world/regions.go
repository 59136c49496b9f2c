package world

import (
	mathbits "math/bits"
	"slices"
	"unsafe"
)

// A large world's grids outgrow the caches, and a pass that visits boxes in
// the caller's order, or in the order they were marked dirty, misses the
// cache and the TLB on every block. MoveBoxes' writes, when it moves fewer
// than a quarter of the boxes (writeMode), and the incremental step's
// queries then go in block order instead: the boxes are
// counting-sorted into regions, 256 per grid, of consecutive blocks, each
// a small part of memory whose pages the TLB holds, and are visited region
// after region.
//
// A world is large when its blocks take more than largeBytes: in memory
// the caches hold, the sort is work for nothing. BenchmarkSortedPasses
// (every box moved by MoveBoxes, then Pairs, uniform scene) finds the sorted
// passes slower at 10,000 boxes (1 MB of blocks), no different at 100,000
// (9 MB) and faster at 1,000,000 (94 MB), on a machine with a 32 MB L3.

const (
	defaultLargeBytes = 16 << 20
	regions           = 256 // per grid
)

var largeBytes = defaultLargeBytes // a variable for the tests of the sorted passes (export_test.go)

// large reports whether w's blocks take more than largeBytes.
func (w *World) large() bool { return w.blockBytes() > largeBytes }

// blockBytes returns how many bytes w's blocks take.
func (w *World) blockBytes() int {
	return (len(w.grids[0].blocks) + len(w.grids[1].blocks)) * int(unsafe.Sizeof(block{}))
}

// regionShift returns the shift that maps g's block indices to regions: its
// blocks number under 2^L, L = bits.Len(len), and the shift leaves the top
// 8 of those bits, a region below 256.
func (g *grid) regionShift() uint { return uint(max(mathbits.Len(uint(len(g.blocks))), 8) - 8) }

// regionSort puts the elements of lists, taken in order, into dst sorted
// by region(x), each below len(start)-1, keeping their order within a
// region: a counting sort, one pass that counts the regions and keeps each
// element's in keys, and one that places the elements. It leaves in
// start[r] where region r begins in dst (start[len-1] is the end), and
// returns dst and keys for the next call to reuse.
func regionSort[T any](dst []T, keys []uint16, start []int32, lists [][]T, region func(*T) int) ([]T, []uint16) {
	clear(start)
	keys = keys[:0]
	for _, l := range lists {
		for j := range l {
			r := region(&l[j])
			keys = append(keys, uint16(r))
			start[r+1]++
		}
	}
	for r := 1; r < len(start); r++ {
		start[r] += start[r-1]
	}
	dst = slices.Grow(dst[:0], len(keys))[:len(keys)]
	at := 0
	for _, l := range lists {
		for _, x := range l {
			r := keys[at]
			at++
			dst[start[r]] = x
			start[r]++
		}
	}
	// Each start[r] has moved to region r's end, region r+1's start.
	copy(start[1:], start[:len(start)-1])
	start[0] = 0
	return dst, keys
}
