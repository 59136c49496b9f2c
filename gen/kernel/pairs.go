package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// pairKernel writes pairsAVX2, the narrow phase over a candidate pair list:
// for 8 pairs at a time it gathers the first boxes' fields from a's columns
// and the second boxes' from b's with VGATHERDPS, then runs the same group
// test as the one-against-many kernel, with the first boxes as 8 different
// query boxes. Only AVX2 is generated; the avx512 implementation uses it
// too.
//
// The pairs arrive interleaved, i0 j0 i1 j1 ..., as package pairs stores
// them. The Go caller hands over whole groups of 8 pairs only and checks
// every index first, so each gather reads inside its column.
//
// With keys set it writes pairKeysAVX2 instead, which reads the pairs as
// package world keeps them, one uint64 key a pair whose halves are the
// boxes' indices shifted left by 8 (a handle's low byte is its
// generation), and the boxes from one array of 32-byte records, each box's
// six fields in one (batch.Record): the same shuffle splits 8 keys into
// their high and low halves, a shift right by 8 gives the indices and one
// left by 3 the records' offsets in floats. A box's six gathered fields
// then come from one cache line, where six columns put them in six. This
// kernel checks its records' indices itself (checkRecords); the Go caller
// checks only the keys past its last whole group.
func pairKernel(keys bool) {
	w := width{name: "AVX2", lanes: 8}
	list, step := "ij", 16 // the list's elements per group of 8 pairs
	if keys {
		TEXT("pairKeysAVX2", NOSPLIT, "func(recs []float32, keys []uint64, out []uint64) bool")
		Pragma("noescape")
		Doc(
			"pairKeysAVX2 sets bit k%64 of out[k/64] when the box of record",
			"keys[k]>>40 overlaps that of record uint32(keys[k])>>8, records of 8",
			"floats in recs, 8 pairs per step, and returns true; when a record is",
			"outside recs it returns false and has written nothing. The caller",
			"guarantees len(keys) is a positive multiple of 8 and len(out) >=",
			"(len(keys)+63)/64; the CPU must have BMI2.",
		)
		list, step = "keys", 8
	} else {
		TEXT("pairsAVX2", NOSPLIT, "func(acx, acy, aux, auy, ahx, ahy, bcx, bcy, bux, buy, bhx, bhy []float32, ij []int32, out []uint64)")
		Pragma("noescape")
		Doc(
			"pairsAVX2 sets bit k%64 of out[k/64] when box ij[2k] of a overlaps box",
			"ij[2k+1] of b, 8 pairs per step. The caller guarantees len(ij) is a",
			"positive multiple of 16, every index is inside its columns, and",
			"len(out) >= (len(ij)/2+63)/64; the CPU must have BMI2.",
		)
	}

	ij := Load(Param(list).Base(), GP64())
	n := Load(Param(list).Len(), GP64())
	out := Load(Param("out").Base(), GP64())
	base := GP64()
	abs := w.vec()
	VBROADCASTSS(absMask, abs)
	stack := AllocLocal(6 * 4 * w.lanes)
	onStack := func(c int) Mem { return stack.Offset(c * 4 * w.lanes) }

	acc, shift := GP64(), GP64()
	XORQ(acc, acc)
	XORQ(shift, shift)

	if keys {
		checkRecords(ij, n)
		Load(Param("recs").Base(), base)
	}

	Label("pairs")
	lo, hi, ia, jb := YMM(), YMM(), YMM(), YMM()
	VMOVDQU(Mem{Base: ij}, lo)
	VMOVDQU(Mem{Base: ij, Disp: 32}, hi)
	if keys {
		Comment("Split 8 keys into their high (first) and low (second) halves.")
		VSHUFPS(U8(0xdd), hi, lo, ia) // per 128-bit lane: the high halves of lo's two keys, then hi's
		VSHUFPS(U8(0x88), hi, lo, jb)
	} else {
		Comment("Split 8 interleaved pairs into the first and second indices.")
		VSHUFPS(U8(0x88), hi, lo, ia) // per 128-bit lane: i of lo's two pairs, then hi's
		VSHUFPS(U8(0xdd), hi, lo, jb)
	}
	VPERMPD(U8(0xd8), ia, ia) // 64-bit chunks 0 2 1 3: back into pair order
	VPERMPD(U8(0xd8), jb, jb)
	if keys {
		Comment("Drop the handles' generations, then to the records' offsets in floats.")
		VPSRLD(U8(8), ia, ia)
		VPSRLD(U8(8), jb, jb)
		VPSLLD(U8(3), ia, ia)
		VPSLLD(U8(3), jb, jb)
	}

	// gather loads field c (0 to 5: cx, cy, ux, uy, hx, hy) of the 8 boxes
	// at idx: from column c of set (a or b), or from field c of the
	// records. A gather clears its mask, so each one sets it to all ones
	// again; one mask register serves all twelve (a fresh virtual register
	// each time left the allocator reaching for Y16 and up, which VEX
	// instructions cannot encode).
	mask := YMM()
	gather := func(set string, c int, idx, dst VecVirtual) {
		at := Mem{Base: base, Disp: 4 * c, Index: idx, Scale: 4}
		if !keys {
			Load(Param(set+[6]string{"cx", "cy", "ux", "uy", "hx", "hy"}[c]).Base(), base)
			at.Disp = 0
		}
		VPCMPEQD(mask, mask, mask)
		VGATHERDPS(mask, at, dst)
	}
	Comment("Second boxes to a stack group, read by the group test like columns.")
	t := YMM()
	for c := range 6 {
		gather("b", c, jb, t)
		VMOVUPS(t, onStack(c))
	}
	Comment("First boxes: eight query boxes, one per lane.")
	var q query
	for c, reg := range []*VecVirtual{&q.cx, &q.cy, &q.ux, &q.uy, &q.hx, &q.hy} {
		*reg = YMM()
		gather("a", c, ia, *reg)
	}
	bits := group(w, q, abs, inMemory(onStack), "pairs", nil)
	ADDQ(U32(64), ij)
	SUBQ(U32(step), n)
	addBits(bits, acc, shift, out, 8, "next")
	Label("next")
	TESTQ(n, n)
	JNZ(LabelRef("pairs"))
	storeLastWord(acc, shift, out)
}

