package world

import (
	"fmt"

	"github.com/obb2d/obb2d/internal/bound"
	"github.com/obb2d/obb2d/internal/hugepage"
	"github.com/obb2d/obb2d/obb"
)

// Handle names one box of a World for as long as the box lives. Its low
// eight bits are a generation and the rest the box's slot, so a handle kept
// after its box was removed is told apart from the handle of a box that
// reuses the slot. The zero Handle is never issued.
type Handle uint32

// Kind says whether a box moves. Pairs of two Static boxes are never
// reported, and a Static box costs a step nothing unless it moves.
type Kind uint8

const (
	Dynamic Kind = iota // the zero value: a box that moves
	Static              // a box that rarely or never moves: walls, terrain, buildings
)

// Filter decides which pairs count: boxes a and b pair when
// a.Category&b.Mask != 0 and b.Category&a.Mask != 0, and Query with mask m
// reports a box when its Category&m != 0.
type Filter struct{ Category, Mask uint32 }

// DefaultFilter is in category 1 and pairs with every category.
var DefaultFilter = Filter{Category: 1, Mask: ^uint32(0)}

// allows reports whether boxes with filters f and g may pair.
func (f Filter) allows(g Filter) bool { return f.Category&g.Mask != 0 && g.Category&f.Mask != 0 }

// Pair names two overlapping boxes, A < B.
type Pair struct{ A, B Handle }

// maxSlots is how many boxes a World can hold at once: the slot numbers a
// Handle has room for.
const maxSlots = 1 << 24

// where a box is kept.
const (
	inGrid     uint8 = iota // in its Kind's grid, at block and lane
	inNaN                   // has a NaN: overlaps nothing, kept nowhere
	inInfinite              // has an infinity: in the infinite list, tested against all
)

// slot is one box's record, indexed by its handle's slot number.
type slot struct {
	box    obb.Box
	filter Filter
	gen    uint8 // the generation of the live box, or of the next one when free
	live   bool
	kind   Kind
	where  uint8
	block  int32   // inGrid: the block holding the box; inInfinite: its index in the list
	lane   int32   // inGrid: the lane in the block
	cell   cellKey // inGrid: the cell, kept here so that Move reads no block to compare
}

// World is a persistent set of boxes, indexed for overlap queries and pair
// steps whose cost depends on the boxes near the question, not on the size
// of the world. Its zero value is empty and ready to use; New returns one
// too. A World must not be used by two goroutines at once, except that the
// reading methods (Box, Kind, Filter, Contains, Len, Query, Any,
// QueryPoint, QueryRegion, RayCast, RayCastAll, Contacts, All, Handles)
// may run concurrently with each other.
type World struct {
	slots    []slot
	tags     []uint8  // by slot: its live box's generation, or 0 when free (checkMoves)
	free     queue    // free slots, reused first in, first out
	n        int      // live boxes
	dynamic  int      // live Dynamic boxes
	grids    [2]grid  // by Kind
	infinite []Handle // boxes without finite bounds: an infinity, or a zero axis

	lifted  []Handle // lift's list of a level's boxes
	loading loading  // InsertBoxes' buffers
	dirty   slotSet  // slots marked dirty since the last Pairs (markDirty); its bitset, kept out of the slots, is what a pass over the remembered pairs reads from the cache

	// Workers is how many goroutines Pairs and MoveBoxes use, and the
	// first question after Moves in a world larger than the L2 cache
	// (lag.go); 0 or 1 means the calling goroutine only, a negative value
	// runtime.GOMAXPROCS(0). A pass uses fewer when it has too little
	// work for them: MoveBoxes, for one, gives a worker at least 32,768
	// boxes in a world of 16 MiB of blocks or less (smallMoveChunk).
	// The result does not depend on it.
	Workers int

	moves moves // MoveBoxes' state
	fan   fan   // runs Pairs' and MoveBoxes' workers

	step stepper  // the pair step's state
	fat  fatState // the fat bounds and candidates (fat.go)
	lag  lag      // the Moves whose blocks are behind their slots
}

// New returns an empty World.
func New() *World { return new(World) }

// Len returns the number of live boxes.
func (w *World) Len() int { return w.n }

// Insert adds box b of kind k with filter f and returns its handle. Handles
// are given out deterministically: a fresh World numbers its slots from 0
// up, each generation starting at 1, and a removed box's slot is reused
// only after every slot freed before it (first in, first out), with its
// generation one higher (wrapping from 255 to 1). Insert panics if the
// World already holds 2²⁴ boxes or k is not Dynamic or Static.
func (w *World) Insert(b obb.Box, k Kind, f Filter) Handle {
	h := w.insert(b, k, f)
	w.compact()
	return h
}

