package world

import (
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/obb"
)

// How MoveBoxes writes into their blocks the boxes that stay in their
// cells, once sortMoves has found them: as it finds them, sorted by region
// of blocks, or by a pass over every block (writeMode).

// writeMode is how MoveBoxes writes the boxes that stay in their cells
// into their blocks.
type writeMode uint8

const (
	writeDirect writeMode = iota // as sortMoves finds their cells
	writeSorted                  // after, sorted by region of blocks (bucket, writeMoves)
	writeSettle                  // when the lanes are read, by a pass over every block (deferLanes, settle)
)

// writeMode chooses how a MoveBoxes of m boxes writes. When a quarter of
// the world's boxes or more move, in a world whose blocks outgrow the L2
// cache (laterBytes, lag.go), a pass over every block in memory order, on
// the workers, each dirty lane copying its slot's pose, reads the slots in
// a random order but writes each block once, in order, and needs no sort
// (BenchmarkWorldStep, moved=100%, n=100000 and more); it runs when a
// question or a step first reads the lanes (lag.go's deferLanes), which a
// step served by the candidates of fat bounds does not. Where the L2 cache
// holds the blocks, the writes in the caller's order cost less than that
// second pass over the slots (BenchmarkWorldStep, moved=100%, n=10000). For
// fewer boxes the pass would cost more than the moves. In a large world
// (regions.go) they are then sorted by region of blocks, so that the writes
// do not miss the cache and the TLB on every box as writes in the caller's
// order do; in a world the caches hold, the caller's order costs no more
// than any other.
func (w *World) writeMode(m int) writeMode {
	switch {
	case forcedWrites >= 0:
		return writeMode(forcedWrites)
	case 4*m >= w.n && w.blockBytes() > laterBytes:
		return writeSettle
	case !w.large():
		return writeDirect
	}
	return writeSorted
}

// forcedWrites is a writeMode the tests impose (export_test.go), or -1.
var forcedWrites = -1

// settle is worker k's share of the pass over every block of both grids
// in which every lane whose slot is marked in a bitset (settleAll) gets
// its slot's pose. The slot of a box is its pose's truth, so a lane marked
// for another reason gets the pose it holds already. The workers take
// runs of settleChunk blocks, each from its own span of them first
// (spans), so no two write the same block, and each takes as many runs as
// it can: in the RTS scene the blocks of the units' level hold two or
// three boxes and those of the buildings' sixteen, and with half of the
// blocks each one worker took far longer than the other
// (BenchmarkWorldStep, world=rts, workers=2).
func (w *World) settle(k int) {
	ahead := w.large() || len(w.slots)*int(unsafe.Sizeof(slot{})) > settleAheadBytes
	dyn, total := len(w.grids[Dynamic].blocks), len(w.grids[Dynamic].blocks)+len(w.grids[Static].blocks)
	w.moves.spans.each(k, func(run int) {
		start := run * settleChunk
		end := min(start+settleChunk, total)
		// A run can span the end of the Dynamic grid's blocks.
		if start < dyn {
			w.settleBlocks(w.grids[Dynamic].blocks[start:min(end, dyn)], ahead)
		}
		if end > dyn {
			w.settleBlocks(w.grids[Static].blocks[max(start, dyn)-dyn:end-dyn], ahead)
		}
	})
}

// settleAll runs settle's pass over every block on n workers, for the
// slots marked in bits, a word for every 64 slots.
func (w *World) settleAll(n int, bits []uint64) {
	m := &w.moves
	m.bits = bits
	total := len(w.grids[Dynamic].blocks) + len(w.grids[Static].blocks)
	m.spans.reset((total+settleChunk-1)/settleChunk, n)
	w.fanOut(n, (*World).settle)
	m.bits = nil
}

// settleChunk is how many blocks a worker of settle takes at a time:
// about 150 kilobytes, which stream, against an atomic add. The spans are
// cut by blocks, not by boxes as pack cuts its cells: between compactions
// a cell's blocks are not together, and only a pass over every block would
// tell how full each range is, so a worker done with its span takes runs
// from the others'.
const settleChunk = 256

// settleBlocks is settle's pass over blocks.
func (w *World) settleBlocks(blocks []block, ahead bool) {
	bits := w.moves.bits
	for b := range blocks {
		if a := b + settleAhead; ahead && a < len(blocks) {
			w.prefetchSlots(&blocks[a])
		}
		blk := &blocks[b]
		for lane := range blk.n {
			if i := blk.h[lane] >> 8; bits[i>>6]&(1<<(i&63)) != 0 {
				blk.set(lane, w.slots[i].box)
			}
		}
	}
}

