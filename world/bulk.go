package world

import (
	"iter"
	"slices"

	"github.com/obb2d/obb2d/internal/hugepage"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// InsertBoxes inserts every box of b, in order, with kind k and filter f,
// appends their handles to dst and returns the extended slice. It gives
// the handles that as many calls of Insert would, and lays the grid out
// in memory in spatial order when the load was large. It panics if b's
// columns differ in length.
func (w *World) InsertBoxes(dst []Handle, b *soa.Boxes, k Kind, f Filter) []Handle {
	n := b.Len()
	if w.free.len() == 0 {
		w.slots = hugepage.Grow(w.slots, n)
		w.tags = slices.Grow(w.tags, n)
	}
	for i := range n {
		dst = append(dst, w.insert(b.At(i), k, f))
	}
	w.compact()
	return dst
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
	w.lag.slots, w.lag.all = w.lag.slots[:0], false
	w.lag.behind.Store(false)
	w.step.prev = w.step.prev[:0]
	w.step.evWorkers = 0 // no events
	w.dropFat()
}
