package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The float64 constants of the reach kernels, one 64-byte row each, eight
// copies: an AVX2 operand reads the first four, an AVX-512 one all eight.
// axisTolerance and padFactor are obb.AxisTolerance and bound.PadFactor,
// written as the same constant expressions so that Go rounds them to the
// same float64s; the kernel tests compare every lane with bound.Reach.
const (
	axisTolerance = 1e-5
	padFactor     = 4 * (0x1p-20 + axisTolerance)
)

const (
	rAbs = iota
	rPad
	rTiny // 2⁻¹⁴⁰, added to the padding
	rScale
	rSub  // 2⁻¹⁴⁸, added to the margin
	rTwo  // 2
	rGrow // 1 + 2⁻⁵⁰
	rOne
	rTol
	rLimit // 2¹²⁷
	rNone  // -1, the reach of a box Reach declines
	numReachConsts
)

var reachConst Mem

func reachConsts() {
	reachConst = GLOBL("reachconst", RODATA|NOPTR)
	values := [numReachConsts]uint64{
		rAbs: 1<<63 - 1, rPad: math.Float64bits(padFactor), rTiny: math.Float64bits(0x1p-140),
		rScale: math.Float64bits(0x1p-22), rSub: math.Float64bits(0x1p-148), rTwo: math.Float64bits(2),
		rGrow: math.Float64bits(1 + 0x1p-50), rOne: math.Float64bits(1), rTol: math.Float64bits(axisTolerance),
		rLimit: math.Float64bits(0x1p127), rNone: math.Float64bits(-1),
	}
	for k, v := range values {
		for l := 0; l < 8; l++ {
			DATA(64*k+8*l, U64(v))
		}
	}
}

// reachKernel writes reaches<name>: bound.Reach of every box of six
// float32 columns, into two float64 columns, 4 (AVX2) or 8 (AVX-512) boxes
// per step. Each lane follows Reach's operations one for one and in the
// same order (the float32 fields widened exactly, VMULPD, VADDPD and
// VSUBPD, |x| as an AND), so each sum rounds as Go's does. Reach's last
// test, max(|cx|, |cy|) + max(rx, ry) < 2¹²⁷, is four tests here, one for
// each sum of a center coordinate and a reach: rounding to nearest is
// monotonic, so the sum of the two maxima rounds to the largest of the
// four rounded sums, and all four are below the limit exactly when it is;
// a NaN in any of them fails both forms, as Go's max returns NaN. Each
// comparison is an ordered quiet predicate, false on NaN like Go's.
func reachKernel(w width) {
	TEXT("reaches"+w.name, NOSPLIT, "func(cx, cy, ux, uy, hx, hy []float32, rx, ry []float64)")
	Pragma("noescape")
	g := w.lanes / 2 // float64 lanes
	Doc(
		fmt.Sprintf("reaches%s sets rx[i] and ry[i] to bound.Reach's rx and ry for box i, or", w.name),
		fmt.Sprintf("both to -1 where Reach returns false, %d boxes per step. The caller", g),
		"guarantees that the eight columns have the same length.",
	)
	names := [6]string{"cx", "cy", "ux", "uy", "hx", "hy"}
	var cols [6]Register
	for c, name := range names {
		cols[c] = Load(Param(name).Base(), GP64())
	}
	outX := Load(Param("rx").Base(), GP64())
	outY := Load(Param("ry").Base(), GP64())
	n := GP64()
	Load(Param("cx").Len(), n)
	i := GP64()
	XORQ(i, i)

	in := func(c int) Mem { return Mem{Base: cols[c], Index: i, Scale: 4} }
	out := func(base Register) Mem { return Mem{Base: base, Index: i, Scale: 8} }

	Comment(fmt.Sprintf("Whole groups of %d boxes.", g))
	Label("group")
	CMPQ(n, U32(g))
	JB(LabelRef("tail"))
	var f [6]VecVirtual
	for c := range f {
		f[c] = w.vec()
		VCVTPS2PD(in(c), f[c])
	}
	x, y := reachGroup(w, f)
	VMOVUPD(x, out(outX))
	VMOVUPD(y, out(outY))
	ADDQ(U32(g), i)
	SUBQ(U32(g), n)
	JMP(LabelRef("group"))

	Label("tail")
	Comment(
		fmt.Sprintf("Fewer than %d boxes left: load them and store their reaches with", g),
		"masked moves, which never touch memory of a disabled lane.",
	)
	TESTQ(n, n)
	JZ(LabelRef("done"))
	if w.avx512 {
		k, ones := K(), GP64()
		MOVQ(I32(-1), ones)
		BZHIQ(n, ones, ones)
		KMOVW(ones.As32(), k)
		for c := range f {
			wide := ZMM()
			VMOVUPS_Z(in(c), k, wide)
			f[c] = w.vec()
			VCVTPS2PD(wide.AsY(), f[c])
		}
		x, y := reachGroup(w, f)
		VMOVUPD(x, k, out(outX))
		VMOVUPD(y, k, out(outY))
	} else {
		lanes, count := XMM(), XMM()
		VMOVD(n.As32(), count)
		VPBROADCASTD(count, count)
		VPCMPGTD(laneIndex, count, lanes) // lane l: n > l
		for c := range f {
			narrow := XMM()
			VMASKMOVPS(in(c), lanes, narrow)
			f[c] = w.vec()
			VCVTPS2PD(narrow, f[c])
		}
		x, y := reachGroup(w, f)
		wide := YMM()
		VPMOVSXDQ(lanes, wide)
		VMASKMOVPD(x, wide, out(outX))
		VMASKMOVPD(y, wide, out(outY))
	}
	Label("done")
	VZEROUPPER()
	RET()
}

