package world

import (
	"sync"
	"sync/atomic"

	"github.com/obb2d/obb2d/internal/batch"
)

// In a world whose blocks outgrow the L2 cache (more than laterBytes), a
// Move that keeps its box in its cell writes the new pose in the box's slot
// only, and notes the slot (until a world that is not large has a sixteenth
// of its boxes moved, it writes at once: writesLater); the box's block,
// whose columns the kernels read, gets the pose before the next question or
// step reads the blocks (catchUp). Written at once, a Move's pose is six
// cache lines of its block, in the caller's order, so all over the grid's
// memory: a chain of misses on the Move's own path, after the miss on its
// slot. Deferred, the writes of many Moves go together: where a quarter of
// the boxes moved, in one pass over every block in memory order, as
// MoveBoxes writes (settle); otherwise one after another in a loop whose
// misses overlap (BenchmarkWorldStep, moved=100%/move=each, n=100000 and
// n=1000000, with one worker and with two, and no slower with 1% moved). In
// a world whose blocks the L2 cache holds, Move writes the block at once:
// deferring there costs both steps (the same benchmark at n=10000).
//
// Where a quarter of the boxes or more moved, by Moves or by one
// MoveBoxes, the pass over every block waits longer still: for the first
// question or step that reads the lanes (deferLanes). A step that the
// candidates of fat bounds serve reads none, so in a physics loop of
// moves and Pairs the pass runs only when something else asks, as Box2D's
// broad phase leaves a proxy in its tree while the body stays inside its
// fat bounds (BenchmarkWorldStep, moved=100%, n=100000 and n=1000000).
//
// With more than one worker, such a world's Move leaves the box's cell to
// the catch-up too: finding it (grid.cellOf) is most of what a Move then
// costs, and the catch-up finds the cells of all the noted boxes on the
// workers (checkCells), then moves the boxes that left their cells one by
// one, in the order of the notes, as Move would have (BenchmarkWorldStep,
// world=uniform/moved=100%/move=each/workers=2, n=1000000 and n=4000000).
// With one worker it does not: the catch-up reads every noted slot a second
// time, which costs more than it saves.
//
// Where the candidates of fat bounds serve the steps with few moves, a
// MoveBoxes of few boxes of such a world, and Pairs' catch-up of the
// Moves, leave the lanes behind too, until something reads them
// (lag_stays.go).
//
// The reading methods may run on several goroutines at once, so the first
// to find the world behind catches it up under a mutex while the others
// wait for it. A reader that finds it caught up, by an atomic load, reads
// blocks written before the atomic store that load observes.
type lag struct {
	slots  []int32     // the slots moved since the last catch-up, with repeats, unless all
	all    bool        // too many for slots: the lanes of every dirty slot
	stale  []uint64    // a bitset of the slots whose lanes may be behind them besides those noted (deferLanes)
	lanes  bool        // stale has bits set
	cells  bool        // the noted boxes' cells are not checked yet (cellsLater)
	behind atomic.Bool // slots, all, lanes or pending has something to write
	mu     sync.Mutex  // held by the reader that catches up

	stays staysBehind // the lanes MoveBoxes and the catch-ups of Moves left behind (lag_stays.go)

	list   []int32   // the slots checkCells checks
	shares int       // how many workers share list
	leave  [][]int32 // the slots each worker found out of their cells, in list's order
	unsure [][]int32 // and those in their cells it did not find inside their fat bounds
}

// defaultLaterBytes: see above; the L2 cache of the machine the numbers
// come from is 1 MiB. laterBytes is a variable for the tests of the
// catch-up (export_test.go).
const defaultLaterBytes = 1 << 20

var laterBytes = defaultLaterBytes

// writesLater reports whether a Move leaves its block writes to the
// catch-up: in a large world (regions.go) always, and in one whose blocks
// take more than laterBytes once a sixteenth of the boxes or more were
// marked dirty since the last Pairs. Fewer Moves are cheaper written at
// once in such a world, where the blocks' lines miss only the L2 cache
// (BenchmarkWorldStep, world=uniform/moved=1%/move=each, n=100000).
func (w *World) writesLater() bool {
	b := w.blockBytes()
	return b > largeBytes || b > laterBytes && laterShare*len(w.dirty.list) >= w.n
}

