package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// columnsOut says how a float64 kernel stores its two results: as float64
// lanes (size 8) or converted to float32 (size 4, each result in a
// register half as wide as the group's).
type columnsOut struct {
	names [2]string
	size  uint8
}

// columnsKernel emits the body of a kernel that reads six float32
// columns, the function's first six arguments, and writes two columns,
// out.names, of as many elements: whole groups of half the width's float32
// lanes, widened to float64 (VCVTPS2PD), then a last, partial group loaded
// and stored with masked moves, which never touch memory of a disabled
// lane. group computes one group's results from the six widened fields.
// The AVX-512 form needs AVX-512F only: the tail loads sixteen float32
// lanes under a mask and widens the low eight, and stores whole ZMM
// registers under a mask.
func columnsKernel(w width, in [6]string, out columnsOut, group func(w width, f [6]VecVirtual) (a, b VecVirtual)) {
	g := w.lanes / 2
	var cols [6]Register
	for c, name := range in {
		cols[c] = Load(Param(name).Base(), GP64())
	}
	var outs [2]Register
	for k, name := range out.names {
		outs[k] = Load(Param(name).Base(), GP64())
	}
	n, i := GP64(), GP64()
	Load(Param(in[0]).Len(), n)
	XORQ(i, i)
	at := func(c int) Mem { return Mem{Base: cols[c], Index: i, Scale: 4} }
	to := func(k int) Mem { return Mem{Base: outs[k], Index: i, Scale: out.size} }

	Comment(fmt.Sprintf("Whole groups of %d boxes.", g))
	Label("group")
	CMPQ(n, U32(g))
	JB(LabelRef("tail"))
	var f [6]VecVirtual
	for c := range f {
		f[c] = w.vec()
		VCVTPS2PD(at(c), f[c])
	}
	a, b := group(w, f)
	for k, v := range [2]VecVirtual{a, b} {
		if out.size == 8 {
			VMOVUPD(v, to(k))
		} else {
			VMOVUPS(v, to(k))
		}
	}
	ADDQ(U32(g), i)
	SUBQ(U32(g), n)
	JMP(LabelRef("group"))

	Label("tail")
	Comment(fmt.Sprintf("Fewer than %d boxes left: masked loads and stores, which never touch", g), "memory of a disabled lane.")
	TESTQ(n, n)
	JZ(LabelRef("done"))
	if w.avx512 {
		k, ones := K(), GP64()
		MOVQ(I32(-1), ones)
		BZHIQ(n, ones, ones)
		KMOVW(ones.As32(), k)
		for c := range f {
			wide := ZMM()
			VMOVUPS_Z(at(c), k, wide)
			f[c] = w.vec()
			VCVTPS2PD(wide.AsY(), f[c])
		}
		a, b := group(w, f)
		for j, v := range [2]VecVirtual{a, b} {
			if out.size == 8 {
				VMOVUPD(v, k, to(j))
			} else {
				VMOVUPS(v.AsZ(), k, to(j)) // the float32 lanes are the register's low half
			}
		}
	} else {
		lanes, count := XMM(), XMM()
		VMOVD(n.As32(), count)
		VPBROADCASTD(count, count)
		VPCMPGTD(laneIndex, count, lanes) // lane l: n > l
		for c := range f {
			narrow := XMM()
			VMASKMOVPS(at(c), lanes, narrow)
			f[c] = w.vec()
			VCVTPS2PD(narrow, f[c])
		}
		a, b := group(w, f)
		var wide VecVirtual
		if out.size == 8 {
			wide = YMM()
			VPMOVSXDQ(lanes, wide) // one all-ones or all-zeros quadword a lane
		}
		for j, v := range [2]VecVirtual{a, b} {
			if out.size == 8 {
				VMASKMOVPD(v, wide, to(j))
			} else {
				VMASKMOVPS(v, lanes, to(j))
			}
		}
	}
	Label("done")
	VZEROUPPER()
	RET()
}
