package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// blockLanes is how many boxes a batch.Block holds, in two batch.Groups of
// groupLanes: six columns of 8 float32 one after the other (groupBytes),
// then the next group's.
const (
	blockLanes = 16
	groupLanes = 8
	groupBytes = 6 * 4 * groupLanes
)

// blockKernel writes overlapsBlock<name>, one query box against the 16
// boxes of a batch.Block. It has no loop and no tail, so a question that
// tests a few blocks (the world's cells) pays one short call a block
// instead of the general kernel's loop set-up and slice arguments. AVX2
// tests each group as it lies; AVX-512 joins each column's two halves into
// one register (VINSERTF64X4, AVX512F: the same bits as VINSERTF32X8,
// which needs AVX512DQ) and tests the 16 lanes at once.
func blockKernel(w width) {
	TEXT("overlapsBlock"+w.name, NOSPLIT, "func(q *[6]float32, b *[96]float32) uint64")
	Pragma("noescape")
	Doc(
		fmt.Sprintf("overlapsBlock%s returns bit i set when box i of b overlaps the query q,", w.name),
		fmt.Sprintf("for all %d boxes, %d per step.", blockLanes, w.lanes),
	)
	qp := Load(Param("q"), GP64())
	bp := Load(Param("b"), GP64())
	q, abs := broadcastQuery(w, func(i int) Mem { return Mem{Base: qp, Disp: 4 * i} })
	if w.avx512 {
		Comment("Each column's 16 lanes: the first group's 8, then the second's.")
		var cols [6]VecVirtual
		for c := range cols {
			cols[c] = w.vec()
			VMOVUPS(Mem{Base: bp, Disp: 4 * groupLanes * c}, cols[c].AsY())
			VINSERTF64X4(U8(1), Mem{Base: bp, Disp: groupBytes + 4*groupLanes*c}, cols[c], cols[c])
		}
		bits := group(w, q, abs, func(c int) Op { return cols[c] }, "block", nil)
		Store(bits, ReturnIndex(0))
		VZEROUPPER()
		RET()
		return
	}
	var bits Register
	for g := range blockLanes / w.lanes {
		m := group(w, q, abs, groupColumns(bp, g), fmt.Sprintf("block%d", g), nil)
		if g == 0 {
			bits = m
			continue
		}
		SHLQ(U8(w.lanes*g), m)
		ORQ(m, bits)
	}
	Store(bits, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// groupKernel writes overlapsGroupAVX2, one query box against the 8 boxes
// of a batch.Group, the first group of a block that holds at most 8: on
// AVX-512 machines too, as one group is one instruction's lanes.
func groupKernel() {
	w := width{name: "AVX2", lanes: groupLanes}
	TEXT("overlapsGroupAVX2", NOSPLIT, "func(q *[6]float32, b *[48]float32) uint64")
	Pragma("noescape")
	Doc(
		"overlapsGroupAVX2 returns bit i set when box i of b overlaps the query q,",
		fmt.Sprintf("for all %d boxes at once.", groupLanes),
	)
	qp := Load(Param("q"), GP64())
	bp := Load(Param("b"), GP64())
	q, abs := broadcastQuery(w, func(i int) Mem { return Mem{Base: qp, Disp: 4 * i} })
	bits := group(w, q, abs, groupColumns(bp, 0), "group", nil)
	Store(bits, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// groupColumns returns where column c of group g of the block at bp lies.
func groupColumns(bp Register, g int) func(c int) Op {
	return func(c int) Op { return Mem{Base: bp, Disp: groupBytes*g + 4*groupLanes*c} }
}

// broadcastQuery broadcasts the query box's six fields, field i at at(i)
// in the order cx, cy, ux, uy, hx, hy, to every lane, and the sign-clearing
// mask to a register of its own.
func broadcastQuery(w width, at func(i int) Mem) (q query, abs VecVirtual) {
	Comment("Broadcast the query box to every lane.")
	for i, r := range []*VecVirtual{&q.cx, &q.cy, &q.ux, &q.uy, &q.hx, &q.hy} {
		*r = w.vec()
		VBROADCASTSS(at(i), *r)
	}
	abs = w.vec()
	VBROADCASTSS(absMask, abs)
	return q, abs
}

// prefetchKernel writes prefetchLines, which asks for the cache lines of a
// span of memory with PREFETCHT0 and does not wait for them: a question
// about a few blocks scattered over a large world issues its blocks' misses
// together instead of one block after the other. With l2 set it writes
// prefetchLinesL2 instead, which asks with PREFETCHT1, for the L2 cache.
func prefetchKernel(l2 bool) {
	name, instr, into := "prefetchLines", PREFETCHT0, "the cache"
	if l2 {
		name, instr, into = "prefetchLinesL2", PREFETCHT1, "the L2 cache and those beyond"
	}
	TEXT(name, NOSPLIT, "func(p *byte, size uintptr)")
	Pragma("noescape")
	Doc(
		name+" asks for every cache line of the size bytes at p, size > 0,",
		"into "+into+", without waiting.",
		"A prefetch never faults and changes no result.",
	)
	p := Load(Param("p"), GP64())
	size := Load(Param("size"), GP64())
	end := GP64()
	LEAQ(Mem{Base: p, Index: size, Scale: 1}, end)
	Comment("From the start of p's line, so that the last line is reached too.")
	ANDQ(I32(-64), p)
	Label("line")
	instr(Mem{Base: p})
	ADDQ(U32(64), p)
	CMPQ(p, end)
	JB(LabelRef("line"))
	RET()
}

// vendorKernel writes cpuVendor, which returns the processor's vendor
// string from CPUID leaf 0: batch.PrefetchFar chooses its hint by it.
// golang.org/x/sys/cpu reads the same leaf but does not export it.
func vendorKernel() {
	TEXT("cpuVendor", NOSPLIT, "func() (ebx, edx, ecx uint32)")
	Doc(
		"cpuVendor returns the 12 bytes of the processor's vendor string, in order",
		"ebx, edx, ecx, from CPUID leaf 0.",
	)
	XORL(EAX, EAX)
	XORL(ECX, ECX)
	CPUID()
	Store(EBX, ReturnIndex(0))
	Store(EDX, ReturnIndex(1))
	Store(ECX, ReturnIndex(2))
	RET()
}

// prefetchMarkedKernel writes prefetchMarked, which asks for the records
// of the marked ones among a list of handles in one call: a pass that
// copies a block's moved boxes from their slots, read in a random order,
// asks for the slots of a block a few blocks ahead of its copies, and a
// call of prefetchLines a slot cost about as much as the misses it
// overlapped where the slots sit in the L3 cache.
func prefetchMarkedKernel() {
	TEXT("prefetchMarked", NOSPLIT, "func(base *byte, stride, span uintptr, hs *uint32, n int, bits *uint64, words int)")
	Pragma("noescape")
	Doc(
		"prefetchMarked asks, without waiting, for the first and the last byte of",
		"the span bytes at base + stride·i, span > 0, for the slot i = h>>8 of",
		"each of the n handles h at hs whose bit i%64 of bits[i/64] is set; a",
		"slot whose word i/64 is words or more is not asked for. It reads only",
		"hs[0:n] and bits[0:words]; a prefetch never faults and changes no result.",
	)
	base := Load(Param("base"), GP64())
	stride := Load(Param("stride"), GP64())
	span := Load(Param("span"), GP64())
	hs := Load(Param("hs"), GP64())
	n := Load(Param("n"), GP64())
	bits := Load(Param("bits"), GP64())
	words := Load(Param("words"), GP64())
	DECQ(span)
	end := GP64()
	LEAQ(Mem{Base: hs, Index: n, Scale: 4}, end)
	TESTQ(n, n)
	JLE(LabelRef("done"))
	Label("handle")
	i, word, addr := GP64(), GP64(), GP64()
	MOVL(Mem{Base: hs}, i.As32())
	ADDQ(U8(4), hs)
	SHRL(U8(8), i.As32())
	MOVQ(i, word)
	SHRQ(U8(6), word)
	CMPQ(word, words)
	JAE(LabelRef("next"))
	Comment("Into a register: BTQ of a register takes the bit number mod 64,",
		"of memory it would address past the word.")
	MOVQ(Mem{Base: bits, Index: word, Scale: 8}, word)
	BTQ(i, word)
	JCC(LabelRef("next"))
	MOVQ(i, addr)
	IMULQ(stride, addr)
	ADDQ(base, addr)
	PREFETCHT0(Mem{Base: addr})
	PREFETCHT0(Mem{Base: addr, Index: span, Scale: 1})
	Label("next")
	CMPQ(hs, end)
	JB(LabelRef("handle"))
	Label("done")
	RET()
}