// laterShare: see writesLater.
const laterShare = 16

// cellsLater reports whether a Move that writes later leaves its box's
// cell to the catch-up: in a large world, when Workers allows more than
// one goroutine (slotWorkers). It decides once for each round of Moves
// between catch-ups, begun by the first Move noted, so that the catch-up
// knows whether any noted box's cell is unchecked.
func (w *World) cellsLater() bool {
	if l := &w.lag; l.all || len(l.slots) > 0 {
		return l.cells
	}
	return w.decideCells()
}

// decideCells is cellsLater's decision, out of its body so that
// cellsLater, asked by every Move, inlines.
func (w *World) decideCells() bool {
	w.lag.cells = w.slotWorkers(w.workers(w.n, 1)) > 1
	return w.lag.cells
}

// fallBehind notes that slot i's pose is newer than its block's lane. The
// list holds up to a quarter as many slots as the world has boxes (Moves
// can repeat a box), where the pass over every block becomes the cheaper
// (writeMode); past that, all is set instead. Every slot noted is dirty
// (Move marks it), and Pairs catches up before it clears the dirty marks, so
// the pass finds the slots by their marks.
func (w *World) fallBehind(i int32) {
	l := &w.lag
	if !l.behind.Load() {
		l.behind.Store(true)
	}
	if l.all {
		return
	}
	if 4*len(l.slots) >= w.n {
		l.all, l.slots = true, l.slots[:0]
		return
	}
	l.slots = append(l.slots, i)
}

// catchUp writes the poses fallBehind and deferLanes noted into their
// blocks; a World that is not behind costs it an atomic load.
func (w *World) catchUp() {
	if w.lag.behind.Load() {
		w.catchUpNow(false)
	}
}

// catchUpCells is catchUp for Pairs and MoveBoxes, which read the boxes'
// cells but not, when the candidates of fat bounds serve a step, their
// lanes: it moves the boxes the Moves left out of their cells, and leaves
// the lanes of a quarter of the boxes or more behind (deferLanes).
func (w *World) catchUpCells() {
	if w.lag.behind.Load() {
		w.catchUpNow(true)
	}
}

// catchUpNow catches up, all but the lanes deferLanes would leave when
// keep is set.
func (w *World) catchUpNow(keep bool) {
	l := &w.lag
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.behind.Load() {
		return // another reader caught up while this one waited
	}
	if l.cells {
		// Every noted slot is dirty, so with all set the dirty list
		// holds them; it may hold slots whose cells are known too, whose
		// check finds them in place. A short list is checked on the
		// caller's goroutine: starting a worker takes microseconds.
		l.list = l.slots
		if l.all {
			l.list = w.dirty.list
		}
		w.checkAll(w.moveWorkers(len(l.list)))
		l.cells = false
	}
	if l.all {
		w.deferLanes()
	} else if keep && len(l.slots) > 0 && w.large() && w.defersStays() {
		w.deferSlots(l.slots)
	} else {
		// A slot noted may have been removed or moved to another cell
		// since: its lane, if it has one, is found afresh.
		for _, i := range l.slots {
			if s := &w.slots[i]; s.live && s.where == inGrid {
				w.grids[s.kind].blocks[s.block].set(s.lane, s.box)
			}
		}
	}
	l.slots, l.all, l.list = l.slots[:0], false, nil
	if !keep && len(l.stays.pending) > 0 {
		l.stays.written++
		w.writeStays()
	}
	if !keep && l.lanes {
		l.stale = growBits(l.stale, len(w.dirty.bits)) // boxes inserted since have slots of their own
		w.settleAll(w.slotWorkers(w.moveWorkers(w.n)), l.stale)
		clear(l.stale)
		l.lanes = false
	}
	if !l.lanes && len(l.stays.pending) == 0 {
		w.compactGrids()
	}
	l.behind.Store(l.lanes || len(l.stays.pending) > 0)
}

