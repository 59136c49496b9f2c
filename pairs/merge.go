package pairs

import (
	"cmp"
	"math/bits"
	"slices"
)

// merger is the merge's memory, kept from pass to pass: the output, the
// number of I and of J, the pairs sorted by J within each range of I (byJ),
// the ranges' bounds on I (cut) and first positions in the output (start),
// and the sample the cuts come from. With more than one range of I, the
// split copies each unit's pairs into the same positions of split, ordered
// by range: unit u's pairs of range r are parts[u·ranges+r]. With one
// range, parts holds the pairs themselves. splitAt holds each unit's
// counts per range.
type merger struct {
	pairs, out []Pair
	nI, nJ     int
	byJ        []Pair
	cut        []int32
	start      []int
	sample     []int32
	split      []Pair
	parts      [][]Pair
	splitAt    []int
}

// splitJob's positions are the units of the pairs; mergeJob's the ranges
// of I.
type (
	splitJob merger
	mergeJob merger
)

func (j *splitJob) do(_ *worker, start, end int) {
	for u := start; u < end; u++ {
		(*merger)(j).splitUnit(u)
	}
}

func (j *mergeJob) do(w *worker, start, end int) {
	for r := start; r < end; r++ {
		(*merger)(j).mergeRange(w, r)
	}
}

// merge sorts pairs, distinct and with every I below nI and every J below
// nJ, by I then J into dst's spare room on c's workers, and returns dst
// extended by them. room is the length of the pass's pair buffer, which
// byJ and split follow so that they grow only when it does.
//
// Each range of I is sorted by two stable counting sorts, by J into byJ
// and then by I into the output, linear in the boxes and the pairs, which
// beat per-I sorts by J on both of bench/'s scenes (BenchmarkMerge), or,
// in a range of many indices with few pairs, by a radix sort (radixRange).
//
// With more than one worker and at least mergeParallelPairs pairs, the I
// axis is cut into one range per worker, each holding about as many pairs
// (the cuts come from a sample of the pairs), each worker splits an equal
// slice of the pairs (a unit) by range, and the ranges are sorted in
// parallel (BenchmarkAllPairs, scene=rts, workers=2). The pairs are
// distinct, so the order depends neither on where in the buffer each worker
// put its pairs nor on the cuts.
func (m *merger) merge(c *team, dst, pairs []Pair, room, nI, nJ int) []Pair {
	total := len(pairs)
	dst = slices.Grow(dst, total)
	m.pairs, m.out, m.nI, m.nJ = pairs, dst[len(dst):len(dst)+total], nI, nJ
	grow(&m.byJ, room)
	workers := c.crew.Size()
	ranges := 1
	if workers > 1 && total >= mergeParallelPairs {
		ranges = workers
	}
	cut := grow(&m.cut, ranges+1) // its length gives the jobs the ranges
	cut[0], cut[ranges] = 0, int32(nI)
	if cap(m.parts) < workers*workers {
		m.parts = make([][]Pair, workers*workers)
	}
	if ranges == 1 {
		m.parts = append(m.parts[:0], pairs)
	} else {
		// The cuts: quantiles of every step-th pair's I, at most
		// total/step + 1 <= 2·mergeSamples + 1 of them (total is at least
		// mergeParallelPairs).
		step := max(1, total/mergeSamples)
		if n := 2*mergeSamples + 1; cap(m.sample) < n {
			m.sample = make([]int32, 0, n)
		}
		sample := m.sample[:0]
		for k := 0; k < total; k += step {
			sample = append(sample, pairs[k].I)
		}
		slices.Sort(sample)
		for r := 1; r < ranges; r++ {
			cut[r] = sample[r*len(sample)/ranges]
		}
		m.sample = sample
		grow(&m.split, room)
		grow(&m.splitAt, workers*(ranges+1))
		m.parts = m.parts[:workers*ranges] // workers units
		c.run((*splitJob)(m), workers, 1)
	}
	// Range r's pairs go to positions from start[r] on.
	start := grow(&m.start, ranges+1)
	start[0] = 0
	for r := 0; r < ranges; r++ {
		start[r+1] = start[r]
		for u := r; u < len(m.parts); u += ranges {
			start[r+1] += len(m.parts[u])
		}
	}
	c.run((*mergeJob)(m), ranges, 1)
	if workers > 1 {
		c.evenOut(ranges > 1)
	}
	m.pairs, m.out = nil, nil // the pass's and the caller's memory: do not keep them
	return dst[:len(dst)+total]
}

