package world

import "slices"

// radixMin is the fewest keys sortKeys radix-sorts; below it, slices.Sort
// is faster than clearing and summing the counts.
const radixMin = 512

// sortKeys sorts pair keys ascending. It is a least-significant-digit
// radix sort, a byte per pass, that skips the bytes all keys share (in a
// world whose slots were never reused every handle's generation byte is
// the same), moving the keys between keys and scratch. It returns the
// sorted keys and the other buffer, for the next call. A step of the RTS
// scene finds six pairs a box, and slices.Sort took half of its Pairs
// (BenchmarkWorldStep, world=rts, moved=100%).
func sortKeys(keys, scratch []uint64) (sorted, spare []uint64) {
	n := len(keys)
	if n < radixMin {
		slices.Sort(keys)
		return keys, scratch
	}
	var count [8][256]int
	or, and := uint64(0), ^uint64(0)
	for _, k := range keys {
		or, and = or|k, and&k
		for d := range 8 {
			count[d][byte(k>>(8*d))]++
		}
	}
	scratch = slices.Grow(scratch[:0], n)[:n]
	for d := range 8 {
		if byte((or^and)>>(8*d)) == 0 {
			continue // every key has this byte
		}
		c := &count[d]
		sum := 0
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
