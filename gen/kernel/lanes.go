package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The vector operations the collide kernels are written in, for either
// width, and the stack slots that hold the values that live long.

// lanesOps emits one width's vector operations on values that are either
// registers or memory (a stack slot, a column, a constant): each method
// loads a memory first operand into a register and returns a new virtual
// register, so that avo's allocator sees short lives.
type lanesOps struct{ w width }

func (o lanesOps) reg(a Op) VecVirtual {
	if v, ok := a.(VecVirtual); ok {
		return v
	}
	v := o.w.vec()
	VMOVUPS(a, v)
	return v
}

func (o lanesOps) c(k int) Mem { return collideConst.Offset(64 * k) }

// The arithmetic, each one IEEE operation rounded to float32. VSUBPS b, a,
// d computes d = a - b; VMULPS and VADDPS commute exactly.
func (o lanesOps) add(a, b Op) VecVirtual { d := o.w.vec(); VADDPS(b, o.reg(a), d); return d }
func (o lanesOps) sub(a, b Op) VecVirtual { d := o.w.vec(); VSUBPS(b, o.reg(a), d); return d }
func (o lanesOps) mul(a, b Op) VecVirtual { d := o.w.vec(); VMULPS(b, o.reg(a), d); return d }
func (o lanesOps) div(a, b Op) VecVirtual { d := o.w.vec(); VDIVPS(b, o.reg(a), d); return d }

// max is VMAXPS, which returns b when either side is NaN: Collide's max
// differs only there, and the kernel uses max only where no side is NaN.
func (o lanesOps) max(a, b Op) VecVirtual { d := o.w.vec(); VMAXPS(b, o.reg(a), d); return d }

// Bitwise operations, in the form width.bitwise picks.
func (o lanesOps) xor(a, b Op) VecVirtual {
	d := o.w.vec()
	o.w.bitwise(VPXORD, VXORPS, b, o.reg(a), d)
	return d
}

func (o lanesOps) or(a, b Op) VecVirtual {
	d := o.w.vec()
	o.w.bitwise(VPORD, VORPS, b, o.reg(a), d)
	return d
}

func (o lanesOps) abs(a Op) VecVirtual {
	d := o.w.vec()
	o.w.and(o.c(kAbs), o.reg(a), d)
	return d
}

// neg is Go's unary minus: a sign flip, exact for every value.
func (o lanesOps) neg(a Op) VecVirtual { return o.xor(a, o.c(kSign)) }

// iadd adds int32 lanes.
func (o lanesOps) iadd(a, b Op) VecVirtual { d := o.w.vec(); VPADDD(b, o.reg(a), d); return d }

// A mask is one bit per lane: an all-ones or all-zeros lane of a YMM
// register (AVX2) or a bit of a K register (AVX-512).
type mask struct{ r Register }

// cmp returns a pred b per lane.
func (o lanesOps) cmp(pred uint8, a, b Op) mask {
	return o.maskOp(func(d Op) { VCMPPS(U8(pred), b, o.reg(a), d) })
}

// maskOp returns the mask that emit writes: into a mask register for
// AVX-512, a vector register for AVX2.
func (o lanesOps) maskOp(emit func(d Op)) mask {
	var d Register
	if o.w.avx512 {
		d = K()
	} else {
		d = YMM()
	}
	emit(d)
	return mask{d}
}

func (o lanesOps) and(a, b mask) mask {
	if o.w.avx512 {
		return o.maskOp(func(d Op) { KANDW(a.r, b.r, d) })
	}
	return o.maskOp(func(d Op) { VANDPS(a.r, b.r, d) })
}

// andNot returns b and not a.
func (o lanesOps) andNot(a, b mask) mask {
	if o.w.avx512 {
		return o.maskOp(func(d Op) { KANDNW(b.r, a.r, d) })
	}
	return o.maskOp(func(d Op) { VANDNPS(b.r, a.r, d) })
}

// either returns a or b.
func (o lanesOps) either(a, b mask) mask {
	if o.w.avx512 {
		return o.maskOp(func(d Op) { KORW(a.r, b.r, d) })
	}
	return o.maskOp(func(d Op) { VORPS(a.r, b.r, d) })
}

// sel returns, per lane, ifTrue where m is set and ifFalse elsewhere. The
// AVX-512 form is a copy and a merge-masked move rather than VBLENDMPS,
// which avo takes to read its destination, keeping every blend's register
// live from the function's start.
func (o lanesOps) sel(m mask, ifTrue, ifFalse Op) VecVirtual {
	d := o.w.vec()
	if o.w.avx512 {
		VMOVUPS(ifFalse, d)
		VMOVUPS(ifTrue, m.r, d)
	} else {
		VBLENDVPS(m.r, ifTrue, o.reg(ifFalse), d)
	}
	return d
}

// only returns v where m is set and 0 elsewhere.
func (o lanesOps) only(m mask, v Op) VecVirtual {
	d := o.w.vec()
	if o.w.avx512 {
		VMOVUPS_Z(v, m.r, d)
	} else {
		VANDPS(v, m.r, d)
	}
	return d
}

// unless returns v where m is clear and 0 elsewhere.
func (o lanesOps) unless(m mask, v Op) VecVirtual {
	d := o.w.vec()
	if o.w.avx512 {
		k := K()
		KNOTW(m.r, k)
		VMOVUPS_Z(v, k, d)
	} else {
		VANDNPS(v, m.r, d) // VANDNPS b, a, d computes ~a & b
	}
	return d
}

// bits returns the mask as an integer, lane l in bit l.
func (o lanesOps) bits(m mask) GPVirtual {
	r := GP32()
	if o.w.avx512 {
		KMOVW(m.r, r)
	} else {
		VMOVMSKPS(m.r, r)
	}
	return r
}

// frame hands out stack slots of one vector, for values that live across
// many steps: the AVX2 kernel has sixteen vector registers and the
// manifold needs more values than that at once (collideGroup keeps the
// values of one step in registers and those used steps later in slots).
// The AVX-512 kernel keeps its values in its thirty-two registers and its
// masks in its seven mask registers, which measured faster than keeping
// the masks in slots (BenchmarkCollide).
type frame struct {
	o    lanesOps
	area Mem
	next int
	size int
}

func (f *frame) slot() Mem {
	if f.next == f.size {
		panic("collide kernel: out of stack slots")
	}
	m := f.area.Offset(f.next * 4 * f.o.w.lanes)
	f.next++
	return m
}

// keep returns v as an operand that stays valid: a stack slot for AVX2,
// the register itself for AVX-512.
func (f *frame) keep(v VecVirtual) Op {
	if f.o.w.avx512 {
		return v
	}
	m := f.slot()
	VMOVUPS(v, m)
	return m
}

// keepMask returns the function that gives the mask back: from the
// register it is in (AVX-512), or from a slot it is stored in (AVX2).
func (f *frame) keepMask(m mask) func() mask {
	if f.o.w.avx512 {
		return func() mask { return m }
	}
	slot := f.slot()
	VMOVUPS(m.r, slot)
	return func() mask { d := YMM(); VMOVUPS(slot, d); return mask{d} }
}
