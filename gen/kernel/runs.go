package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// runKernel writes runs<name>: many short one-against-many tests in one
// call, as a sweep-and-prune broad phase makes them. Each run is a triple
// q, lo, hi of int32: box q of the query set against boxes [lo, hi) of the
// candidate set. Each run's bitset follows the previous run's, Words(hi-lo)
// words of it, laid out as overlaps<name> lays out the bitset of the slice
// [lo:hi].
//
// The all-pairs pass used to call the one-against-many kernel once per run
// (about 111 boxes a run on the uniform scene), and a call costs about
// 260 ns before it tests anything (BenchmarkOverlapsShort, avx2, n=1): the
// slices, the dispatch, the ABI wrapper and the broadcasts. Here a run costs
// six broadcasts. In alternating runs of the two builds the pass measured
// 1.65 and then 1.43 µs a box (100,000 uniform boxes, avx2, 4 rounds: too
// few for significance); the main runs went from 1.74 to 1.45 µs a box
// with the later changes included.
//
// The last group of a run reads its whole width from the columns when that
// stays inside them, and drops the lanes past hi; a group that would cross
// the columns' end is copied to the stack with masked loads first, so no
// load reaches past len(cx).
//
// With pruned it writes runsPruned<name>, which takes a seventh column of
// each set, reach, and keeps a lane's bit only when |cy - qcy| <=
// reach + qreach (false on NaN); a group none of whose lanes passes that
// test skips the overlap test. A sweep along x, whose candidates lie far
// apart in y, thus spends one load, one add and one compare on most groups.
// In alternating runs against the build before it (75b845f, 10 rounds of
// BenchmarkAllPairs at 100,000 boxes, avx2) the uniform pass went from 1.05
// to 0.91 µs a box with one worker and the RTS pass from 3.99 to 3.65.
func runKernel(w width, pruned bool) {
	name, sig := "runs"+w.name, "func(qcx, qcy, qux, quy, qhx, qhy, cx, cy, ux, uy, hx, hy []float32, runs []int32, out []uint64)"
	qNames := []string{"qcx", "qcy", "qux", "quy", "qhx", "qhy"}
	names := []string{"cx", "cy", "ux", "uy", "hx", "hy"}
	doc := []string{
		fmt.Sprintf("%s writes, for each triple q, lo, hi of runs, the bitset of", name),
		"query box q against boxes [lo, hi) after the previous run's words,",
	}
	if pruned {
		name = "runsPruned" + w.name
		sig = "func(qcx, qcy, qux, quy, qhx, qhy, qreach, cx, cy, ux, uy, hx, hy, reach []float32, runs []int32, out []uint64)"
		qNames, names = append(qNames, "qreach"), append(names, "reach")
		doc = []string{
			fmt.Sprintf("%s writes, for each triple q, lo, hi of runs, the bitset of", name),
			"query box q against boxes [lo, hi) after the previous run's words, where",
			"a bit is set when |cy - qcy| <= reach + qreach and the boxes overlap,",
		}
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
	var qreach *VecVirtual
	qregs := []*VecVirtual{&q.cx, &q.cy, &q.ux, &q.uy, &q.hx, &q.hy}
	if pruned {
		qreach = new(VecVirtual)
		qregs = append(qregs, qreach)
	}
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
	bits := group(w, q, abs, full, "full", qreach)
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
	bits = group(w, q, abs, full, "part", qreach)
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
	copied := group(w, q, abs, onStack, "copy", qreach)
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