// reachGroup emits Reach for one group of boxes, the fields f (cx, cy, ux,
// uy, hx, hy) widened to float64, and returns the rx and ry to store.
func reachGroup(w width, f [6]VecVirtual) (rx, ry VecVirtual) {
	c := func(k int) Mem { return reachConst.Offset(64 * k) }
	// Each operation takes a register first and a register or a constant
	// second, the operand order VEX encodes.
	op := func(emit func(a, b, d Op), a, b Op) VecVirtual {
		d := w.vec()
		emit(b, a, d)
		return d
	}
	// VADDPD b, a, d computes d = a + b, VSUBPD b, a, d d = a - b.
	add := func(a, b Op) VecVirtual { return op(func(x, y, d Op) { VADDPD(x, y, d) }, a, b) }
	sub := func(a, b Op) VecVirtual { return op(func(x, y, d Op) { VSUBPD(x, y, d) }, a, b) }
	mul := func(a, b Op) VecVirtual { return op(func(x, y, d Op) { VMULPD(x, y, d) }, a, b) }
	abs := func(a Op) VecVirtual {
		d := w.vec()
		w.bitwise(VPANDQ, VANDPD, c(rAbs), a, d)
		return d
	}
	cmp := func(pred uint8, a, b Op) Register {
		var d Register = YMM()
		if w.avx512 {
			d = K()
		}
		VCMPPD(U8(pred), b, a, d)
		return d
	}
	both := func(a, b Register) Register {
		var d Register
		if w.avx512 {
			d = K()
			KANDW(a, b, d)
		} else {
			d = YMM()
			VANDPD(a, b, d)
		}
		return d
	}
	const ge, le, lt = 0x1d, 0x12, 0x11 // GE_OQ, LE_OQ, LT_OQ

	cx, cy, ux, uy, h1, h2 := f[0], f[1], f[2], f[3], f[4], f[5]
	zero := zeroOf(w)
	ok := both(cmp(ge, h1, zero), cmp(ge, h2, zero))
	ax, ay := abs(ux), abs(uy)
	l2 := add(mul(ux, ux), mul(uy, uy))
	ok = both(ok, cmp(le, abs(sub(l2, c(rOne))), c(rTol)))
	ex := add(mul(h1, ax), mul(h2, ay))
	ey := add(mul(h1, ay), mul(h2, ax))
	pad := add(mul(add(h1, h2), c(rPad)), c(rTiny))
	ax, ay = abs(cx), abs(cy)
	mx := add(mul(add(add(ax, ex), pad), c(rScale)), c(rSub))
	my := add(mul(add(add(ay, ey), pad), c(rScale)), c(rSub))
	rx = mul(add(add(ex, mul(mx, c(rTwo))), pad), c(rGrow))
	ry = mul(add(add(ey, mul(my, c(rTwo))), pad), c(rGrow))
	for _, s := range [4]VecVirtual{add(ax, rx), add(ax, ry), add(ay, rx), add(ay, ry)} {
		ok = both(ok, cmp(lt, s, c(rLimit)))
	}
	return sel(w, ok, rx, c(rNone)), sel(w, ok, ry, c(rNone))
}

// zeroOf returns a zeroed register of w's width.
func zeroOf(w width) VecVirtual {
	z := w.vec()
	w.bitwise(VPXORQ, VXORPD, z, z, z)
	return z
}

// sel returns v where ok is set and the constant none elsewhere.
func sel(w width, ok Register, v VecVirtual, none Mem) VecVirtual {
	d := w.vec()
	if w.avx512 {
		VMOVUPD(none, d)
		VMOVUPD(v, ok, d)
	} else {
		r := w.vec()
		VMOVUPD(none, r)
		VBLENDVPD(ok, v, r, d)
	}
	return d
}
