package world

import (
	"math"
	mathbits "math/bits"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/bound"
)

// stepper is Pairs' state, kept between calls.
type stepper struct {
	keeper
	spare     []uint64    // sortKeys' other buffer
	parts     []int       // where each worker's pairs start in found, then the end (sortFound)
	mergers   int         // how many workers share a round of sortFound's merges
	buckets   bucketState // sortFound's sort in buckets (sortbuckets.go)
	out       []Pair      // the caller's slice, while copyPairs fills it from outStart+outFrom on
	outStart  int
	outFrom   int          // the pairs keep wrote to out
	ev        []eventShare // each worker's events (events.go)
	evOld     []uint64     // the keys events compares
	evCur     []uint64
	evPending bool // Pairs left evOld and evCur for Events to compare
	evWorkers int
	shares    []keeper // each keepAll worker's share (step_keep.go)
	joinAt    []int    // where each worker's found keys go in found (joinFound)
	joinEx    []int    // how many of the extra found keys go before each worker's list ends
	joinFrom  []uint64 // the extra found keys joinFound merges in
	keepAt    []int    // where each share's pairs start in cur (the first's at 0), then the end

	full   bool // this step recomputes every pair, cell by cell (cells.go)
	fewFat bool // this step tested its changed boxes' candidates (fat_few.go)

	// The workers' state for a parallel step: each worker's pairs and
	// scratch columns, a full step's packed boxes, which the workers share,
	// and the next item (dirty box, or cell then infinite box) to hand out.
	wk     [][]uint64
	cols   []columns
	packed packed
	next   atomic.Int64

	// An incremental step's dirty boxes in the order it queries them:
	// w.dirty, or in a large world (regions.go) order, sorted by region
	// (regionSort, with the memory of region, count and lists).
	queue  []int32
	order  []int32
	region []uint16
	count  [2*regions + 2]int32
	lists  [1][]int32
}

// parallelDirty is the fewest dirty boxes a step spreads over more than
// one goroutine, and dirtyChunk how many a worker takes at a time: a
// goroutine takes microseconds to start (BenchmarkGoStart in package
// internal/crew), the time of some ten dirty boxes' queries.
const (
	parallelDirty = 2048
	dirtyChunk    = 64
)

func key(a, b Handle) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(a)<<32 | uint64(b)
}

func pairOf(k uint64) Pair { return Pair{Handle(k >> 32), Handle(k)} }

// Pairs appends to dst every pair of live boxes that overlap, as
// obb.Box.Overlaps decides, whose filters allow it and which are not both
// Static, sorted by A then B, and returns the extended slice.
//
// The World remembers the pairs between calls, so a call costs a query for
// each box inserted, moved or refiltered since the last one, plus a
// sequential pass over the pairs: the remembered ones are kept or dropped
// and merged with the new ones, and written to dst in the same pass as far
// as dst's spare capacity goes (pairs = w.Pairs(pairs[:0]) gives it room
// for the last call's pairs), the rest in a second pass; Events, when
// asked, compares the changed boxes' pairs only. A Static
// box that does not move costs nothing. When at least one Dynamic box in
// eight changed, the call instead tests the pairs whose fat bounds meet,
// which it keeps from step to step, and queries only the boxes that left
// their fat bounds (fat.go), or, when many did, recomputes every pair cell
// by cell; either costs less than as many queries. While it keeps those
// pairs, fewer than two a Dynamic box, a call with fewer changes tests the
// changed boxes' ones instead of querying the boxes (fat_few.go). Events
// then reports how the pairs changed.
func (w *World) Pairs(dst []Pair) []Pair {
	st := &w.step
	w.catchUpCells()
	w.compact()
	st.full = w.dynamic > 0 && len(w.dirty.list)*fullStepShare >= w.dynamic
	w.findPairs()
	if !st.full && !st.fewFat {
		w.noteFat()
	}
	st.cur, st.dropped = st.cur[:0], st.dropped[:0]
	start, written := len(dst), 0
	if st.full {
		st.cur, st.found = st.found, st.cur // the found pairs are all the pairs
	} else {
		// keep writes the pairs it keeps to dst's spare room too, as far as
		// that goes, so copyPairs has only the rest to copy.
		st.pairs = halves(dst[start:cap(dst)])
		w.keepAll()
		written, st.pairs = min(len(st.cur), len(st.pairs)/2), nil
	}
	w.dirty.clear()
	w.fat.unsure.clear()
	// Events compares the lists when first asked (events.go).
	if st.full {
		st.evOld, st.evCur = st.prev, st.cur
	} else {
		// Every found pair has a touched box, so none was kept: the pairs
		// that began are the found ones not dropped, and those that ended
		// the dropped ones not found, a comparison of the touched boxes'
		// pairs only.
		st.evOld, st.evCur = st.dropped, st.found
	}
	st.evPending, st.evWorkers = true, 0
	st.prev, st.cur = st.cur, st.prev
	st.room()
	st.out = slices.Grow(dst[:start+written], len(st.prev)-written)[:start+len(st.prev)]
	st.outStart, st.outFrom = start, written
	if written < len(st.prev) {
		w.fanOut(w.workers(len(st.prev)-written, pairChunk), (*World).copyPairs)
	}
	dst, st.out = st.out, nil
	return dst
}

