package world

import (
	"math"
	mathbits "math/bits"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/obb"
)

// The candidates (fat.go): made, cell by cell, when a build begins their
// use; added to by the queries of the boxes that escape their fat bounds;
// and tested, every step, with the kernels, each pair against the two
// boxes' current poses.

// buildCandidates puts every candidate in v.cand, cell by cell: each
// cell's boxes against those of the cells that the union of their fat
// bounds reaches, one visit of the grid a cell, where a query for each box
// would make one a box. A pair is met from the cells of both its boxes
// (from a Dynamic box's cell with a Static one), and kept from the lower
// handle's. The workers take runs of cells in turn (gather), and the sort
// puts their keys in order, whichever worker found them.
func (w *World) buildCandidates() {
	v := &w.fat
	fresh := w.gather(len(w.grids[Dynamic].cells)+len(w.grids[Static].cells), buildRun, func(w *World, dst []uint64, c int) []uint64 {
		dyn := len(w.grids[Dynamic].cells)
		if c < dyn {
			return w.cellCandidates(dst, Dynamic, c)
		}
		return w.cellCandidates(dst, Static, c-dyn)
	})
	fresh, v.sortBuf = sortKeys(fresh, v.sortBuf, len(w.slots))
	v.fresh = fresh
	next := v.nextCand(len(fresh))
	copy(next, fresh)
	v.setCand(next)
	v.extra = v.extra[:0]
	v.dead.clear()
}

// buildRun is how many cells a worker of buildCandidates takes at a time,
// and the fewest it is given: small against the cells of a build of the
// RTS scene's 100,000 boxes (BenchmarkBuildFat), so that the workers'
// shares end together, and a world of fewer than 512 cells builds on one.
const buildRun = 256

// gathering is gather's state, which its workers share. The lists of the
// workers after the first are kept for the next gather, so that steps
// like the last allocate nothing: with two workers, a build leaves about
// half of its candidates' room there.
type gathering struct {
	parts [][]uint64 // each worker's keys
	find  func(w *World, dst []uint64, item int) []uint64
	items int          // how many items there are
	run   int          // how many a worker takes at a time
	next  atomic.Int64 // how many the workers have taken
}

// gather returns the keys find appends for items 0 to items-1, in the
// buffer of v.fresh, in no order: on as many workers as have run items
// or more, each taking runs of run items in turn into a list of its own,
// which gather then joins.
func (w *World) gather(items, run int, find func(w *World, dst []uint64, item int) []uint64) []uint64 {
	v, g := &w.fat, &w.fat.gat
	n := w.workers(items, run)
	for len(g.parts) < n {
		g.parts = append(g.parts, nil)
	}
	g.parts[0] = v.fresh
	g.find, g.items, g.run = find, items, run
	g.next.Store(0)
	w.fanOut(n, (*World).gatherShare)
	out := g.parts[0]
	for _, p := range g.parts[1:n] {
		out = append(out, p...)
	}
	g.parts[0], g.find = nil, nil
	return out
}

// gatherShare is worker k's share of gather.
func (w *World) gatherShare(k int) {
	g := &w.fat.gat
	out := g.parts[k][:0]
	for {
		start := int(g.next.Add(int64(g.run))) - g.run
		if start >= g.items {
			break
		}
		for j := start; j < min(start+g.run, g.items); j++ {
			out = g.find(w, out, j)
		}
	}
	g.parts[k] = out
}

