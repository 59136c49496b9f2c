package world

import (
	mathbits "math/bits"
	"unsafe"
)

// A large world's grids outgrow the caches, and a pass that visits boxes in
// the caller's order, or in the order they were marked dirty, misses the
// cache and the TLB on every block. MoveBoxes' writes and the incremental
// step's queries then go in block order instead: the boxes are
// counting-sorted into regions, 256 per grid, of consecutive blocks, each
// a small part of memory whose pages the TLB holds, and are visited region
// after region.
//
// A world is large when its blocks take more than largeBytes: in memory
// the caches hold, the sort is work for nothing. MoveBoxes then Pairs on
// BenchmarkWorldStep's uniform scene, with the limit at 0 against 2⁶²,
// measured MoveBoxes' sorted writes 18% slower at 10,000 boxes (1 MB of
// blocks), no different at 100,000 (9 MB) and 28% faster at 1,000,000
// (94 MB), on a machine with a 32 MB L3.

const (
	defaultLargeBytes = 16 << 20
	regions           = 256 // per grid
)

var largeBytes = defaultLargeBytes // a variable for the tests of the sorted passes (export_test.go)

// large reports whether w's blocks take more than largeBytes.
func (w *World) large() bool {
	return (len(w.grids[0].blocks)+len(w.grids[1].blocks))*int(unsafe.Sizeof(block{})) > largeBytes
}

// regionShift returns the shift that maps g's block indices to regions: its
// blocks number under 2^L, L = bits.Len(len), and the shift leaves the top
// 8 of those bits, a region below 256.
func (g *grid) regionShift() uint { return uint(max(mathbits.Len(uint(len(g.blocks))), 8) - 8) }
