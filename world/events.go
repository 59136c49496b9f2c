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
	for _, e := range w.step.ev[:2*w.step.evWorkers] {
		began, ended = appendPairs(began, e.began), appendPairs(ended, e.ended)
	}
	return began, ended
}

// appendPairs appends the pairs of keys to dst.
func appendPairs(dst []Pair, keys []uint64) []Pair {
	n := len(dst)
	dst = slices.Grow(dst, len(keys))[:n+len(keys)]
	for i, k := range keys {
		dst[n+i] = pairOf(k)
	}
	return dst
}

// eventShare is one lane's share of the keys of the pairs that began and
// ended (compareKeys).
type eventShare struct{ began, ended []uint64 }

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
	for len(st.ev) < 2*n {
		st.ev = append(st.ev, eventShare{})
	}
	st.evOld, st.evCur, st.evWorkers = old, cur, n
	w.fanOut(n, (*World).compareKeys)
	st.evOld, st.evCur = nil, nil
}

// compareKeys is worker k's share of events, of st.evWorkers = n: the keys
// of both lists between the cuts 2k and 2k+2 of 2n (eventCut), compared in
// two lanes, the first up to the cut 2k+1 into st.ev[2k] and the second
// into st.ev[2k+1], so that the lanes' lists, joined in order, are
// ascending.
func (w *World) compareKeys(k int) {
	st := &w.step
	n := 2 * st.evWorkers
	old, cur := st.evOld, st.evCur
	i0, j0 := eventCut(2*k, n, old, cur)
	i1, j1 := eventCut(2*k+1, n, old, cur)
	i2, j2 := eventCut(2*k+2, n, old, cur)
	a, b := &st.ev[2*k], &st.ev[2*k+1]
	a.began, a.ended, b.began, b.ended = compareLanes(
		old[i0:i1], cur[j0:j1], a.began[:0], a.ended[:0],
		old[i1:i2], cur[j1:j2], b.began[:0], b.ended[:0])
}

// compareLanes is compareRuns on two pairs of lists at once, the lanes
// 0 and 1, which returns each lane's began and ended.
//
// A merge's rounds form one chain: each compares the keys the last one's
// outcome chose. Two independent merges in one loop run two chains side by
// side, which the processor overlaps. Where the boxes of the RTS scene
// alternate between two poses, a few pairs begin and end at every box, and
// and the step that asks for its events is shorter with two lanes than with
// one (BenchmarkWorldEvents, world=rts/moved=100%/workers=1); where most
// pairs stand, as on the mixed scene, the lanes pass over eight standing
// keys at a time as one does, and the step is no different.
func compareLanes(o0, c0, b0, e0, o1, c1, b1, e1 []uint64) ([]uint64, []uint64, []uint64, []uint64) {
	for len(o0) > 0 && len(c0) > 0 && len(o1) > 0 && len(c1) > 0 {
		m0, m1 := min(len(o0), len(c0), mergeRun), min(len(o1), len(c1), mergeRun)
		nb0, ne0, nb1, ne1 := len(b0), len(e0), len(b1), len(e1)
		b0, e0 = slices.Grow(b0, m0)[:nb0+m0], slices.Grow(e0, m0)[:ne0+m0]
		b1, e1 = slices.Grow(b1, m1)[:nb1+m1], slices.Grow(e1, m1)[:ne1+m1]
		i0, j0, db0, de0, i1, j1, db1, de1 := mergeRound2(
			o0[:m0], c0[:m0], b0[nb0:], e0[ne0:],
			o1[:m1], c1[:m1], b1[nb1:], e1[ne1:])
		o0, c0, b0, e0 = o0[i0:], c0[j0:], b0[:nb0+db0], e0[:ne0+de0]
		o1, c1, b1, e1 = o1[i1:], c1[j1:], b1[:nb1+db1], e1[:ne1+de1]
	}
	b0, e0 = compareRuns(o0, c0, b0, e0)
	b1, e1 = compareRuns(o1, c1, b1, e1)
	return b0, e0, b1, e1
}

// compareRuns appends to ended the keys of the ascending old that cur
// lacks and to began those of cur that old lacks, in order.
//
// The merge takes no branch on the keys: each round writes both lists'
// next key past their ends and keeps the one that is new, so that the
// lists' interleaving, which the branches of a plain merge mispredict at
// every turn, costs nothing. When the boxes of the RTS scene alternate
// between two poses, nine pairs a box, a few begin and end at every box,
// and the plain merge took a fifth of the step (BenchmarkWorldStep,
// world=rts, moved=100%). Rounds go in runs of at most mergeRun, with
// room made for a run's output before it starts, so the lists need no
// more than mergeRun keys of room beyond what they hold.
func compareRuns(old, cur, began, ended []uint64) ([]uint64, []uint64) {
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
	return append(began, cur...), append(ended, old...)
}