// halves returns the memory of ps as each pair's two handles, A then B,
// the layout in which batch.KeepKeys writes a key's halves.
func halves(ps []Pair) []uint32 {
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(ps))), 2*len(ps))
}

// A Pair is its two handles, A first, and nothing else.
var (
	_ [unsafe.Offsetof(Pair{}.B) - 4]byte
	_ [unsafe.Sizeof(Pair{}) - 8]byte
	_ [8 - unsafe.Sizeof(Pair{})]byte
)

// copyPairs is worker k's share of the copy into the caller's slice of
// the pairs keep did not write there: all of a full step's, a pass over
// every pair, which a step of the RTS scene, nine pairs a box, would
// otherwise make on the calling goroutine alone.
func (w *World) copyPairs(k int) {
	st := &w.step
	left := len(st.prev) - st.outFrom
	n := w.workers(left, pairChunk)
	a, b := st.outFrom+k*left/n, st.outFrom+(k+1)*left/n
	out := st.out[st.outStart+a : st.outStart+b]
	for i, key := range st.prev[a:b] {
		out[i] = pairOf(key)
	}
}

// room gives the buffers that pass the pairs around (found, spare, cur)
// room for as many as the step found in all (prev). Which buffer holds what
// changes from step to step, so without it a buffer grows when it first
// takes the pairs of a step with more than it has held, which can be many
// steps after the first such step: the RTS scene's boxes alternating
// between two poses, one with half as many pairs again, grew buffers six
// steps on (BenchmarkWorldStep, world=rts).
func (st *stepper) room() {
	n := len(st.prev)
	for _, b := range []*[]uint64{&st.found, &st.spare, &st.cur} {
		if cap(*b) < n {
			*b = make([]uint64, 0, n)
		}
	}
}

// keeper holds the lists keep reads and writes: the stepper's own, or a
// worker's share of them (keepAll).
type keeper struct {
	prev, cur []uint64 // the last and the current pairs, as keys A<<32 | B, ascending
	found     []uint64 // the pairs of the boxes marked dirty this step
	dropped   []uint64 // the remembered pairs of those boxes

	// The caller's spare room as halves (halves), or nil: keep writes
	// each pair of cur there too, until the room ends, so the first
	// min(len(cur), len(pairs)/2) of them are there.
	pairs []uint32
}

// keep puts in kp.cur the remembered pairs that stand, neither box touched
// (moved, refiltered, removed, or its slot reused), merged in order with
// the found ones in the same pass, and in kp.dropped the others; with
// kp.pairs, it writes the pairs of cur there too, as far as its room goes.
// The bitset, an eighth of a byte a slot,
// stays in the cache where the slots would not (BenchmarkWorldStep,
// scene=rts, moved=1%).
//
// Nearly every pair stands in a step that keep runs in, so batch.KeepKeys
// copies them, 8 an instruction with AVX-512, and stops at the first pair
// that needs more: one to drop, found keys to merge before it, a full cur,
// or the end of kp.pairs' room. Writing the caller's pairs in the same
// pass saves copyPairs' pass over them, which read cur back from memory.
func (kp *keeper) keep(touched []uint64) {
	prev, found, pairs := kp.prev, kp.found, kp.pairs
	cur := kp.cur[:cap(kp.cur)]
	n, i, j := len(kp.cur), 0, 0
	for {
		next := uint64(math.MaxUint64) // above every key
		if j < len(found) {
			next = found[j]
		}
		end := len(cur)
		if pairs != nil {
			end = min(end, len(pairs)/2)
		}
		m := batch.KeepKeys(prev[i:], touched, cur[n:end], halvesFrom(pairs, n, end), next)
		n += m
		if i += m; i == len(prev) {
			break
		}
		if pairs != nil && n == len(pairs)/2 { // the caller's room is full
			pairs = nil
			continue
		}
		// The pairs of a box that moved lie together where it is the
		// first box, and the found ones with them: drop and merge them all
		// before the next call.
		k, moved := prev[i], false
		if touchedPair(touched, k) {
			kp.dropped = append(kp.dropped, k)
			for i++; i < len(prev) && touchedPair(touched, prev[i]); i++ {
				kp.dropped = append(kp.dropped, prev[i])
			}
			if i == len(prev) {
				break
			}
			k, moved = prev[i], true
		}
		if j < len(found) && found[j] < k {
			for ; j < len(found) && found[j] < k; j++ {
				cur = append(cur[:n], found[j])
				if pairs != nil && !putHalves(pairs, n, found[j]) {
					pairs = nil
				}
				n++
			}
			cur, moved = cur[:cap(cur)], true
		}
		if !moved { // cur is full
			cur = append(cur[:n], 0)
			cur = cur[:cap(cur)]
		}
	}
	for _, k := range found[j:] {
		if pairs != nil && !putHalves(pairs, n, k) {
			pairs = nil
		}
		cur = append(cur[:n], k)
		n++
	}
	kp.cur = cur[:n]
}

