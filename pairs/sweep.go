package pairs

import (
	"math/bits"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/soa"
)

// chunk is how many positions a worker takes at a time in the bounds and
// sweep jobs (the sort's other jobs and the merge's hand out single groups
// and ranges).
const chunk = 256

// allJob is All's sweep over one sorted set: its positions are query boxes,
// each tested against the later boxes of its band whose interval starts
// before its own ends. batch.Sweep finds each box's run and tests it in one
// call.
type allJob sorted

func (j *allJob) do(w *worker, start, end int) {
	s := (*sorted)(j)
	for start < end {
		lo, hi := s.bandRange(s.bandAt(start))
		stop := min(end, hi)
		s.sweepBand(w, lo, hi, start, stop)
		start = stop
	}
}

// sweepBand sweeps the queries [start, end) of the band at positions
// [lo, hi). A pair of two boxes that are both not in their first band
// (their indices complemented) is another band's: see bands.go.
func (s *sorted) sweepBand(w *worker, lo, hi, start, end int) {
	band := soa.Boxes{CX: s.boxes.CX[lo:hi], CY: s.boxes.CY[lo:hi], UX: s.boxes.UX[lo:hi], UY: s.boxes.UY[lo:hi], HX: s.boxes.HX[lo:hi], HY: s.boxes.HY[lo:hi]}
	index := s.index[lo:hi]
	st := batch.SweepState{Q: start - lo, C: start - lo + 1}
	for st.Q < end-lo {
		n := batch.Sweep(&band, s.lo[lo:hi], s.hi[lo:hi], s.reach[lo:hi], &st, end-lo, w.hits)
		hits := w.hits[:n]
		if s.bands == 1 { // no index is complemented
			if n > 0 {
				out := w.out.room(w, n)
				for i, h := range hits {
					out[i] = ordered(index[h.Q], index[h.C])
				}
			}
			continue
		}
		keep := 0
		for _, h := range hits {
			if index[h.Q]&index[h.C] >= 0 {
				keep++
			}
		}
		if keep == 0 {
			continue
		}
		out := w.out.room(w, keep)
		k := 0
		for _, h := range hits {
			if p, q := index[h.Q], index[h.C]; p&q >= 0 {
				out[k] = ordered(p^p>>31, q^q>>31)
				k++
			}
		}
	}
	w.candidates += st.Candidates
}

// betweenJob is Between's sweep over two sorted sets, a of the moving boxes
// and b of the static ones. Positions below len(a.start) are moving boxes,
// each against the statics whose interval starts within its own; the rest
// are static boxes, each against the movings whose interval starts strictly
// inside its own. Every pair of overlapping intervals is met exactly once.
type betweenJob struct{ a, b *sorted }

func (j *betweenJob) do(w *worker, start, end int) {
	a, b := j.a, j.b
	if na := len(a.start); start < na {
		w.runs = appendRuns(w.runs[:0], a, b, start, min(end, na), true)
		sweepRuns(w, a, b, w.runs, func(p, q int32) Pair { return Pair{a.index[p], b.index[q]} })
		start = na
	}
	if start < end {
		na := len(a.start)
		w.runs = appendRuns(w.runs[:0], b, a, start-na, end-na, false)
		sweepRuns(w, b, a, w.runs, func(p, q int32) Pair { return Pair{a.index[q], b.index[p]} })
	}
}

// appendRuns appends the non-empty candidate runs of boxes [start, end) of from
// among the boxes of to: those whose interval starts inside the box's own,
// at its start too when atStart.
func appendRuns(runs []int32, from, to *sorted, start, end int, atStart bool) []int32 {
	for p := start; p < end; p++ {
		lo := to.firstAbove(0, unsortable(from.start[p]), atStart)
		if hi := to.firstAbove(lo, from.hi[p], false); hi > lo {
			runs = append(runs, int32(p), int32(lo), int32(hi))
		}
	}
	return runs
}

// sweep hands the candidate runs, triples of a query position in qs and a
// range of positions in cand, to the kernel in one call, and adds the pair
// that pair(query position, candidate position) makes of every overlapping
// candidate to the pass's pairs.
func sweepRuns(w *worker, qs, cand *sorted, runs []int32, pair func(p, j int32) Pair) {
	// Where each run's words start, and one past the last run's.
	starts := w.wordStart[:0]
	words := 0
	for k := 0; k < len(runs); k += 3 {
		starts = append(starts, words)
		words += batch.Words(int(runs[k+2] - runs[k+1]))
		w.candidates += int(runs[k+2] - runs[k+1])
	}
	starts = append(starts, words)
	w.wordStart = starts
	if cap(w.bits) < words {
		w.bits = make([]uint64, words)
	}
	set := w.bits[:words]
	batch.RunsPruned(&qs.boxes, &cand.boxes, qs.reach, cand.reach, runs, set)
	// Few words have a bit set (a run of about a hundred candidates holds
	// well under one pair), so the words are scanned as one array, and the
	// run a nonzero word belongs to is found by moving a cursor forward over
	// the runs' starts instead of visiting every run. The pairs are counted
	// first, so that room for them all is reserved at once.
	n := 0
	for _, word := range set {
		n += bits.OnesCount64(word)
	}
	if n == 0 {
		return
	}
	out := w.out.room(w, n)
	k, r := 0, 0
	for i, word := range set {
		if word == 0 {
			continue
		}
		for starts[r+1] <= i {
			r++
		}
		p, at := runs[3*r], runs[3*r+1]+64*int32(i-starts[r])
		for word != 0 {
			out[k] = pair(p, at+int32(bits.TrailingZeros64(word)))
			k++
			word &= word - 1
		}
	}
}
