package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// unroll is how many groups one iteration of the main loop tests. Two
// measured no faster than one, in memory or in cache (BenchmarkOverlaps);
// the kernel tests cover every length up to three iterations of unroll 2.
const unroll = 1

// prefetch is how far ahead, in bytes of each column, the first loop asks
// for later data with PREFETCHT0, one cache line per column per iteration
// (two groups of AVX2, one of AVX-512), while more than that is left. With
// the columns a cache line apart in the page (soa.Boxes.Grow), it brings
// the kernel on a set the size of L3 close to the plain streaming read of
// the same columns (BenchmarkOverlaps, impl=floor); farther distances
// measured no better, and a prefetch every group instead of every line
// measured slower. The loop runs only while the prefetched element is
// inside the slice, so even this hint never names memory past its end.
const prefetch = 512

// overlapsKernel writes overlaps<name>, one query box against every box of
// the columns: whole groups in a loop that also prefetches ahead while more
// than prefetch bytes are left, then a loop without, then a masked tail.
func overlapsKernel(w width) {
	TEXT("overlaps"+w.name, NOSPLIT, "func(qcx, qcy, qux, quy, qhx, qhy float32, cx, cy, ux, uy, hx, hy []float32, out []uint64)")
	Pragma("noescape")
	Doc(
		fmt.Sprintf("overlaps%s sets bit i%%64 of out[i/64] when box i overlaps the query", w.name),
		fmt.Sprintf("box, %d boxes per step. The caller guarantees len(cx) > 0, equal", w.lanes),
		"column lengths and len(out) >= (len(cx)+63)/64; the CPU must have BMI2.",
	)

	// Column base pointers and the box count.
	names := [6]string{"cx", "cy", "ux", "uy", "hx", "hy"}
	var cols [6]Register
	for c, name := range names {
		cols[c] = Load(Param(name).Base(), GP64())
	}
	out := Load(Param("out").Base(), GP64())
	n := GP64()
	Load(Param("cx").Len(), n)

	fields := [6]string{"qcx", "qcy", "qux", "quy", "qhx", "qhy"}
	q, abs := broadcastQuery(w, func(i int) Mem { return paramAddr(fields[i]) })

	i, acc, shift := GP64(), GP64(), GP64()
	XORQ(i, i)
	XORQ(acc, acc)
	XORQ(shift, shift)

	full := func(c int) Mem { return Mem{Base: cols[c], Index: i, Scale: 4} }
	// step emits groups of unroll·lanes boxes, shifted into acc, and stores a
	// full word when acc fills.
	// With ahead > 0, the loop also prefetches ahead bytes past its first
	// group in every column, and runs while the prefetched element is in
	// the slice, then falls to the main loop without prefetching.
	step := func(groups int, label string, ahead int) {
		Label(label)
		switch {
		case ahead > 0:
			CMPQ(n, U32(groups*w.lanes+ahead/4))
			JBE(LabelRef(fmt.Sprintf("group%d", unroll)))
		case groups > 1:
			CMPQ(n, U32(groups*w.lanes))
			JB(LabelRef(fmt.Sprintf("group%d", groups-1)))
		default:
			CMPQ(n, U32(groups*w.lanes))
			JB(LabelRef("tail"))
		}
		for c := range cols {
			if ahead > 0 {
				PREFETCHT0(full(c).Offset(ahead))
			}
		}
		var bits Register
		for g := 0; g < groups; g++ {
			at := func(c int) Mem { return full(c).Offset(4 * w.lanes * g) }
			m := group(w, q, abs, inMemory(at), fmt.Sprintf("%s_%d", label, g), nil)
			if g == 0 {
				bits = m
				continue
			}
			SHLQ(U8(w.lanes*g), m)
			ORQ(m, bits)
		}
		ADDQ(U32(groups*w.lanes), i)
		SUBQ(U32(groups*w.lanes), n)
		addBits(bits, acc, shift, out, groups*w.lanes, label)
		JMP(LabelRef(label))
	}
	Comment(fmt.Sprintf("Whole groups of %d boxes, %d per iteration; a full bitset word is stored every %d groups.", w.lanes, unroll, 64/w.lanes),
		fmt.Sprintf("The first loop also prefetches one line %d bytes ahead in each column while more than that is left.", prefetch))
	step(max(unroll, 64/(4*w.lanes)), "ahead", prefetch)
	for g := unroll; g >= 1; g-- {
		step(g, fmt.Sprintf("group%d", g), 0)
	}

	Label("tail")
	Comment(
		fmt.Sprintf("Fewer than %d boxes left: copy them with masked loads, which never", w.lanes),
		"touch memory of a disabled lane, into a zeroed stack group, test that",
		"group, and drop the bits of the lanes past the end.",
	)
	TESTQ(n, n)
	JZ(LabelRef("flush"))
	stack := AllocLocal(6 * 4 * w.lanes)
	onStack := func(c int) Mem { return stack.Offset(c * 4 * w.lanes) }
	copyFirst(w, n, 6, full, onStack)
	m := group(w, q, abs, inMemory(onStack), "tail", nil)
	BZHIQ(n, m, m)
	SHLXQ(shift, m, m)
	ORQ(m, acc)
	ADDQ(n, shift)

	Label("flush")
	storeLastWord(acc, shift, out)
}
