package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// runKernel writes runsPruned<name>: many short one-against-many tests in
// one call, as a sweep-and-prune broad phase makes them. Each run is a
// triple q, lo, hi of int32: box q of the query set against boxes [lo, hi)
// of the candidate set. Each run's bitset follows the previous run's,
// Words(hi-lo) words of it, laid out as overlaps<name> lays out the bitset
// of the slice [lo:hi]. A run costs six broadcasts, where a call of the
// one-against-many kernel per run would cost the call's fixed part
// (BenchmarkOverlapsShort, n=1).
//
// Each set has a seventh column, reach, and a lane keeps its bit only when
// |cy - qcy| <= reach + qreach (false on NaN); a group none of whose lanes
// passes that test skips the overlap test. A sweep along x, whose
// candidates lie far apart in y, thus spends one load, one add and one
// compare on most groups.
//
// The last group of a run reads its whole width from the columns when that
// stays inside them, and drops the lanes past hi; a group that would cross
// the columns' end is copied to the stack with masked loads first, so no
// load reaches past len(cx).
func runKernel(w width) {
	name := "runsPruned" + w.name
	sig := "func(qcx, qcy, qux, quy, qhx, qhy, qreach, cx, cy, ux, uy, hx, hy, reach []float32, runs []int32, out []uint64)"
	qNames := []string{"qcx", "qcy", "qux", "quy", "qhx", "qhy", "qreach"}
	names := []string{"cx", "cy", "ux", "uy", "hx", "hy", "reach"}
	doc := []string{
		fmt.Sprintf("%s writes, for each triple q, lo, hi of runs, the bitset of", name),
		"query box q against boxes [lo, hi) after the previous run's words, where",
		"a bit is set when |cy - qcy| <= reach + qreach and the boxes overlap,",
	}
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	Doc(append(doc,
		fmt.Sprintf("%d boxes per step. The caller guarantees len(runs) is a positive", w.lanes),
		"multiple of 3, equal column lengths in each set, 0 <= q < len(qcx),",
		"0 <= lo <= hi <= len(cx), and enough words in out; the CPU must have BMI2.",
	)...)
	cols := make([]Register, len(names))
	for c, name := range names {
		cols[c] = Load(Param(name).Base(), GP64())
	}
	out := Load(Param("out").Base(), GP64())
	run := Load(Param("runs").Base(), GP64())
	// The end of the runs, kept on the stack: every general register the
	// group loop does not need is taken.
	last := AllocLocal(8)
	{
		end := Load(Param("runs").Len(), GP64())
		LEAQ(Mem{Base: run, Index: end, Scale: 4}, end)
		MOVQ(end, last)
	}
	n, err := Param("cx").Len().Resolve()
	if err != nil {
		panic(err)
	}
	abs := w.vec()
	VBROADCASTSS(absMask, abs)
	stack := AllocLocal(len(names) * 4 * w.lanes)
	onStack := func(c int) Mem { return stack.Offset(c * 4 * w.lanes) }

	var q query
	qreach := new(VecVirtual)
	qregs := []*VecVirtual{&q.cx, &q.cy, &q.ux, &q.uy, &q.hx, &q.hy, qreach}
	for _, r := range qregs {
		*r = w.vec()
	}
	j, left, acc, shift := GP64(), GP64(), GP64(), GP64()

	Label("run")
	Comment("Broadcast query box q; j runs from lo, left counts the boxes still to test.")
	{
		qi, base := GP64(), GP64()
		MOVLQSX(Mem{Base: run}, qi)
		for c, name := range qNames {
			Load(Param(name).Base(), base)
			VBROADCASTSS(Mem{Base: base, Index: qi, Scale: 4}, *qregs[c])
		}
	}
	MOVLQSX(Mem{Base: run, Disp: 4}, j)
	MOVLQSX(Mem{Base: run, Disp: 8}, left)
	SUBQ(j, left)
	ADDQ(U32(12), run)
	XORQ(acc, acc)
	XORQ(shift, shift)

	full := func(c int) Mem { return Mem{Base: cols[c], Index: j, Scale: 4} }
	Label("group")
	CMPQ(left, U32(w.lanes))
	JB(LabelRef("last"))
	bits := group(w, q, abs, inMemory(full), "full", qreach)
	ADDQ(U32(w.lanes), j)
	SUBQ(U32(w.lanes), left)
	addBits(bits, acc, shift, out, w.lanes, "group")
	JMP(LabelRef("group"))

	Label("last")
	Comment(
		fmt.Sprintf("Fewer than %d boxes left in the run. If a whole group from j stays", w.lanes),
		"inside the columns, test it there; otherwise copy the boxes left with",
		"masked loads, which never touch memory of a disabled lane, into a zeroed",
		"stack group and test that. Either way keep only the lanes below hi.",
	)
	TESTQ(left, left)
	JZ(LabelRef("flush"))
	{
		reach := GP64()
		LEAQ(Mem{Base: j, Disp: w.lanes}, reach)
		CMPQ(reach, n.Addr)
		JA(LabelRef("copy"))
	}
	bits = group(w, q, abs, inMemory(full), "part", qreach)
	Label("keep")
	BZHIQ(left, bits, bits)
	SHLXQ(shift, bits, bits)
	ORQ(bits, acc)
	Comment("The run's last, partial word.")
	MOVQ(acc, Mem{Base: out})
	ADDQ(U32(8), out)
	JMP(LabelRef("next"))

	Label("copy")
	copyFirst(w, left, len(names), full, onStack)
	copied := group(w, q, abs, inMemory(onStack), "copy", qreach)
	MOVQ(copied, bits)
	JMP(LabelRef("keep"))

	Label("flush")
	Comment("The run ended on a group boundary: store its last word unless it is full and stored.")
	TESTQ(shift, shift)
	JZ(LabelRef("next"))
	MOVQ(acc, Mem{Base: out})
	ADDQ(U32(8), out)

	Label("next")
	CMPQ(run, last)
	JB(LabelRef("run"))
	VZEROUPPER()
	RET()
}
