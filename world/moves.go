package world

import (
	"cmp"
	"fmt"
	"slices"
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// MoveBoxes moves box hs[i] to b.At(i) for every i: the same as that many
// calls of Move in order, and the way to move many boxes at once, as a
// physics step does. It panics, before moving any, if hs and b differ in
// length, b's columns differ in length, or a handle is stale.
//
// A Move that keeps its box in its cell writes the box into its block: six
// cache lines, in the order of the caller's handles, so all over the
// grid's memory, and in a world larger than the cache each is a miss and a
// TLB miss. MoveBoxes finds every box's cell on as many goroutines as
// Workers allows, and writes the boxes that stay in their cells in an order
// that suits memory (writeMode), or, when a quarter of the boxes or more
// moved, or fewer in a large world whose steps the candidates of fat
// bounds serve, leaves them to the first question or step that reads the
// blocks (lag.go, lag_stays.go). Boxes that change cells are moved one by
// one in order, as Move moves them; when hs repeats a handle, every box
// is.
func (w *World) MoveBoxes(hs []Handle, b *soa.Boxes) {
	if n := b.Len(); n != len(hs) {
		panic(fmt.Sprintf("world: MoveBoxes with %d handles and %d boxes", len(hs), n))
	}
	m := &w.moves
	m.hs, m.b = hs, b
	n := w.moveWorkers(len(hs))
	m.split(n)
	w.fanOut(n, (*World).checkMoves)
	m.ascending = true
	for k := range n {
		if i := m.bad[k]; i >= 0 {
			m.hs, m.b = nil, nil
			w.slot(hs[i], "MoveBoxes") // panics
		}
		// Every worker's range holds moveChunk handles or more.
		lo := m.bounds[k]
		m.ascending = m.ascending && m.rising[k] && (k == 0 || hs[lo-1]>>8 < hs[lo]>>8)
	}
	w.catchUpCells() // the cells of the boxes Move left behind: lag.go
	m.seen = slices.Grow(m.seen[:0], len(w.dirty.bits))[:len(w.dirty.bits)]
	w.fanOut(n, (*World).markMoves)
	repeats := false
	for k := range n {
		repeats = repeats || m.repeats[k]
	}
	if repeats {
		for k := range n {
			for _, i := range m.marked[k] {
				w.dirty.bits[i>>6] &^= 1 << (i & 63)
			}
		}
		m.hs, m.b = nil, nil
		for i, h := range hs {
			w.Move(h, b.At(i))
		}
		return
	}
	for k := range n {
		w.dirty.list = append(w.dirty.list, m.marked[k]...)
	}
	m.mode = w.writeMode(len(hs))
	// The boxes' records, as Move writes them (moveRecord), by sortRange's
	// workers, each for its own slots.
	v := &w.fat
	m.recs = v.kernel && v.copied && len(v.recs) >= len(w.slots)
	m.spans.reset(m.chunks, n)
	w.fanOut(n, (*World).sortMoves)
	for _, un := range m.unsure[:m.chunks] {
		for _, i := range un {
			w.fat.markUnsure(i)
		}
	}
	// The boxes that leave their cells can change the blocks and lanes of
	// boxes in the cells they leave, so those are read again after.
	lv := m.leave[0]
	if m.chunks > 1 {
		lv = m.leaving[:0]
		for _, l := range m.leave[:m.chunks] {
			lv = append(lv, l...)
		}
		m.leaving = lv
	}
	for j := range lv {
		w.leaveAhead(lv, j)
		x := &lv[j]
		s := &w.slots[x.h>>8]
		if s.where == inGrid && s.kind == Dynamic && w.grids[Dynamic].widenNear(s.cell, x.box) {
			// It stays in its lane, which the pass over the blocks
			// writes from its slot in a settle.
			s.box = x.box
			if m.mode != writeSettle {
				w.grids[Dynamic].blocks[s.block].set(s.lane, x.box)
			}
			w.fat.markUnsure(int32(x.h >> 8))
			continue
		}
		w.unplace(s)
		s.box = x.box
		w.place(x.h, s)
		w.fat.markUnsure(int32(x.h >> 8))
	}
	if len(lv) > 0 {
		for _, st := range m.stay[:m.chunks] {
			for j := range st {
				x := &st[j]
				s := &w.slots[x.slot]
				x.blk, x.lane = s.block, s.lane|int32(s.kind)<<8
			}
		}
	}
	switch m.mode {
	case writeSorted:
		if w.defersStays() {
			w.deferStays()
			break
		}
		w.bucket()
		w.fanOut(n, (*World).writeMoves)
	case writeSettle:
		w.deferLanes()
	}
	m.hs, m.b = nil, nil
	w.compact()
}

// moveChunk is the fewest boxes MoveBoxes and the catch-up of Moves
// (lag.go) give a worker in a large world (regions.go), where each box's
// move misses the cache: a goroutine takes microseconds to start, the time
// of some hundred boxes' cells.
const moveChunk = 4096

// smallMoveChunk is moveChunk in a world that is not large. A goroutine
// can begin half a millisecond after its go statement on a virtual
// machine whose idle cores sleep (BenchmarkGoStart in internal/crew), the
// time of some 20,000 boxes' moves, and a helper that begins that late
// joins whichever pass is running, often the one over the blocks
// (settle). In a world the caches hold, that pass's blocks and slots sit
// in the caller's cache, so every line the helper reads or writes crosses
// between the cores, and the caller waits for its chunk: with 4,096 boxes
// a worker, BenchmarkWorldStep's all-moved MoveBoxes step on the uniform
// scene took longer with two workers than with one at 10,000 and 20,000
// boxes; with 32,768 it takes as long. Pairs' test of the candidates,
// most of a step where boxes have many pairs (the RTS and mixed scenes),
// keeps its own limits (candChunk, ownRecordBytes). The tests lower smallMoveChunk
// (export_test.go), so that their worlds run these passes on several
// workers.
var smallMoveChunk = 1 << 15

// moveWorkers returns how many workers MoveBoxes and the catch-up use for
// m boxes: see moveChunk and smallMoveChunk.
func (w *World) moveWorkers(m int) int {
	if w.large() {
		return w.workers(m, moveChunk)
	}
	return w.workers(m, smallMoveChunk)
}

// moves is MoveBoxes' state: the call's arguments, each worker's range of
// them, the boxes each chunk of sortMoves found staying in their cells and
// those that leave (joined in leaving when there are several chunks), the
// staying boxes sorted into regions of blocks, and markMoves' bitset of the
// slots of hs and each worker's marks.
type moves struct {
	hs        []Handle
	b         *soa.Boxes
	bounds    []int
	chunks    int // sortMoves' chunks of hs, of sortChunk boxes
	stay      [][]stay
	leave     [][]leaver
	marked    [][]int32 // the slots each worker marked dirty, in the order of hs
	unsure    [][]int32 // the slots of boxes staying in their cells each chunk did not vouch for
	bad       []int     // the first bad handle each worker found, or -1
	rising    []bool    // whether the slots of each worker's handles ascend
	repeats   []bool    // whether each worker met a slot of its own twice
	ascending bool      // whether those of all of hs do (markRun)
	sorted    []stay
	start     [2*regions + 1]int32 // where each region starts in sorted
	shift     [2]uint              // a block's region is its index >> shift, by Kind
	keys      []uint16             // regionSort's regions of the boxes
	bits      []uint64             // the slots settle writes
	leaving   []leaver             // the chunks' leave lists one after the other, when there are several
	seen      []uint64             // markMoves' bitset of the slots of hs
	mode      writeMode            // how the boxes that stay get into their blocks
	recs      bool                 // whether sortRange writes the boxes' records (moveRecord)
	spans     spans                // sortMoves' chunks, or settle's runs of blocks
}

// split gives n workers consecutive ranges of the boxes, and cuts the
// boxes into sortMoves' chunks.
func (m *moves) split(n int) {
	m.bounds = m.bounds[:0]
	for k := range n + 1 {
		m.bounds = append(m.bounds, k*len(m.hs)/n)
	}
	for len(m.marked) < n {
		m.marked, m.bad, m.repeats = append(m.marked, nil), append(m.bad, -1), append(m.repeats, false)
		m.rising = append(m.rising, false)
	}
	m.chunks = max((len(m.hs)+sortChunk-1)/sortChunk, 1)
	for len(m.stay) < m.chunks {
		m.stay, m.leave, m.unsure = append(m.stay, nil), append(m.leave, nil), append(m.unsure, nil)
	}
}

// checkMoves is worker k's check of the handles in its range: it leaves in
// bad[k] the index of the first stale or never-issued one, or -1, and in
// rising[k] whether the slots of its handles ascend (markRun). The
// caller panics with slot's message, so that no goroutine but the caller's
// panics. It reads the World's tags, a byte a slot, which Contains reads
// too, not the live and gen fields of the 56-byte slots: the tags of a world
// the cache does not hold still fit in it, and its slots do not
// (BenchmarkWorldStep, moved=100%/move=bulk, n=1000000).
func (w *World) checkMoves(k int) {
	m := &w.moves
	m.bad[k] = -1
	lo, tags := m.bounds[k], w.tags
	last, rising := -1, true
	for i, h := range m.hs[lo:m.bounds[k+1]] {
		j := int(h >> 8)
		if j >= len(tags) || tags[j] != uint8(h) || uint8(h) == 0 {
			m.bad[k] = lo + i
			return
		}
		rising = rising && j > last
		last = j
	}
	m.rising[k] = rising
}

// sortMoves is worker k's share of the pass that finds the moved boxes'
// cells: chunks of sortChunk boxes, from its span (spans) and then from
// the others'. Each chunk has its own lists, which the caller reads in the
// chunks' order, so what the pass leaves does not depend on which worker
// did which chunk. Chunks, not one range a worker: a helper goroutine can
// begin late (BenchmarkGoStart in internal/crew), and the caller then
// takes what the helper has not instead of waiting for a range the helper
// has yet to start (BenchmarkWorldStep,
// world=uniform/moved=100%/move=bulk/workers=2, n=10000).
func (w *World) sortMoves(k int) {
	m := &w.moves
	m.spans.each(k, func(c int) { w.sortRange(c, c*sortChunk, min((c+1)*sortChunk, len(m.hs))) })
}

// sortChunk is how many boxes sortMoves' workers take at a time: a few
// microseconds' work, against an atomic add.
const sortChunk = 1024

// sortRange is sortMoves' pass over boxes [lo, hi), chunk c: it finds each
// box's cell (from the reaches batch.Reaches computes for reachChunk boxes
// at a time), and records the box in the chunk's stay list, its new pose
// written in its slot, and in its unsure list unless it lies inside its
// fat bounds (fat_unsure.go), or in its leave list; with recs, it writes
// every box's record. Chunks write different slots and records (no handle
// repeats) and their own lists only.
func (w *World) sortRange(c, lo, hi int) {
	m := &w.moves
	st, lv, un := m.stay[c][:0], m.leave[c][:0], m.unsure[c][:0]
	b, fat := m.b, w.fat.valid
	ahead := m.mode == writeSorted // sortAhead
	recs := m.recs
	var rx, ry [reachChunk]float64
	for ; lo < hi; lo += reachChunk {
		end := min(lo+reachChunk, hi)
		// The columns and reaches cut to the length of hs, so that the
		// compiler proves the loop's loads in bounds and checks none of
		// them (BenchmarkWorldStep, moved=100%/move=bulk).
		hs := m.hs[lo:end]
		n := len(hs)
		cx, cy, ux, uy, hx, hy := b.CX[lo:end], b.CY[lo:end], b.UX[lo:end], b.UY[lo:end], b.HX[lo:end], b.HY[lo:end]
		cx, cy, ux, uy, hx, hy = cx[:n], cy[:n], ux[:n], uy[:n], hx[:n], hy[:n]
		rxs, rys := rx[:n], ry[:n]
		batch.Reaches(cx, cy, ux, uy, hx, hy, rxs, rys)
		for j, h := range hs {
			if a := lo + j + sortAhead; ahead && a < hi {
				k := m.hs[a] >> 8
				batch.Prefetch(unsafe.Pointer(&w.slots[k]), unsafe.Sizeof(slot{}))
				if fat && int(k) < len(w.fat.box) {
					batch.Prefetch(unsafe.Pointer(&w.fat.box[k]), unsafe.Sizeof(fatBox{}))
				}
				if recs {
					batch.Prefetch(unsafe.Pointer(&w.fat.recs[k]), unsafe.Sizeof(batch.Record{}))
				}
			}
			s := &w.slots[h>>8]
			x := obb.Box{Center: obb.Vec2{X: cx[j], Y: cy[j]}, Axis: obb.Vec2{X: ux[j], Y: uy[j]}, Half: obb.Vec2{X: hx[j], Y: hy[j]}}
			if recs {
				w.fat.recs[h>>8].Set(x)
			}
			key, ok := cellKey{}, false
			if s.where == inGrid {
				var r, tx, ty float64
				g := &w.grids[s.kind]
				if rxs[j] >= 0 {
					// Most boxes of a step stay in their cells, and stays
					// checks that without finding the cell: cellAt runs
					// only for those that leave.
					r = max(rxs[j], rys[j])
					if key, ok = s.cell, true; !g.stays(key, r, x.Center) {
						key = g.cellNear(key, r, x.Center)
					}
					tx, ty = slack(rxs[j]), slack(rys[j])
				} else {
					key, r, tx, ty, ok = g.cellIrregular(x) // rx and ry are -1: Reach declined the box
				}
				if ok && key == s.cell && g.holds(key, s.block, r, x) {
					s.box = x
					if fat && !w.fat.within(int32(h>>8), h, x.Center, tx, ty) {
						un = append(un, int32(h>>8))
					}
					switch m.mode {
					case writeDirect:
						g.blocks[s.block].set(s.lane, x)
					case writeSorted:
						var e *stay
						st, e = extend(st)
						e.box, e.blk, e.lane, e.slot = x, s.block, s.lane|int32(s.kind)<<8, int32(h>>8)
					}
					continue
				}
			}
			var e *leaver
			lv, e = extend(lv)
			e.box, e.h, e.key, e.kind, e.found = x, h, key, s.kind, ok
		}
	}
	m.stay[c], m.leave[c], m.unsure[c] = st, lv, un
}

// extend returns l one element longer and that element, whose fields
// the caller sets one by one. Appended as a value, a stay or a leaver is
// made on the stack by narrow stores and copied by 16-byte loads, and a
// load that spans several stores waits for them to reach the cache: the
// processor forwards a store to a load only whole (as in pairs'
// scatterRange). Set in place, they make MoveBoxes of a few boxes of a large
// world cheaper (BenchmarkWorldStep, moved=1%/move=bulk, n=1000000).
func extend[T any](l []T) ([]T, *T) {
	if len(l) == cap(l) {
		l = slices.Grow(l, 1)
	}
	l = l[:len(l)+1]
	return l, &l[len(l)-1]
}

// reachChunk is how many boxes' reaches sortMoves computes at a time,
// with batch.Reaches, into two arrays on its stack that the cache keeps.
const reachChunk = 256

// sortAhead is how many boxes ahead sortRange asks for the slot, the fat
// bounds and (with recs) the record of a box, when the step moved few boxes
// of a large world (writeSorted): their slots and records are then
// scattered, and each is a cache miss (BenchmarkWorldStep,
// moved=1%/move=bulk; see writeAhead). When a quarter of the boxes or more
// moved, asking costs more than it saves where their handles ascend, as
// BenchmarkWorldStep's do: their slots are then read in order, which the
// processor's own prefetcher follows.
const sortAhead = 8

// markMoves is worker k's share of the check for repeated handles and of
// the dirty marks: the slots whose words of the bitsets are its own, words
// k·W/n to (k+1)·W/n - 1 of W for n workers, of the whole of hs. No two
// workers write a word, so neither the repeat check's bitset nor the dirty
// one needs atomic operations, and each worker lists the slots it marks in
// the order of hs; the dirty list takes the workers' lists one after the
// other. It stops at a repeated slot, and the caller then takes back the
// marks. On the calling goroutine alone, the check and the marks would be
// two passes over hs while the other workers wait (BenchmarkWorldStep,
// moved=100%/move=bulk/workers=2).
func (w *World) markMoves(k int) {
	m := &w.moves
	n, words := len(m.bounds)-1, len(w.dirty.bits)
	lo, hi := k*words/n, (k+1)*words/n
	seen, touched := m.seen, w.dirty.bits
	marked, repeats := m.marked[k][:0], false
	if m.ascending {
		m.marked[k], m.repeats[k] = w.markRun(marked, lo, hi), false
		return
	}
	for _, h := range m.hs {
		i := int32(h >> 8)
		word := int(i >> 6)
		if word < lo || word >= hi {
			continue
		}
		bit := uint64(1) << (i & 63)
		if seen[word]&bit != 0 {
			repeats = true
			break
		}
		seen[word] |= bit
		if touched[word]&bit == 0 {
			touched[word] |= bit
			marked = append(marked, i)
		}
	}
	m.marked[k], m.repeats[k] = marked, repeats
	// Clear the bits set here: the worker's words whole, unless hs has
	// fewer handles than those words.
	if len(m.hs) >= hi-lo {
		clear(seen[lo:hi])
		return
	}
	for _, h := range m.hs {
		if word := int(h >> 14); word >= lo && word < hi {
			seen[word] = 0
		}
	}
}

// markRun is markMoves for an hs whose slots ascend, as a physics step's
// list of its bodies in the order it inserted them has them: no slot
// repeats, so no bitset of the slots seen is needed, and the handles of
// words lo to hi - 1 are one run of hs, which a binary search finds, so
// each worker reads its run, not the whole of hs. It appends the slots it
// marks dirty to marked, in the order of hs, as markMoves does. The marks
// then cost less than markMoves' general pass with one worker and with two
// (BenchmarkWorldStep, moved=100%/move=bulk, whose handles ascend).
func (w *World) markRun(marked []int32, lo, hi int) []int32 {
	m, touched := &w.moves, w.dirty.bits
	first, _ := slices.BinarySearchFunc(m.hs, lo, func(h Handle, word int) int { return cmp.Compare(int(h>>14), word) })
	for _, h := range m.hs[first:] {
		i := int32(h >> 8)
		word := int(i >> 6)
		if word >= hi {
			break
		}
		if bit := uint64(1) << (i & 63); touched[word]&bit == 0 {
			touched[word] |= bit
			marked = append(marked, i)
		}
	}
	return marked
}

// leaver is a box that leaves its cell, as sortMoves found it: its new
// pose and handle, and, when it was in the grid of its Kind and its new
// pose has finite bounds, its new cell.
type leaver struct {
	box   obb.Box
	h     Handle
	key   cellKey
	kind  Kind
	found bool // key is the new cell
}

// The loop that moves the leaving boxes from cell to cell is serial, and
// each box's move is a chain of loads, each in a world larger than the
// cache a miss and a TLB miss: its slot, its block, its cell, the cell's
// first block and the slot of the box that fills its lane there (remove),
// then the new cell's tile, cell and first block (add). leaveAhead asks
// for them ahead of the loop in stages, each reading what the stage
// before it asked for: leaveSlot boxes ahead the slot and the new cell's
// entry of the tiles' hash table, leaveBlock ahead the box's block and its
// new tile, leaveCell ahead its cells and the new cell's first block,
// leaveHead ahead its cell's first block and the slot remove reads
// (BenchmarkWorldStep, moved=100%/move=bulk, n=1000000).
const (
	leaveSlot  = 12
	leaveBlock = 8
	leaveCell  = 4
	leaveHead  = 2
)

// leaveAhead is the asking ahead for box j of lv: see leaveSlot. It asks
// for the boxes with a new cell only, which were in the grid of their
// Kind (sortMoves), and every index it reads is valid in the World as the
// loop leaves it between boxes; what the boxes before it change makes an
// address stale at worst, never wrong to ask for.
func (w *World) leaveAhead(lv []leaver, j int) {
	if k := j + leaveSlot; k < len(lv) && lv[k].found {
		x := &lv[k]
		g := &w.grids[x.kind]
		batch.Prefetch(unsafe.Pointer(&w.slots[x.h>>8]), unsafe.Sizeof(slot{}))
		batch.Prefetch(unsafe.Pointer(&g.table[hash(tileKey(x.key))&uint64(len(g.table)-1)]), unsafe.Sizeof(tileEntry{}))
	}
	if k := j + leaveBlock; k < len(lv) && lv[k].found {
		x := &lv[k]
		g := &w.grids[x.kind]
		batch.Prefetch(unsafe.Pointer(&g.blocks[w.slots[x.h>>8].block]), unsafe.Sizeof(block{}))
		if e := g.findEntry(tileKey(x.key)); e >= 0 {
			t, sl := &g.tiles[g.table[e].tile-1], tileSlot(x.key)
			batch.Prefetch(unsafe.Pointer(&t.head[sl]), 4)
			batch.Prefetch(unsafe.Pointer(&t.cell[sl]), 4)
		}
	}
	if k := j + leaveCell; k < len(lv) && lv[k].found {
		x := &lv[k]
		g := &w.grids[x.kind]
		batch.Prefetch(unsafe.Pointer(&g.cells[g.blocks[w.slots[x.h>>8].block].cell]), unsafe.Sizeof(cell{}))
		if t, sl := g.locate(x.key); t >= 0 {
			batch.Prefetch(unsafe.Pointer(&g.blocks[g.tiles[t].head[sl]]), unsafe.Sizeof(block{}))
			batch.Prefetch(unsafe.Pointer(&g.cells[g.tiles[t].cell[sl]]), unsafe.Sizeof(cell{}))
		}
	}
	if k := j + leaveHead; k < len(lv) && lv[k].found {
		x := &lv[k]
		g := &w.grids[x.kind]
		hb := &g.blocks[g.cells[g.blocks[w.slots[x.h>>8].block].cell].head]
		batch.Prefetch(unsafe.Pointer(hb), unsafe.Sizeof(block{}))
		batch.Prefetch(unsafe.Pointer(&w.slots[hb.h[hb.n-1]>>8]), unsafe.Sizeof(slot{}))
	}
}
