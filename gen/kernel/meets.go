package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// cmpNGTUQ is the VCMPPS predicate "not greater than, unordered, quiet":
// Go's !(a > b), true when either side is NaN, no exception on quiet NaN.
const cmpNGTUQ = 0x1a

// meetsKernel writes meets<name> (below false) or meetsBelow<name> (below
// true): which of the 16 bounds of a batch.Bounds, four columns of min x,
// min y, max x and max y, meet a rectangle r (x0, y0, x1, y1), each lane's
// answer !(minX > x1) && !(x0 > maxX) && !(minY > y1) && !(y0 > maxY) with
// NGT_UQ, so that a NaN meets everything; meetsBelow also requires the
// lane's handle, of 16 uint32, to be below limit, unsigned. Like the block
// kernel, it has no loop and no tail: the bounds and handles are whole
// arrays, and the caller drops the lanes past those in use.
func meetsKernel(w width, below bool) {
	name := "meets" + w.name
	sig := "func(r *[4]float32, b *[64]float32) uint32"
	if below {
		name = "meetsBelow" + w.name
		sig = "func(r *[4]float32, b *[64]float32, h *[16]uint32, limit uint32) uint32"
	}
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	if below {
		Doc(
			name+" returns bit i set when bounds i of b meet r and handle i of h is below limit,",
			fmt.Sprintf("for all %d lanes, %d per step.", blockLanes, w.lanes),
		)
	} else {
		Doc(
			name+" returns bit i set when bounds i of b meet r,",
			fmt.Sprintf("for all %d lanes, %d per step.", blockLanes, w.lanes),
		)
	}
	rp := Load(Param("r"), GP64())
	bp := Load(Param("b"), GP64())
	Comment("Broadcast the rectangle to every lane.")
	var rect [4]VecVirtual // x0, y0, x1, y1
	for i := range rect {
		rect[i] = w.vec()
		VBROADCASTSS(Mem{Base: rp, Disp: 4 * i}, rect[i])
	}
	var hp Register
	var limit, sign VecVirtual
	if below {
		hp = Load(Param("h"), GP64())
		limit = w.vec()
		VMOVD(Load(Param("limit"), GP32()), limit.AsX())
		VPBROADCASTD(limit.AsX(), limit)
		if !w.avx512 {
			Comment("AVX2 compares int32 lanes signed: flip both sides' sign bits.")
			sign = w.vec()
			VPCMPEQD(sign, sign, sign)
			VPSLLD(U8(31), sign, sign)
			VPXOR(sign, limit, limit)
		}
	}
	// col returns where column c of lanes g·w.lanes onwards lies.
	col := func(p Register, c, g int) Mem { return Mem{Base: p, Disp: 4*blockLanes*c + 4*w.lanes*g} }
	bits := GP32()
	for g := range blockLanes / w.lanes {
		Comment(fmt.Sprintf("Lanes %d to %d.", g*w.lanes, (g+1)*w.lanes-1))
		minX, minY := w.vec(), w.vec()
		VMOVUPS(col(bp, 0, g), minX)
		VMOVUPS(col(bp, 1, g), minY)
		if w.avx512 {
			k := K()
			VCMPPS(U8(cmpNGTUQ), rect[2], minX, k)             // !(minX > x1)
			VCMPPS(U8(cmpNGTUQ), col(bp, 2, g), rect[0], k, k) // !(x0 > maxX)
			VCMPPS(U8(cmpNGTUQ), rect[3], minY, k, k)          // !(minY > y1)
			VCMPPS(U8(cmpNGTUQ), col(bp, 3, g), rect[1], k, k) // !(y0 > maxY)
			if below {
				VPCMPUD(U8(6), col(hp, 0, g), limit, k, k) // limit > h (not less or equal)
			}
			KMOVW(k, bits)
			continue
		}
		a, c := w.vec(), w.vec()
		VCMPPS(U8(cmpNGTUQ), rect[2], minX, a)
		VCMPPS(U8(cmpNGTUQ), col(bp, 2, g), rect[0], c)
		VANDPS(c, a, a)
		VCMPPS(U8(cmpNGTUQ), rect[3], minY, c)
		VANDPS(c, a, a)
		VCMPPS(U8(cmpNGTUQ), col(bp, 3, g), rect[1], c)
		VANDPS(c, a, a)
		if below {
			VPXOR(col(hp, 0, g), sign, c)
			VPCMPGTD(c, limit, c) // limit > h
			VPAND(c, a, a)
		}
		if g == 0 {
			VMOVMSKPS(a, bits)
			continue
		}
		m := GP32()
		VMOVMSKPS(a, m)
		SHLL(U8(w.lanes*g), m)
		ORL(m, bits)
	}
	Store(bits, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
