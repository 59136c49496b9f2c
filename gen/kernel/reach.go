package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The float64 constants of the reach and interval kernels, one 64-byte
// row each, eight copies: an AVX2 operand reads the first four, an AVX-512
// one all eight. axisTolerance and padFactor are obb.AxisTolerance and
// bound.PadFactor, written as the same constant expressions so that Go
// rounds them to the same float64s; the kernel tests compare every lane
// with bound.Reach and bound.Interval.
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
	rHuge  // bound.Huge, 2¹²⁶
	rNone  // -1, the reach of a box Reach declines
	rInf   // +Inf, above every finite float64
	rNaN   // a quiet NaN, which VCVTPD2PS turns into float32's 0x7fc00000
	numReachConsts
)

var reachConst Mem

func reachConsts() {
	reachConst = GLOBL("reachconst", RODATA|NOPTR)
	values := [numReachConsts]uint64{
		rAbs: 1<<63 - 1, rPad: math.Float64bits(padFactor), rTiny: math.Float64bits(0x1p-140),
		rScale: math.Float64bits(0x1p-22), rSub: math.Float64bits(0x1p-148), rTwo: math.Float64bits(2),
		rGrow: math.Float64bits(1 + 0x1p-50), rOne: math.Float64bits(1), rTol: math.Float64bits(axisTolerance),
		rLimit: math.Float64bits(0x1p127), rHuge: math.Float64bits(0x1p126), rNone: math.Float64bits(-1), rInf: math.Float64bits(math.Inf(1)),
		rNaN: 0x7ff8000000000000,
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
	in := [6]string{"cx", "cy", "ux", "uy", "hx", "hy"}
	columnsKernel(w, in, columnsOut{names: [2]string{"rx", "ry"}, size: 8}, reachGroup)
}

// reachGroup emits Reach for one group of boxes, the fields f (cx, cy, ux,
// uy, hx, hy) widened to float64, and returns the rx and ry to store.
func reachGroup(w width, f [6]VecVirtual) (rx, ry VecVirtual) {
	o := f64Ops{w}
	cx, cy, ux, uy, h1, h2 := f[0], f[1], f[2], f[3], f[4], f[5]
	zero := zeroOf(w)
	ok := o.both(o.cmp(geOQ, h1, zero), o.cmp(geOQ, h2, zero))
	sum := o.add(h1, h2)
	ok = o.both(ok, o.cmp(ltOQ, sum, o.c(rHuge)))
	ax, ay := o.abs(ux), o.abs(uy)
	l2 := o.add(o.mul(ux, ux), o.mul(uy, uy))
	ok = o.both(ok, o.cmp(leOQ, o.abs(o.sub(l2, o.c(rOne))), o.c(rTol)))
	ex := o.add(o.mul(h1, ax), o.mul(h2, ay))
	ey := o.add(o.mul(h1, ay), o.mul(h2, ax))
	pad := o.add(o.mul(sum, o.c(rPad)), o.c(rTiny))
	ax, ay = o.abs(cx), o.abs(cy)
	mx := o.add(o.mul(o.add(o.add(ax, ex), pad), o.c(rScale)), o.c(rSub))
	my := o.add(o.mul(o.add(o.add(ay, ey), pad), o.c(rScale)), o.c(rSub))
	rx = o.mul(o.add(o.add(ex, o.mul(mx, o.c(rTwo))), pad), o.c(rGrow))
	ry = o.mul(o.add(o.add(ey, o.mul(my, o.c(rTwo))), pad), o.c(rGrow))
	for _, s := range [4]VecVirtual{o.add(ax, rx), o.add(ax, ry), o.add(ay, rx), o.add(ay, ry)} {
		ok = o.both(ok, o.cmp(ltOQ, s, o.c(rLimit)))
	}
	return sel(w, ok, rx, o.c(rNone)), sel(w, ok, ry, o.c(rNone))
}

// The ordered quiet predicates of VCMPPD for Go's >=, <= and <: false
// when either side is NaN.
const geOQ, leOQ, ltOQ = 0x1d, 0x12, 0x11

// f64Ops emits one width's float64 operations for the reach and interval
// kernels. Each takes a register first and a register or a constant
// second, the operand order VEX encodes, and returns a new virtual
// register; VADDPD b, a, d computes d = a + b and VSUBPD b, a, d
// d = a - b. A mask is a YMM register of all-ones and all-zeros lanes
// (AVX2) or a K register (AVX-512).
type f64Ops struct{ w width }

func (o f64Ops) c(k int) Mem { return reachConst.Offset(64 * k) }

func (o f64Ops) add(a, b Op) VecVirtual { d := o.w.vec(); VADDPD(b, a, d); return d }
func (o f64Ops) sub(a, b Op) VecVirtual { d := o.w.vec(); VSUBPD(b, a, d); return d }
func (o f64Ops) mul(a, b Op) VecVirtual { d := o.w.vec(); VMULPD(b, a, d); return d }

func (o f64Ops) abs(a Op) VecVirtual {
	d := o.w.vec()
	o.w.bitwise(VPANDQ, VANDPD, o.c(rAbs), a, d)
	return d
}

// cmp returns a pred b per lane.
func (o f64Ops) cmp(pred uint8, a, b Op) Register {
	var d Register = YMM()
	if o.w.avx512 {
		d = K()
	}
	VCMPPD(U8(pred), b, a, d)
	return d
}

// both returns the lanes set in a and in b.
func (o f64Ops) both(a, b Register) Register {
	if o.w.avx512 {
		d := K()
		KANDW(a, b, d)
		return d
	}
	d := YMM()
	VANDPD(a, b, d)
	return d
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
