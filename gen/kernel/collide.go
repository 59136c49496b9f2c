package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// More VCMPPS predicates, ordered and quiet like cmpLEOQ and cmpGEOQ:
// each is false when either side is NaN, as Go's < and > are.
const (
	cmpLTOQ = 0x11
	cmpGTOQ = 0x1e
)

// The collide kernel's constants, one full 16-lane vector each (the AVX2
// kernel reads the first 8 lanes): blends take their memory operand at
// full width, and AVX2 has no broadcast operand.
var collideConst Mem

const (
	kSign   = iota // 0x80000000: XOR flips the sign, as a product with -1 does
	kAbs           // 0x7fffffff: AND clears the sign, |x|
	kZero          // +0 and integer 0
	kOne           // integer 1
	kTwo           // integer 2
	kThree         // integer 3
	kHalf          // 0.5: (N + hn)/2 and (N + hn)*0.5 round alike
	kTol           // 2⁻¹⁰, Collide's tie tolerance per unit of half extent
	kFace1         // integer 1<<8: the incident face is a v face
	kFace2         // integer 2<<8: the incident face opposes its axis
	kRef1          // integer 1<<16: the reference face is a v face
	kRef2          // integer 2<<16: the reference face opposes its axis
	kOnB           // integer 1<<24: the reference face is the second box's
	kMinus1        // integer -1, the count of a lane left to Go
	numConsts
)

func collideConsts() {
	collideConst = GLOBL("collideconst", RODATA|NOPTR)
	values := [numConsts]uint32{
		kSign: 0x80000000, kAbs: 0x7fffffff, kZero: 0, kOne: 1, kTwo: 2, kThree: 3,
		kHalf: math.Float32bits(0.5), kTol: math.Float32bits(0x1p-10),
		kFace1: 1 << 8, kFace2: 2 << 8, kRef1: 1 << 16, kRef2: 2 << 16, kOnB: 1 << 24,
		kMinus1: 0xffffffff,
	}
	for k, v := range values {
		for l := 0; l < 16; l++ {
			DATA(64*k+4*l, U32(v))
		}
	}
}

// collideFrame allocates what both collide kernels keep on the stack: the
// margin broadcast to a vector and the frame's slots.
func collideFrame(w width) (margin Mem, f *frame) {
	vecBytes := 4 * w.lanes
	margin = AllocLocal(vecBytes)
	m := w.vec()
	VBROADCASTSS(paramAddr("margin"), m)
	VMOVUPS(m, margin)
	f = &frame{o: lanesOps{w}, area: AllocLocal(112 * vecBytes), size: 112}
	return margin, f
}

