package world

import (
	mathbits "math/bits"
	"slices"
)

// A step's pairs are sorted in buckets when there are many, on one worker
// or several: one pass over the keys counts them by the top bits of their
// slot pairs, a second puts each key in its bucket, and then each worker
// sorts whole buckets of 4,096 to 8,192 keys on average, which stay in its
// L2 cache through the remaining radix passes. Each key then crosses the
// memory bus about five times, where the LSD sort of each worker's list (a
// counting pass and four digits at a million slots, each digit's pass
// writing to 1,024 places spread over the whole list) and the merges
// after it took eleven; two workers share the bus. Buckets make the step
// shorter with two workers on the RTS scene, whose 1,000,000-box step finds
// 9 million keys, and with one on the mixed scene's, which goes cell by cell
// and finds 8 million (BenchmarkWorldStep, moved=100%/move=bulk, n=1000000).
// Below bucketMin keys, half a megabyte, sortKeys' passes stay in the L2
// cache.

// bucketMin is the fewest keys sortFound sorts in buckets.
const bucketMin = 1 << 16

// bucketKeys sets the buckets' size: a power of two of them, at most
// 4,096, holding bucketKeys/2 to bucketKeys keys each on average.
const bucketKeys = 8192

// bucketState is the state of a sort in buckets: its digits, each worker's
// counts by bucket (then where its keys of each bucket go), the OR and AND
// of its keys, and its buckets' counts by digit, and where each bucket
// starts.
type bucketState struct {
	l, top, shift, width, digits uint
	hist                         [][]int32
	or, and                      []uint64
	count                        []slotCounts
	start                        []int32
}

// bucketWidth is the widest digit within a bucket: a bucket's counts,
// cleared for each bucket, then hold 2,048 entries a digit, at most five
// digits for the 47 bits below a bucket's top bit.
const bucketWidth = 11

// sortBuckets sorts st.found, the n workers' lists at st.parts, in
// buckets, as sortFound does, and reports whether it did: it does not when
// the keys' generation bytes differ, which the slot-pair digits need.
func (w *World) sortBuckets(n int) bool {
	st, bs := &w.step, &w.step.buckets
	keys := len(st.found)
	bs.l = uint(mathbits.Len(uint(max(len(w.slots)-1, 1))))
	bs.top = min(12, 2*bs.l, uint(max(mathbits.Len(uint(keys/bucketKeys)), 1)))
	bs.shift = 2*bs.l - bs.top
	bs.digits = (bs.shift + bucketWidth - 1) / bucketWidth
	bs.width = 0
	if bs.digits > 0 {
		bs.width = (bs.shift + bs.digits - 1) / bs.digits
	}
	for len(bs.hist) < n {
		bs.hist = append(bs.hist, make([]int32, 1<<12))
		bs.or, bs.and = append(bs.or, 0), append(bs.and, 0)
		bs.count = append(bs.count, slotCounts{})
	}
	w.fanOut(n, (*World).bucketCount)
	or, and := uint64(0), ^uint64(0)
	for k := range n {
		or, and = or|bs.or[k], and&bs.and[k]
	}
	if gensDiffer(or, and) {
		return false
	}
	// Each worker's keys of bucket b go after those of the workers before
	// it, so the buckets take the keys in the lists' order.
	buckets := 1 << bs.top
	bs.start = slices.Grow(bs.start[:0], buckets+1)[:buckets+1]
	at := int32(0)
	for b := range buckets {
		bs.start[b] = at
		for k := range n {
			c := bs.hist[k][b]
			bs.hist[k][b] = at
			at += c
		}
	}
	bs.start[buckets] = at
	w.fanOut(n, (*World).bucketScatter)
	w.fanOut(n, (*World).bucketSort)
	if bs.digits%2 == 0 {
		st.found, st.spare = st.spare, st.found
	}
	st.parts = append(st.parts[:0], 0, keys)
	return true
}

// bucketCount is worker k's count of its list's keys by bucket, with
// their OR and AND.
func (w *World) bucketCount(k int) {
	st, bs := &w.step, &w.step.buckets
	hist := bs.hist[k][:1<<bs.top]
	clear(hist)
	or, and := uint64(0), ^uint64(0)
	l, shift := bs.l, bs.shift
	for _, key := range st.found[st.parts[k]:st.parts[k+1]] {
		or, and = or|key, and&key
		hist[slotPair(key, l)>>shift]++
	}
	bs.or[k], bs.and[k] = or, and
}

// bucketScatter is worker k's pass that puts its list's keys in their
// buckets, in st.spare.
func (w *World) bucketScatter(k int) {
	st, bs := &w.step, &w.step.buckets
	next := bs.hist[k][:1<<bs.top]
	l, shift, out := bs.l, bs.shift, st.spare
	for _, key := range st.found[st.parts[k]:st.parts[k+1]] {
		b := slotPair(key, l) >> shift
		out[next[b]] = key
		next[b]++
	}
}

// bucketSort is worker k's share of the buckets, of n workers: from the
// first that starts at or after k/n of the keys to the first at or after
// (k+1)/n. It sorts each by the slot pairs' low bits, an LSD radix sort
// from st.spare, where the scatter left the bucket, to st.found and back,
// so that every bucket ends in the same one: st.found for an odd number of
// digits. A bucket too small for the counts' clearing to pay is sorted
// with slices.Sort, where the keys order as their slot pairs.
func (w *World) bucketSort(k int) {
	st, bs := &w.step, &w.step.buckets
	n, starts := len(st.parts)-1, bs.start[:1<<bs.top+1]
	l, width, digits := bs.l, bs.width, bs.digits
	mask := uint64(1)<<width - 1
	count := &bs.count[k]
	for b, end := shareStart(starts, k, n), shareStart(starts, k+1, n); b < end; b++ {
		lo, hi := bs.start[b], bs.start[b+1]
		src, dst := st.spare[lo:hi], st.found[lo:hi]
		if hi-lo < radixMin {
			slices.Sort(src)
			if digits%2 == 1 {
				copy(dst, src)
			}
			continue
		}
		for d := range digits {
			clear(count[d][:mask+1])
		}
		for _, key := range src {
			p := slotPair(key, l)
			for d := range digits {
				count[d][p>>(width*d)&mask]++
			}
		}
		slotDigits(src, dst, count, digits, l, width)
	}
}
