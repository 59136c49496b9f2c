package world

import (
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
)

// A MoveBoxes that moved fewer than a quarter of a large world's boxes
// (writeSorted) writes the poses of the boxes that stay in their cells
// into their lanes, sorted by region of blocks: three cache lines of a
// block a box, a miss each; the Moves that keep their boxes in their
// cells in such a world leave those writes to the next Pairs or question
// (lag.go). While the candidates of fat bounds serve the steps with few
// moves (fewUse), no step reads those lanes: the candidates' test reads
// the boxes' records and slots. So MoveBoxes, and Pairs' catch-up of the
// Moves (catchUpNow), then leave the lanes behind their slots, as the pass
// over every block does (deferLanes), and note each slot once in a list,
// which the first question or step that reads the lanes writes
// (writeStays): in a physics loop of moves and steps, the bodies that move
// step after step are written once, when something asks. While the lanes
// of other boxes wait for the pass over every block, they mark their boxes
// for that pass instead. BenchmarkWorldStep, world=uniform/moved=1%, at
// 1,000,000 and 4,000,000 boxes with one worker and with two: the
// MoveBoxes call takes markedly less time than when it writes the lanes,
// and with a Move a box the step (Moves and Pairs) takes less, measured
// switched on and off every two steps of one process, as its rows vary
// more than that between runs.
//
// What the list defers, a reader or a later step pays for at once, and
// more, as its writes read each box's slot again, which MoveBoxes or the
// catch-up had at hand. So the list holds at most twice as many slots as
// the MoveBoxes or catch-up that last added to it moved: one that would
// leave more writes the list (boxes that move in turn, not the same ones,
// gain nothing from waiting). And each time the list is written, the
// MoveBoxes and catch-ups after write their lanes at once, writeNowSteps
// of them the first time and twice as many each time after, up to
// writeNowMax; one that finds most of its boxes in the list already (the
// same boxes moved again, no reader between) starts the doubling over. A
// loop that asks a question after every step so leaves almost no lane
// behind.
type staysBehind struct {
	pending  []int32  // the slots whose lanes are behind, each once
	noted    []uint64 // a bitset of the slots in pending
	writeNow int      // how many more MoveBoxes and catch-ups write their lanes at once
	next     int      // writeNow after the list is next written, 0 for writeNowSteps

	// For the tests: the MoveBoxes and catch-ups that left their lanes
	// behind, the lists written because they would have grown too long,
	// and by a reader, and the MoveBoxes and catch-ups that marked their
	// boxes for the pass over every block.
	deferred, overflows, written, marked int
}

// writeNowMax bounds writeNow. writeNowSteps is a variable for the tests,
// which lower it so that their worlds, asked questions every few steps,
// still leave lanes behind (export_test.go).
const writeNowMax = 1024

var writeNowSteps = 16

// clear forgets the list, for Clear, whose grids hold no lane.
func (s *staysBehind) clear() {
	s.pending = s.pending[:0]
	clear(s.noted)
	s.writeNow, s.next = 0, 0
}

// defersStays reports whether MoveBoxes, writing sorted (writeSorted), or
// a catch-up that keeps the lanes, leaves the lanes of the boxes that
// stay in their cells behind.
func (w *World) defersStays() bool {
	s := &w.lag.stays
	if s.writeNow > 0 {
		s.writeNow--
		return false
	}
	return w.fat.valid && w.fewUse()
}

// deferStays notes the slots of MoveBoxes' boxes that stay in their cells
// as behind their lanes.
func (w *World) deferStays() {
	m := &w.moves
	w.beginStays()
	moved, fresh := 0, 0
	for _, st := range m.stay[:m.chunks] {
		moved += len(st)
		for j := range st {
			fresh += w.noteStay(st[j].slot)
		}
	}
	w.endStays(moved, fresh)
}

// deferSlots is deferStays for the slots the Moves since the last
// catch-up noted (fallBehind), with repeats, at a catch-up that keeps the
// lanes (catchUpNow) in a large world (regions.go), as MoveBoxes defers
// only there: a Move that keeps its box in its cell in such a world writes
// its slot only, and the catch-up would write its lane.
func (w *World) deferSlots(slots []int32) {
	w.beginStays()
	fresh := 0
	for _, i := range slots {
		fresh += w.noteStay(i)
	}
	w.endStays(len(slots), fresh)
}

// beginStays readies the bitsets for noteStay.
func (w *World) beginStays() {
	l := &w.lag
	l.stays.deferred++
	if l.lanes {
		l.stays.marked++
		l.stale = growBits(l.stale, len(w.dirty.bits)) // slots made since deferLanes
		return
	}
	l.stays.noted = growBits(l.stays.noted, len(w.dirty.bits))
}

// noteStay notes slot i as behind its lane: as a mark for the pass over
// every block when the lanes of other boxes wait for it (deferLanes),
// else in the list, once. It returns 1 if it added i to the list.
func (w *World) noteStay(i int32) int {
	l := &w.lag
	s := &l.stays
	bit := uint64(1) << (i & 63)
	if l.lanes {
		l.stale[i>>6] |= bit
		return 0
	}
	if s.noted[i>>6]&bit != 0 {
		return 0
	}
	s.noted[i>>6] |= bit
	s.pending = append(s.pending, i)
	return 1
}

// endStays applies the list's rules (staysBehind) after moved boxes were
// noted, fresh of them new to the list.
func (w *World) endStays(moved, fresh int) {
	l := &w.lag
	s := &l.stays
	if l.lanes {
		return
	}
	if 2*fresh < moved {
		s.next = 0
	}
	if moved > 0 && len(s.pending) > 2*moved {
		s.overflows++
		w.writeStays()
	}
	if len(s.pending) > 0 {
		l.behind.Store(true)
	}
}

// writeStays gives each lane of the list its slot's pose, and sets how
// many MoveBoxes and catch-ups write theirs at once next. A slot noted may
// have been removed, or its box moved to another cell or lane, since: its
// lane, if it has one, is found afresh. The slots are asked for
// 2·pendingAhead places ahead, and a box's group of lanes pendingAhead
// places ahead, so that the misses of several boxes overlap.
func (w *World) writeStays() {
	s := &w.lag.stays
	p := s.pending
	if len(p) == 0 {
		return
	}
	if s.next == 0 {
		s.next = writeNowSteps
	}
	s.writeNow, s.next = s.next, min(2*s.next, writeNowMax)
	for j, i := range p {
		if a := j + 2*pendingAhead; a < len(p) {
			batch.Prefetch(unsafe.Pointer(&w.slots[p[a]]), unsafe.Sizeof(slot{}))
		}
		if a := j + pendingAhead; a < len(p) {
			if x := &w.slots[p[a]]; x.live && x.where == inGrid {
				batch.Prefetch(unsafe.Pointer(&w.grids[x.kind].blocks[x.block].cols[x.lane/groupLanes]), unsafe.Sizeof(batch.Group{}))
			}
		}
		if x := &w.slots[i]; x.live && x.where == inGrid {
			w.grids[x.kind].blocks[x.block].set(x.lane, x.box)
		}
		s.noted[i>>6] &^= 1 << (i & 63)
	}
	s.pending = p[:0]
}

// pendingAhead: see writeStays.
const pendingAhead = 8