// collideKernel writes collide<name>, the contact manifolds of pairs of
// boxes given as twelve columns, lanes pairs per step. Every step is the
// step of obb.Box.Collide's documentation with the same operands in the
// same order; Collide's branches become blends, both sides computed.
//
// The pairs whose first reference face finds the incident edge beyond a
// side, for which Collide tries the other box's face, are left to Go: the
// kernel sets their Count to -1 and counts them in its result. Every other
// pair gets the bits Collide gives, NaN included. A product with σ = ±1 or
// a side ±1 is a sign flip here, exact for every value but NaN. NaN never
// meets one that matters: a NaN input, or a NaN in c, s, or a p_k, makes a
// separation NaN and the pair misses; a NaN that side·(h₁·e₁) makes (an
// infinite half extent times 0) makes the corners' N NaN, which drops both
// points, or their T NaN, which fails the clip and leaves the pair to Go.
// So every NaN the kernel writes is the default NaN an invalid operation on
// infinities makes, here as in Go, carried by the same operations.
func collideKernel(w width) {
	name := "collide" + w.name
	TEXT(name, 0, "func(cols []float32, n int, margin float32, out []uint64) int")
	Pragma("noescape")
	Doc(
		fmt.Sprintf("%s writes the manifolds of n pairs, %d per step: column c", name, w.lanes),
		"of the pairs is cols[c*n : (c+1)*n], in the order a.cx, a.cy, a.ux,",
		"a.uy, a.hx, a.hy, b.cx, ..., b.hy, and the manifold of pair k fills",
		"out[6k : 6k+6] as an obb.Manifold's words. It returns how many pairs",
		"it left to Go, whose Count it sets to -1. The caller guarantees",
		"n > 0, len(cols) >= 12n and len(out) >= 6n; the CPU must have BMI2",
		"and POPCNT.",
	)
	o := lanesOps{w}
	vecBytes := 4 * w.lanes
	n := GP64()
	Load(Param("n"), n)
	p0 := Load(Param("cols").Base(), GP64())
	out := Load(Param("out").Base(), GP64())
	marginSlot, f := collideFrame(w)
	tailCols := AllocLocal(12 * vecBytes)

	Comment("Column c is at p[c/3] + (c%3)*stride, stride = 4n bytes.")
	stride := GP64()
	MOVQ(n, stride)
	SHLQ(U8(2), stride)
	p3, p6, p9 := GP64(), GP64(), GP64()
	LEAQ(Mem{Base: p0, Index: stride, Scale: 2}, p3)
	ADDQ(stride, p3)
	LEAQ(Mem{Base: p3, Index: stride, Scale: 2}, p6)
	ADDQ(stride, p6)
	LEAQ(Mem{Base: p6, Index: stride, Scale: 2}, p9)
	ADDQ(stride, p9)
	bases := [4]Register{p0, p3, p6, p9}
	col := func(c int) Mem {
		m := Mem{Base: bases[c/3]}
		if c%3 != 0 {
			m.Index, m.Scale = stride, uint8(c%3)
		}
		return m
	}
	left := GP64()
	XORQ(left, left)

	Label("loop")
	CMPQ(n, U32(w.lanes))
	JB(LabelRef("tail"))
	bits, fields := collideGroup(o, f, col, marginSlot)
	POPCNTL(bits, bits)
	ADDQ(bits.As64(), left)
	storeManifolds(w, fields, out, nil, "")
	for _, p := range bases {
		ADDQ(U32(vecBytes), p)
	}
	ADDQ(U32(48*w.lanes), out)
	SUBQ(U32(w.lanes), n)
	JMP(LabelRef("loop"))

	Label("tail")
	TESTQ(n, n)
	JZ(LabelRef("done"))
	Comment("The last pairs, fewer than a group: masked loads to the stack.")
	f.next = 0
	onStack := func(c int) Mem { return tailCols.Offset(c * vecBytes) }
	copyFirst(w, n, 12, col, onStack)
	bits, fields = collideGroup(o, f, onStack, marginSlot)
	BZHIL(n.As32(), bits, bits)
	POPCNTL(bits, bits)
	ADDQ(bits.As64(), left)
	storeManifolds(w, fields, out, n, "quarter")

	Label("done")
	Store(left, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// collidePairsKernel writes collidePairs<name>, collide<name> on a pair
// list: it copies the first boxes' fields from a's columns and the second
// boxes' from b's into a stack group, one 4-byte load each and one 8-byte
// store for two lanes of a column (stores limit the copy, and joining two
// lanes is faster than a store each: BenchmarkCollide), and runs the same
// group code on it. It copies the next group while it computes this one, so
// that the group's loads find the copies' stores done. That is faster per
// pair than gathering each column with VGATHERDPS, and than copying without
// the overlap, on every list of BenchmarkCollide; copying every pair into
// columns in Go first is slower than either. It takes whole groups only; the
// Go caller lays out the last pairs as columns for collide<name>.
func collidePairsKernel(w width) {
	name := "collidePairs" + w.name
	TEXT(name, 0, "func(acx, acy, aux, auy, ahx, ahy, bcx, bcy, bux, buy, bhx, bhy []float32, ij []int32, margin float32, out []uint64) int")
	Pragma("noescape")
	Doc(
		fmt.Sprintf("%s writes the manifold of box ij[2k] of a and box ij[2k+1]", name),
		"of b into out[6k : 6k+6] as an obb.Manifold's words, like collide"+w.name+",",
		fmt.Sprintf("copying the boxes' fields, %d pairs per step. It returns how many", w.lanes),
		"pairs it left to Go, whose Count it sets to -1. The caller guarantees",
		fmt.Sprintf("len(ij) is a positive multiple of %d, every index is inside its", 2*w.lanes),
		"columns, and len(out) >= 3*len(ij); the CPU must have BMI2 and POPCNT.",
	)
	o := lanesOps{w}
	vecBytes := 4 * w.lanes
	names := [PairColumnsGen]string{"acx", "acy", "aux", "auy", "ahx", "ahy", "bcx", "bcy", "bux", "buy", "bhx", "bhy"}
	ij := Load(Param("ij").Base(), GP64())
	n := Load(Param("ij").Len(), GP64())
	out := Load(Param("out").Base(), GP64())
	marginSlot, f := collideFrame(w)
	left := GP64()
	XORQ(left, left)
	// fill copies the group of pairs at ij+at into the stack group at buf.
	fill := func(buf Register, at int) {
		Comment("Copy the pairs' boxes into a stack group, two lanes of a column per store.")
		bases := make([]GPVirtual, 3)
		for pass := 0; pass < 4; pass++ {
			set := pass / 2
			for c := range bases {
				bases[c] = GP64()
				Load(Param(names[3*pass+c]).Base(), bases[c])
			}
			i1, i2, v1, v2 := GP64(), GP64(), GP64(), GP64()
			for l := 0; l < w.lanes; l += 2 {
				MOVL(Mem{Base: ij, Disp: at + 8*l + 4*set}, i1.As32())
				MOVL(Mem{Base: ij, Disp: at + 8*(l+1) + 4*set}, i2.As32())
				for c, b := range bases {
					MOVL(Mem{Base: b, Index: i1, Scale: 4}, v1.As32())
					MOVL(Mem{Base: b, Index: i2, Scale: 4}, v2.As32())
					SHLQ(U8(32), v2)
					ORQ(v2, v1)
					MOVQ(v1, Mem{Base: buf, Disp: (3*pass+c)*vecBytes + 4*l})
				}
			}
		}
	}
	Comment("Two stack groups: the loop copies the next group of pairs into one")
	Comment("while it computes the manifolds of the group in the other.")
	groups := AllocLocal(2 * PairColumnsGen * vecBytes)
	cur, next := GP64(), GP64()
	LEAQ(groups, cur)
	LEAQ(groups.Offset(PairColumnsGen*vecBytes), next)
	fill(cur, 0)

	Label("pairs")
	CMPQ(n, U32(2*w.lanes))
	JE(LabelRef("last"))
	fill(next, 8*w.lanes)
	Label("last")
	f.next = 0
	bits, fields := collideGroup(o, f, func(c int) Mem { return Mem{Base: cur, Disp: c * vecBytes} }, marginSlot)
	POPCNTL(bits, bits)
	ADDQ(bits.As64(), left)
	storeManifolds(w, fields, out, nil, "")
	XCHGQ(cur, next)
	ADDQ(U32(8*w.lanes), ij)
	ADDQ(U32(48*w.lanes), out)
	SUBQ(U32(2*w.lanes), n)
	JNZ(LabelRef("pairs"))

	Store(left, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// PairColumnsGen is batch.PairColumns: the twelve fields of a pair.
const PairColumnsGen = 12

// manifoldFields is a group's manifolds as twelve vectors, one per 4-byte
// field of an obb.Manifold in memory order: the normal's X and Y, Count's
// low and high halves, and each point's X, Y, Separation and ID.
type manifoldFields [12]Op

// storeManifolds writes the group's manifolds to out: every lane, or, with
// count, the first count lanes. A manifold is three 16-byte quarters, each
// four fields. For quarter j, two rounds of unpacking (doublewords, then
// quadwords) turn its four field vectors into four vectors whose 128-bit
// block b holds lane 4b+r's quarter in vector r, which is stored to its
// manifold straight from the register (VEXTRACTI32X4, VEXTRACTI128).
func storeManifolds(w width, fields manifoldFields, out, count Register, label string) {
	o := lanesOps{w}
	for j := 0; j < 3; j++ {
		f0, f1, f2, f3 := o.reg(fields[4*j]), fields[4*j+1], o.reg(fields[4*j+2]), fields[4*j+3]
		aLo, aHi, bLo, bHi := w.vec(), w.vec(), w.vec(), w.vec()
		VPUNPCKLDQ(f1, f0, aLo) // per block: f0, f1 of lanes 4b, 4b+1
		VPUNPCKHDQ(f1, f0, aHi) // of lanes 4b+2, 4b+3
		VPUNPCKLDQ(f3, f2, bLo)
		VPUNPCKHDQ(f3, f2, bHi)
		var quarter [4]VecVirtual
		for r := range quarter {
			quarter[r] = w.vec()
		}
		VPUNPCKLQDQ(bLo, aLo, quarter[0])
		VPUNPCKHQDQ(bLo, aLo, quarter[1])
		VPUNPCKLQDQ(bHi, aHi, quarter[2])
		VPUNPCKHQDQ(bHi, aHi, quarter[3])
		done := fmt.Sprintf("%s%d", label, j)
		for l := 0; l < w.lanes; l++ {
			if count != nil {
				CMPQ(count, U32(l))
				JE(LabelRef(done))
			}
			b, r := l/4, l%4
			at := Mem{Base: out, Disp: 48*l + 16*j}
			switch {
			case w.avx512:
				VEXTRACTI32X4(U8(b), quarter[r], at)
			case b == 0:
				VMOVDQU(quarter[r].AsX(), at)
			default:
				VEXTRACTI128(U8(b), quarter[r], at)
			}
		}
		if count != nil {
			Label(done)
		}
	}
}

// collideGroup emits the manifolds of one group of pairs, whose columns are
// at col(0..11), and returns a register whose low w.lanes bits mark the
// lanes left to Go, and the manifolds' fields for storeManifolds.
func collideGroup(o lanesOps, f *frame, col func(c int) Mem, margin Mem) (toGo GPVirtual, fields manifoldFields) {
	keep := f.keep
	acx, acy, aux, auy, ahx, ahy := col(0), col(1), col(2), col(3), col(4), col(5)
	bcx, bcy, bux, buy, bhx, bhy := col(6), col(7), col(8), col(9), col(10), col(11)

	Comment("The separating-axis test, as Overlaps computes it.")
	dx := o.sub(bcx, acx)
	dy := o.sub(bcy, acy)
	c := keep(o.add(o.mul(aux, bux), o.mul(auy, buy)))
	s := keep(o.sub(o.mul(aux, buy), o.mul(auy, bux)))
	ac, as := o.abs(c), o.abs(s)
	p1 := keep(o.add(o.mul(dx, aux), o.mul(dy, auy)))
	sep1 := keep(o.sub(o.abs(p1), o.add(ahx, o.add(o.mul(bhx, ac), o.mul(bhy, as)))))
	p2 := keep(o.sub(o.mul(dy, aux), o.mul(dx, auy)))
	sep2 := keep(o.sub(o.abs(p2), o.add(ahy, o.add(o.mul(bhx, as), o.mul(bhy, ac)))))
	p3 := keep(o.add(o.mul(dx, bux), o.mul(dy, buy)))
	sep3 := keep(o.sub(o.abs(p3), o.add(bhx, o.add(o.mul(ahx, ac), o.mul(ahy, as)))))
	p4 := keep(o.sub(o.mul(dy, bux), o.mul(dx, buy)))
	sep4 := keep(o.sub(o.abs(p4), o.add(bhy, o.add(o.mul(ahx, as), o.mul(ahy, ac)))))

	Comment("hit: every sep_k <= margin, which is max(...) <= margin and false on NaN.")
	hit := f.keepMask(o.and(o.and(o.cmp(cmpLEOQ, sep1, margin), o.cmp(cmpLEOQ, sep2, margin)),
		o.and(o.cmp(cmpLEOQ, sep3, margin), o.cmp(cmpLEOQ, sep4, margin))))

	Comment("The reference box: b when sepB > sepA + tol, and its axis.")
	tol := o.mul(o.c(kTol), o.add(o.add(o.add(ahx, ahy), bhx), bhy))
	onBm := o.cmp(cmpGTOQ, o.max(sep3, sep4), o.add(o.max(sep1, sep2), tol))
	onB := f.keepMask(onBm)
	gtA := o.cmp(cmpGTOQ, sep2, sep1)
	gtB := o.cmp(cmpGTOQ, sep4, sep3)
	ax1m := o.either(o.and(onB(), gtB), o.andNot(onB(), gtA))
	ax1 := f.keepMask(ax1m)
	signB := keep(o.only(onB(), o.c(kSign)))
	qj := o.sel(ax1(), o.sel(onB(), p4, p2), o.sel(onB(), p3, p1))
	qo := o.sel(ax1(), o.sel(onB(), p3, p1), o.sel(onB(), p4, p2))
	pj := keep(o.xor(qj, signB))
	po := keep(o.xor(qo, signB))
	ss := keep(o.xor(s, signB))
	rcx := keep(o.sel(onB(), bcx, acx))
	rcy := keep(o.sel(onB(), bcy, acy))
	rux := keep(o.sel(onB(), bux, aux))
	ruy := keep(o.sel(onB(), buy, auy))
	rhx := keep(o.sel(onB(), bhx, ahx))
	rhy := keep(o.sel(onB(), bhy, ahy))
	ihx := keep(o.sel(onB(), ahx, bhx))
	ihy := keep(o.sel(onB(), ahy, bhy))

	Comment("σ = +1 when pj >= 0, else -1; products with it are sign flips.")
	pos := f.keepMask(o.cmp(cmpGEOQ, pj, o.c(kZero)))
	sigma := keep(o.unless(pos(), o.c(kSign)))
	sc := o.xor(c, sigma)   // σc
	sss := o.xor(ss, sigma) // σs
	ax1Sign := o.only(ax1(), o.c(kSign))
	dN := keep(o.xor(pj, sigma))
	dT := keep(o.xor(o.xor(po, sigma), ax1Sign))
	// axis 0: uN, uT, vN, vT = σc, σs, -σs, σc; axis 1: σs, -σc, σc, σs.
	uN := keep(o.sel(ax1(), sss, sc))
	uT := keep(o.sel(ax1(), o.neg(sc), sss))
	vN := keep(o.neg(uT))
	vT := uN
	nx := keep(o.xor(o.sel(ax1(), o.neg(ruy), rux), sigma))
	ny := keep(o.xor(o.sel(ax1(), rux, ruy), sigma))
	hn := keep(o.sel(ax1(), rhy, rhx))
	ht := keep(o.sel(ax1(), rhx, rhy))
	id := o.or(o.only(onB(), o.c(kOnB)), o.only(ax1(), o.c(kRef1)))
	idk := keep(o.or(id, o.unless(pos(), o.c(kRef2))))

	Comment("The incident face: a u face when |uN| >= |vN|, the side opposing n.")
	uface := f.keepMask(o.cmp(cmpGEOQ, o.abs(uN), o.abs(vN)))
	h1 := o.sel(uface(), ihx, ihy)
	e1N := o.sel(uface(), uN, vN)
	e1T := o.sel(uface(), uT, vT)
	h2 := o.sel(uface(), ihy, ihx)
	e2N := o.sel(uface(), vN, uN)
	e2T := o.sel(uface(), vT, uT)
	sideNeg := f.keepMask(o.cmp(cmpGEOQ, e1N, o.c(kZero)))
	sideSign := o.only(sideNeg(), o.c(kSign))
	idk = keep(o.or(idk, o.unless(uface(), o.c(kFace1))))
	idk = keep(o.or(idk, o.only(sideNeg(), o.c(kFace2))))
	bn := o.add(dN, o.xor(o.mul(h1, e1N), sideSign))
	bt := o.add(dT, o.xor(o.mul(h1, e1T), sideSign))
	en := o.mul(h2, e2N)
	et := o.mul(h2, e2T)
	n1 := o.sub(bn, en)
	t1 := o.sub(bt, et)
	n2 := o.add(bn, en)
	t2 := o.add(bt, et)

	Comment("Order the corners by T.")
	swap := f.keepMask(o.cmp(cmpLTOQ, t2, t1))
	n1s := keep(o.sel(swap(), n2, n1))
	t1s := keep(o.sel(swap(), t2, t1))
	n2s := keep(o.sel(swap(), n1, n2))
	t2s := keep(o.sel(swap(), t1, t2))
	f1 := keep(o.only(swap(), o.c(kOne)))
	f2 := keep(o.unless(swap(), o.c(kOne)))
	mht := o.neg(ht)
	ok := f.keepMask(o.and(o.cmp(cmpGEOQ, t2s, mht), o.cmp(cmpLEOQ, t1s, ht)))

	Comment("Clip the first corner to the lower side, then the second to the upper.")
	lo := f.keepMask(o.cmp(cmpLTOQ, t1s, mht))
	lambda := o.div(o.sub(mht, t1s), o.sub(t2s, t1s))
	n1c := keep(o.sel(lo(), o.add(n1s, o.mul(lambda, o.sub(n2s, n1s))), n1s))
	t1c := keep(o.sel(lo(), mht, t1s))
	f1 = keep(o.sel(lo(), o.c(kTwo), f1))
	hi := f.keepMask(o.cmp(cmpGTOQ, t2s, ht))
	lambda = o.div(o.sub(ht, t1c), o.sub(t2s, t1c))
	n2c := keep(o.sel(hi(), o.add(n1c, o.mul(lambda, o.sub(n2s, n1c))), n2s))
	t2c := keep(o.sel(hi(), ht, t2s))
	f2 = keep(o.sel(hi(), o.c(kThree), f2))

	Comment("The points: separation, and the place halfway between the surfaces.")
	good := f.keepMask(o.and(hit(), ok()))
	point := func(nq, tq, fq Op) (px, py, sep, pid Op, keepq func() mask) {
		sepv := o.sub(nq, hn)
		keepq = f.keepMask(o.and(o.cmp(cmpLEOQ, sepv, margin), good()))
		sep = keep(sepv)
		mid := o.mul(o.add(nq, hn), o.c(kHalf))
		px = keep(o.add(rcx, o.add(o.mul(nx, mid), o.mul(o.neg(ny), tq))))
		py = keep(o.add(rcy, o.add(o.mul(ny, mid), o.mul(nx, tq))))
		pid = keep(o.or(idk, fq))
		return
	}
	q1x, q1y, q1s, q1id, keep1 := point(n1c, t1c, f1)
	q2x, q2y, q2s, q2id, keep2 := point(n2c, t2c, f2)

	Comment("Compact: the first kept point in slot 0, the second in slot 1.")
	both := f.keepMask(o.and(keep1(), keep2()))
	slot0 := func(a, b Op) Op { return keep(o.sel(keep1(), a, o.only(keep2(), b))) }
	slot1 := func(b Op) Op { return keep(o.only(both(), b)) }
	s0x, s0y, s0s, s0id := slot0(q1x, q2x), slot0(q1y, q2y), slot0(q1s, q2s), slot0(q1id, q2id)
	s1x, s1y, s1s, s1id := slot1(q2x), slot1(q2y), slot1(q2s), slot1(q2id)
	count := keep(o.iadd(o.only(keep1(), o.c(kOne)), o.only(keep2(), o.c(kOne))))
	nox := keep(o.only(good(), o.xor(nx, signB)))
	noy := keep(o.only(good(), o.xor(ny, signB)))

	Comment("Left to Go: the pairs whose first clip failed.")
	toGoKept := f.keepMask(o.andNot(ok(), hit()))
	count = keep(o.sel(toGoKept(), o.c(kMinus1), count))
	countHi := o.w.vec()
	VPSRAD(U8(31), o.reg(count), countHi)
	fields = manifoldFields{nox, noy, count, f.keep(countHi), s0x, s0y, s0s, s0id, s1x, s1y, s1s, s1id}
	return o.bits(toGoKept()), fields
}
