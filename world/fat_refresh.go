package world

// refreshFat gives the escaped boxes new fat bounds, finds their new
// candidates, and makes the candidates those of the boxes that did not
// escape, merged with the new ones.
//
// The last part is a pass over every candidate, however few boxes
// escaped: on the RTS scene at 1,000,000 boxes, 15.7 million candidates
// for about 200 escapes a step, it is one pass that filters and merges;
// a filter and then a merge took 43 ms a step, the one pass 22
// (BenchmarkWorldStep, world=rts, moved=100%, move=bulk, n=1000000, with
// a temporary timer). The pass is bound by memory: split among two
// workers, with a first pass counting each share's output, it took as
// long.
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
	next := v.nextCand(len(v.cand) + len(fresh))
	n := keepMerge(next, v.cand, fresh, v.escBits)
	v.setCand(next[:n])
	for _, i := range v.esc {
		v.escBits[i>>6] = 0
	}
}

// keepMerge writes to out the keys of cand with neither box's bit set in
// escaped, merged with fresh, in order, and returns how many it wrote.
// out has room for both lists.
func keepMerge(out, cand, fresh, escaped []uint64) int {
	n, j := 0, 0
	for _, key := range cand {
		a, b := key>>40, uint64(uint32(key)>>8)
		if escaped[a>>6]&(1<<(a&63)) != 0 || escaped[b>>6]&(1<<(b&63)) != 0 {
			continue
		}
		for j < len(fresh) && fresh[j] < key {
			out[n] = fresh[j]
			n, j = n+1, j+1
		}
		out[n] = key
		n++
	}
	return n + copy(out[n:], fresh[j:])
}
