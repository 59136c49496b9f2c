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
	s.bucketLo, s.bucketScale = 0, 0
	if m > 0 {
		s.bucketLo = float64(unsortable(first))
		if span := float64(unsortable(last)) - s.bucketLo; span > 0 {
			s.bucketScale = float64(nb) / span
		}
	}
	return groups
}

// groupOf returns the group within its band that bucket k belongs to.
func (s *sorted) groupOf(k int32) int32 {
	return min(k>>s.groupShift, int32(s.bandGroups-1))
}

// bucketOf returns the bucket v falls in, clamped to the index.
func (s *sorted) bucketOf(v float32) int {
	x := (float64(v) - s.bucketLo) * s.bucketScale
	if !(x > 0) { // NaN included
		return 0
	}
	return int(min(x, float64(s.buckets)))
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
