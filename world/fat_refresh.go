package world

import "slices"

// refreshFat gives the escaped boxes new fat bounds, finds their new
// candidates, and makes the candidates those of the boxes that did not
// escape, merged with the new ones.
//
// The last part is a pass over every candidate, however few boxes
// escaped: on the RTS scene at 1,000,000 boxes, 18.7 million candidates
// and under ten thousand escapes a step, a filter and then a merge took 38 ms
// of a 164 ms step with two workers, all on the calling goroutine. It
// filters and merges in one pass, and splits it among the workers by equal
// shares of the candidates, each with the new keys that fall among its
// share's: a first pass counts each share's candidates kept, which places
// each share's output, and the second writes them. One worker needs no
// count: its output starts at the front (BenchmarkWorldStep, world=rts,
// moved=100%, n=1000000: 10% faster with one worker, 14% with two).
func (w *World) refreshFat() {
	v := &w.fat
	if len(v.esc) == 0 {
		return
	}
	for _, i := range v.esc {
		v.escBits[i>>6] |= 1 << (i & 63)
	}
	for _, i := range v.esc {
		w.refit(i)
	}
	fresh := v.fresh[:0]
	for _, i := range v.esc {
		if f := &v.box[i]; f.h != 0 {
			fresh = w.fatQuery(fresh, i, f)
		}
	}
	fresh, v.sortBuf = sortKeys(fresh, v.sortBuf, len(w.slots))
	v.fresh = fresh
	w.renewCandidates()
	for _, i := range v.esc {
		v.escBits[i>>6] = 0
	}
}

// renewal is refreshFat's division of the candidates among workers.
type renewal struct {
	cand  []int    // where each share's candidates start, then the end
	fresh []int    // where each share's new candidates start, then the end
	count []int    // each share's candidates kept, then its output's length
	at    []int    // where each share's output starts
	out   []uint64 // the next candidates
}

// renewChunk is the fewest candidates a worker takes, about 100 µs of
// filtering and merging at 1.5 ns a candidate: starting a worker costs
// microseconds.
const renewChunk = 1 << 16

// renewCandidates makes the candidates those of v.cand with no escaped
// box, merged with v.fresh, in key order.
func (w *World) renewCandidates() {
	v := &w.fat
	r := &v.renew
	n := w.workers(len(v.cand), renewChunk)
	r.cand, r.fresh = slices.Grow(r.cand[:0], n+1)[:n+1], slices.Grow(r.fresh[:0], n+1)[:n+1]
	r.count, r.at = slices.Grow(r.count[:0], n)[:n], slices.Grow(r.at[:0], n)[:n]
	for k := range n + 1 {
		r.cand[k] = k * len(v.cand) / n
	}
	r.fresh[0], r.fresh[n] = 0, len(v.fresh)
	for k := 1; k < n; k++ {
		r.fresh[k], _ = slices.BinarySearch(v.fresh, v.cand[r.cand[k]])
	}
	r.out = v.nextCand(len(v.cand) + len(v.fresh))
	r.at[0] = 0
	if n > 1 {
		w.fanOut(n, (*World).countKept)
		for k := 1; k < n; k++ {
			r.at[k] = r.at[k-1] + r.count[k-1] + r.fresh[k] - r.fresh[k-1]
		}
	}
	w.fanOut(n, (*World).renewShare)
	v.setCand(r.out[:r.at[n-1]+r.count[n-1]])
	r.out = nil
}

// countKept is worker k's share of the count of the candidates kept.
func (w *World) countKept(k int) {
	v := &w.fat
	r := &v.renew
	kept := 0
	for _, key := range v.cand[r.cand[k]:r.cand[k+1]] {
		if !escapedPair(v.escBits, key) {
			kept++
		}
	}
	r.count[k] = kept
}

// renewShare is worker k's share of the next candidates: its candidates
// kept, merged with its new ones, from r.at[k].
func (w *World) renewShare(k int) {
	v := &w.fat
	r := &v.renew
	x, y := v.cand[r.cand[k]:r.cand[k+1]], v.fresh[r.fresh[k]:r.fresh[k+1]]
	out := r.out[r.at[k]:]
	n, j := 0, 0
	for _, key := range x {
		if escapedPair(v.escBits, key) {
			continue
		}
		for j < len(y) && y[j] < key {
			out[n] = y[j]
			n, j = n+1, j+1
		}
		out[n] = key
		n++
	}
	r.count[k] = n + copy(out[n:], y[j:])
}

// escapedPair reports whether either box of the candidate key escaped.
func escapedPair(bits []uint64, key uint64) bool {
	a, b := key>>40, uint64(uint32(key)>>8)
	return bits[a>>6]&(1<<(a&63)) != 0 || bits[b>>6]&(1<<(b&63)) != 0
}
