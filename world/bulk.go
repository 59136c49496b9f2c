package world

import (
	"iter"
	"slices"
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/hugepage"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// InsertBoxes inserts every box of b, in order, with kind k and filter f,
// appends their handles to dst and returns the extended slice. It gives
// the handles that as many calls of Insert would, and lays the grid out
// in memory in spatial order when the load was large. It panics if b's
// columns differ in length.
//
// A box's cell and level are found in b's order, as Insert finds them (a
// box's level depends on the levels the boxes before it made), but the
// boxes go into their blocks cell by cell, into an array of blocks sized
// once: put in b's order, each box's block would be a cache miss in a world
// larger than the cache, and the blocks' array would grow by copying as it
// went (BenchmarkWorldLoad).
func (w *World) InsertBoxes(dst []Handle, b *soa.Boxes, k Kind, f Filter) []Handle {
	dst = w.loadBoxes(dst, b, k, f)
	w.compact()
	return dst
}

// loadBoxes is InsertBoxes but for the compaction that follows.
func (w *World) loadBoxes(dst []Handle, b *soa.Boxes, k Kind, f Filter) []Handle {
	n := b.Len()
	if w.free.len() == 0 {
		w.slots = hugepage.Grow(w.slots, n)
		w.tags = slices.Grow(w.tags, n)
	}
	dst = slices.Grow(dst, n)
	w.dirty.list = slices.Grow(w.dirty.list, n)
	g := &w.grids[k]
	loads := slices.Grow(w.loading.loads[:0], n)
	for i := range n {
		x := b.At(i)
		j, s, h := w.claim(x, k, f)
		dst = append(dst, h)
		if key, r, ok := g.gridCell(x); ok {
			s.where, s.cell = inGrid, key
			g.enter(key, r)
			loads = append(loads, load{key: key, slot: j})
		} else {
			w.place(h, s)
		}
		w.markDirty(j)
	}
	w.putLoads(g, loads)
	w.loading.loads = loads[:0]
	w.loading.drop()
	return dst
}

// putLoads puts the boxes of loads in their cells of grid g, cell by cell
// and in b's order within each: a counting sort on the cells' indices, the
// cells made as their first box comes. It costs O(cells of g) besides, so
// a load of fewer boxes than an eighth of the cells puts them in b's
// order.
func (w *World) putLoads(g *grid, loads []load) {
	if 8*len(loads) < len(g.cells) {
		for i := range loads {
			w.putLoad(g, &loads[i], g.cellFor(loads[i].key))
		}
		return
	}
	l := &w.loading
	l.count = l.count[:0]
	for i := range loads {
		c := g.cellFor(loads[i].key)
		for int(c) >= len(l.count) {
			l.count = append(l.count, 0)
		}
		l.count[c]++
		loads[i].cell = c
	}
	blocks := 0
	sum := int32(0)
	for c, m := range l.count {
		// A cell's boxes fill its first block before put makes another,
		// so m boxes need at most ceil(m/16) new blocks, fewer when the
		// cell has a partly full one. Room past that stays taken: the
		// compaction lays the blocks out within this array, which the
		// grid keeps (TestLoadSizesBlocks).
		blocks += int((m + blockLanes - 1) / blockLanes)
		l.count[c], sum = sum, sum+m
	}
	sorted := slices.Grow(l.sorted[:0], len(loads))[:len(loads)]
	for i := range loads {
		c := loads[i].cell
		sorted[l.count[c]] = loads[i]
		l.count[c]++
	}
	g.blocks = hugepage.Grow(g.blocks, blocks)
	g.fat = hugepage.Grow(g.fat, blocks)
	for j := range sorted {
		if a := j + loadAhead; a < len(sorted) {
			batch.Prefetch(unsafe.Pointer(&w.slots[sorted[a].slot]), unsafe.Sizeof(slot{}))
		}
		w.putLoad(g, &sorted[j], sorted[j].cell)
	}
	l.sorted = sorted[:0]
}

// loadAhead is how many boxes ahead putLoads asks for the slot it will
// read. In cell order the slots, which are in the caller's order, are read
// at random, and in a world larger than the cache each is a miss; asked
// for ahead, several misses overlap. The loads are copied in cell order,
// not indexed by an order, so that they are read in turn. Both make the
// uniform scene's Static load of a million boxes or more shorter, and leave
// the RTS scene's as it is (BenchmarkWorldLoad).
const loadAhead = 8

// putLoad puts the box of ld in cell c of grid g.
func (w *World) putLoad(g *grid, ld *load, c int32) {
	s := &w.slots[ld.slot]
	h := makeHandle(ld.slot, s.gen)
	s.block, s.lane = g.put(c, ld.key, h, s.filter, s.box)
	w.placeFat(h, s)
}

// load is a box InsertBoxes puts in its cell: the cell's key and index,
// and the box's slot.
type load struct {
	key        cellKey
	cell, slot int32
}

// loading is InsertBoxes' buffers, kept for the next call while they are
// small (drop): the boxes it puts in cells, each cell's count of them and
// then where its boxes start in order, and the boxes in the order of
// their cells.
type loading struct {
	loads  []load
	count  []int32
	sorted []load
}

// keptLoads is the most boxes whose buffers loading keeps between loads:
// enough that a game inserting its spawns a wave at a time allocates
// them once. A level's load of millions of boxes would otherwise leave
// 40 bytes a box of buffers behind for the World's life, for the next
// load of that size, which allocates its slots and blocks anyway.
const keptLoads = 1 << 14

// drop lets the buffers go when they hold room for more than keptLoads
// boxes.
func (l *loading) drop() {
	if cap(l.loads) > keptLoads || cap(l.sorted) > keptLoads || cap(l.count) > keptLoads {
		*l = loading{}
	}
}

// All iterates over the live boxes in ascending handle order. The World
// must not change during the iteration.
func (w *World) All() iter.Seq2[Handle, obb.Box] {
	return func(yield func(Handle, obb.Box) bool) {
		for i := range w.slots {
			if s := &w.slots[i]; s.live && !yield(makeHandle(int32(i), s.gen), s.box) {
				return
			}
		}
	}
}

// Handles appends the handles of the live boxes to dst in ascending order
// and returns the extended slice: a snapshot, with Box, of the world.
func (w *World) Handles(dst []Handle) []Handle {
	for h := range w.All() {
		dst = append(dst, h)
	}
	return dst
}

// Clear removes every box, keeping the World's memory. Handles issued
// before become stale, and slots are reused from the lowest up with their
// generations carried on, so Insert's order of handles holds afresh.
func (w *World) Clear() {
	for i := range w.slots {
		s := &w.slots[i]
		if s.live {
			s.live = false
			if s.gen++; s.gen == 0 {
				s.gen = 1
			}
		}
	}
	clear(w.tags)
	w.free = queue{ring: w.free.ring[:0]}
	for i := range w.slots {
		w.free.push(int32(i))
	}
	w.n, w.dynamic = 0, 0
	for k := range w.grids {
		w.grids[k].clear()
	}
	w.infinite = w.infinite[:0]
	w.dirty.clear()
	w.fat.unsure.clear()
	w.lag.slots, w.lag.all, w.lag.lanes = w.lag.slots[:0], false, false
	w.lag.stays.clear()
	clear(w.lag.stale)
	w.lag.behind.Store(false)
	w.step.prev = w.step.prev[:0]
	w.step.evPending, w.step.evWorkers = false, 0 // no events
	w.dropFat()
}
