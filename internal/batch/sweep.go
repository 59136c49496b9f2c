package batch

import (
	"fmt"
	"math"

	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/soa"
)

// Hit is a pair of boxes that Sweep found: box Q of the swept set and box C,
// a later box of its run (Q < C), by position in the set.
type Hit struct{ Q, C int32 }

// SweepState is where a sweep stands between calls of Sweep: the next
// query box Q, the next of its candidates C, and how many candidates the
// calls so far have decided. Start a sweep of queries from, ..., end-1 with
// SweepState{Q: from, C: from + 1}.
type SweepState struct {
	Q, C       int
	Candidates int
}

// SweepMinOut is the fewest hits Sweep's out must have room for: the widest
// kernel's group of candidates.
const SweepMinOut = 16

// Sweep is the narrow part of a sweep-and-prune pass over one set b whose
// boxes are sorted by lo, the start of each box's interval on the sweep
// axis; hi holds the end of each interval and reach a bound on each box's
// extent across the sweep (see RunsPruned). Query box q's run is
// the boxes q+1, q+2, ... up to, not including, the first box j with
// !(lo[j] <= hi[q]) (a NaN ends the run too) or the end of the set: with lo
// in ascending order, every later box whose interval starts before q's
// ends. A box j of q's run is a hit when
//
//	|b.CY[j] - b.CY[q]| <= reach[j] + reach[q]
//
// (float32, |x| by clearing the sign bit, false on NaN) and the two boxes
// overlap, exactly as obb.Box.Overlaps says: the bit RunsPruned gives
// the pair.
//
// Sweep decides the runs of queries st.Q through end-1, the first from its
// candidate st.C on, writes the hits to out in order of Q and then C,
// returns how many it wrote, and moves st on: st.Q == end when it is done.
// It returns sooner only when out has fewer free places than SweepMinOut
// left (it may stop before a group of candidates whose hits might not fit);
// calling it again with the same st then goes on where it stopped. The hits
// of successive calls, one after the other, and st.Candidates, which grows
// by the number of candidates decided, are the same for every
// implementation. Finding each run's end while it tests the run, Sweep
// needs no run list and writes no bitset. It allocates nothing.
//
// It panics, before writing anything, if b's columns differ in length or
// from lo, hi and reach, the set has more than math.MaxInt32 boxes, len(out)
// is below SweepMinOut, or st and end do not satisfy
// 0 <= st.Q <= end <= b.Len() and, when st.Q < end, st.Q < st.C <= b.Len().
func Sweep(b *soa.Boxes, lo, hi, reach []float32, st *SweepState, end int, out []Hit) int {
	n := b.Len()
	if len(lo) != n || len(hi) != n || len(reach) != n {
		panic(fmt.Sprintf("batch: lo, hi and reach of %d, %d and %d boxes for a set of %d", len(lo), len(hi), len(reach), n))
	}
	if n > math.MaxInt32 {
		panic(fmt.Sprintf("batch: %d boxes do not fit int32 positions", n))
	}
	if len(out) < SweepMinOut {
		panic(fmt.Sprintf("batch: out has room for %d hits, need at least %d", len(out), SweepMinOut))
	}
	if st.Q < 0 || end < st.Q || end > n || (st.Q < end && (st.C <= st.Q || st.C > n)) {
		panic(fmt.Sprintf("batch: sweep at query %d, candidate %d, to query %d, of %d boxes", st.Q, st.C, end, n))
	}
	if st.Q == end {
		return 0
	}
	q, c, candidates, hits := sweep(b, lo, hi, reach, st.Q, st.C, end, out)
	st.Q, st.C = q, c
	st.Candidates += candidates
	return hits
}

// sweepGeneric is Sweep in Go, for checked arguments: the same reach test
// and lane function as runsPrunedGeneric, branching per candidate.
func sweepGeneric(b *soa.Boxes, lo, hi, reach []float32, q, c, end int, out []Hit) (nextQ, nextC, candidates, hits int) {
	n := len(lo)
	cx, cy, ux, uy, hx, hy, reach, hi := b.CX[:n], b.CY[:n], b.UX[:n], b.UY[:n], b.HX[:n], b.HY[:n], reach[:n], hi[:n]
	for ; q < end; q, c = q+1, q+2 {
		first := c
		var query Query // field by field: see runsPrunedGeneric
		query.CX, query.CY, query.UX, query.UY, query.HX, query.HY = cx[q], cy[q], ux[q], uy[q], hx[q], hy[q]
		qhi, qr := hi[q], reach[q]
		for ; c < n && lo[c] <= qhi; c++ {
			if !(f32.Abs(cy[c]-query.CY) <= reach[c]+qr) || !lane(&query, cx[c], cy[c], ux[c], uy[c], hx[c], hy[c]) {
				continue
			}
			if hits == len(out) {
				return q, c, candidates + c - first, hits
			}
			out[hits] = Hit{int32(q), int32(c)}
			hits++
		}
		candidates += c - first
	}
	return q, c, candidates, hits
}
