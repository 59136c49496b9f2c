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
// Waves replaced a pipeline that asked for each link some boxes ahead of
// its query, one link a stage (the slot 8 boxes ahead, the entry 6, the
// heads 4, the blocks 2). Sixteen interleaved rounds of
// BenchmarkWorldStep on an AMD EPYC (family 26, model 2), uniform scene,
// moved=1%, one worker, n=4000000: 768 → 660 ns a moved box with Move
// (−14%), 814 → 739 with MoveBoxes (−9%); at 1,000,000 boxes and on the
// RTS scene, within the noise. In one process (BenchmarkStepFloor's
// step), waves of 8 and 32 boxes measured between the pipeline and waves
// of 16, and waves of 64, or waves whose links were asked for one to four
// waves ahead, little or no better than the pipeline. BenchmarkStepFloor also reads
// the lines the queries read (some 18 a moved box) with nothing computed
// and every address known in advance: on the same machine 42, 43, 65 and
// 130 ns a moved box at 10,000, 100,000, 1,000,000 and 4,000,000 boxes,
// where its step took 120, 165, 371 and 437. The floor itself grows with
// n, as the lines move from the caches to memory.
//
// The prefetches ask with batch.PrefetchFar, into the L2 cache on Intel
// processors and into the L1 on others. Timed in interleaved rounds
// against the other hint (BenchmarkWorldStep, moved=1%, one worker,
// n=4000000, the uniform scene, with the pipeline), on an Intel Xeon
// (family 6, model 207) PREFETCHT1 took 16% off the step with Move and 6%
// with MoveBoxes (fourteen rounds), and on an AMD EPYC (family 26, model
// 2) it added 16% and 10% (twelve rounds); at 1,000,000 boxes, and on the
// RTS scene at 4,000,000, the Intel machine's steps took as long either
// way, and MoveBoxes' own prefetches asked into its L2 cache gained
// nothing. Why is not known, and the virtual machines it was timed on
// have no hardware counters to tell.
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
