package world

import (
	mathbits "math/bits"
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
)

// In a large world an incremental step's query of a dirty box is a chain
// of loads that each miss the cache: the box's slot, its tile's entry (in
// a window of tiles or the hash table: tiles_window.go), the tile's heads
// of cells, the cells' blocks. One query
// at a time, their latencies add up. The step asks for each link of the
// chain some queries ahead, one link a stage: the slot of the box queried
// aheadSlot boxes later, the table entry and own block of the box
// aheadEntry later, whose slot has arrived by then, and so on, so that by
// its turn a box's chain is in the cache and the misses of several boxes'
// chains overlap (BenchmarkWorldStep, moved=1%, n=4000000; stages twice
// or four times as far apart measured no different). Only the
// box's own level of its own grid is asked for: the cells it reaches
// there, the query's range on that level, are those within 2R of its
// center, R the level's reach. The prefetches change no answer.
//
// They ask with batch.PrefetchFar, into the L2 cache on Intel processors
// and into the L1 on others. Timed in interleaved rounds against the
// other hint (BenchmarkWorldStep, moved=1%, one worker, n=4000000, the
// uniform scene), on an Intel Xeon (family 6, model 207) PREFETCHT1 took
// 16% off the step with Move and 6% with MoveBoxes (fourteen rounds), and
// on an AMD EPYC (family 26, model 2) it added 16% and 10% (twelve
// rounds); at 1,000,000 boxes, and on the RTS scene at 4,000,000, the
// Intel machine's steps took as long either way, and MoveBoxes' own
// prefetches asked into its L2 cache gained nothing. Why is not known,
// and the virtual machines it was timed on have no hardware counters to
// tell: the lines asked for and not yet read, some 150 (two queries'
// blocks, nine or so of seven lines each, and the heads, entries and
// slots of the queries after them), fit both machines' 48 KiB L1 caches.
const (
	aheadSlot   = 8
	aheadEntry  = 6
	aheadHeads  = 4
	aheadBlocks = 2
)

// queriesAhead is items for the dirty boxes queue[start:end] of a large
// world: it asks for the links of the queries ahead as it goes.
func (w *World) queriesAhead(dst []uint64, start, end int) []uint64 {
	queue := w.step.queue
	for j := start; j < end; j++ {
		w.prefetchAhead(queue, j)
		if s := &w.slots[queue[j]]; s.live && s.where != inNaN {
			dst = w.pairsOf(dst, makeHandle(queue[j], s.gen), s)
		}
	}
	return dst
}

// prefetchAhead asks for the links of the queries of queue[j+aheadSlot]
// and the others ahead of queue[j], each at its stage.
func (w *World) prefetchAhead(queue []int32, j int) {
	if k := j + aheadSlot; k < len(queue) {
		batch.PrefetchFar(unsafe.Pointer(&w.slots[queue[k]]), unsafe.Sizeof(slot{}))
	}
	for stage, d := range [...]int{aheadEntry, aheadHeads, aheadBlocks} {
		if k := j + d; k < len(queue) {
			w.prefetchStage(queue[k], stage)
		}
	}
}

// prefetchStage asks for one link of the query of slot i: its tile's
// entry and its own block (stage 0), the heads of the rows of cells
// it reaches in its tile (1), or the first blocks of those cells (2).
func (w *World) prefetchStage(i int32, stage int) {
	s := &w.slots[i]
	if !s.live || s.where != inGrid {
		return
	}
	g := &w.grids[s.kind] // which has the box's cell, so a table and its tile's entry
	tk := tileKey(s.cell)
	if stage == 0 {
		g.prefetchEntry(tk)
		batch.PrefetchFar(unsafe.Pointer(&g.blocks[s.block]), blockHead)
		return
	}
	occ, ti := g.entry(tk)
	r, side := sizes(int(s.cell.level))
	cx, cy := float64(s.box.Center.X), float64(s.box.Center.Y)
	// The center's cell, s.cell, lies in this range, so the range meets
	// the tile and the mask is not empty.
	cells := tileRows(tk.y, coord(cy-2*r, side), coord(cy+2*r, side)) & tileColumns(tk.x, coord(cx-2*r, side), coord(cx+2*r, side))
	tl := &g.tiles[ti-1]
	if stage == 1 {
		first, last := mathbits.TrailingZeros64(cells)>>tileShift, (63-mathbits.LeadingZeros64(cells))>>tileShift
		batch.PrefetchFar(unsafe.Pointer(&tl.head[first<<tileShift]), uintptr(last-first+1)<<tileShift*4)
		return
	}
	for bits := occ & cells; bits != 0; bits &= bits - 1 {
		batch.PrefetchFar(unsafe.Pointer(&g.blocks[tl.head[mathbits.TrailingZeros64(bits)]]), blockHead)
	}
}
