package world

import "slices"

// Events appends to began the pairs that Pairs' last call reported and the
// call before it did not, and to ended the pairs the call before reported
// and the last did not, both sorted, and returns the extended slices. A
// pair ends when its boxes stop overlapping, when a filter change forbids
// it, or when one of its boxes is removed (its handle is then stale).
func (w *World) Events(began, ended []Pair) ([]Pair, []Pair) {
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
	old, cur := st.evOld[i0:i1], st.evCur[j0:j1]
	e := &st.ev[k]
	began, ended := e.began[:0], e.ended[:0]
	for len(old) > 0 && len(cur) > 0 {
		switch {
		case old[0] < cur[0]:
			ended = append(ended, pairOf(old[0]))
			old = old[1:]
		case cur[0] < old[0]:
			began = append(began, pairOf(cur[0]))
			cur = cur[1:]
		default:
			old, cur = old[1:], cur[1:]
		}
	}
	for _, key := range old {
		ended = append(ended, pairOf(key))
	}
	for _, key := range cur {
		began = append(began, pairOf(key))
	}
	e.began, e.ended = began, ended
}

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
