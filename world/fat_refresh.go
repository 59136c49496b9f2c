package world

import "slices"

// refreshFat gives the escaped boxes new fat bounds and finds their new
// candidates, the queries on the workers (gather). While the candidates
// are tested by the kernel, those join extra, the candidates found since
// the last merge, and the escaped boxes become dead: their keys in cand are stale, and the candidates' test
// skips them (testCandidates). Otherwise, and when extra outgrows the
// room setCand gave it, a sixteenth of cand's, extra and the new
// candidates are merged into cand.
//
// The merge filters every candidate, however few boxes escaped, on the
// calling goroutine: split among two workers it is no faster, being bound by
// memory (BenchmarkWorldStep, world=rts/moved=100%/move=bulk, whose boxes
// have sixteen candidates each). The kernel's test skips the stale keys at
// no cost a key (a dead box's column holds a NaN), where a check of each key
// for a dead box cost as much as the merge saved; the test of boxes' slots,
// used with fewer than one candidate for every kernelShare Dynamic boxes,
// would pay that check, where the merge costs little.
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
	fresh := w.gather(len(v.esc), escapeRun, func(w *World, dst []uint64, j int) []uint64 {
		i := w.fat.esc[j]
		if f := &w.fat.box[i]; f.h != 0 {
			return w.fatQuery(dst, i, f)
		}
		return dst
	})
	fresh, v.sortBuf = sortKeys(fresh, v.sortBuf, len(w.slots))
	v.fresh = fresh
	if v.kernel && len(v.extra)+len(fresh) <= cap(v.extraBuf) {
		next := v.extraBuf[:len(v.extra)+len(fresh)]
		n := keepMerge(next, v.extra, fresh, v.escBits)
		v.extra, v.extraBuf = next[:n], v.extra[:0]
		for _, i := range v.esc {
			v.dead.add(i)
		}
	} else {
		w.mergeExtra()
		next := v.nextCand(len(v.cand) + len(fresh))
		n := keepMerge(next, v.cand, fresh, v.escBits)
		v.setCand(next[:n])
	}
	for _, i := range v.esc {
		v.escBits[i>>6] = 0
	}
}

// escapeRun is how many escaped boxes' queries a worker of refreshFat
// takes at a time, and the fewest it is given: an escaped box's query
// costs a step microseconds on the scenes at 100,000 boxes with one worker
// (escapeShare).
const escapeRun = 64

// mergeExtra folds extra into cand: the keys of cand with no dead box,
// merged with extra. The dead boxes get their columns back
// (testCandidates).
func (w *World) mergeExtra() {
	v := &w.fat
	if len(v.dead.list) == 0 && len(v.extra) == 0 {
		return
	}
	if v.copied {
		for _, i := range v.dead.list {
			w.copyBox(i)
		}
	}
	next := v.nextCand(len(v.cand) + len(v.extra))
	n := keepMerge(next, v.cand, v.extra, v.dead.bits)
	v.setCand(next[:n])
	v.extra = v.extra[:0]
	v.dead.clear()
	v.merges++
}

// extraShare: extra has room for a sixteenth of cand's keys (refreshFat).
const extraShare = 16

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

// joinSparse appends to dst the ascending part merged with the keys of the
// ascending ex below part's last, which it returns consumed. ex, a few
// keys, none of them in part, is spread thin over it: each key is placed
// by a search that doubles its step from where the last was placed, so
// that it reads the lines between them, not a binary search's lines all
// over part, and part is copied in runs.
func joinSparse(dst, part, ex []uint64) ([]uint64, []uint64) {
	for len(ex) > 0 && len(part) > 0 && ex[0] < part[len(part)-1] {
		x, step := ex[0], 1
		for step < len(part) && part[step] < x {
			step <<= 1
		}
		i, _ := slices.BinarySearch(part[:min(step+1, len(part))], x)
		dst = append(append(dst, part[:i]...), x)
		part, ex = part[i:], ex[1:]
	}
	return append(dst, part...), ex
}
