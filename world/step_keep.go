package world

// keepChunk is the fewest pair keys keepAll gives a worker. Spread over
// workers, keep writes the first share into place and each other share to
// a list of its own, which placeShare then copies into place: a pass more,
// over all but the first share, than keep on one goroutine makes. On steps
// that moved one box in a hundred (BenchmarkWorldStep, moved=1%, workers=2),
// one worker is faster for about a million pairs (the RTS and mixed scenes
// at 100,000 boxes) and two for eight million and more (at 1,000,000).
var keepChunk = 1 << 21 // a variable for the tests (KeepChunk)

// keepAll is keep on as many workers as Workers and the number of pairs
// allow. keep is a pass over every remembered pair, so in a step that
// moved few boxes of a world with many pairs it is the largest part of the
// work (BenchmarkWorldStep, world=rts, moved=1%). Each worker keeps a share
// of the remembered and the found pairs, cut at keys as events cuts them
// (eventCut). Where each share's pairs go in cur is known only when the
// shares before it are done, so the first share alone is written into
// place, cur and the caller's slice, as keep on one goroutine writes them;
// the others go to lists of their own, which the workers then copy into
// place, each an equal part of all of them. The shares of dropped, a few,
// are joined on the caller's.
func (w *World) keepAll() {
	st := &w.step
	n := w.workers(len(st.prev)+len(st.found), keepChunk)
	if n == 1 {
		st.keep(w.dirty.bits)
		return
	}
	for len(st.shares) < n {
		st.shares = append(st.shares, keeper{})
	}
	w.fanOut(n, (*World).keepShare)
	first := &st.shares[0]
	st.cur, first.cur, first.pairs = first.cur, nil, nil // keep may have grown it
	st.keepAt = append(st.keepAt[:0], 0)
	total := len(st.cur)
	for _, sh := range st.shares[:n] {
		total += len(sh.cur)
		st.keepAt = append(st.keepAt, total)
		st.dropped = append(st.dropped, sh.dropped...)
	}
	if cap(st.cur) < total {
		st.cur = append(make([]uint64, 0, total), st.cur...)
	}
	st.cur = st.cur[:total]
	w.fanOut(n, (*World).placeShare)
}

// keepShare is worker k's share of keepAll: the keys of st.prev and
// st.found between the cuts k and k+1. The first share is written into
// st.cur and the caller's spare room, the others to the shares' own lists.
func (w *World) keepShare(k int) {
	st := &w.step
	sh := &st.shares[k]
	workers := w.workers(len(st.prev)+len(st.found), keepChunk)
	i0, j0 := eventCut(k, workers, st.prev, st.found)
	i1, j1 := eventCut(k+1, workers, st.prev, st.found)
	sh.prev, sh.found = st.prev[i0:i1], st.found[j0:j1]
	sh.cur, sh.dropped = sh.cur[:0], sh.dropped[:0]
	if k == 0 {
		sh.cur, sh.pairs = st.cur[:0], st.pairs
	}
	sh.keep(w.dirty.bits)
	sh.prev, sh.found = nil, nil
}

// placeShare is worker k's part, of n, of the copy of the shares after the
// first into place: the pairs of cur from keepAt[1] on, in n equal parts,
// into cur and into the caller's spare room (st.pairs) as far as that
// goes. A part can take the end of one share and the start of the next.
func (w *World) placeShare(k int) {
	st := &w.step
	n := len(st.keepAt) - 1
	from, to := st.keepAt[1], st.keepAt[n]
	a, b := from+k*(to-from)/n, from+(k+1)*(to-from)/n
	for s := 1; s < n && a < b; s++ {
		at, end := st.keepAt[s], st.keepAt[s+1]
		if a >= end {
			continue
		}
		part := st.shares[s].cur[a-at : min(b, end)-at]
		cur := st.cur[a : a+len(part)]
		pairs := st.pairs[min(2*a, len(st.pairs)):]
		m := min(len(part), len(pairs)/2)
		pairs = pairs[:2*m]
		for i, key := range part[:m] {
			cur[i] = key
			pairs[2*i], pairs[2*i+1] = uint32(key>>32), uint32(key)
		}
		copy(cur[m:], part[m:])
		a += len(part)
	}
}
