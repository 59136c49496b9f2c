package world

import "slices"

// Events appends to began the pairs that Pairs' last call reported and the
// call before it did not, and to ended the pairs the call before reported
// and the last did not, both sorted, and returns the extended slices. A
// pair ends when its boxes stop overlapping, when a filter change forbids
// it, or when one of its boxes is removed (its handle is then stale).
//
// Pairs keeps both lists of pairs, and the first call of Events after it
// compares them; a step that does not ask does not pay for the comparison,
// a pass over the pairs as long as Pairs' own (BenchmarkWorldStep, whose
// steps do not ask, against BenchmarkWorldEvents).
func (w *World) Events(began, ended []Pair) ([]Pair, []Pair) {
	if st := &w.step; st.evPending {
		st.evPending = false
		w.events(st.evOld, st.evCur)
	}
	for _, e := range w.step.ev[:w.step.evWorkers] {
		began, ended = append(began, e.began...), append(ended, e.ended...)
	}
	return began, ended
}

// eventShare is one worker's share of the pairs that began and ended.
type eventShare struct{ began, ended []Pair }

// pairChunk is the fewest pair keys Pairs gives a worker to compare or
// copy: a goroutine takes microseconds to start, the time of some ten
// thousand keys' comparisons.
const pairChunk = 1 << 15

// events compares the ascending keys of the pairs that may have ended
// (old) with those that may have begun (cur), on as many workers as
// Workers and their number allow. A step that moved every box of the RTS
// scene, nine pairs each, compares millions of keys, and on the calling
// goroutine alone the other workers waited a sixth of the step
// (BenchmarkWorldStep, world=rts, moved=100%, workers=2).
func (w *World) events(old, cur []uint64) {
	st := &w.step
	n := w.workers(len(old)+len(cur), pairChunk)
	for len(st.ev) < n {
		st.ev = append(st.ev, eventShare{})
	}
	st.evOld, st.evCur, st.evWorkers = old, cur, n
	w.fanOut(n, (*World).compareKeys)
	st.evOld, st.evCur = nil, nil
}

// compareKeys is worker k's share of events, of st.evWorkers = n: the keys
// of both lists from the cut k to the cut k+1 (eventCut), so that the
// workers' lists, joined in worker order, are ascending.
func (w *World) compareKeys(k int) {
	st := &w.step
	n := st.evWorkers
	i0, j0 := eventCut(k, n, st.evOld, st.evCur)
	i1, j1 := eventCut(k+1, n, st.evOld, st.evCur)
	e := &st.ev[k]
	e.began, e.ended = compareRuns(st.evOld[i0:i1], st.evCur[j0:j1], e.began[:0], e.ended[:0])
}

// compareRuns appends to ended the keys of the ascending old that cur
// lacks and to began those of cur that old lacks, as pairs, in order.
//
// The merge takes no branch on the keys: each round writes both lists'
// next pair past their ends and keeps the one that is new, so that the
// lists' interleaving, which the branches of a plain merge mispredict at
// every turn, costs nothing. When the boxes of the RTS scene alternate
// between two poses, nine pairs a box, a few begin and end at every box,
// and the plain merge took a fifth of the step (BenchmarkWorldStep,
// world=rts, moved=100%). Rounds go in runs of at most mergeRun, with
// room made for a run's output before it starts, so the lists need no
// more than mergeRun keys of room beyond what they hold.
func compareRuns(old, cur []uint64, began, ended []Pair) ([]Pair, []Pair) {
	for len(old) > 0 && len(cur) > 0 {
		// Each round consumes a key of old, or of cur, or of both, so
		// in m rounds neither index passes m.
		m := min(len(old), len(cur), mergeRun)
		nb, ne := len(began), len(ended)
		began, ended = slices.Grow(began, m)[:nb+m], slices.Grow(ended, m)[:ne+m]
		i, j, db, de := mergeRound(old[:m], cur[:m], began[nb:], ended[ne:])
		old, cur = old[i:], cur[j:]
		began, ended = began[:nb+db], ended[:ne+de]
	}
	for _, key := range old {
		ended = append(ended, pairOf(key))
	}
	for _, key := range cur {
		began = append(began, pairOf(key))
	}
	return began, ended
}

// mergeRound is compareRuns' rounds over o and c, of equal length m, with
// m pairs of room in b and in e, until o or c is consumed: it returns how
// many keys of each it consumed and how many pairs it put in b and in e.
// Eight keys of o equal to the next eight of c, pairs that stand, as most
// do where the boxes move little, are passed over in one comparison. Each
// round consumes a key of o or of c, and puts a pair in e only for a key
// of o and in b only for one of c, so neither list gets more than m. It
// is not inlined, so that its loops have the registers to themselves.
//
//go:noinline
func mergeRound(o, c []uint64, b, e []Pair) (i, j, nb, ne int) {
	for {
		if i+8 <= len(o) && j+8 <= len(c) {
			x, y := o[i:i+8:i+8], c[j:j+8:j+8]
			if (x[0]^y[0])|(x[1]^y[1])|(x[2]^y[2])|(x[3]^y[3])|(x[4]^y[4])|(x[5]^y[5])|(x[6]^y[6])|(x[7]^y[7]) == 0 {
				i, j = i+8, j+8
				continue
			}
		}
		r := min(8, len(o)-i, len(c)-j)
		if r == 0 {
			return i, j, nb, ne
		}
		for range r {
			x, y := o[i], c[j]
			e[ne], b[nb] = pairOf(x), pairOf(y)
			lt, gt := 0, 0
			if x < y {
				lt = 1
			}
			if y < x {
				gt = 1
			}
			ne, nb = ne+lt, nb+gt
			i, j = i+1-gt, j+1-lt
		}
	}
}

// mergeRun is how many rounds compareRuns makes room for at a time.
const mergeRun = 1024

// eventCut returns where the k-th of n shares of the comparison of the
// ascending old and cur starts in each: at the first key of either at or
// above the key of rank k/n of the two merged (coRank). Cutting both at a
// key keeps a key that both hold in one share.
func eventCut(k, n int, old, cur []uint64) (i, j int) {
	total := len(old) + len(cur)
	p := k * total / n
	if p == total {
		return len(old), len(cur)
	}
	i = coRank(p, old, cur)
	j = p - i
	var key uint64
	if i < len(old) && (j >= len(cur) || old[i] <= cur[j]) {
		key = old[i]
	} else {
		key = cur[j]
	}
	i, _ = slices.BinarySearch(old, key)
	j, _ = slices.BinarySearch(cur, key)
	return i, j
}
