package world

import (
	mathbits "math/bits"
	"slices"
	"sort"
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
	var count slotCounts
	mask := uint64(1)<<width - 1
	or, and := uint64(0), ^uint64(0)
	for _, k := range keys {
		or, and = or|k, and&k
		c := slotPair(k, l)
		for d := range digits {
			count[d][c>>(width*d)&mask]++
		}
	}
	if gensDiffer(or, and) {
		return sortBytes(keys, scratch, or, and)
	}
	return slotDigits(keys, scratch, &count, digits, l, width)
}

// gensDiffer reports whether keys whose OR is or and whose AND is and
// differ in a generation byte, the low byte of either handle.
func gensDiffer(or, and uint64) bool { return (or^and)&0x000000ff000000ff != 0 }

// slotCounts is how many keys have each value of each digit, for the
// slot-pair digits of sortKeys and bucketSort: up to five digits of up to
// 12 bits, which cover the 48 bits of two slots of maxSlots.
type slotCounts [5][1 << 12]int32

// slotDigits sorts keys by the low digits·width bits of their slot pairs,
// for slots of l bits, a digit of width bits a pass, the lowest first,
// from keys to scratch and back; count[d] holds how many keys have each
// value of digit d. It returns the sorted keys and the other buffer.
func slotDigits(keys, scratch []uint64, count *slotCounts, digits, l, width uint) (sorted, spare []uint64) {
	mask := uint64(1)<<width - 1
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

// sortFound sorts st.found, the n workers' lists one after the other, on n
// workers: each sorts one list (sortPart), then rounds of merges of
// neighbouring lists (mergeParts) halve their number until one is left. A
// merge of lists at [a, b) and [b, c) writes [a, c) of the other buffer,
// so the lists keep their places; each merge is cut into n pieces of its
// output, which write apart, so that every worker has a share of every
// round, the last, of one merge, included. One sort of the joined lists
// on the calling goroutine alone, while the other workers waited, took a
// seventh of a step of the RTS scene's boxes, nine pairs each, on two
// workers (BenchmarkWorldStep, world=rts, moved=100%, workers=2). One
// worker's list is sortKeys' alone. From bucketMin keys it sorts them in
// buckets instead (sortbuckets.go), unless their generations differ.
func (w *World) sortFound(n int) {
	st := &w.step
	st.spare = slices.Grow(st.spare[:0], len(st.found))[:len(st.found)]
	if len(st.found) >= bucketMin && w.sortBuckets(n) {
		return
	}
	if n == 1 {
		st.found, st.spare = sortKeys(st.found, st.spare, len(w.slots))
		return
	}
	w.fanOut(n, (*World).sortPart)
	st.mergers = n
	for len(st.parts) > 2 {
		w.fanOut(n, (*World).mergeParts)
		st.found, st.spare = st.spare, st.found
		k := 0
		for i := 0; i < len(st.parts)-1; i += 2 {
			st.parts[k] = st.parts[i]
			k++
		}
		st.parts[k] = st.parts[len(st.parts)-1]
		st.parts = st.parts[:k+1]
	}
}

// sortPart sorts worker k's list in st.found, with the same range of
// st.spare as scratch, and leaves it in st.found.
func (w *World) sortPart(k int) {
	st := &w.step
	a, b := st.parts[k], st.parts[k+1]
	part := st.found[a:b:b]
	sorted, _ := sortKeys(part, st.spare[a:b:b], len(w.slots))
	if len(sorted) > 0 && &sorted[0] != &part[0] {
		copy(part, sorted)
	}
}

// mergeParts is worker k's share of a round of merges, for st.mergers = m
// workers: merge j joins lists 2j and 2j+1 of st.found (or copies list 2j
// alone, the last of an odd number) into st.spare, in m pieces, and worker
// k writes pieces k, k + m, k + 2m, ... of all the merges in turn.
func (w *World) mergeParts(k int) {
	st := &w.step
	m, lists := st.mergers, len(st.parts)-1
	for piece := k; piece < m*((lists+1)/2); piece += m {
		j, q := piece/m, piece%m
		a, b := st.parts[2*j], st.parts[2*j+1]
		c := b
		if 2*j+2 <= lists {
			c = st.parts[2*j+2]
		}
		x, y := st.found[a:b], st.found[b:c]
		p0, p1 := q*(c-a)/m, (q+1)*(c-a)/m
		i0, i1 := coRank(p0, x, y), coRank(p1, x, y)
		mergeKeys(st.spare[a+p0:a+p1], x[i0:i1], y[p0-i0:p1-i1])
	}
}

// coRank returns how many of the first p keys of the merge of the
// ascending x and y come from x: the least i, within what x and y hold,
// with nothing of y before p - i greater than or equal to x[i]. Ties go to
// x first, as in mergeKeys.
func coRank(p int, x, y []uint64) int {
	lo, hi := max(0, p-len(y)), min(p, len(x))
	// Below hi, x[i] and y[p-i-1] exist; at hi the condition holds.
	return lo + sort.Search(hi-lo, func(d int) bool {
		i := lo + d
		return y[p-i-1] < x[i]
	})
}

// mergeKeys merges the ascending x and y into out, of their length
// together.
func mergeKeys(out, x, y []uint64) {
	i, j := 0, 0
	for k := range out {
		if j >= len(y) || (i < len(x) && x[i] < y[j]) {
			out[k] = x[i]
			i++
		} else {
			out[k] = y[j]
			j++
		}
	}
}

// sortSparse sorts keys ascending, as sortKeys does, for keys far fewer
// than the slots, such as those of a step's few changed boxes: one pass
// counts them by the top bits of their first slot into about a quarter as
// many buckets as keys, a second puts each in its bucket of scratch, and
// an insertion sort orders each bucket. A bucket's keys are contiguous in
// key order, as its bits are the key's top bits, so the buckets in turn
// are the keys sorted. Where sortKeys makes four passes that scatter every
// key (two slots of 20 bits and more), and clears and sums the counts of
// each digit's values at every call, this makes one scatter and sums a
// count a bucket (BenchmarkSortSparse). A bucket of more than sparseRun
// keys, which keys crowding a few slots make, is sorted by slices.Sort
// instead, so that such keys cost no more than its sort of them all.
// counts is the buckets' memory, kept from call to call; sortSparse
// returns the sorted keys, the other buffer and counts. Below sparseMin
// keys it calls slices.Sort instead.
func sortSparse(keys, scratch []uint64, counts []int32, slots int) (sorted, spare []uint64, _ []int32) {
	if len(keys) < sparseMin {
		slices.Sort(keys)
		return keys, scratch, counts
	}
	return bucketSparse(keys, scratch, counts, slots)
}

// bucketSparse is sortSparse's sort in buckets, for any number of keys.
func bucketSparse(keys, scratch []uint64, counts []int32, slots int) (sorted, spare []uint64, _ []int32) {
	n := len(keys)
	l := mathbits.Len(uint(max(slots-1, 1)))
	top := min(l, mathbits.Len(uint(n/4)))
	shift := uint(40 + l - top) // a key's first slot is its bits from 40 up
	counts = slices.Grow(counts[:0], 1<<top+1)[:1<<top+1]
	clear(counts)
	for _, k := range keys {
		counts[k>>shift+1]++
	}
	for b := 1; b < len(counts); b++ {
		counts[b] += counts[b-1]
	}
	scratch = slices.Grow(scratch[:0], n)[:n]
	for _, k := range keys {
		b := k >> shift
		scratch[counts[b]] = k
		counts[b]++
	}
	// counts[b] is now the end of bucket b, and the start of bucket b+1.
	first := int32(0)
	for _, end := range counts[:1<<top] {
		run := scratch[first:end]
		if len(run) > sparseRun {
			slices.Sort(run)
		} else {
			for i := 1; i < len(run); i++ {
				k, j := run[i], i
				for ; j > 0 && run[j-1] > k; j-- {
					run[j] = run[j-1]
				}
				run[j] = k
			}
		}
		first = end
	}
	return scratch, keys, counts
}

// sparseMin is the fewest keys sortSparse sorts in buckets; below it,
// slices.Sort takes less time (BenchmarkSortSparse, sort=buckets against
// sort=slices at n=32 and n=64).
// sparseRun is the most keys of a bucket it sorts by insertion.
const (
	sparseMin = 64
	sparseRun = 32
)
