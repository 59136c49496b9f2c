package world

// keepAll is keep on as many workers as Workers and the number of pairs
// allow. keep is a pass over every remembered pair, so in a step that
// moved few boxes of a world with many pairs it is the largest part of the
// work, with the copy to the caller's slice (BenchmarkWorldStep,
// world=rts, moved=1%, n=1000000). Each worker keeps a share of the remembered and
// the found pairs, cut at keys as events cuts them (eventCut), in its own
// lists; the shares of cur are then copied into place on the workers, and
// those of dropped, a few, joined on the caller's.
func (w *World) keepAll() {
	st := &w.step
	n := w.workers(len(st.prev)+len(st.found), pairChunk)
	if n == 1 {
		st.keep(w.dirty.bits)
		return
	}
	for len(st.shares) < n {
		st.shares = append(st.shares, keeper{})
	}
	w.fanOut(n, (*World).keepShare)
	st.keepAt = st.keepAt[:0]
	total := 0
	for _, sh := range st.shares[:n] {
		st.keepAt = append(st.keepAt, total)
		total += len(sh.cur)
		st.dropped = append(st.dropped, sh.dropped...)
	}
	if cap(st.cur) < total {
		st.cur = make([]uint64, 0, total)
	}
	st.cur = st.cur[:total]
	w.fanOut(n, (*World).placeShare)
}

// keepShare is worker k's share of keepAll: the keys of st.prev and
// st.found between the cuts k and k+1.
func (w *World) keepShare(k int) {
	st := &w.step
	sh := &st.shares[k]
	workers := w.workers(len(st.prev)+len(st.found), pairChunk)
	i0, j0 := eventCut(k, workers, st.prev, st.found)
	i1, j1 := eventCut(k+1, workers, st.prev, st.found)
	sh.prev, sh.found = st.prev[i0:i1], st.found[j0:j1]
	sh.cur, sh.dropped = sh.cur[:0], sh.dropped[:0]
	sh.keep(w.dirty.bits)
	sh.prev, sh.found = nil, nil
}

// placeShare copies worker k's share of cur into place.
func (w *World) placeShare(k int) {
	st := &w.step
	copy(st.cur[st.keepAt[k]:], st.shares[k].cur)
}
