package pairs

import "math"

// A sweep along one axis hands each box every box whose interval on that
// axis overlaps its own, from the whole width of the set across the sweep:
// at constant density, √n of them, so one sweep over n boxes costs
// O(n^1.5). All therefore cuts a large set across the sweep into bands of
// equal height, as Terdiman's multi box pruning cuts space into regions
// (Box Pruning Revisited, 2017), and sweeps each band. Two limits set their
// number:
//
//   - at least ⌊√(n/bandBoxes)⌋ bands: a band's height then shrinks as
//     1/√n while its density stays, so no box gets more candidates than in
//     a set of bandBoxes boxes (TestBandsKeepCandidatesFlat);
//   - at least ⌊n/bandMax⌋ bands, thinner still, with fewer candidates and
//     few more copies: in BenchmarkAllPairsScaling the thinner bands are
//     faster at 1,000,000 boxes and as fast at 4,000,000.
//
// The bands are not separate sets: the sort (sorted.build) places each box
// in every band its bounds across the sweep reach, band after band, each
// band in the order of the sweep, and the sweep runs each band's boxes
// against the later boxes of the same band only. So the bands cost a band
// lookup per box and a copy for each box that reaches into a second band,
// and share every phase of one sweep: the bounds, the partition, the
// workers, and the merge that sorts the pairs into the caller's order.
//
// Two boxes that overlap have bounds across the sweep that overlap, and
// the band of a bound never decreases with it (binMap), so each box's first
// band is at most the other's last: both boxes are in every band from the
// higher of their first bands to the lower of their last. The pair is kept
// in the first of those only, the one that is the first band of one of the
// two: the sort marks a box's copies in its later bands (the index's
// complement), and a pair of two marked copies is dropped. A box whose
// bounds across the sweep are not finite goes into every band; the boxes
// the sweep leaves out (bound.Classify: a NaN, which overlaps nothing, and
// the boxes the scalar test pairs with every box) go into none.
const (
	bandBoxes = 10000
	bandMax   = 40000
)

// minBandedBoxes is the fewest boxes All cuts into bands.
// BenchmarkBandThreshold times bands against one sweep: with one worker and
// with two, the bands gain from about 150,000 boxes on the uniform scene and
// from 100,000 on the RTS scene, and cost more below. The package's tests
// lower it, to band their smaller sets.
var minBandedBoxes = 1 << 17

// bandCount is how many bands All asks the sort for with n boxes.
func bandCount(n int) int {
	if n < minBandedBoxes {
		return 1
	}
	return bandsFor(n)
}

// bandsFor is how many bands All asks for with n boxes at or above
// minBandedBoxes.
func bandsFor(n int) int {
	return max(1, int(math.Sqrt(float64(n)/bandBoxes)), n/bandMax)
}

// setBands fixes the mapping from a bound across the sweep to its band for
// at most k bands over the finite bounds [lo, hi], whose spans average
// mean, and returns the number of bands. A band is at least bandSpans
// times as high as the average span, so that about one box in bandSpans
// reaches into a second band: boxes on one line, or boxes as large as the
// set, get one band, where k of them would copy every box k times. One
// band, too, when the bounds do not spread (no finite bound, or a span
// that is zero or overflows).
func (s *sorted) setBands(k int, lo, hi, mean float64) int {
	span := hi - lo
	if k > 1 && mean > 0 {
		k = int(min(float64(k), span/(bandSpans*mean)))
	}
	if k < 2 || !(span > 0) || math.IsInf(span, 0) {
		k = 1
	}
	s.bands = k
	s.bandMap = binMap{base: lo, last: k - 1, top: float64(k)}
	if k > 1 {
		s.bandMap.scale = float64(k) / span
	}
	return k
}

// bandSpans is how many times the average box's span across the sweep a
// band is at least high.
const bandSpans = 4

// bandAt returns the band that sorted position p lies in: the first band
// that ends after p.
func (s *sorted) bandAt(p int) int {
	l, h := 0, s.bands-1
	for l < h {
		m := int(uint(l+h) >> 1)
		if _, end := s.bandRange(m); end <= p {
			l = m + 1
		} else {
			h = m
		}
	}
	return l
}

// bandRange returns the sorted positions of band t.
func (s *sorted) bandRange(t int) (start, end int) {
	return int(s.groupStart[t*s.bandGroups]), int(s.groupStart[(t+1)*s.bandGroups])
}
