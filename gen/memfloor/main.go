// Command memfloor writes the memory-floor read used by the benchmarks: a
// plain AVX2 streaming read of the six box columns, 32 bytes per column per
// step, with nothing computed but an OR that keeps the loads alive. It is the
// fastest the kernels could possibly go when memory is the limit.
//
// Regenerate from the repository's root with
//
//	go generate ./bench/internal/memfloor
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/obb2d/obb2d/gen/internal/header"
)

func main() {
	ConstraintExpr("amd64,gc,!purego")
	TEXT("readAVX2", NOSPLIT, "func(cx, cy, ux, uy, hx, hy []float32) uint32")
	Pragma("noescape")
	Doc(
		"readAVX2 ORs together the bits of the first len(cx)&^7 elements of",
		"every column, 8 per column per step, and returns them folded to 32 bits.",
		"The columns must have equal lengths.",
	)
	var cols [6]Register
	for c, name := range []string{"cx", "cy", "ux", "uy", "hx", "hy"} {
		cols[c] = Load(Param(name).Base(), GP64())
	}
	n := Load(Param("cx").Len(), GP64())
	SHRQ(U8(3), n)
	// Two accumulators so the ORs do not form one long dependency chain.
	acc := [2]VecVirtual{YMM(), YMM()}
	VPXOR(acc[0], acc[0], acc[0])
	VPXOR(acc[1], acc[1], acc[1])
	i := GP64()
	XORQ(i, i)
	Label("loop")
	TESTQ(n, n)
	JZ(LabelRef("fold"))
	for c, col := range cols {
		VPOR(Mem{Base: col, Index: i, Scale: 4}, acc[c%2], acc[c%2])
	}
	ADDQ(U32(8), i)
	DECQ(n)
	JMP(LabelRef("loop"))

	Label("fold")
	VPOR(acc[1], acc[0], acc[0])
	x := acc[0].AsX()
	hi := XMM()
	VEXTRACTI128(U8(1), acc[0], hi)
	VPOR(hi, x, x)
	VPSHUFD(U8(0x4e), x, hi)
	VPOR(hi, x, x)
	VPSHUFD(U8(0xb1), x, hi)
	VPOR(hi, x, x)
	r := GP32()
	VMOVD(x, r)
	Store(r, ReturnIndex(0))
	VZEROUPPER()
	RET()
	header.Generate("go generate ./bench/internal/memfloor")
}
