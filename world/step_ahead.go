package world

import (
	mathbits "math/bits"
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
)

// In a large world an incremental step's query of a dirty box is a chain
// of loads that each miss the cache: the box's slot, its tile's entry (in
// a window of tiles or the hash table: tiles_window.go), the tile's heads
// of cells, the cells' blocks. One query at a time, their latencies add
// up. The step takes the dirty boxes in waves of waveBoxes and asks for
// each link of the wave's chains in turn: the slots of all its boxes,
// then their tables' entries and own blocks, then the heads of the cells
// they reach, then those cells' first blocks, so that each round's misses
// overlap one another; then it queries the wave's boxes, whose chains are
// then in the cache or on their way. Only the box's own
// level of its own grid is asked for: the cells it reaches there, the
// query's range on that level, are those within 2R of its center, R the
// level's reach. The prefetches change no answer.
//
// Waves of 16 boxes take less time than a pipeline that asks for each link a
// fixed number of boxes ahead of its query, one link a stage, and than waves
// of 8, 32 or 64 boxes or waves asked for further ahead (BenchmarkWorldStep,
// world=uniform/moved=1%/workers=1, n=4000000; BenchmarkStepFloor's step);
// on the RTS scene, and at a million boxes, they take as long.
// BenchmarkStepFloor also reads the lines the queries read, some 18 a moved
// box, with nothing computed and every address known in advance: the step
// takes a few times as long as that floor. The floor itself grows with n, as
// the lines move from the caches to memory.
//
// The prefetches ask with batch.PrefetchFar, into the L2 cache on Intel
// processors and into the L1 on others. Against the other hint, each
// shortens the step on its own vendor's processor (BenchmarkWorldStep,
// world=uniform/moved=1%/workers=1, n=4000000, on an Intel Xeon and an AMD
// EPYC), and makes no difference at a million boxes or on the RTS scene;
// MoveBoxes' own prefetches gain nothing from the L2 hint. Why is not known:
// the virtual machines it was timed on have no hardware counters to tell.
const waveBoxes = 16

// queriesAhead is items for the dirty boxes queue[start:end] of a large
// world, in waves of waveBoxes whose links it asks for first.
func (w *World) queriesAhead(dst []uint64, start, end int) []uint64 {
	queue := w.step.queue
	for from := start; from < end; from += waveBoxes {
		wave := queue[from:min(from+waveBoxes, end)]
		for _, i := range wave {
			batch.PrefetchFar(unsafe.Pointer(&w.slots[i]), unsafe.Sizeof(slot{}))
		}
		for stage := range 3 {
			for _, i := range wave {
				w.prefetchStage(i, stage)
			}
		}
		for _, i := range wave {
			if s := &w.slots[i]; s.live && s.where != inNaN {
				dst = w.pairsOf(dst, makeHandle(i, s.gen), s)
			}
		}
	}
	return dst
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
	// The box's cell, s.cell, within R/16 of its center (nearShift), lies
	// in this range, so the range meets the tile and the mask is not empty.
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
