package world

import (
	mathbits "math/bits"
	"slices"
)

// radixMin is the fewest keys sortKeys radix-sorts; below it, slices.Sort
// is faster than clearing and summing the counts.
const radixMin = 512

// sortKeys sorts pair keys A<<32 | B ascending, for handles of slots below
// slots. It returns the sorted keys and the other buffer, for the next
// call. A step of the RTS scene finds six to nine pairs a box, and
// slices.Sort took half of its Pairs (BenchmarkWorldStep, world=rts,
// moved=100%).
//
// It is a least-significant-digit radix sort. When every key's two
// generation bytes are the same, as in a world whose slots were never
// reused, keys order as their slot pairs, and the digits are taken from
// the slots alone: 2·L bits for slots of L bits, three or four digits,
// where a byte a digit needs six passes at 100,000 boxes. Otherwise it
// sorts a byte per pass, skipping the bytes all keys share.
func sortKeys(keys, scratch []uint64, slots int) (sorted, spare []uint64) {
	n := len(keys)
	if n < radixMin {
		slices.Sort(keys)
		return keys, scratch
	}
	scratch = slices.Grow(scratch[:0], n)[:n]
	l := uint(mathbits.Len(uint(max(slots-1, 1))))
	digits := (2*l + 11) / 12
	width := (2*l + digits - 1) / digits
	var count [4][1 << 12]int32
	mask := uint64(1)<<width - 1
	or, and := uint64(0), ^uint64(0)
	for _, k := range keys {
		or, and = or|k, and&k
		c := slotPair(k, l)
		for d := range digits {
			count[d][c>>(width*d)&mask]++
		}
	}
	if (or^and)&0x000000ff000000ff != 0 {
		return sortBytes(keys, scratch, or, and)
	}
	for d := range digits {
		c := &count[d]
		sum := int32(0)
		for b := range c[:mask+1] {
			c[b], sum = sum, sum+c[b]
		}
		shift := width * d
		for _, k := range keys {
			b := slotPair(k, l) >> shift & mask
			scratch[c[b]] = k
			c[b]++
		}
		keys, scratch = scratch, keys
	}
	return keys, scratch
}

// slotPair returns the slots of key k's two handles side by side, A's
// above B's, for slots of l bits.
func slotPair(k uint64, l uint) uint64 { return k>>40<<l | k>>8&(1<<24-1) }

// sortBytes is sortKeys' byte-a-pass sort, for keys whose bits or and and
// are the OR and the AND of all, in keys and scratch of equal length.
func sortBytes(keys, scratch []uint64, or, and uint64) (sorted, spare []uint64) {
	var count [8][256]int32
	for _, k := range keys {
		for d := range 8 {
			count[d][byte(k>>(8*d))]++
		}
	}
	for d := range 8 {
		if byte((or^and)>>(8*d)) == 0 {
			continue // every key has this byte
		}
		c := &count[d]
		sum := int32(0)
		for b := range c {
			c[b], sum = sum, sum+c[b]
		}
		shift := 8 * d
		for _, k := range keys {
			b := byte(k >> shift)
			scratch[c[b]] = k
			c[b]++
		}
		keys, scratch = scratch, keys
	}
	return keys, scratch
}
