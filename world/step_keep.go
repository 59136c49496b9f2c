package world

// keepChunk is the fewest pair keys keepAll gives a worker. Spread over
// workers, keep writes each share to a list of its own, which placeShare
// then copies into place: a pass more than keep on one goroutine, which
// writes cur and the caller's pairs in one. With two workers, on steps
// that moved one box in a hundred, one worker was faster at 100,000 boxes
// (about a million pairs: RTS 2,723 → 2,266 ns a moved box, mixed 2,311 →
// 1,947) and two no slower at 1,000,000 (eight to eleven million pairs:
// RTS 3,370 and 3,387, mixed 2,557 and 2,779; BenchmarkWorldStep,
// moved=1%, workers=2).
var keepChunk = 1 << 21 // a variable for the tests (KeepChunk)

// keepAll is keep on as many workers as Workers and the number of pairs
// allow. keep is a pass over every remembered pair, so in a step that
// moved few boxes of a world with many pairs it is the largest part of the
// work (BenchmarkWorldStep, world=rts, moved=1%). Each worker keeps a share
// of the remembered and the found pairs, cut at keys as events cuts them
// (eventCut), in its own lists; the shares of cur are then copied into
// place, and into the caller's slice, on the workers, and those of
// dropped, a few, joined on the caller's.
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
	workers := w.workers(len(st.prev)+len(st.found), keepChunk)
	i0, j0 := eventCut(k, workers, st.prev, st.found)
	i1, j1 := eventCut(k+1, workers, st.prev, st.found)
	sh.prev, sh.found = st.prev[i0:i1], st.found[j0:j1]
	sh.cur, sh.dropped = sh.cur[:0], sh.dropped[:0]
	sh.keep(w.dirty.bits)
	sh.prev, sh.found = nil, nil
}

// placeShare copies worker k's share of cur into place, and into the
// caller's spare room (st.pairs) as far as that goes.
func (w *World) placeShare(k int) {
	st := &w.step
	at, sh := st.keepAt[k], st.shares[k].cur
	copy(st.cur[at:], sh)
	pairs := st.pairs[min(2*at, len(st.pairs)):]
	for i, key := range sh[:min(len(sh), len(pairs)/2)] {
		pairs[2*i], pairs[2*i+1] = uint32(key>>32), uint32(key)
	}
}
