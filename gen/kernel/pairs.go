package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// pairKernel writes pairsAVX2, the narrow phase over a candidate pair list:
// for 8 pairs at a time it gathers the first boxes' fields from a's columns
// and the second boxes' from b's with VGATHERDPS, then runs the same group
// test as the one-against-many kernel, with the first boxes as 8 different
// query boxes. This form is generated for AVX2 only; the avx512
// implementation uses it too.
//
// The pairs arrive interleaved, i0 j0 i1 j1 ..., as package pairs stores
// them. The Go caller hands over whole groups of 8 pairs only and checks
// every index first, so each gather reads inside its column.
//
// With keys set it writes pairKeys<name> instead, for either width, which
// reads the pairs as package world keeps them, one uint64 key a pair whose
// halves are the boxes' indices shifted left by 8 (a handle's low byte is
// its generation), and the boxes from one array of 32-byte records, each
// box's six fields in one (batch.Record), which it loads whole and
// transposes into fields (recordFields): a box's fields come from one
// cache line, where six columns put them in six. This kernel checks its
// records' indices itself (checkRecords); the Go caller checks only the
// keys past its last whole group. With 32 ZMM registers, the AVX-512 form
// keeps the second boxes' fields in registers where AVX2 stores them to
// the stack.
func pairKernel(w width, keys bool) {
	list, step := "ij", 16 // the list's elements per group of pairs
	if keys {
		TEXT("pairKeys"+w.name, NOSPLIT, "func(recs []float32, keys []uint64, out []uint64) bool")
		Pragma("noescape")
		Doc(
			fmt.Sprintf("pairKeys%s sets bit k%%64 of out[k/64] when the box of record", w.name),
			"keys[k]>>40 overlaps that of record uint32(keys[k])>>8, records of 8",
			fmt.Sprintf("floats in recs, %d pairs per step, and returns true; when a record is", w.lanes),
			"outside recs it returns false and has written nothing. The caller",
			fmt.Sprintf("guarantees len(keys) is a positive multiple of %d and len(out) >=", w.lanes),
			"(len(keys)+63)/64; the CPU must have BMI2.",
		)
		list, step = "keys", w.lanes
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
	var stack Mem
	if !w.avx512 {
		stack = AllocLocal(6 * 4 * w.lanes)
	}
	onStack := func(c int) Mem { return stack.Offset(c * 4 * w.lanes) }

	acc, shift := GP64(), GP64()
	XORQ(acc, acc)
	XORQ(shift, shift)

	var lanes []Register // AVX-512: the masks of 128-bit lanes 1 to 3
	if keys {
		checkRecords(w, ij, n)
		Load(Param("recs").Base(), base)
		if w.avx512 {
			for l := 1; l < 4; l++ {
				k, g := K(), GP32()
				MOVL(U32(0xf<<(4*l)), g)
				KMOVW(g, k)
				lanes = append(lanes, k)
			}
		}
	}

	Label("pairs")
	var q query
	cols := inMemory(onStack)
	if keys {
		second := recordFields(w, base, ij, 0, lanes)
		if w.avx512 {
			Comment("Second boxes: the group's columns, kept in registers.")
			cols = func(c int) Op { return second[c] }
		} else {
			Comment("Second boxes to a stack group, read by the group test like columns.")
			for c, f := range second {
				VMOVUPS(f, onStack(c))
			}
		}
		Comment("First boxes: one query box a lane.")
		f := recordFields(w, base, ij, 4, lanes)
		q = query{cx: f[0], cy: f[1], ux: f[2], uy: f[3], hx: f[4], hy: f[5]}
	} else {
		q = gatherPairs(ij, base, onStack)
	}
	bits := group(w, q, abs, cols, "pairs", nil)
	ADDQ(U32(8*w.lanes), ij) // a pair is 8 bytes in either list
	SUBQ(U32(step), n)
	addBits(bits, acc, shift, out, w.lanes, "next")
	Label("next")
	TESTQ(n, n)
	JNZ(LabelRef("pairs"))
	storeLastWord(acc, shift, out)
}

// gatherPairs emits pairsAVX2's loads of the 8 pairs at ij: the second
// boxes' fields gathered to the stack group at onStack, the first boxes'
// into the query it returns.
func gatherPairs(ij, base Register, onStack func(c int) Mem) query {
	lo, hi, ia, jb := YMM(), YMM(), YMM(), YMM()
	VMOVDQU(Mem{Base: ij}, lo)
	VMOVDQU(Mem{Base: ij, Disp: 32}, hi)
	Comment("Split 8 interleaved pairs into the first and second indices.")
	VSHUFPS(U8(0x88), hi, lo, ia) // per 128-bit lane: i of lo's two pairs, then hi's
	VSHUFPS(U8(0xdd), hi, lo, jb)
	VPERMPD(U8(0xd8), ia, ia) // 64-bit chunks 0 2 1 3: back into pair order
	VPERMPD(U8(0xd8), jb, jb)

	// gather loads field c (0 to 5: cx, cy, ux, uy, hx, hy) of the 8 boxes
	// at idx from column c of set (a or b). A gather clears its mask, so
	// each one sets it to all ones again; one mask register serves all
	// twelve (a fresh virtual register each time left the allocator
	// reaching for Y16 and up, which VEX instructions cannot encode).
	mask := YMM()
	gather := func(set string, c int, idx, dst VecVirtual) {
		Load(Param(set+[6]string{"cx", "cy", "ux", "uy", "hx", "hy"}[c]).Base(), base)
		VPCMPEQD(mask, mask, mask)
		VGATHERDPS(mask, Mem{Base: base, Index: idx, Scale: 4}, dst)
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
	return q
}

// recordFields emits the loads of the boxes that one half of each of the
// w.lanes keys at keys names (half at byte 0 of a key: the second box; at
// 4: the first), from the 32-byte records at base, and returns their six
// fields, lane k the box of key k. A half's index is its value shifted
// right by 8 (a handle's low byte is its generation), and its record is at
// 32 times that. Each record is two 16-byte loads, the first four fields
// and the last two with the padding; register k of four takes records k,
// k+4, k+8 and so on, one a 128-bit lane. Two rounds of unpacks, which
// work within 128-bit lanes, then turn four such registers into four
// fields, and two into two, each lane's in key order. The 16 records of
// eight pairs then cost 32 loads and 24 unpacks, faster than twelve gathers
// that read each field of each box apart (BenchmarkPairKeys, order=grouped,
// impl=avx2). AVX-512 loads four records into each register and unpacks as
// many boxes per instruction again.
func recordFields(w width, base, keys Register, half int, lanes []Register) [6]VecVirtual {
	offset := func(k int) GPVirtual {
		r := GP64()
		MOVL(Mem{Base: keys, Disp: 8*k + half}, r.As32())
		SHRL(U8(8), r.As32())
		SHLL(U8(5), r.As32())
		return r
	}
	// A broadcast writes the whole register (a load into its low lane
	// would leave the register allocator taking the rest as live); the
	// inserts then replace the other lanes. AVX-512 inserts by a broadcast
	// masked to the lane, which the processor can blend on either of its
	// two vector ports where an insert takes the shuffle port, busy with
	// the unpacks (BenchmarkPairKeys, impl=avx512, against VINSERTF32X4).
	broadcast, insert := func(m Mem, v VecVirtual) { VBROADCASTF128(m, v) }, func(l int, m Mem, v VecVirtual) { VINSERTF128(U8(l), m, v, v) }
	if w.avx512 {
		broadcast = func(m Mem, v VecVirtual) { VBROADCASTF32X4(m, v) }
		insert = func(l int, m Mem, v VecVirtual) { VBROADCASTF32X4(m, lanes[l-1], v) }
	}
	var lo, hi [4]VecVirtual
	for k := range 4 {
		var at []GPVirtual
		for l := range w.lanes / 4 {
			at = append(at, offset(k+4*l))
		}
		for h, v := range []*VecVirtual{&lo[k], &hi[k]} {
			*v = w.vec()
			broadcast(Mem{Base: base, Index: at[0], Scale: 1, Disp: 16 * h}, *v)
			for l := 1; l < len(at); l++ {
				insert(l, Mem{Base: base, Index: at[l], Scale: 1, Disp: 16 * h}, *v)
			}
		}
	}
	// With box k's fields f0 to f3 in lo[k] (per 128-bit lane):
	// unpack low of lo[0], lo[1] is f0 of both, then f1 of both; of lo[2],
	// lo[3] the same for boxes 2 and 3; the low 64 bits of each give f0
	// of the four boxes, the high 64 bits f1. The same from the unpacks
	// high gives f2 and f3, and from hi f4 and f5.
	var f [6]VecVirtual
	for i := range f {
		f[i] = w.vec()
	}
	t0, t1, t2, t3 := w.vec(), w.vec(), w.vec(), w.vec()
	VUNPCKLPS(lo[1], lo[0], t0)
	VUNPCKHPS(lo[1], lo[0], t1)
	VUNPCKLPS(lo[3], lo[2], t2)
	VUNPCKHPS(lo[3], lo[2], t3)
	VUNPCKLPD(t2, t0, f[0])
	VUNPCKHPD(t2, t0, f[1])
	VUNPCKLPD(t3, t1, f[2])
	VUNPCKHPD(t3, t1, f[3])
	h0, h1 := w.vec(), w.vec()
	VUNPCKLPS(hi[1], hi[0], h0)
	VUNPCKLPS(hi[3], hi[2], h1)
	VUNPCKLPD(h1, h0, f[4])
	VUNPCKHPD(h1, h0, f[5])
	return f
}

// checkRecords emits pairKeysAVX2's check of every record its n keys at
// keys name, before it reads a record or writes a word: the largest half
// of all keys (VPMAXUD, 8 halves an instruction), shifted to an index,
// against the count of records. It returns false when the index is too
// large and sets the result to true otherwise. In Go, with a loop-carried
// maximum a key, the check is a visible share of the RTS scene's step
// (BenchmarkWorldStep, world=rts/moved=100%).
func checkRecords(w width, keys, n Register) {
	Comment("Check every record index before anything is read or written.")
	top := w.vec()
	if w.avx512 {
		VPXORD(top, top, top)
	} else {
		VPXOR(top, top, top)
	}
	p, c := GP64(), GP64()
	MOVQ(keys, p)
	MOVQ(n, c)
	Label("check")
	VPMAXUD(Mem{Base: p}, top, top)
	VPMAXUD(Mem{Base: p, Disp: 4 * w.lanes}, top, top)
	ADDQ(U32(8*w.lanes), p)
	SUBQ(U32(w.lanes), c)
	JNZ(LabelRef("check"))
	var half Register
	if w.avx512 {
		// Fold the 512 bits within ZMM registers (AVX512F), where a YMM
		// or XMM form of an EVEX register would need AVX512VL.
		t := w.vec()
		VSHUFI64X2(U8(0x4e), top, top, t)
		VPMAXUD(t, top, top)
		VSHUFI64X2(U8(0xb1), top, top, t)
		VPMAXUD(t, top, top)
		VPSHUFD(U8(0x4e), top, t)
		VPMAXUD(t, top, top)
		VPSHUFD(U8(0xb1), top, t)
		VPMAXUD(t, top, top)
		half = top.AsX()
	} else {
		x, swap := XMM(), XMM()
		half = x
		VEXTRACTI128(U8(1), top, x)
		VPMAXUD(top.AsX(), x, x)
		VPSHUFD(U8(0x4e), x, swap)
		VPMAXUD(swap, x, x)
		VPSHUFD(U8(0xb1), x, swap)
		VPMAXUD(swap, x, x)
	}
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
