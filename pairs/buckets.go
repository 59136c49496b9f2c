package pairs

import "math/bits"

// The bucket index over a sorted set's starts: the sort places each box by
// its bucket, and firstAbove searches within one bucket.

// initBuckets sizes the bucket index and the groups for m boxes whose
// sortable starts run from first to last, in s.bands bands, sets the
// mapping from a start to its bucket, and returns the number of groups.
// Every band has the same buckets over the same starts, and its own groups
// of them: group g of band t is the sort's group t·bandGroups + g, and the
// bucket index holds each band's nb + 1 entries after the earlier bands'.
// (Only a set in one band is searched: Between's.)
func (s *sorted) initBuckets(m int, first, last uint32) (groups int) {
	perBand := max(1, m/(s.bands*groupSize))
	s.groupShift = bucketsPerGroupLog
	if s.bands > 1 && s.bands*perBand > maxBandedGroups {
		boxes := m / s.bands
		perBand = max(1, maxBandedGroups/s.bands, (boxes+maxGroupBoxes-1)/maxGroupBoxes)
		s.groupShift = bits.Len(uint((boxes/perBand + boxesPerBucket - 1) / boxesPerBucket))
	}
	s.groupBuckets = 1 << s.groupShift
	s.bandGroups = perBand
	nb := perBand * s.groupBuckets
	s.buckets = nb
	groups = s.bands * perBand
	grow(&s.bucket, s.bands*(nb+1))
	grow(&s.groupStart, groups+1)
	s.bucketMap = binMap{last: nb, top: float64(nb + 1)}
	if m > 0 {
		s.bucketMap.base = float64(unsortable(first))
		if span := float64(unsortable(last)) - s.bucketMap.base; span > 0 {
			s.bucketMap.scale = float64(nb) / span
		}
	}
	return groups
}

// groupMap returns the mapping from a bucket to its group within its
// band, for the loops over every box to keep in a local variable (see
// binMap).
func (s *sorted) groupMap() groupMap {
	return groupMap{shift: s.groupShift, last: int32(s.bandGroups - 1)}
}

// groupMap maps a bucket k to its group within its band, k >> shift, the
// band's last group taking the buckets past it too.
type groupMap struct {
	shift int
	last  int32
}

func (m groupMap) of(k int32) int32 { return min(k>>m.shift, m.last) }

// bucketOf returns the bucket v falls in, clamped to the index.
func (s *sorted) bucketOf(v float32) int { return s.bucketMap.of(float64(v)) }

// binMap maps a value v to one of the bins 0 to last, ⌊(v - base)·scale⌋
// clamped (a NaN goes to bin 0): the sort's starts to buckets and bounds
// across the sweep to bands. It never decreases with v: a difference and
// a product of float64s rounded to nearest are monotone, and so are the
// floor and the clamp. top is last + 1 as a float64: below it ⌊x⌋ is at
// most last already, so the clamp's branch is taken only by values the
// product puts at last + 1 or more, the top of the range, and not by every
// value of the last bin, a third of the boxes with three bands, each a
// branch the processor could not predict (BenchmarkBandThreshold,
// bands=cut). The loops over every box copy it into a local variable:
// read through the sorted set, its fields were loaded again for every
// box, past the loop's stores. Those loads, a call for a box's two bands
// and Go's min as the clamp (which orders NaNs and signed zeros) made
// Finder.All slower on large sets (BenchmarkAllPairsScaling, n=1000000
// and more).
type binMap struct {
	base, scale, top float64
	last             int
}

// of returns the bin of v.
func (m *binMap) of(v float64) int {
	x := (v - m.base) * m.scale
	if !(x > 0) { // NaN included
		return 0
	}
	if x >= m.top {
		return m.last
	}
	return int(x)
}

// firstAbove returns the first position p >= from whose start is above v
// (strict) or at least v (when orEqual), for v not NaN. The bucket index
// brackets the answer: positions before v's bucket hold starts below v and
// positions from the next bucket on hold starts above it, because bucketOf
// never decreases. A bisection on the integer keys (which order as the
// starts do) finishes inside the bracket, a few positions wide on
// spread-out data.
func (s *sorted) firstAbove(from int, v float32, orEqual bool) int {
	// Positions whose key is at most kv are not above v. (For orEqual the
	// key of v itself is above; sortable(v) is not 0, which only a NaN has.)
	kv := sortable(v)
	if orEqual {
		kv--
	}
	return s.search(from, s.bucketOf(v), kv)
}

// search returns the first position p >= from whose start key is above kv,
// for the bucket k that the value of kv falls in.
func (s *sorted) search(from, k int, kv uint32) int {
	keys := s.start
	l := max(int(s.bucket[k]), from)
	h := len(keys)
	if k+1 < len(s.bucket) {
		h = max(int(s.bucket[k+1]), l)
	}
	// The step is masked in rather than branched on: a data-dependent
	// branch here mispredicts about every other time, and the compiler
	// turns the 0-or-1 assignment into a SETcc.
	size := h - l  // the answer is in [l, l+size]
	for size > 1 { // halve the range, keeping the answer in it
		half := size >> 1
		below := 0
		if keys[l+half-1] <= kv {
			below = 1
		}
		l += half & -below
		size -= half
	}
	if size == 1 && keys[l] <= kv {
		l++
	}
	return l
}
