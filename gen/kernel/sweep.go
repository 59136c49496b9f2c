package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// sweepKernel writes sweep<name>, the narrow part of a sweep-and-prune pass
// over one set sorted by the start lo of each box's interval on the sweep
// axis (batch.Sweep documents it). Query box q's run is the boxes after it
// up to the first whose lo is not <= hi[q]; the kernel finds that end
// itself, a group at a time, while it tests the run, so that the caller
// makes no run list, searches for no run's end and scans no bitset. Each
// candidate goes through RunsPruned's reach test and then the
// overlap test, and each hit is stored as one word, q in the low half and
// the candidate in the high half.
//
// Per group it compares lo with the query's hi; while all lanes pass, the
// run goes on past the group. The first group with a lane that fails
// holds the run's end: its lanes from the first failing one on are dropped
// (a lane's lo is not looked at once an earlier lane has ended the run).
// A group that would cross the columns' end is copied to the stack with
// masked loads first, as in the run kernels, so no load reaches past
// len(cx).
//
// It stops before a group whose hits might not fit in out (fewer than a
// group's width of places left), and returns where it stopped.
func sweepKernel(w width) {
	name := "sweep" + w.name
	TEXT(name, NOSPLIT, "func(cx, cy, ux, uy, hx, hy, reach, lo, hi []float32, q, c, end int, out []uint64) (nextQ, nextC, candidates, hits int)")
	Pragma("noescape")
	Doc(
		fmt.Sprintf("%s decides the runs of queries q through end-1 of one set sorted by lo,", name),
		"starting at candidate c of query q, and stores each hit as q | c<<32 in",
		"out. It returns where it stopped (nextQ == end when done), the number",
		fmt.Sprintf("of candidates it decided and the number of hits, %d boxes per step.", w.lanes),
		fmt.Sprintf("The caller guarantees equal column lengths below 2^31, len(out) >= %d,", w.lanes),
		"0 <= q <= end <= len(cx) and q < c <= len(cx) when q < end; the CPU must",
		"have BMI2.",
	)
	names := []string{"cx", "cy", "ux", "uy", "hx", "hy", "reach", "lo"}
	cols := make([]Register, len(names))
	for c, name := range names {
		cols[c] = Load(Param(name).Base(), GP64())
	}
	n, err := Param("cx").Len().Resolve()
	if err != nil {
		panic(err)
	}
	end, err := Param("end").Resolve()
	if err != nil {
		panic(err)
	}

	// Locals: the first place in out where a group's hits might not fit,
	// the candidates decided so far, and the first candidate of the
	// current query's share of its run.
	outLimit, candidates, first := AllocLocal(8), AllocLocal(8), AllocLocal(8)
	stack := AllocLocal(len(names) * 4 * w.lanes)
	onStack := func(c int) Mem { return stack.Offset(c * 4 * w.lanes) }

	out := Load(Param("out").Base(), GP64())
	{
		limit := Load(Param("out").Len(), GP64())
		LEAQ(Mem{Base: out, Index: limit, Scale: 8, Disp: -8 * w.lanes}, limit)
		MOVQ(limit, outLimit)
	}
	MOVQ(U32(0), candidates)
	q, j := Load(Param("q"), GP64()), Load(Param("c"), GP64())

	abs := w.vec()
	VBROADCASTSS(absMask, abs)
	var qr query
	var qreach VecVirtual
	qregs := []*VecVirtual{&qr.cx, &qr.cy, &qr.ux, &qr.uy, &qr.hx, &qr.hy, &qreach}
	for _, r := range qregs {
		*r = w.vec()
	}
	// hi[q] in every lane. The AVX2 group test needs all sixteen YMM
	// registers, so there it lives on the stack; AVX-512 has 32 registers.
	var qhi Op
	if w.avx512 {
		qhi = w.vec()
	} else {
		qhi = AllocLocal(4 * w.lanes)
	}

	Label("query")
	CMPQ(q, end.Addr)
	JAE(LabelRef("done"))
	Comment("Broadcast query box q and its interval's end.")
	for c, r := range qregs {
		VBROADCASTSS(Mem{Base: cols[c], Index: q, Scale: 4}, *r)
	}
	{
		base := GP64()
		Load(Param("hi").Base(), base)
		if w.avx512 {
			VBROADCASTSS(Mem{Base: base, Index: q, Scale: 4}, qhi)
		} else {
			t := w.vec()
			VBROADCASTSS(Mem{Base: base, Index: q, Scale: 4}, t)
			VMOVUPS(t, qhi)
		}
	}
	MOVQ(j, first)

	full := func(c int) Mem { return Mem{Base: cols[c], Index: j, Scale: 4} }
	allLanes := uint32(1)<<w.lanes - 1

	// runMask returns a general register whose low lanes bits say which
	// lanes of the group at col have lo <= hi[q].
	runMask := func(col func(c int) Mem) GPVirtual {
		m := GP64()
		if w.avx512 {
			k := K()
			VCMPPS(U8(cmpGEOQ), col(7), qhi, k)
			KMOVW(k, m.As32())
		} else {
			v := w.vec()
			VMOVUPS(col(7), v)
			VCMPPS(U8(cmpLEOQ), qhi, v, v)
			VMOVMSKPS(v, m.As32())
		}
		return m
	}

	Label("group")
	Comment("A whole group inside the columns, every lane still in the run: test it.")
	{
		t := GP64()
		LEAQ(Mem{Base: j, Disp: w.lanes}, t)
		CMPQ(t, n.Addr)
		JA(LabelRef("tail"))
	}
	m := runMask(full)
	CMPL(m.As32(), U32(allLanes))
	JNE(LabelRef("last"))
	bits := group(w, qr, abs, inMemory(full), "sweep", &qreach)
	TESTQ(bits, bits)
	JNZ(LabelRef("hits"))
	Label("next")
	ADDQ(U32(w.lanes), j)
	JMP(LabelRef("group"))

	Label("hits")
	CMPQ(out, outLimit)
	JA(LabelRef("stop"))
	emit(bits, q, j, out, "emithits")
	JMP(LabelRef("next"))

	// lastGroup tests the group at col whose run mask m is not all lanes:
	// the lanes below the first that is not in the run, if any.
	lastGroup := func(m GPVirtual, col func(c int) Mem, label string) {
		Comment("Keep the lanes below the first lane out of the run: ~m & (m+1) is that lane's bit.")
		keep := GP64()
		LEAQ(Mem{Base: m, Disp: 1}, keep)
		ANDNQ(keep, m, keep)
		DECQ(keep)
		JZ(LabelRef("runEnd"))
		bits := group(w, qr, abs, inMemory(col), label, &qreach)
		ANDQ(keep, bits)
		JZ(LabelRef("keep" + label))
		CMPQ(out, outLimit)
		JA(LabelRef("stop"))
		emit(bits, q, j, out, "emit"+label)
		Label("keep" + label)
		POPCNTQ(keep, keep)
		ADDQ(keep, j)
		JMP(LabelRef("runEnd"))
	}

	Label("last")
	lastGroup(m, full, "last")

	Label("tail")
	Comment(
		fmt.Sprintf("Fewer than %d boxes left in the columns: copy them with masked loads,", w.lanes),
		"which never touch memory of a disabled lane, into a zeroed stack group,",
		"and keep only the lanes that hold boxes.",
	)
	{
		left := GP64()
		MOVQ(n.Addr, left)
		SUBQ(j, left)
		JZ(LabelRef("runEnd"))
		copyFirst(w, left, len(names), full, onStack)
		tm := runMask(onStack)
		BZHIQ(left, tm, tm)
		lastGroup(tm, onStack, "tail")
	}

	Label("runEnd")
	Comment("The run is over: count its candidates, go on with the next query.")
	{
		t := GP64()
		MOVQ(j, t)
		SUBQ(first, t)
		ADDQ(t, candidates)
	}
	INCQ(q)
	LEAQ(Mem{Base: q, Disp: 1}, j)
	JMP(LabelRef("query"))

	Label("stop")
	Comment("No room for another group's hits: count the candidates decided, return where it stopped.")
	{
		t := GP64()
		MOVQ(j, t)
		SUBQ(first, t)
		ADDQ(t, candidates)
	}

	Label("done")
	Store(q, ReturnIndex(0))
	Store(j, ReturnIndex(1))
	{
		t := GP64()
		MOVQ(candidates, t)
		Store(t, ReturnIndex(2))
		base := Load(Param("out").Base(), GP64())
		SUBQ(base, out)
		SHRQ(U8(3), out)
		Store(out, ReturnIndex(3))
	}
	VZEROUPPER()
	RET()
}

// cmpGEOQ is the VCMPPS predicate "greater than or equal, ordered, quiet":
// hi >= lo, which is lo <= hi as Go computes it, NaN included. The AVX-512
// kernel uses it to take lo from memory.
const cmpGEOQ = 0x1D

// emit stores a hit for every set bit of bits, the lanes of the group at
// candidate j of query q: q in the low half of a word, the candidate in the
// high half, from out on, advancing out.
func emit(bits, q, j, out Register, label string) {
	hit := GP64()
	Label(label)
	TZCNTQ(bits, hit)
	ADDQ(j, hit)
	SHLQ(U8(32), hit)
	ORQ(q, hit)
	MOVQ(hit, Mem{Base: out})
	ADDQ(U32(8), out)
	BLSRQ(bits, bits)
	JNZ(LabelRef(label))
}
