// Command kernel writes obb2d's amd64 assembly kernels with avo (package
// internal/batch): one query box against many, against a block of 16 or
// against a group of 8, runs of boxes behind a reach test, the sweep over
// a sorted set, the tests of pair lists (boxes gathered from columns or
// loaded from records), the contact manifolds of pairs, the float64
// reaches and bounds of many boxes, the copy of a world step's standing
// pair keys, and which of a block's bounds meet a rectangle. Each is
// generated from one width-parameterised description, for AVX2 (8 float32
// lanes in YMM registers) and AVX-512 (16 in ZMM registers, results in
// mask registers; the reaches and bounds take half as many boxes, as
// float64 lanes, and the key copy 4 and 8 uint64 keys); the group kernel
// and the pair-list kernel that gathers from columns are generated for
// AVX2 only, and the prefetch hints have no width.
//
// Regenerate from the repository's root with
//
//	go generate ./internal/batch
//
// The operations follow, one for one and in the same order, the formula in
// the documentation of package obb: VMULPS, VADDPS and VSUBPS only (never a
// fused multiply-add), |x| as an AND that clears the sign bit, and the
// ordered quiet predicate LE_OQ for p <= r, which is false on NaN exactly
// like Go's <=. group.go emits that test for one group of lanes; the other
// files emit the loops around it. collide.go emits obb.Box.Collide's
// operations in the same way, with its own comparisons and blends.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"

	"github.com/obb2d/obb2d/gen/internal/header"
)

func main() {
	ConstraintExpr("amd64,gc,!purego")

	absMask = GLOBL("absmask", RODATA|NOPTR)
	DATA(0, U32(0x7fffffff))
	laneIndex = GLOBL("laneindex", RODATA|NOPTR)
	for i := 0; i < 8; i++ {
		DATA(4*i, U32(uint32(i)))
	}

	avx2 := width{name: "AVX2", lanes: 8}
	avx512 := width{name: "AVX512", lanes: 16, avx512: true}
	for _, w := range []width{avx2, avx512} {
		overlapsKernel(w)
		blockKernel(w)
	}
	groupKernel()
	prefetchKernel(false)
	prefetchKernel(true)
	vendorKernel()
	prefetchMarkedKernel()
	pairKernel(avx2, false)
	for _, w := range []width{avx2, avx512} {
		pairKernel(w, true)
	}
	for _, w := range []width{avx2, avx512} {
		runKernel(w)
	}
	for _, w := range []width{avx2, avx512} {
		sweepKernel(w)
	}
	collideConsts()
	for _, w := range []width{avx2, avx512} {
		collideKernel(w)
		collidePairsKernel(w)
	}
	reachConsts()
	for _, w := range []width{avx2, avx512} {
		reachKernel(w)
		intervalKernel(w)
	}
	keepConsts()
	for _, w := range []width{avx2, avx512} {
		keepKernel(w)
	}
	for _, w := range []width{avx2, avx512} {
		meetsKernel(w, false)
		meetsKernel(w, true)
	}
	header.Generate("go generate ./internal/batch")
}