// cellCandidates appends the candidates that cell c of the grid of kind k
// keeps: its boxes' pairs with a higher handle whose fat bounds meet. The
// boxes whose fat bounds meet the union of the cell's are each tested
// against the cell's blocks by batch.MeetsBelow, 8 or 16 lanes an
// instruction: on the RTS and mixed scenes, whose cells are crowded, a
// build tests 17 and 25 lanes for each candidate it keeps, at 100,000
// boxes, and with a loop over the lanes in Go it took longer on both,
// with one worker (BenchmarkBuildFat).
func (w *World) cellCandidates(dst []uint64, k Kind, c int) []uint64 {
	g := &w.grids[k]
	inf := float32(math.Inf(1))
	lo, hi := obb.Vec2{X: inf, Y: inf}, obb.Vec2{X: -inf, Y: -inf}
	for b := g.cells[c].head; b >= 0; b = g.blocks[b].next {
		fb := &g.fat[b]
		for lane := range g.blocks[b].n {
			lo = obb.Vec2{X: min(lo.X, fb[0][lane]), Y: min(lo.Y, fb[1][lane])}
			hi = obb.Vec2{X: max(hi.X, fb[2][lane]), Y: max(hi.Y, fb[3][lane])}
		}
	}
	union := batch.Rect{X0: lo.X, Y0: lo.Y, X1: hi.X, Y1: hi.Y}
	for k2 := range w.grids {
		if k == Static && Kind(k2) == Static {
			continue
		}
		g2 := &w.grids[k2]
		for _, lv := range g2.levels {
			g2.visitFar(lv, lo, hi, g2.fatFar(lv), func(blk *block) bool {
				ob := &g2.fat[g2.indexOf(blk)]
				for m := batch.Meets(&union, ob, int(blk.n)); m != 0; m &= m - 1 {
					x := mathbits.TrailingZeros32(m)
					hx := blk.h[x]
					r := batch.Rect{X0: ob[0][x], Y0: ob[1][x], X1: ob[2][x], Y1: ob[3][x]}
					for b := g.cells[c].head; b >= 0; b = g.blocks[b].next {
						// The list doubles when it grows: with append's
						// steps of a quarter, copying it was a large share
						// of the first build of the RTS scene's 1,000,000
						// boxes on one worker.
						own, fb := &g.blocks[b], &g.fat[b]
						if cap(dst)-len(dst) < blockLanes {
							dst = slices.Grow(dst, max(len(dst), blockLanes))
						}
						for m := batch.MeetsBelow(&r, fb, (*[blockLanes]uint32)(unsafe.Pointer(&own.h)), uint32(hx), int(own.n)); m != 0; m &= m - 1 {
							dst = append(dst, uint64(own.h[mathbits.TrailingZeros32(m)])<<32|uint64(hx))
						}
					}
				}
				return false
			})
		}
	}
	return dst
}

// fatQuery appends the keys of the candidates of the escaped box of slot
// i, with fat bounds f: the boxes whose fat bounds meet f, except those of
// another escaped box of a lower slot, whose query finds them, and, for a
// Static box, those in the Static grid. batch.Meets tests a block's lanes
// at once, without a branch on their answers: on the RTS scene the boxes
// of a cell are as often near the escaped box as not, and a branch on
// each lane mispredicted about half the time. In CPU profiles of
// BenchmarkWorldDrift at 0.03 a step (one worker, 100,000 boxes, 200
// steps) these queries took half the time they took with a branchless
// loop over the lanes in Go on the RTS scene, and a third on the mixed
// one. Its NaN meets everything, as bounds that cannot be told apart
// must.
func (w *World) fatQuery(dst []uint64, i int32, f *fatBox) []uint64 {
	v := &w.fat
	kind := w.slots[i].kind
	r := batch.Rect{X0: f.lo.X, Y0: f.lo.Y, X1: f.hi.X, Y1: f.hi.Y}
	for k := range w.grids {
		if Kind(k) == Static && kind == Static {
			continue
		}
		g := &w.grids[k]
		for _, lv := range g.levels {
			g.visitFar(lv, f.lo, f.hi, g.fatFar(lv), func(blk *block) bool {
				for m := batch.Meets(&r, &g.fat[g.indexOf(blk)], int(blk.n)); m != 0; m &= m - 1 {
					x := blk.h[mathbits.TrailingZeros32(m)]
					if j := int32(x >> 8); j == i || j < i && v.escBits[j>>6]&(1<<(j&63)) != 0 {
						continue
					}
					dst = append(dst, key(f.h, x))
				}
				return false
			})
		}
	}
	return dst
}