// mergeRound is compareRuns' rounds over o and c, of equal length m, with
// m keys of room in b and in e, until o or c is consumed: it returns how
// many keys of each it consumed and how many it put in b and in e. Eight
// keys of o equal to the next eight of c, pairs that stand, as most do
// where the boxes move little, are passed over in one comparison. Each
// round consumes a key of o or of c, and puts a key in e only for a key of
// o and in b only for one of c, so neither list gets more than m. It is not
// inlined, so that its loops have the registers to themselves.
//
//go:noinline
func mergeRound(o, c, b, e []uint64) (i, j, nb, ne int) {
	for {
		if i+8 <= len(o) && j+8 <= len(c) {
			if equal8(o[i:i+8:i+8], c[j:j+8:j+8]) {
				i, j = i+8, j+8
				continue
			}
		}
		r := min(8, len(o)-i, len(c)-j)
		if r == 0 {
			return i, j, nb, ne
		}
		i, j, nb, ne = rounds(o, c, b, e, i, j, nb, ne, r)
	}
}

// mergeRound2 is mergeRound on two lanes at once, each with its own o, c,
// b and e, until either lane's o or c is consumed. Where both lanes' next
// eight keys stand, both pass over them; where one lane's stand, it passes
// over them and the other makes eight rounds alone, so that a lane does
// not wait for the other to reach keys that change; otherwise both make
// eight rounds together.
//
//go:noinline
func mergeRound2(o0, c0, b0, e0, o1, c1, b1, e1 []uint64) (i0, j0, nb0, ne0, i1, j1, nb1, ne1 int) {
	for {
		r := 8
		if i0+8 <= len(o0) && j0+8 <= len(c0) && i1+8 <= len(o1) && j1+8 <= len(c1) {
			s0, s1 := 0, 0
			if equal8(o0[i0:i0+8:i0+8], c0[j0:j0+8:j0+8]) {
				s0 = 8
			}
			if equal8(o1[i1:i1+8:i1+8], c1[j1:j1+8:j1+8]) {
				s1 = 8
			}
			i0, j0, i1, j1 = i0+s0, j0+s0, i1+s1, j1+s1
			switch s0 | s1<<1 {
			case 8 | 16:
				continue
			case 8:
				i1, j1, nb1, ne1 = rounds(o1, c1, b1, e1, i1, j1, nb1, ne1, 8)
				continue
			case 16:
				i0, j0, nb0, ne0 = rounds(o0, c0, b0, e0, i0, j0, nb0, ne0, 8)
				continue
			}
		} else {
			r = min(8, len(o0)-i0, len(c0)-j0, len(o1)-i1, len(c1)-j1)
			if r == 0 {
				return
			}
		}
		for range r {
			x0, y0 := o0[i0], c0[j0]
			x1, y1 := o1[i1], c1[j1]
			e0[ne0], b0[nb0] = x0, y0
			e1[ne1], b1[nb1] = x1, y1
			lt0, gt0, lt1, gt1 := 0, 0, 0, 0
			if x0 < y0 {
				lt0 = 1
			}
			if y0 < x0 {
				gt0 = 1
			}
			if x1 < y1 {
				lt1 = 1
			}
			if y1 < x1 {
				gt1 = 1
			}
			ne0, nb0, i0, j0 = ne0+lt0, nb0+gt0, i0+1-gt0, j0+1-lt0
			ne1, nb1, i1, j1 = ne1+lt1, nb1+gt1, i1+1-gt1, j1+1-lt1
		}
	}
}

// rounds makes r of mergeRound's rounds from keys i of o and j of c on,
// and returns the indices after them.
func rounds(o, c, b, e []uint64, i, j, nb, ne, r int) (int, int, int, int) {
	for range r {
		x, y := o[i], c[j]
		e[ne], b[nb] = x, y
		lt, gt := 0, 0
		if x < y {
			lt = 1
		}
		if y < x {
			gt = 1
		}
		ne, nb, i, j = ne+lt, nb+gt, i+1-gt, j+1-lt
	}
	return i, j, nb, ne
}

// equal8 reports whether the eight keys of x equal those of y.
func equal8(x, y []uint64) bool {
	x, y = x[:8:8], y[:8:8]
	return (x[0]^y[0])|(x[1]^y[1])|(x[2]^y[2])|(x[3]^y[3])|(x[4]^y[4])|(x[5]^y[5])|(x[6]^y[6])|(x[7]^y[7]) == 0
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