// checkRecords emits pairKeysAVX2's check of every record its n keys at
// keys name, before it reads a record or writes a word: the largest half
// of all keys (VPMAXUD, 8 halves an instruction), shifted to an index,
// against the count of records. It returns false when the index is too
// large and sets the result to true otherwise. In Go, with a loop-carried
// maximum a key, the check took 13% of the RTS scene's step at 100,000
// boxes (BenchmarkWorldStep, world=rts, moved=100%).
func checkRecords(keys, n Register) {
	Comment("Check every record index before anything is read or written.")
	top := YMM()
	VPXOR(top, top, top)
	p, c := GP64(), GP64()
	MOVQ(keys, p)
	MOVQ(n, c)
	Label("check")
	VPMAXUD(Mem{Base: p}, top, top)
	VPMAXUD(Mem{Base: p, Disp: 32}, top, top)
	ADDQ(U32(64), p)
	SUBQ(U32(8), c)
	JNZ(LabelRef("check"))
	half, swap := XMM(), XMM()
	VEXTRACTI128(U8(1), top, half)
	VPMAXUD(top.AsX(), half, half)
	VPSHUFD(U8(0x4e), half, swap)
	VPMAXUD(swap, half, half)
	VPSHUFD(U8(0xb1), half, swap)
	VPMAXUD(swap, half, half)
	largest, count := GP64(), GP64()
	VMOVD(half, largest.As32())
	SHRQ(U8(8), largest)
	Load(Param("recs").Len(), count)
	SHRQ(U8(3), count)
	ok := GP8()
	CMPQ(largest, count)
	SETCS(ok)
	Store(ok, ReturnIndex(0))
	JCS(LabelRef("checked"))
	VZEROUPPER()
	RET()
	Label("checked")
}