// halvesFrom returns pairs' room for pairs n to end, or nil without pairs.
func halvesFrom(pairs []uint32, n, end int) []uint32 {
	if pairs == nil {
		return nil
	}
	return pairs[2*n : 2*end]
}

// putHalves writes key k's halves as pair n of pairs and reports whether
// pairs had room for it.
func putHalves(pairs []uint32, n int, k uint64) bool {
	if 2*n+1 >= len(pairs) {
		return false
	}
	pairs[2*n], pairs[2*n+1] = uint32(k>>32), uint32(k)
	return true
}

// touchedPair reports whether the slot of either box of the pair key k
// has its bit set in touched.
func touchedPair(touched []uint64, k uint64) bool {
	a, b := k>>40, uint64(uint32(k)>>8)
	return touched[a>>6]&(1<<(a&63)) != 0 || touched[b>>6]&(1<<(b&63)) != 0
}

// findPairs puts in st.found the pairs of the dirty boxes, or with
// st.full every pair, sorted, on as many goroutines as Workers and the work
// allow. Each worker appends to its own list, and the lists are joined in
// worker order and sorted (sortFound), so the result does not depend on
// which worker took which item.
func (w *World) findPairs() {
	st := &w.step
	st.found = st.found[:0]
	st.fewFat = false
	if st.full && w.fatPairs() {
		return
	}
	if !st.full && w.fewFatPairs() {
		st.fewFat = !st.full
		return
	}
	w.catchUp() // the queries and the pass cell by cell read the lanes
	n := w.workers(len(w.dirty.list), parallelDirty)
	if st.full {
		w.pack(n)
	} else {
		w.queueDirty()
	}
	for len(st.wk) < n {
		st.wk = append(st.wk, nil)
		st.cols = append(st.cols, columns{})
	}
	if n == 1 {
		st.found = w.items(st.found, &st.cols[0], 0, w.itemCount())
		st.parts = append(st.parts[:0], 0, len(st.found))
		w.sortFound(1)
		return
	}
	st.next.Store(0)
	w.fanOut(n, (*World).work)
	st.parts = st.parts[:0]
	for i := range n {
		st.parts = append(st.parts, len(st.found))
		st.found = append(st.found, st.wk[i]...)
	}
	st.parts = append(st.parts, len(st.found))
	w.sortFound(n)
	// Which worker takes which items changes from step to step, and one
	// that the scheduler runs while the others wait takes them all: each
	// worker's list gets room for all of the step's pairs, so that steps
	// like the ones before allocate nothing, whoever takes what. With the
	// room of the roomiest worker only, TestSteadyStateAllocatesNothing saw
	// three allocations in twenty steps under the race detector.
	for i := range n {
		if cap(st.wk[i]) < len(st.found) {
			st.wk[i] = make([]uint64, 0, len(st.found))
		}
	}
	shareRoom(st.cols[:n])
}

// queueDirty puts in st.queue the dirty boxes in the order the step
// queries them. In a large world, boxes taken in the order they were
// marked have their tiles and blocks anywhere in memory, and every query
// misses the cache and the TLB afresh; sorted by region, consecutive
// queries share tiles and pages and read blocks near each other. Boxes
// outside the grid go last.
func (w *World) queueDirty() {
	st := &w.step
	if !w.large() {
		st.queue = w.dirty.list
		return
	}
	shift := [2]uint{w.grids[0].regionShift(), w.grids[1].regionShift()}
	st.lists[0] = w.dirty.list
	st.order, st.region = regionSort(st.order, st.region, st.count[:], st.lists[:], func(i *int32) int {
		if s := &w.slots[*i]; s.live && s.where == inGrid {
			return int(s.kind)*regions + int(s.block>>shift[s.kind])
		}
		return 2 * regions // outside the grid: last
	})
	st.lists[0] = nil
	st.queue = st.order
}

