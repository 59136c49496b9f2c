package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// cmpLEOQ is the VCMPPS predicate "less than or equal, ordered, quiet": the
// comparison Go's p <= r makes (false when either side is NaN, no exception
// on quiet NaN).
const cmpLEOQ = 0x12

// earlyExit makes each group skip the other box's two axes when a's two axes
// already separate every lane: faster on the placement map, where most
// boxes are far from the query, and no slower on the dense scene
// (BenchmarkOverlaps and BenchmarkOverlapsDense).
const earlyExit = true

// width describes one instruction set the kernel is generated for.
type width struct {
	name   string // suffix of the Go function: overlapsAVX2, overlapsAVX512
	lanes  int    // float32 lanes per vector register
	avx512 bool   // results in mask registers, masked loads with K registers
}

func (w width) vec() VecVirtual {
	if w.avx512 {
		return ZMM()
	}
	return YMM()
}

// bitwise emits a bitwise operation on float bit patterns with operands
// ops: the float form (VANDPS, VORPS, VXORPS) needs AVX512DQ on ZMM, so
// the AVX-512 kernels use AVX512F's integer form (VPANDD, VPORD, VPXORD).
func (w width) bitwise(integer, float func(...Op), ops ...Op) {
	if w.avx512 {
		integer(ops...)
	} else {
		float(ops...)
	}
}

// and emits dst = a & b on float bit patterns.
func (w width) and(a, b Op, dst VecVirtual) { w.bitwise(VPANDD, VANDPS, a, b, dst) }

// absMask is the float32 sign-clearing mask 0x7fffffff; laneIndex is the
// int32 lane numbers 0..7, against which the AVX2 tails compare the number
// of boxes left to enable their lanes.
var absMask, laneIndex Mem

// query holds the query box's fields broadcast to every lane.
type query struct{ cx, cy, ux, uy, hx, hy VecVirtual }

// addBits shifts a group's bits (count of them) into the word acc above the
// shift bits already there. When that fills the word it stores it at out,
// advances out and starts an empty word; otherwise it jumps to notFull.
func addBits(bits, acc, shift, out Register, count int, notFull string) {
	SHLXQ(shift, bits, bits)
	ORQ(bits, acc)
	ADDQ(U32(count), shift)
	CMPQ(shift, U32(64))
	JNE(LabelRef(notFull))
	MOVQ(acc, Mem{Base: out})
	ADDQ(U32(8), out)
	XORQ(acc, acc)
	XORQ(shift, shift)
}

// copyFirst copies the first count boxes (fewer than a group) of columns
// 0..ncols-1 at col to the stack group at onStack, with zeros in the other
// lanes. The
// masked loads never touch memory of a disabled lane, so a group that would
// cross the columns' end reads only inside them. The AVX2 lane mask comes
// from comparing count with the lane numbers, which needs no general
// register: the run kernel has none to spare there.
func copyFirst(w width, count GPVirtual, ncols int, col, onStack func(c int) Mem) {
	tmp := w.vec()
	if w.avx512 {
		k := K()
		ones := GP64()
		MOVQ(I32(-1), ones)
		BZHIQ(count, ones, ones)
		KMOVW(ones.As32(), k)
		for c := 0; c < ncols; c++ {
			VMOVUPS_Z(col(c), k, tmp)
			VMOVUPS(tmp, onStack(c))
		}
		return
	}
	lanes, broadcast := YMM(), YMM()
	VMOVD(count.As32(), broadcast.AsX())
	VPBROADCASTD(broadcast.AsX(), broadcast)
	VPCMPGTD(laneIndex, broadcast, lanes) // lane l: count > l
	for c := 0; c < ncols; c++ {
		VMASKMOVPS(col(c), lanes, tmp)
		VMOVUPS(tmp, onStack(c))
	}
}

// storeLastWord ends a kernel: it stores the bitset's last, partial word
// (shift bits of acc) at out, if there is one, and returns.
func storeLastWord(acc, shift, out Register) {
	Comment("Store the last, partial word, if any.")
	TESTQ(shift, shift)
	JZ(LabelRef("done"))
	MOVQ(acc, Mem{Base: out})
	Label("done")
	VZEROUPPER()
	RET()
}

