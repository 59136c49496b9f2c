package main

import (
	"strconv"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// keepKernel writes keepKeysAVX2 or keepKeysAVX512, the copy of the pairs
// package world remembers from step to step that still stand: it copies
// the keys of prev to cur, a group at a time (4 uint64 keys in a YMM
// register, 8 in a ZMM), up to the first key above next or with a box
// whose bit is set in the bitset touched, and returns how many keys it
// copied. A key holds two handles, the first in its high half; a handle's
// slot is its value shifted right by 8, and slot s's bit is bit s%64 of
// touched[s/64], so the first box's word index is the key shifted right by
// 46 and its bit the key shifted right by 40, modulo 64, and the second
// box's the same of the low half.
//
// For each group it finds both boxes' word indices and leaves the whole
// group to the Go caller, which panics at the bad key, if one is outside
// touched (an unsigned maximum against the length); only then does it
// gather the 2 × 4 or 2 × 8 words (VPGATHERQQ), so a gather reads only
// words inside touched. It shifts each word right by its bit's position
// (VPSRLVQ, a count per lane), and a lane stops at a set bit or a key
// above next. A group with no lane to stop at is stored whole; otherwise
// the lanes below the first to stop at are stored with a mask (VMOVDQU64
// with a K register, VPMASKMOVQ with a vector) and counted, and the
// kernel returns. The groups lie inside both prev and cur. When pairs is
// not empty, each key stored is also stored there with its halves swapped
// (VPSHUFD), high half first in memory, the layout of package world's
// Pair, whole or masked as the keys are: the step writes the caller's
// pairs in the same pass.
//
// Package world's step calls it once for each run of pairs between two
// stops, a few dozen keys in the RTS scene with one box in a hundred
// moved. The masked store of the lanes before a stop saves the Go caller
// from testing them again (BenchmarkWorldStep, moved=1%, the RTS and mixed
// scenes); the constants are broadcast from general registers with VMOVQ,
// the VEX form: the SSE form (MOVQ to an X register) after the vector state
// of the caller's last kernel call makes the copy several times slower on
// the machine of docs/PERFORMANCE.md. In Go, with a test and a branch a key,
// the copy takes twice the kernel's time or more, and would be half of that
// step (BenchmarkKeepKeys; BenchmarkWorldStep, world=rts/moved=1%).
//
// AVX2 has no unsigned 64-bit comparison: its form flips the sign bit of
// the key and of next, which turns VPCMPGTQ's signed order into the
// unsigned one, and compares the word indices, below 2^18, as they are.
// The AVX-512 form uses AVX512F's mask instructions only (KORW, KXNORW,
// KORTESTW, KMOVW), as the dispatch requires no more.
func keepKernel(w width) {
	lanes := 4
	if w.avx512 {
		lanes = 8
	}
	name := "keepKeys" + w.name
	TEXT(name, NOSPLIT, "func(prev, touched, cur []uint64, pairs []uint32, next uint64) int")
	Pragma("noescape")
	Doc(
		name+" copies the keys of prev to cur, "+strconv.Itoa(lanes)+" at a time, up to",
		"the first key above next or with a box whose bit is set in touched,",
		"and returns how many it copied, at most min(len(prev), len(cur))",
		"rounded down to a multiple of "+strconv.Itoa(lanes)+". It returns at a group with a box",
		"outside touched, before it reads a word for the group. When pairs is",
		"not empty it also writes each copied key's halves there, high first:",
		"pairs has room for them, 2*min(len(prev), len(cur)) elements.",
	)

	p := Load(Param("prev").Base(), GP64())
	n := Load(Param("prev").Len(), GP64())
	room := Load(Param("cur").Len(), GP64())
	CMPQ(room, n)
	CMOVQLT(room, n)
	ANDQ(I32(-lanes), n)
	out := Load(Param("cur").Base(), GP64())
	bits := Load(Param("touched").Base(), GP64())
	halves := Load(Param("pairs").Base(), GP64())
	withPairs := Load(Param("pairs").Len(), GP64())

	broadcast := func(r Register) VecVirtual {
		x := XMM()
		VMOVQ(r, x)
		d := w.vec()
		VPBROADCASTQ(x, d)
		return d
	}
	constant := func(v uint64) VecVirtual {
		r := GP64()
		MOVQ(U64(v), r)
		return broadcast(r)
	}
	limit := broadcast(Load(Param("touched").Len(), GP64()))
	next := broadcast(Load(Param("next"), GP64()))
	low6, one := constant(63), constant(1)
	var sign VecVirtual
	if !w.avx512 {
		sign = constant(1 << 63)
		VPXOR(sign, next, next)
	}

	var laneBits VecVirtual // AVX2: bit i of lane i, to turn a lane mask into lanes
	if !w.avx512 {
		laneBits = YMM()
		VMOVDQU(keepLanes, laneBits)
	}

	i := GP64()
	XORQ(i, i)
	Label(name + "_group")
	CMPQ(i, n)
	JEQ(LabelRef(name + "_done"))
	keys := w.vec()
	at := Mem{Base: p, Index: i, Scale: 8}
	if w.avx512 {
		VMOVDQU64(at, keys)
	} else {
		VMOVDQU(at, keys)
	}

	Comment("The word indices of both boxes; stop before the gathers if one is outside touched.")
	ia, ib := w.vec(), w.vec()
	VPSRLQ(U8(46), keys, ia)
	VPSLLQ(U8(32), keys, ib)
	VPSRLQ(U8(46), ib, ib)
	if w.avx512 {
		top, bad := ZMM(), K()
		VPMAXUQ(ia, ib, top)
		VPCMPUQ(U8(5), limit, top, bad) // top >= limit (not less than)
		KORTESTW(bad, bad)
		JNZ(LabelRef(name + "_done"))
	} else {
		// Both indices are below 2^18, where the signed order is the
		// unsigned one.
		inA, inB, all := YMM(), YMM(), YMM()
		VPCMPGTQ(ia, limit, inA) // limit > ia
		VPCMPGTQ(ib, limit, inB)
		VPAND(inA, inB, inA)
		VPCMPEQQ(all, all, all)
		VPTEST(all, inA) // carry set when every lane is inside
		JCC(LabelRef(name + "_done"))
	}

	Comment("Gather each box's word and test its bit; stop at a set bit or a key above next.")
	wa, wb, sa, sb := w.vec(), w.vec(), w.vec(), w.vec()
	if w.avx512 {
		all := K()
		KXNORW(all, all, all)
		VPGATHERQQ(Mem{Base: bits, Index: ia, Scale: 8}, all, wa)
		KXNORW(all, all, all)
		VPGATHERQQ(Mem{Base: bits, Index: ib, Scale: 8}, all, wb)
	} else {
		all := YMM()
		VPCMPEQQ(all, all, all)
		VPGATHERQQ(all, Mem{Base: bits, Index: ia, Scale: 8}, wa)
		VPCMPEQQ(all, all, all)
		VPGATHERQQ(all, Mem{Base: bits, Index: ib, Scale: 8}, wb)
	}
	VPSRLQ(U8(40), keys, sa)
	VPSRLQ(U8(8), keys, sb)
	stop := GP32() // the group's lanes to stop at, one bit each
	if w.avx512 {
		VPANDQ(low6, sa, sa)
		VPANDQ(low6, sb, sb)
		VPSRLVQ(sa, wa, wa)
		VPSRLVQ(sb, wb, wb)
		VPORQ(wa, wb, wa)
		set, above := K(), K()
		VPTESTMQ(one, wa, set)
		VPCMPUQ(U8(6), next, keys, above) // key > next (not less or equal)
		KORW(set, above, set)
		KMOVW(set, stop)
	} else {
		VPAND(low6, sa, sa)
		VPAND(low6, sb, sb)
		VPSRLVQ(sa, wa, wa)
		VPSRLVQ(sb, wb, wb)
		VPOR(wa, wb, wa)
		VPSLLQ(U8(63), wa, wa) // each lane's bit to its sign
		flipped := YMM()
		VPXOR(sign, keys, flipped)
		VPCMPGTQ(next, flipped, flipped) // key > next
		VPOR(flipped, wa, wa)
		VMOVMSKPD(wa, stop)
	}
	TESTL(stop, stop)
	JNZ(LabelRef(name + "_stop"))
	storeGroup(w, keys, Mem{Base: out, Index: i, Scale: 8}, nil)
	storePairs(w, keys, halves, i, withPairs, nil, name+"_group_pairs")
	ADDQ(U8(lanes), i)
	JMP(LabelRef(name + "_group"))

	Comment("Copy the lanes before the first to stop at, and count them.")
	Label(name + "_stop")
	before := GP32()
	LEAL(Mem{Base: stop, Disp: -1}, before)
	NOTL(stop)
	ANDL(stop, before) // the lanes below the lowest set bit
	var prefix Register
	if w.avx512 {
		prefix = K()
		KMOVW(before, prefix)
	} else {
		x, lanes := XMM(), YMM()
		VMOVD(before, x)
		VPBROADCASTQ(x, lanes)
		VPAND(laneBits, lanes, lanes)
		VPCMPEQQ(laneBits, lanes, lanes)
		prefix = lanes
	}
	storeGroup(w, keys, Mem{Base: out, Index: i, Scale: 8}, prefix)
	storePairs(w, keys, halves, i, withPairs, prefix, name+"_stop_pairs")
	count := GP64()
	POPCNTL(before, count.As32())
	ADDQ(count, i)

	Label(name + "_done")
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// storePairs stores the group of keys at pairs+8*i as halves, high half
// first (VPSHUFD swaps each key's two 32-bit halves), all lanes or, with a
// mask (a K register for AVX-512, a vector for AVX2), the lanes it has, when
// the length in withPairs is not zero; skip names the label past it.
func storePairs(w width, keys VecVirtual, pairs, i, withPairs Register, mask Register, skip string) {
	TESTQ(withPairs, withPairs)
	JZ(LabelRef(skip))
	swapped := w.vec()
	VPSHUFD(U8(0xb1), keys, swapped)
	storeGroup(w, swapped, Mem{Base: pairs, Index: i, Scale: 8}, mask)
	Label(skip)
}

// storeGroup stores a group of uint64 lanes at at: all of them, or with a
// mask (a K register for AVX-512, a vector for AVX2) the lanes it has.
func storeGroup(w width, v VecVirtual, at Mem, mask Register) {
	switch {
	case mask == nil && w.avx512:
		VMOVDQU64(v, at)
	case mask == nil:
		VMOVDQU(v, at)
	case w.avx512:
		VMOVDQU64(v, mask, at)
	default:
		VPMASKMOVQ(v, mask, at)
	}
}

// keepLanes is the bits 1, 2, 4 and 8 as four uint64 lanes: lane i of a
// broadcast mask ANDed with it equals it when the mask has bit i.
var keepLanes Mem

func keepConsts() {
	keepLanes = GLOBL("keeplanes", RODATA|NOPTR)
	for i := range 4 {
		DATA(8*i, U64(1<<i))
	}
}