// insert is Insert without the compact.
func (w *World) insert(b obb.Box, k Kind, f Filter) Handle {
	i, s, h := w.claim(b, k, f)
	w.place(h, s)
	w.markDirty(i)
	return h
}

// claim takes a slot for box b of kind k with filter f, the next
// Insert's, and returns it and the box's handle; the box is not placed.
func (w *World) claim(b obb.Box, k Kind, f Filter) (int32, *slot, Handle) {
	if k > Static {
		panic(fmt.Sprintf("world: Insert with kind %d, which is neither Dynamic nor Static", k))
	}
	var i int32
	if w.free.len() > 0 {
		i = w.free.pop()
	} else {
		if len(w.slots) == maxSlots {
			panic("world: Insert into a World that holds 16,777,216 boxes, the most it can")
		}
		w.slots = append(hugepage.Grow(w.slots, 1), slot{gen: 1})
		w.tags = append(w.tags, 0)
		i = int32(len(w.slots) - 1)
		if int(i>>6) >= len(w.dirty.bits) {
			w.dirty.bits = append(w.dirty.bits, 0)
			w.fat.unsure.bits = append(w.fat.unsure.bits, 0)
		}
	}
	s := &w.slots[i]
	h := makeHandle(i, s.gen)
	s.box, s.filter, s.kind, s.live = b, f, k, true
	w.grids[Static].static = true // the zero World's grids learn their kinds before their first box
	w.tags[i] = s.gen
	w.n++
	if k == Dynamic {
		w.dynamic++
	}
	return i, s, h
}

// Move gives the box h a new pose or size (or both). A move that keeps the
// box in its grid cell rewrites it in place; in a world larger than the
// L2 cache, when the next question or Pairs needs it, together with the
// other Moves' (lag.go), and, with more than one worker, the box's cell is
// found then too. It panics if h is stale.
func (w *World) Move(h Handle, b obb.Box) {
	s := w.slot(h, "Move")
	w.fat.moveRecord(int32(h>>8), b)
	if s.where == inGrid {
		later := w.writesLater()
		if later && w.cellsLater() {
			s.box = b
			w.fallBehind(int32(h >> 8)) // the cell, the block and the fat bounds: lag.go
			w.dirty.add(int32(h >> 8))
			return
		}
		g := &w.grids[s.kind]
		if key, r, tx, ty, ok := g.recell(s.cell, b); ok && (key == s.cell && g.holds(key, s.block, r, b) || g.widenNear(s.cell, b)) {
			if !later {
				g.blocks[s.block].set(s.lane, b)
			} else {
				w.fallBehind(int32(h >> 8)) // the block gets b later: lag.go
			}
			s.box = b
			w.markMoved(int32(h>>8), h, b.Center, tx, ty)
			return
		}
	}
	w.unplace(s)
	s.box = b
	w.place(h, s)
	w.markChanged(int32(h >> 8))
	w.compact()
}

// Remove deletes the box h; h and every copy of it become stale, and the
// next Pairs ends its pairs. It panics if h is stale.
func (w *World) Remove(h Handle) {
	s := w.slot(h, "Remove")
	w.unplace(s)
	w.markDirty(int32(h >> 8))
	s.live = false
	w.tags[h>>8] = 0
	s.gen++
	if s.gen == 0 {
		s.gen = 1
	}
	w.n--
	if s.kind == Dynamic {
		w.dynamic--
	}
	w.free.push(int32(h >> 8))
}

// Box returns the box h as last inserted or moved. It panics if h is stale.
func (w *World) Box(h Handle) obb.Box { return w.slot(h, "Box").box }

// Kind returns the kind of the box h. It panics if h is stale.
func (w *World) Kind(h Handle) Kind { return w.slot(h, "Kind").kind }

// Filter returns the filter of the box h. It panics if h is stale.
func (w *World) Filter(h Handle) Filter { return w.slot(h, "Filter").filter }

// SetFilter changes the filter of the box h; the next Pairs applies it. It
// panics if h is stale.
func (w *World) SetFilter(h Handle, f Filter) {
	s := w.slot(h, "SetFilter")
	s.filter = f
	if s.where == inGrid {
		blk := &w.grids[s.kind].blocks[s.block]
		blk.f[s.lane] = f
		blk.recommon()
	}
	w.markDirty(int32(h >> 8))
}