// testCandidates puts in w.step.found the candidates that overlap and
// whose filters allow them, and the pairs of the boxes outside the grids,
// sorted. The workers take equal shares of cand, in order, so their lists
// joined in worker order are sorted; the caller tests extra, a few keys
// (fat_refresh.go), and joins its pairs with theirs (joinSparse).
func (w *World) testCandidates() {
	st := &w.step
	v := &w.fat
	n := w.workers(len(v.cand), candChunk)
	switch {
	case !v.kernel || len(v.cand) < fewCandidates*w.dynamic:
		n = w.slotWorkers(n)
	case len(v.recs)*int(unsafe.Sizeof(batch.Record{})) <= ownRecordBytes:
		n = 1
	}
	for len(st.wk) < n {
		st.wk = append(st.wk, nil)
		st.cols = append(st.cols, columns{})
	}
	v.workers = n
	for len(v.tests) < n {
		v.tests = append(v.tests, pairTest{})
	}
	v.nanDead()
	w.fanOut(n, (*World).testShare)
	ex := v.exFound[:0]
	if len(v.extra) > 0 {
		ex = w.testSlots(ex, v.extra)
		v.exFound = ex
		v.extras++
	}
	found := w.joinFound(n, ex)
	if len(w.infinite) > 0 {
		w.catchUp() // pairsOf reads the lanes
		for _, h := range w.infinite {
			found = w.pairsOf(found, h, &w.slots[h>>8])
		}
		found, st.spare = sortKeys(found, st.spare, len(w.slots))
	}
	st.found = found
}

// nanDead gives each dead box's record a NaN while the kernel tests the
// candidates, which overlaps nothing, so the kernel skips the stale keys
// at no cost a key.
func (v *fatState) nanDead() {
	if v.kernel {
		for _, i := range v.dead.list {
			v.recs[i].CX = float32(math.NaN())
		}
	}
}

// fewCandidates: with fewer candidates than fewCandidates a Dynamic box,
// the test of the candidates runs on the caller alone in a world that is
// not large, as the other passes that read what the caller's next Moves
// write (slotWorkers): the slots' test reads the slots, and the kernel
// reads the records, which each Move writes as it writes the slot
// (moveRecord). A helper that read a record leaves its line in its own
// cache, and the Move that writes it next waits for the other core, a
// wait a moved box; with few candidates a box the helper's share of the
// test saves less than that. The uniform scene, half a candidate a box,
// took longer with two workers than with one in the Move step
// (BenchmarkWorldStep, world=uniform/moved=100%/move=each, n=100000); the
// RTS and mixed scenes, a dozen a box or more, and the RTS map, five or so
// a Dynamic box (BenchmarkWorldMapStep), keep both workers for the kernel,
// whose test is most of their step, once their records outgrow
// ownRecordBytes.
const fewCandidates = 2

// ownRecordBytes: in a world whose records take no more than this (the L2
// cache of a core of an AMD EPYC of the Zen 5 family), the kernel tests
// the candidates on the caller alone, however many there are. The caller
// wrote those records as the boxes moved (moveRecord) and holds them in
// its cache; a helper's share of the test reads each of its records from
// the other core and leaves a copy there, which the next step's writes
// wait to take back, and that costs more than the share saves. With two
// workers, the all-moved steps of the RTS and mixed scenes took longer
// than with one at 10,000 and 30,000 boxes, and as long with this rule;
// at 50,000 boxes and more the helper gains
// (BenchmarkWorldStep, world=rts and world=mixed, moved=100%, workers=2).
// The tests lower it (export_test.go), so that their small worlds test
// the candidates on several workers.
var ownRecordBytes = 1 << 20