// mergeParallelPairs is the fewest pairs merge sorts on more than one
// worker. Each range's sort still counts the pairs per J over every J, so
// the parallel merge saves only the work per pair, and with few pairs that
// is less than the split and the extra wait cost. The value is a judgment,
// not a measured optimum: bench/'s uniform scene of 100,000 boxes (under
// 20,000 pairs) merges on one worker, its RTS scene (over a million) on all.
const mergeParallelPairs = 1 << 15

// mergeSamples is about how many pairs merge looks at to place its cuts.
const mergeSamples = 1024

// splitUnit copies unit u of the pairs (the u-th of len(m.parts)/ranges
// equal slices) into the same positions of m.split, ordered by the range
// of I each pair falls in, and sets the unit's parts.
func (m *merger) splitUnit(u int) {
	cut := m.cut[1 : len(m.cut)-1]
	ranges := len(cut) + 1
	pairs, units := m.pairs, len(m.parts)/ranges
	first, end := u*len(pairs)/units, (u+1)*len(pairs)/units
	pairs = pairs[first:end]
	at := m.splitAt[u*(ranges+1) : (u+1)*(ranges+1)]
	clear(at)
	for _, p := range pairs {
		at[rangeOf(cut, p.I)+1]++
	}
	at[0] = first
	for r := range ranges { // each count becomes the part's end
		at[r+1] += at[r]
	}
	for r := range ranges {
		m.parts[u*ranges+r] = m.split[at[r]:at[r+1]]
	}
	for _, p := range pairs {
		r := rangeOf(cut, p.I)
		m.split[at[r]] = p
		at[r]++
	}
}

// rangeOf returns how many of the cuts are at most i, the range of I that i
// falls in, without a branch: the ranges of the pairs come in no order a
// branch predictor could follow.
func rangeOf(cut []int32, i int32) int {
	r := 0
	for _, c := range cut {
		r += int(uint32(c-i-1) >> 31) // 1 when c <= i; c and i are not negative
	}
	return r
}

// mergeRange sorts the pairs of range r of I (every unit's part r) by I
// then J, into the range's positions of the output: by radixRange when
// it has many indices and few pairs for them, else by two counting sorts.
func (m *merger) mergeRange(w *worker, r int) {
	lo, hi := m.cut[r], m.cut[r+1]
	ranges := len(m.cut) - 1
	if n, indices := m.start[r+1]-m.start[r], int(hi-lo)+m.nJ; indices >= radixMinIndices && n*(radixPasses(int(hi-lo))+1) < indices {
		m.radixRange(w, r)
		return
	}
	// startI is sized for any range, so that a worker's scratch does not
	// grow when the cuts move.
	if cap(w.startI) < m.nI+1 {
		w.startI = make([]int, m.nI+1)
	}
	startI, startJ := w.startI[:hi-lo+1], grow(&w.startJ, m.nJ+1)
	clear(startI)
	clear(startJ)
	for u := r; u < len(m.parts); u += ranges { // every unit's part r
		for _, p := range m.parts[u] {
			startI[p.I-lo+1]++
			startJ[p.J+1]++
		}
	}
	// Each count becomes the position of the first pair with that index.
	prefixSums(startI)
	prefixSums(startJ)
	first, end := m.start[r], m.start[r+1]
	byJ, out := m.byJ[first:end], m.out[first:end]
	for u := r; u < len(m.parts); u += ranges {
		for _, p := range m.parts[u] {
			byJ[startJ[p.J]] = p
			startJ[p.J]++
		}
	}
	for _, p := range byJ {
		out[startI[p.I-lo]] = p
		startI[p.I-lo]++
	}
}

// prefixSums replaces each count of c with the sum of it and the counts
// before it. The running sum stays in a register: written as
// c[i] += c[i-1], each step waits for the store before it to be read back,
// and the two sums over every index of a set are most of a merge with few
// pairs (BenchmarkMerge, scene=uniform).
func prefixSums(c []int) {
	sum := 0
	for i, v := range c {
		sum += v
		c[i] = sum
	}
}