// SetKind makes the box h Dynamic or Static, keeping its handle, as a
// physics engine turns a body static or wakes a fixed one; the next Pairs
// applies it: a box made Static loses its pairs with Static boxes, a box
// made Dynamic gains them. It panics if h is stale or k is neither Dynamic
// nor Static.
//
// The box moves to the grid of its new Kind, and its fat bounds are
// forgotten: its candidates (fat.go) were found for its old Kind, without
// the Static boxes when it was Static, so the next step that uses them
// takes the box as one that escaped and finds them afresh.
func (w *World) SetKind(h Handle, k Kind) {
	if k > Static {
		panic(fmt.Sprintf("world: SetKind with kind %d, which is neither Dynamic nor Static", k))
	}
	s := w.slot(h, "SetKind")
	if s.kind == k {
		return
	}
	w.unplace(s)
	if i := int(h >> 8); i < len(w.fat.box) {
		w.fat.box[i].h = 0
	}
	if s.kind == Dynamic {
		w.dynamic--
	} else {
		w.dynamic++
	}
	s.kind = k
	w.place(h, s)
	w.markDirty(int32(h >> 8))
	w.compact()
}

// Contains reports whether h names a live box of w.
func (w *World) Contains(h Handle) bool {
	i := int(h >> 8)
	return i < len(w.tags) && w.tags[i] == uint8(h) && uint8(h) != 0
}

// slot returns h's record, or panics naming the method and what is wrong
// with h, before anything is changed.
func (w *World) slot(h Handle, method string) *slot {
	i := int(h >> 8)
	if i >= len(w.slots) || uint8(h) == 0 {
		panic(handleError{method, h, false})
	}
	s := &w.slots[i]
	if !s.live || s.gen != uint8(h) {
		panic(handleError{method, h, true})
	}
	return s
}

// handleError is the panic of a handle this World never issued, or of a
// stale one (stale), passed to method. Its message is formatted only when
// printed: a call to fmt.Sprintf in slot's body would put slot over the
// compiler's inlining budget, and Move and every other method that takes
// a handle would call it (BenchmarkWorldStep, move=each).
type handleError struct {
	method string
	h      Handle
	stale  bool
}

func (e handleError) Error() string {
	if e.stale {
		return fmt.Sprintf("world: %s with stale handle %#x: its box was removed", e.method, uint32(e.h))
	}
	return fmt.Sprintf("world: %s with handle %#x, which this World never issued", e.method, uint32(e.h))
}

func makeHandle(slot int32, gen uint8) Handle { return Handle(uint32(slot)<<8 | uint32(gen)) }

// place files the live box of slot s, whose handle is h, where its class
// says: the grid of its kind, the infinite list, or nowhere for a NaN box.
func (w *World) place(h Handle, s *slot) {
	if key, r, ok := w.grids[s.kind].gridCell(s.box); ok {
		s.where, s.cell = inGrid, key
		s.block, s.lane = w.grids[s.kind].add(key, r, h, s.filter, s.box)
		w.placeFat(h, s)
		return
	}
	if bound.Classify(s.box) == bound.NaN {
		s.where = inNaN
		return
	}
	s.where = inInfinite
	s.block = int32(len(w.infinite))
	w.infinite = append(w.infinite, h)
}

// unplace takes the box of slot s out of where place put it.
func (w *World) unplace(s *slot) {
	switch s.where {
	case inGrid:
		g := &w.grids[s.kind]
		if moved, ok := g.remove(s.block, s.lane); ok {
			m := &w.slots[moved>>8]
			m.block, m.lane = s.block, s.lane
			g.refill(m.block, m.lane, m.box)
		}
	case inInfinite:
		last := w.infinite[len(w.infinite)-1]
		w.infinite[s.block] = last
		w.slots[last>>8].block = s.block
		w.infinite = w.infinite[:len(w.infinite)-1]
	}
}

// compact runs lift and grid.compact on each grid that is due. Insert, a
// Move to another cell and Pairs call it, so a world built by Insert alone
// and only asked questions is laid out too, at O(log n) amortized per box
// entering a cell. The layout
// reads the boxes from their lanes (the Static grid's rectangles, the
// order of its crowded cells), so the lanes behind their slots get their
// poses first (lag.go).
func (w *World) compact() {
	for k := range w.grids {
		if g := &w.grids[k]; g.due() {
			w.catchUp()
			w.compactGrids()
			return
		}
	}
}

