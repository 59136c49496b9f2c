package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/reg"
)

// intervalKernel writes intervals<name>: for every box of six float32
// columns, the float32 bounds bound.Interval gives on one coordinate when
// the box is Regular (bound.Regular: valid, with half extents that sum to
// less than bound.Huge), and NaN for both where it is not, 4 (AVX2) or 8
// (AVX-512) boxes per step. The columns are the coordinate's center c, the
// other center c2, the axis's component along the coordinate and the one
// across it, and the half extents. Each lane follows Regular's and
// Interval's float64 operations one for one and in their order; the
// conversions to float32 round to nearest, as Go's do.
func intervalKernel(w width) {
	TEXT("intervals"+w.name, NOSPLIT, "func(c, c2, along, across, hx, hy, lo, hi []float32)")
	Pragma("noescape")
	g := w.lanes / 2
	Doc(
		fmt.Sprintf("intervals%s sets lo[i] and hi[i] to bound.Interval's bounds of box i", w.name),
		fmt.Sprintf("where it is Regular and to NaN where it is not, %d boxes per step. The", g),
		"caller guarantees that the eight columns have the same length.",
	)
	in := [6]string{"c", "c2", "along", "across", "hx", "hy"}
	columnsKernel(w, in, columnsOut{names: [2]string{"lo", "hi"}, size: 4}, intervalGroup)
}

// intervalGroup emits Regular and Interval for one group of boxes, the
// fields f (c, c2, along, across, hx, hy) widened to float64, and returns
// the float32 bounds to store, in registers half as wide (XMM for AVX2,
// YMM for AVX-512).
func intervalGroup(w width, f [6]VecVirtual) (lo, hi VecVirtual) {
	o := f64Ops{w}
	c, c2, al, ac, h1, h2 := f[0], f[1], f[2], f[3], f[4], f[5]
	ok := o.cmp(ltOQ, o.abs(c), o.c(rInf))
	for _, x := range []VecVirtual{c2, al, ac, h1, h2} {
		ok = o.both(ok, o.cmp(ltOQ, o.abs(x), o.c(rInf)))
	}
	zero := zeroOf(w)
	ok = o.both(ok, o.both(o.cmp(geOQ, h1, zero), o.cmp(geOQ, h2, zero)))
	sum := o.add(h1, h2)
	ok = o.both(ok, o.cmp(ltOQ, sum, o.c(rHuge)))
	l2 := o.add(o.mul(al, al), o.mul(ac, ac))
	ok = o.both(ok, o.cmp(leOQ, o.abs(o.sub(l2, o.c(rOne))), o.c(rTol)))
	e := o.add(o.mul(h1, o.abs(al)), o.mul(h2, o.abs(ac)))
	pad := o.add(o.mul(sum, o.c(rPad)), o.c(rTiny))
	m := o.add(o.mul(o.add(o.add(o.abs(c), e), pad), o.c(rScale)), o.c(rSub))
	lo64 := o.sub(o.sub(o.sub(c, e), pad), m)
	hi64 := o.add(o.add(o.add(c, e), pad), m)
	narrow := func(v VecVirtual) VecVirtual {
		if w.avx512 {
			d := YMM()
			VCVTPD2PS(v, d)
			return d
		}
		d := XMM()
		VCVTPD2PSY(v, d) // the Y form: a YMM source
		return d
	}
	// The NaN for a box that is not Regular goes in while the bounds are
	// float64 lanes: their low halves become the float32 lanes.
	return narrow(sel(w, ok, lo64, o.c(rNaN))), narrow(sel(w, ok, hi64, o.c(rNaN)))
}