// joinFound returns st.found holding the workers' lists of found keys,
// st.wk[:n], one after the other, merged with ex: a pass over every pair
// of the step, which on the calling goroutine alone took a tenth of a step
// of the RTS scene at 1,000,000 boxes with two workers (BenchmarkWorldStep,
// moved=100%, the join timed in the step). Each list's place is known
// beforehand, its length plus the keys of ex below its last, so the lists
// are joined into place on as many workers as their keys allow
// (joinChunk), each taking whole lists (joinShare).
func (w *World) joinFound(n int, ex []uint64) []uint64 {
	st := &w.step
	if n == 1 && len(ex) == 0 {
		// One list and nothing to merge in: the list is the found keys,
		// and its buffer trades places with st.found's instead of being
		// copied, a pass over every pair of the step (8 bytes a key, 8.8
		// keys a box on the RTS scene: BenchmarkWorldStep, world=rts,
		// moved=100%, workers=1).
		st.found, st.wk[0] = st.wk[0], st.found[:0]
		return st.found
	}
	st.joinAt = append(st.joinAt[:0], 0)
	st.joinEx = append(st.joinEx[:0], 0)
	keys, e := 0, 0 // the lists' keys so far, and the keys of ex below their last
	for _, part := range st.wk[:n] {
		keys += len(part)
		if len(part) > 0 {
			// joinSparse merges in the keys of ex below part's last; the
			// lists ascend one after the other, so e does too.
			e, _ = slices.BinarySearch(ex, part[len(part)-1])
		}
		st.joinAt = append(st.joinAt, keys+e)
		st.joinEx = append(st.joinEx, e)
	}
	total := keys + len(ex)
	st.found = slices.Grow(st.found[:0], total)[:total]
	st.joinFrom = ex
	w.fanOut(min(n, w.workers(total, joinChunk)), (*World).joinShare)
	copy(st.found[st.joinAt[n]:], ex[st.joinEx[n]:])
	st.joinFrom = nil
	return st.found
}

// joinChunk is the fewest keys joinFound gives a worker: pairChunk, a
// variable for the tests (TestJoinFound).
var joinChunk = pairChunk

// joinShare is worker k's part of joinFound, of m: lists k·n/m to
// (k+1)·n/m - 1 of n, each merged with its keys of ex into its place in
// st.found.
func (w *World) joinShare(k int) {
	st := &w.step
	n := len(st.joinAt) - 1
	m := min(n, w.workers(len(st.found), joinChunk))
	for j := k * n / m; j < (k+1)*n/m; j++ {
		at, end := st.joinAt[j], st.joinAt[j+1]
		joinSparse(st.found[at:at:end], st.wk[j], st.joinFrom[st.joinEx[j]:st.joinEx[j+1]])
	}
}

// kernelShare: the candidates are tested with batch.PairKeys when there is
// at least one for every kernelShare Dynamic boxes, and with
// obb.Box.Overlaps on the boxes' slots otherwise. The kernel tests eight
// pairs an instruction (sixteen with AVX-512), their boxes loaded from
// records by slot, 32 bytes in one cache line where a slot is 56 bytes
// across one or two: in a world larger than the cache, each candidate's
// second box is a miss, and the record is the smaller one. The records
// must be kept: a move writes its box's record as it writes its slot
// (moveRecord), with the box at hand, and a step copies only the boxes
// changed otherwise (chooseTest). The boxes that move are the
// Dynamic ones, so the writes are counted against them, not against every
// box: on the RTS map with its buildings Static (BenchmarkWorldMapStep),
// about two candidates a box but more than five a Dynamic box, a count
// against every box would choose the slots' test, with which the step
// takes twice as long there as with the kernel. On the uniform scene, half
// a candidate a box, the step with the kernel takes no longer than with
// the slots' test in a world the caches hold and less in one they do not
// (BenchmarkWorldStep, world=uniform/moved=100%, n=10000 to 4000000); the
// RTS and mixed scenes have about fourteen. Fewer candidates than one for
// every kernelShare Dynamic boxes, which none of those scenes has, are
// tested on the slots, for which a move writes nothing more.
const kernelShare = 4

// chooseTest decides how this step tests the candidates and, for the
// kernel, brings the records up to date: every box when the last step did
// not use the kernel, and otherwise, when a box changed since then other
// than by a move that wrote its record (behind), the boxes marked dirty in
// this step and in those since the last that used the candidates.
func (w *World) chooseTest() {
	v := &w.fat
	v.kernel = len(v.cand) > 0 && kernelShare*len(v.cand) >= w.dynamic
	switch {
	case !v.kernel:
		// The slots' test reads no dead marks, so when the kernel's test
		// gives way to it (boxes inserted since raised the count of
		// boxes), extra is merged into cand here, which drops the dead
		// boxes' keys (fat_refresh.go): one merge, where a check of every
		// key for a dead box would cost each step of the slots' test.
		v.copied = false
		w.mergeExtra()
	case !v.copied:
		for i := range w.slots {
			w.copyBox(int32(i))
		}
		v.copied = true
	case v.behind:
		w.copyDirty()
		for _, i := range v.pending.list {
			w.copyBox(i)
		}
	}
	v.behind = false
}