// compactGrids is compact for a World whose lanes hold their slots' poses.
func (w *World) compactGrids() {
	for k := range w.grids {
		if g := &w.grids[k]; g.due() {
			w.lift(g)
			g.compact()
			w.relocate(g)
		}
	}
}

// relocate gives the slot of every box of g its block and lane, after
// grid.compact, in one pass over the blocks in memory order. Made as the
// compaction placed each block, by a call of a function value a lane, these
// writes would be a third of the compaction's time (BenchmarkCompact in this
// package). Asking for the slots ahead costs more than it saves.
func (w *World) relocate(g *grid) {
	for b := range g.blocks {
		blk := &g.blocks[b]
		for lane, h := range blk.h[:blk.n] {
			s := &w.slots[h>>8]
			s.block, s.lane = int32(b), int32(lane)
		}
	}
}

// liftShare: lift empties a level into a higher one that its boxes may
// join when the higher one holds more than liftShare times as many.
const liftShare = 16

// lift moves the boxes of sparse levels up. Which level a box joins depends
// on the levels that exist when it arrives (levelFor), so the first boxes
// inserted into a world can found levels that later boxes, arriving with a
// larger size class, pass by: without lift, the uniform scene's first 385
// boxes make two levels below the one the other 9,615 share
// (TestUniformSceneHasOneLevel). Each level costs every question on it at
// least one tile lookup and four coordinates, whatever it holds, so lift
// re-files the boxes of a level holding under 1/liftShare of a level up to
// 2^levelSlack larger: those whose size allows it go up (the uniform scene
// then has one level), the others stay. It runs with compact, at most once
// per as many boxes entering cells as the grid holds.
func (w *World) lift(g *grid) {
	for lv := minLevel; lv <= maxLevel; lv++ {
		n := g.count[lv-minLevel]
		if n == 0 {
			continue
		}
		sparse := false
		for up := lv + 1; up <= min(lv+levelSlack, maxLevel); up++ {
			sparse = sparse || liftShare*int64(n) < int64(g.count[up-minLevel])
		}
		if !sparse {
			continue
		}
		hs := w.lifted[:0]
		for c := range g.cells {
			if int(g.cells[c].key.level) == lv {
				for b := g.cells[c].head; b >= 0; b = g.blocks[b].next {
					hs = append(hs, g.blocks[b].h[:g.blocks[b].n]...)
				}
			}
		}
		for _, h := range hs {
			s := &w.slots[h>>8]
			if key, _ := g.cellOf(s.box); int(key.level) != lv {
				w.unplace(s)
				w.place(h, s)
			}
		}
		w.lifted = hs
	}
}

// markDirty records that slot i was inserted, refiltered or removed since
// the last Pairs, a change the next step copies to the kernel's records.
func (w *World) markDirty(i int32) {
	w.markChanged(i)
	w.fat.behind = true
}

// markChanged records that slot i changed since the last Pairs: a move
// whose record is written already (moveRecord), or, through markDirty, any
// other change.
func (w *World) markChanged(i int32) {
	w.dirty.add(i)
	w.fat.markUnsure(i)
}

// markMoved marks slot i dirty for a Move that kept its box, of handle h,
// center c and reach tx, ty (slack of bound.Reach's), in its cell, and
// vouches for the box when it lies inside its fat bounds (fat_unsure.go).
func (w *World) markMoved(i int32, h Handle, c obb.Vec2, tx, ty float64) {
	w.dirty.add(i)
	if v := &w.fat; v.valid && !v.within(i, h, c, tx, ty) {
		v.markUnsure(i)
	}
}

// isDirty reports whether slot i was marked dirty since the last Pairs.
func (w *World) isDirty(i int32) bool { return w.dirty.has(i) }

// queue is a first-in, first-out queue of slot numbers in a ring.
type queue struct {
	ring       []int32
	head, size int
}

func (q *queue) len() int { return q.size }

func (q *queue) push(v int32) {
	if q.size == len(q.ring) {
		grown := make([]int32, max(16, 2*len(q.ring)))
		for i := range q.size {
			grown[i] = q.ring[(q.head+i)%len(q.ring)]
		}
		q.ring, q.head = grown, 0
	}
	q.ring[(q.head+q.size)%len(q.ring)] = v
	q.size++
}

func (q *queue) pop() int32 {
	v := q.ring[q.head]
	q.head = (q.head + 1) % len(q.ring)
	q.size--
	return v
}