// The counting sorts of mergeRange cost a count, a clear and a prefix sum
// per index besides their work per pair, and their counts are read and
// written in the pairs' order, which misses the caches on every pair once
// the counts outgrow them. A least-significant-digit radix sort of I - lo
// costs radixPasses passes over the pairs instead, each counting into, and
// then scattering to, at most 2^radixBits places that stay in the cache,
// and one more pass orders each run of pairs with one I by J (sortRuns):
// the radix sort takes a range only when its pairs are fewer than its
// indices per pass, so most runs are one or two pairs long. Sorting by I
// alone, rather than by the key (I - lo) << bitsJ | J, halves the passes
// that scatter the pairs over a buffer the caches do not hold
// (BenchmarkMerge, merge=radix). On the uniform scene (0.17 pairs a box)
// the merge alone (BenchmarkMerge) is faster by radix from 100,000 boxes
// on; within a whole pass, which leaves none of the counts in the caches,
// the two take as long at 10,000 and 100,000 boxes and radix is faster at
// 1,000,000 and more (BenchmarkAllPairsScaling, workers=1 and 2, with
// radixMinIndices at 0 and at its value). So a range with 2^20 indices or
// more takes it: with one range of I, a set of 2^19 boxes or more.
const (
	radixBits      = 11
	maxRadixPasses = (31 + radixBits - 1) / radixBits // I below 2³¹
)

var radixMinIndices = 1 << 20 // BenchmarkMerge changes it

// radixPasses returns how many digit passes radixRange makes over a range
// of ni values of I.
func radixPasses(ni int) int {
	return max(1, (keyBits(ni)+radixBits-1)/radixBits)
}

// keyBits returns how many bits hold the values below n.
func keyBits(n int) int { return bits.Len(uint(max(n-1, 0))) }

// radixRange is mergeRange by a radix sort of I and then a sort of each
// run of one I by J. Each pass's digit is an equal share of I - lo's bits; a
// pass whose digit is the same for every pair is skipped, unless every pass
// would be (a range of at most one value of I among its pairs), when the
// last one moves the pairs into place.
func (m *merger) radixRange(w *worker, r int) {
	lo, hi := m.cut[r], m.cut[r+1]
	ranges := len(m.cut) - 1
	first, end := m.start[r], m.start[r+1]
	n := end - first
	passes := radixPasses(int(hi - lo))
	width := (keyBits(int(hi-lo)) + passes - 1) / passes
	count := w.radix[:passes<<width]
	clear(count)
	k := radixKey{lo: lo, mask: int32(1)<<width - 1}
	for u := r; u < len(m.parts); u += ranges {
		for _, p := range m.parts[u] {
			key := p.I - k.lo
			for d := range passes {
				count[d<<width+int(key>>(d*width)&k.mask)]++
			}
		}
	}
	// Each count becomes its digit's first position.
	var todo [maxRadixPasses]bool
	left := 0
	for d := range passes {
		c := count[d<<width : (d+1)<<width]
		sum, shared := int32(0), false
		for b, v := range c {
			shared = shared || int(v) == n
			c[b] = sum
			sum += v
		}
		if !shared || (d == passes-1 && left == 0) {
			todo[d] = true
			left++
		}
	}
	// Passes alternate between out and byJ, ending in out; the first reads
	// the units' parts.
	out, other := m.out[first:end], m.byJ[first:end]
	dst, next := out, other
	if left%2 == 0 {
		dst, next = other, out
	}
	var src []Pair
	for d := range passes {
		if !todo[d] {
			continue
		}
		c, shift := count[d<<width:(d+1)<<width], uint(d*width)
		if src == nil {
			for u := r; u < len(m.parts); u += ranges {
				k.move(dst, m.parts[u], c, shift)
			}
		} else {
			k.move(dst, src, c, shift)
		}
		src, dst, next = dst, next, dst
	}
	sortRuns(out)
}

// radixKey is radixRange's key, I - lo, and its digit mask.
type radixKey struct {
	lo, mask int32
}

// move places each pair of from at dst[c[its digit]], the digit starting at
// bit shift, and advances that position.
func (k radixKey) move(dst, from []Pair, c []int32, shift uint) {
	for _, p := range from {
		b := (p.I - k.lo) >> shift & k.mask
		dst[c[b]] = p
		c[b]++
	}
}

// sortRuns sorts by J each run of pairs with one I in ps, which is sorted
// by I. slices.SortFunc sorts a short run by insertion itself.
func sortRuns(ps []Pair) {
	for i := 1; i < len(ps); i++ {
		if ps[i].I != ps[i-1].I {
			continue
		}
		start, end := i-1, i+1
		for end < len(ps) && ps[end].I == ps[start].I {
			end++
		}
		slices.SortFunc(ps[start:end], func(p, q Pair) int { return cmp.Compare(p.J, q.J) })
		i = end
	}
}