// deferLanes notes that the lanes of every dirty slot may be behind their
// slots, as when a quarter of the boxes or more moved: a pass over every
// block in memory order gives each of those lanes its slot's pose (settle)
// before the first question or step that reads the lanes. A step that the
// candidates of fat bounds serve (fat.go) reads the boxes from their slots
// and the fat bounds from columns of their own, and catches up only to
// test the boxes outside the grids against the others, so in a physics
// loop of moves and Pairs the pass runs only when something else asks.
// Pairs clears the dirty marks, so the marks go to a bitset of their own,
// a word at a time.
func (w *World) deferLanes() {
	l := &w.lag
	l.stale = growBits(l.stale, len(w.dirty.bits))
	for i, b := range w.dirty.bits {
		l.stale[i] |= b
	}
	l.lanes = true
	l.behind.Store(true)
}

// growBits returns bits grown with zero words to n words, the dirty
// bitset's length, which covers every slot.
func growBits(bits []uint64, n int) []uint64 {
	if len(bits) < n {
		bits = append(bits, make([]uint64, n-len(bits))...)
	}
	return bits
}

// checkAll finds, on n workers, the boxes of l.list whose poses left their
// cells, and moves them to their new cells one by one in the list's order.
func (w *World) checkAll(n int) {
	l := &w.lag
	l.shares = n
	for len(l.leave) < n {
		l.leave, l.unsure = append(l.leave, nil), append(l.unsure, nil)
	}
	w.fanOut(n, (*World).checkCells)
	for k := range n {
		for _, i := range l.unsure[k] {
			w.fat.markUnsure(i)
		}
		for _, i := range l.leave[k] {
			s := &w.slots[i]
			if s.where == inGrid && s.kind == Dynamic && w.grids[Dynamic].widenNear(s.cell, s.box) {
				w.fat.markUnsure(i) // its lane gets its pose with the others' below
				continue
			}
			w.unplace(s)
			w.place(makeHandle(i, s.gen), s)
			w.fat.markUnsure(i)
		}
	}
}

// checkCells is worker k's share of checkAll's list: it records the live
// boxes of the grid whose cell is not the one they are in, and, while the
// candidates of fat bounds are in use, those in their cells that are not
// inside their fat bounds (fat_unsure.go: the Moves left that check to
// the catch-up too). It copies the poses of reachChunk slots at a time
// into columns for batch.Reaches and finds the cells from the reaches as
// sortMoves does (BenchmarkWorldStep, moved=100%/move=each/workers=2): a
// batch of reaches costs less than one box's reach and cell at a time.
func (w *World) checkCells(k int) {
	l := &w.lag
	list := l.list[k*len(l.list)/l.shares : (k+1)*len(l.list)/l.shares]
	out, un, fat := l.leave[k][:0], l.unsure[k][:0], w.fat.valid
	var cols [6][reachChunk]float32
	var rx, ry [reachChunk]float64
	for len(list) > 0 {
		part := list[:min(reachChunk, len(list))]
		list = list[len(part):]
		for j, i := range part {
			b := &w.slots[i].box
			cols[0][j], cols[1][j], cols[2][j], cols[3][j], cols[4][j], cols[5][j] = b.Center.X, b.Center.Y, b.Axis.X, b.Axis.Y, b.Half.X, b.Half.Y
		}
		n := len(part)
		batch.Reaches(cols[0][:n], cols[1][:n], cols[2][:n], cols[3][:n], cols[4][:n], cols[5][:n], rx[:n], ry[:n])
		for j, i := range part {
			s := &w.slots[i]
			if s.live && s.where == inGrid {
				g := &w.grids[s.kind]
				var key cellKey
				var r, tx, ty float64
				ok := false
				if rx[j] >= 0 { // stays, else cellNear, as in sortMoves
					r = max(rx[j], ry[j])
					if key, ok = s.cell, true; !g.stays(key, r, s.box.Center) {
						key = g.cellNear(key, r, s.box.Center)
					}
					tx, ty = slack(rx[j]), slack(ry[j])
				} else {
					key, r, tx, ty, ok = g.cellIrregular(s.box)
				}
				switch {
				case !ok || key != s.cell || !g.holds(key, s.block, r, s.box):
					out = append(out, i)
				case fat && !w.fat.within(i, makeHandle(i, s.gen), s.box.Center, tx, ty):
					un = append(un, i)
				}
			}
		}
	}
	l.leave[k], l.unsure[k] = out, un
}