// settleAhead is how many blocks ahead of its writes settle asks for the
// slots it will read, in a large world (regions.go) or one whose slots
// take more than settleAheadBytes. The slots are read in a random order,
// a cache miss each, and a TLB miss too in a large world; asked for
// ahead, their misses overlap instead of stalling each lane's copy in
// turn (BenchmarkWorldStep, moved=100%/move=bulk, n=1000000; further ahead
// gains nothing). One call of batch.PrefetchMarked asks for a block's dirty
// slots: a call of batch.Prefetch a slot costs about as much as it saves
// where the slots sit in the L3 cache (the same benchmark at n=100000).
const settleAhead = 4

// settleAheadBytes: in a world whose slots take more than this (twice the
// L2 cache of an Intel Xeon with 2 MiB a core), settle asks for them ahead
// even when its blocks do not make the world large. Where the L2 cache holds
// most of the slots the asking costs more than it saves: the all-moved
// MoveBoxes step breaks even between 60,000 and 80,000 boxes of the uniform
// scene (3.4 and 4.5 MB of slots), on the Intel Xeon and on an AMD EPYC with
// a 1 MiB L2 cache alike (BenchmarkWorldStep, moved=100%/move=bulk).
const settleAheadBytes = 4 << 20

// prefetchSlots asks for the boxes of the marked slots of blk's lanes. A
// block's lanes hold live boxes, so w.slots is not empty.
func (w *World) prefetchSlots(blk *block) {
	hs := unsafe.Slice((*uint32)(unsafe.Pointer(&blk.h[0])), blk.n)
	batch.PrefetchMarked(unsafe.Pointer(&w.slots[0].box), unsafe.Sizeof(slot{}), unsafe.Sizeof(obb.Box{}), hs, w.moves.bits)
}

// stay is a box that MoveBoxes writes in place: its new pose, its block,
// its lane plus 256 times its Kind, and its slot.
type stay struct {
	box       obb.Box
	blk, lane int32
	slot      int32
}

// region returns the region of the block of x.
func (m *moves) region(x *stay) int {
	k := x.lane >> 8
	return int(k)*regions + int(x.blk>>m.shift[k])
}

// bucket sorts the chunks' stay lists into sorted by region.
func (w *World) bucket() {
	m := &w.moves
	for k := range w.grids {
		m.shift[k] = w.grids[k].regionShift()
	}
	m.sorted, m.keys = regionSort(m.sorted, m.keys, m.start[:], m.stay[:m.chunks], m.region)
}

// writeMoves is worker k's share of the writes, of n: whole regions, from
// the first that starts at or after k/n of the boxes to the first that
// starts at or after (k+1)/n. Regions hold different blocks, so no two
// workers write the same block; the cuts go by boxes, not by regions, as a
// world of Dynamic boxes only has its writes in the first half of the
// regions.
func (w *World) writeMoves(k int) {
	m := &w.moves
	n := len(m.bounds) - 1
	xs := m.sorted[m.cut(k, n):m.cut(k+1, n)]
	for i := range xs {
		if j := i + writeAhead; j < len(xs) {
			y := &xs[j]
			l := y.lane & 0xff
			batch.Prefetch(unsafe.Pointer(&w.grids[y.lane>>8].blocks[y.blk].cols[l/groupLanes]), unsafe.Sizeof(batch.Group{}))
		}
		x := &xs[i]
		w.grids[x.lane>>8].blocks[x.blk].set(x.lane&0xff, x.box)
	}
}

// writeAhead is how many boxes ahead of its writes writeMoves asks for the
// group of lanes it will write. The boxes are sorted by region of blocks,
// but a step that moved few of a large world's boxes has a few in each
// region, each in a block of its own, so every write misses the cache.
// Asked for ahead, the misses of several writes overlap (BenchmarkWorldStep,
// world=uniform/moved=1%/move=bulk, n=1000000 and n=4000000; the RTS scene's
// step, which its standing pairs dominate, gains nothing measurable).
const writeAhead = 8

// cut returns where worker k of n starts in sorted (writeMoves).
func (m *moves) cut(k, n int) int32 { return m.start[shareStart(m.start[:], k, n)] }