// moveRecord writes b, slot i's new pose, to the kernel's record of the
// box while the records are kept (copied). Otherwise the records need
// nothing: when they are not kept, the next step that uses the kernel
// copies every box (chooseTest), and a slot past them is one inserted
// since they were sized, whose insert set behind. Written here, where the
// box is at hand, a moved box's record costs a step no read of its slot
// (copyDirty), which in a world larger than the cache is a miss
// (BenchmarkWorldStep, moved=100%, n=1000000).
func (v *fatState) moveRecord(i int32, b obb.Box) {
	if v.kernel && v.copied && int(i) < len(v.recs) {
		v.recs[i].Set(b)
	}
}

// copyBox copies slot i's box and filter to the kernel's records.
func (w *World) copyBox(i int32) { w.fat.odd += w.copyRecord(i) }

// copyRecord copies slot i's box and filter to the kernel's records and
// returns the change to the count of filters that differ from
// DefaultFilter.
func (w *World) copyRecord(i int32) int {
	v, s := &w.fat, &w.slots[i]
	v.recs[i].Set(s.box)
	odd := int(b2u(s.filter != DefaultFilter)) - int(b2u(v.filters[i] != DefaultFilter))
	v.filters[i] = s.filter
	return odd
}

// copyDirty copies the boxes marked dirty to the records, for a step
// after a change that did not write them (behind), on the workers as
// MoveBoxes shares its boxes (moveWorkers): each copy reads a slot and
// writes a record, both misses in a large world, and where every box
// moved it is a pass over all of them, which on the calling goroutine
// alone keeps the other workers waiting. The dirty list holds each slot
// once, so the workers write different records.
func (w *World) copyDirty() {
	v := &w.fat
	n := w.moveWorkers(len(w.dirty.list))
	v.oddParts = append(v.oddParts[:0], make([]int, n)...)
	w.fanOut(n, (*World).copyShare)
	for _, d := range v.oddParts {
		v.odd += d
	}
}

// copyShare is worker k's share of copyDirty.
func (w *World) copyShare(k int) {
	list := w.dirty.list
	n := len(w.fat.oddParts)
	odd := 0
	for _, i := range list[k*len(list)/n : (k+1)*len(list)/n] {
		odd += w.copyRecord(i)
	}
	w.fat.oddParts[k] = odd
}

// pairTest is a worker's buffer for batch.PairKeys: the kernel's bits.
type pairTest struct {
	bits []uint64
}

// testChunk is how many candidates a batch.PairKeys call takes: its keys
// and bits stay in the L1 cache.
const testChunk = 1024

// candChunk is the fewest candidates a worker takes; candAhead how many
// candidates ahead testShare asks for a candidate's second slot. The
// first slots follow each other, as the keys do; the second ones are
// anywhere, and in a world larger than the cache each would be a miss
// waited for.
const (
	candChunk = 1 << 14
	candAhead = 8
)

// testShare is worker k's share of testCandidates, in w.step.wk[k]: the
// keys of cand without a dead box (fat_refresh.go), which only the
// kernel's test meets.
func (w *World) testShare(k int) {
	v, st := &w.fat, &w.step
	n := v.workers
	cand := v.cand[k*len(v.cand)/n : (k+1)*len(v.cand)/n]
	found := st.wk[k][:0]
	if cap(found) < len(cand) {
		found = make([]uint64, 0, len(cand)+len(cand)/4) // as many as could overlap, so that steady steps allocate nothing
	}
	if v.kernel {
		st.wk[k] = w.testKernel(found, cand, &v.tests[k])
		return
	}
	st.wk[k] = w.testSlots(found, cand)
}

