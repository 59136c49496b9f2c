package batch

import "fmt"

// KeepKeys copies the leading keys of prev to cur, one to one, as long as
// each key is at most next and neither of its boxes has its bit set in
// touched, and returns how many it copied, at most min(len(prev),
// len(cur)). When pairs is not empty it also writes key i's halves, the
// high one first, to pairs[2i] and pairs[2i+1]: a World's pair, written to
// the caller's slice in the same pass. The keys are package world's pair
// keys: two handles, the first in the high half, each a slot shifted left
// by 8 above its generation; slot s's bit is bit s%64 of touched[s/64].
// Package world keeps, from step to step, the pairs whose boxes did not
// move, and the first key KeepKeys stops at is one to drop, one to merge
// new keys before, or the end of cur's room.
//
// The avx2 and avx512 implementations copy 4 or 8 keys an instruction,
// testing their 8 or 16 bits with two gathers of touched's words, and
// store the keys of a group before the first to stop at with a mask; the
// Go loop tests the key stopped at and copies the keys past the last whole
// group. Every implementation copies the same keys.
//
// It panics, before it copies anything, if pairs is not empty and shorter
// than 2*min(len(prev), len(cur)), and, having copied the keys before it,
// at the first key it tests whose slot's word is outside touched.
func KeepKeys(prev, touched, cur []uint64, pairs []uint32, next uint64) int {
	if n := min(len(prev), len(cur)); len(pairs) > 0 && len(pairs) < 2*n {
		panic(fmt.Sprintf("batch: pairs has room for %d pairs, need %d", len(pairs)/2, n))
	}
	return keepKeys(prev, touched, cur, pairs, next)
}

// keepKeysGeneric is KeepKeys in Go, one key at a time, from key from on
// (the keys before it copied).
func keepKeysGeneric(prev, touched, cur []uint64, pairs []uint32, next uint64, from int) int {
	n := min(len(prev), len(cur))
	for i := from; i < n; i++ {
		k := prev[i]
		a, b := k>>40, uint64(uint32(k)>>8)
		if a>>6 >= uint64(len(touched)) || b>>6 >= uint64(len(touched)) {
			badSlot(i, k, len(touched))
		}
		if touched[a>>6]&(1<<(a&63)) != 0 || touched[b>>6]&(1<<(b&63)) != 0 || next < k {
			return i
		}
		cur[i] = k
		if len(pairs) > 0 {
			pairs[2*i], pairs[2*i+1] = uint32(k>>32), uint32(k)
		}
	}
	return n
}

// badSlot panics naming key i, k, whose box's slot has no word in the
// words of touched.
func badSlot(i int, k uint64, words int) {
	panic(fmt.Sprintf("batch: key %d (%#x) names slots %d and %d; touched has bits for %d",
		i, k, k>>40, uint32(k)>>8, 64*words))
}