// work is worker i's loop: chunks of items until none are left.
func (w *World) work(i int) {
	st := &w.step
	found, items := st.wk[i][:0], w.itemCount()
	for {
		start := int(st.next.Add(dirtyChunk)) - dirtyChunk
		if start >= items {
			break
		}
		found = w.items(found, &st.cols[i], start, min(start+dirtyChunk, items))
	}
	st.wk[i] = found
}

// itemCount is how many items the step hands out: dirty boxes, or with
// st.full the Dynamic grid's cells and then the infinite boxes.
func (w *World) itemCount() int {
	if w.step.full {
		return len(w.grids[Dynamic].cells) + len(w.infinite)
	}
	return len(w.dirty.list)
}

// items appends the pairs of items [start, end).
func (w *World) items(dst []uint64, cols *columns, start, end int) []uint64 {
	if !w.step.full {
		if w.large() {
			return w.queriesAhead(dst, start, end)
		}
		for _, i := range w.step.queue[start:end] {
			if s := &w.slots[i]; s.live && s.where != inNaN {
				dst = w.pairsOf(dst, makeHandle(i, s.gen), s)
			}
		}
		return dst
	}
	cells := len(w.grids[Dynamic].cells)
	for it := start; it < end; it++ {
		if it < cells {
			dst = w.cellPairs(dst, cols, &w.step.packed, int32(it))
			continue
		}
		h := w.infinite[it-cells]
		dst = w.pairsOf(dst, h, &w.slots[h>>8])
	}
	return dst
}

// pairsOf appends the keys of the pairs of box h (slot s) with every other
// box, except those another call finds: in an incremental step, the pairs
// with a dirty box of a lower handle; in a full step, where h is an
// infinite box, the pairs with an infinite box of a lower handle.
func (w *World) pairsOf(dst []uint64, h Handle, s *slot) []uint64 {
	b := s.box
	q := batch.Query{CX: b.Center.X, CY: b.Center.Y, UX: b.Axis.X, UY: b.Axis.Y, HX: b.Half.X, HY: b.Half.Y}
	// The other box's filter comes from its block, not from its slot: in a
	// world larger than the cache a slot read is one more miss a hit
	// (BenchmarkWorldStep, moved=1%, n=4000000). A Static box skips the
	// Static grid, so no two Static boxes pair there.
	take := func(x Handle, f Filter, infinite bool) {
		if x == h || !s.filter.allows(f) {
			return
		}
		if x < h && (w.step.full && infinite || !w.step.full && w.isDirty(int32(x>>8))) {
			return
		}
		dst = append(dst, key(h, x))
	}
	visit := func(blk *block) bool {
		for bits := overlapsBlock(&q, blk); bits != 0; bits &= bits - 1 {
			lane := mathbits.TrailingZeros64(bits)
			take(blk.h[lane], blk.f[lane], false)
		}
		return false
	}
	lo, hi, _ := bound.Box(b)
	var heads [64]int32
	for k := range w.grids {
		g := &w.grids[k]
		if Kind(k) == Static && s.kind == Static {
			continue
		}
		if s.where != inGrid {
			g.visitAll(visit)
			continue
		}
		// visitLevel's walk over the cells, written out as in hits, so
		// that the test of each block is the closure above inlined, not a
		// call through a function value, and the Static grid's cells are
		// skipped by their rectangles too (tileHeadsNear): the 1% step takes
		// less time, most in a small world (BenchmarkWorldStep,
		// moved=1%/move=bulk; BenchmarkWorldMapStep's world with a hundredth
		// of its units moved).
		for _, lv := range g.levels {
			x0, x1, y0, y1, few := g.cellsAround(lv, lo, hi, g.reach[int(lv)-minLevel])
			if !few {
				g.scanCells(lv, x0, x1, y0, y1, func(blk *block) bool { return (!g.static || blk.rect.meets(lo, hi)) && visit(blk) })
				continue
			}
			for ty := y0 >> tileShift; ty <= y1>>tileShift; ty++ {
				rows := tileRows(ty, y0, y1)
				for tx := x0 >> tileShift; tx <= x1>>tileShift; tx++ {
					m := g.tileHeadsNear(&heads, cellKey{tx, ty, lv}, rows&tileColumns(tx, x0, x1), lo, hi)
					for _, hd := range heads[:m] {
						for b := hd; b >= 0; b = g.blocks[b].next {
							blk := &g.blocks[b]
							if g.clearOf(b, hd, blk, lo, hi) {
								continue
							}
							visit(blk)
						}
					}
				}
			}
		}
	}
	for _, x := range w.infinite {
		if o := &w.slots[x>>8]; (s.kind == Dynamic || o.kind == Dynamic) && b.Overlaps(o.box) {
			take(x, o.filter, true)
		}
	}
	return dst
}