// testSlots appends to found the candidates of cand that overlap and whose
// filters allow them, from the boxes' slots. It writes each key past the
// end of found and moves the end on by overlapsAll's answer, so that
// neither the test nor the append branches on it: on the uniform scene
// about half of the candidates tested here overlap, and the branches
// mispredicted at random (BenchmarkWorldStep, world=uniform/moved=100%,
// n=100000).
func (w *World) testSlots(found, cand []uint64) []uint64 {
	n := len(found)
	found = slices.Grow(found, len(cand))[:n+len(cand)]
	for j, key := range cand {
		if j+candAhead < len(cand) {
			batch.Prefetch(unsafe.Pointer(&w.slots[uint32(cand[j+candAhead])>>8]), unsafe.Sizeof(slot{}))
		}
		a, b := &w.slots[key>>40], &w.slots[uint32(key)>>8]
		found[n] = key
		if a.filter.allows(b.filter) {
			n += int(overlapsAll(&a.box, &b.box))
		}
	}
	return found[:n]
}

// overlapsAll returns 1 where a.Overlaps(b), 0 elsewhere: obb.Box.Overlaps'
// separating-axis test, operation for operation, on all four axes, and
// their answers combined by AND instead of Overlaps' early returns, which
// skip work where most pairs are apart but are a branch on data where
// half of them overlap (TestOverlapsAll).
func overlapsAll(a, b *obb.Box) uint8 {
	dx := b.Center.X - a.Center.X
	dy := b.Center.Y - a.Center.Y
	ac := f32.Abs(float32(a.Axis.X*b.Axis.X) + float32(a.Axis.Y*b.Axis.Y))
	as := f32.Abs(float32(a.Axis.X*b.Axis.Y) - float32(a.Axis.Y*b.Axis.X))
	p1 := f32.Abs(float32(dx*a.Axis.X) + float32(dy*a.Axis.Y))
	r1 := a.Half.X + (float32(b.Half.X*ac) + float32(b.Half.Y*as))
	p2 := f32.Abs(float32(dy*a.Axis.X) - float32(dx*a.Axis.Y))
	r2 := a.Half.Y + (float32(b.Half.X*as) + float32(b.Half.Y*ac))
	p3 := f32.Abs(float32(dx*b.Axis.X) + float32(dy*b.Axis.Y))
	r3 := b.Half.X + (float32(a.Half.X*ac) + float32(a.Half.Y*as))
	p4 := f32.Abs(float32(dy*b.Axis.X) - float32(dx*b.Axis.Y))
	r4 := b.Half.Y + (float32(a.Half.X*as) + float32(a.Half.Y*ac))
	return b2u(p1 <= r1) & b2u(p2 <= r2) & b2u(p3 <= r3) & b2u(p4 <= r4)
}

// b2u returns 1 for true, 0 for false.
func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// testKernel appends to found the candidates cand that overlap and whose
// filters allow them, their boxes loaded from the records by
// batch.PairKeys a chunk at a time, which takes the slots from the keys
// as it loads them. A record holds a box's six fields in half a cache
// line, where six columns by slot put them in six lines, each a miss in a
// world whose columns outgrow the L2 cache. When every filter is
// DefaultFilter, which allows every pair, it reads none: on the RTS scene,
// nine pairs a box, the reads of both filters of each overlapping pair were
// a cost the step can do without (BenchmarkWorldStep, world=rts/moved=100%).
func (w *World) testKernel(found, cand []uint64, t *pairTest) []uint64 {
	v := &w.fat
	if t.bits == nil {
		t.bits = make([]uint64, batch.Words(testChunk))
	}
	every := v.odd == 0
	for len(cand) > 0 {
		chunk := cand[:min(len(cand), testChunk)]
		cand = cand[len(chunk):]
		batch.PairKeys(v.recs, chunk, t.bits)
		for wi, word := range t.bits[:batch.Words(len(chunk))] {
			for ; word != 0; word &= word - 1 {
				j := wi<<6 + mathbits.TrailingZeros64(word)
				if every || v.filters[chunk[j]>>40].allows(v.filters[uint32(chunk[j])>>8]) {
					found = append(found, chunk[j])
				}
			}
		}
	}
	return found
}