// paramAddr returns the stack address of a scalar argument.
func paramAddr(name string) Mem {
	b, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// group emits the overlap test of the query against one group of boxes
// whose columns are col(0..5), in memory or in registers, and returns a
// general register whose low w.lanes bits are the lanes' answers. Every
// step is one step of the formula in package obb, in its order.
//
// With qreach, the query's reach broadcast, the group first tests
// |b.cy - a.cy| <= b.reach + a.reach with b.reach at col(6), and its lanes'
// answers are that AND the overlap test; when no lane passes it, the group
// skips the overlap test (see runKernel).
func group(w width, q query, abs VecVirtual, col func(c int) Op, label string, qreach *VecVirtual) Register {
	cxm, cym, uxm, uym, hxm, hym := col(0), col(1), col(2), col(3), col(4), col(5)
	vec := w.vec
	// VSUBPS b, a, d: d = a - b. VMULPS and VADDPS commute exactly, so the
	// memory operand may stand on either side.
	// sub emits b - a for b a column, in memory (loaded first: VSUBPS takes
	// its memory operand as the subtrahend) or in a register.
	sub := func(b Op, a VecVirtual) VecVirtual {
		d := vec()
		if IsRegister(b) {
			VSUBPS(a, b, d)
			return d
		}
		VMOVUPS(b, d)
		VSUBPS(a, d, d)
		return d
	}
	Comment("dy = b.cy - a.cy")
	dy := sub(cym, q.cy)

	result := GP64()
	var kacc Register
	var yacc VecVirtual
	// cmp folds p <= r into the running AND of the lanes' answers.
	cmp := func(p, r VecVirtual, first bool) {
		if w.avx512 {
			if first {
				kacc = K()
				VCMPPS(U8(cmpLEOQ), r, p, kacc)
			} else {
				VCMPPS(U8(cmpLEOQ), r, p, kacc, kacc)
			}
			return
		}
		c := vec()
		VCMPPS(U8(cmpLEOQ), r, p, c)
		if first {
			yacc = c
		} else {
			VANDPS(c, yacc, yacc)
		}
	}

	skip := "skip" + label
	join := "join" + label
	// skipIfNone jumps to skip when no lane's answer is true so far.
	skipIfNone := func() {
		if w.avx512 {
			KORTESTW(kacc, kacc)
		} else {
			VTESTPS(yacc, yacc)
		}
		JZ(LabelRef(skip))
	}
	if qreach != nil {
		Comment("Prune: |dy| <= b.reach + a.reach, or the whole group's answer is 0.")
		d, r := vec(), vec()
		w.and(abs, dy, d)
		VMOVUPS(col(6), r)
		VADDPS(*qreach, r, r)
		cmp(d, r, true)
		skipIfNone()
	}

	Comment("dx = b.cx - a.cx")
	dx := sub(cxm, q.cx)

	Comment("ac = |a.ux*b.ux + a.uy*b.uy|, as = |a.ux*b.uy - a.uy*b.ux|")
	ac, as, t1, t2 := vec(), vec(), vec(), vec()
	VMULPS(uxm, q.ux, t1)
	VMULPS(uym, q.uy, t2)
	VADDPS(t2, t1, ac)
	w.and(abs, ac, ac)
	VMULPS(uym, q.ux, t1)
	VMULPS(uxm, q.uy, t2)
	VSUBPS(t2, t1, as)
	w.and(abs, as, as)

	// axis returns the comparison p <= r for one axis, with
	// p = |x1*y1 ± x2*y2| and r = h + (g1*c1 + g2*c2).
	type operand = Op
	proj := func(x1, y1, x2, y2 operand, minus bool) VecVirtual {
		p, t := vec(), vec()
		VMULPS(y1, x1, p)
		VMULPS(y2, x2, t)
		if minus {
			VSUBPS(t, p, p)
		} else {
			VADDPS(t, p, p)
		}
		w.and(abs, p, p)
		return p
	}
	radius := func(h, g1, c1, g2, c2 operand) VecVirtual {
		r, t := vec(), vec()
		VMULPS(g1, c1, r)
		VMULPS(g2, c2, t)
		VADDPS(t, r, r)
		VADDPS(h, r, r)
		return r
	}

	Comment("axis 1, a's x edge: |dx*a.ux + dy*a.uy| <= a.hx + (b.hx*ac + b.hy*as)")
	cmp(proj(dx, q.ux, dy, q.uy, false), radius(q.hx, hxm, ac, hym, as), qreach == nil)
	Comment("axis 2, a's y edge: |dy*a.ux - dx*a.uy| <= a.hy + (b.hx*as + b.hy*ac)")
	cmp(proj(dy, q.ux, dx, q.uy, true), radius(q.hy, hxm, as, hym, ac), false)

	if earlyExit {
		Comment("Every lane separated already: the answer is 0 for the whole group.")
		skipIfNone()
	}

	// b's axes: the column is the memory operand, the products commute.
	Comment("axis 3, b's x edge: |dx*b.ux + dy*b.uy| <= b.hx + (a.hx*ac + a.hy*as)")
	cmp(proj(dx, uxm, dy, uym, false), radius(hxm, q.hx, ac, q.hy, as), false)
	Comment("axis 4, b's y edge: |dy*b.ux - dx*b.uy| <= b.hy + (a.hx*as + a.hy*ac)")
	cmp(proj(dy, uxm, dx, uym, true), radius(hym, q.hx, as, q.hy, ac), false)

	if w.avx512 {
		KMOVW(kacc, result.As32())
	} else {
		VMOVMSKPS(yacc, result.As32())
	}
	if earlyExit || qreach != nil {
		JMP(LabelRef(join))
		Label(skip)
		XORL(result.As32(), result.As32())
		Label(join)
	}
	return result
}

// inMemory returns at as the column operands group takes.
func inMemory(at func(c int) Mem) func(c int) Op {
	return func(c int) Op { return at(c) }
}
