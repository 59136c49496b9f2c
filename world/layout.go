package world

import (
	"cmp"
	"slices"
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
)

// The grid's layout in memory: compact puts the cells and their blocks in
// the order of the cells' keys when due says enough boxes have entered
// cells since the last time, moving the blocks in place (permute).

// compact lays the cells out in the order of their keys (level, then y,
// then x) and their blocks in the same order, each cell's one after the
// other; the caller then gives each box's slot its new place
// (World.relocate). Boxes inserted or moved across cells in random order
// leave neighbouring cells' blocks scattered over memory, and a step over
// the cells then misses the cache on every neighbour; in key order the
// forward neighbours (x+1, and the next row) are close behind. It runs
// when due says so.
func (g *grid) compact() {
	g.order = g.order[:0]
	for c := range g.cells {
		g.order = append(g.order, int32(c))
	}
	slices.SortFunc(g.order, func(a, b int32) int {
		ka, kb := g.cells[a].key, g.cells[b].key
		if ka.level != kb.level {
			return int(ka.level) - int(kb.level)
		}
		if ka.y != kb.y {
			return cmp.Compare(ka.y, kb.y)
		}
		return cmp.Compare(ka.x, kb.x)
	})
	// Each block's place in the new layout: the cells' blocks in their
	// order, each cell's in the order of its list, then the unused ones,
	// which the layout drops. A block's links are set for its new place
	// before it moves.
	to := slices.Grow(g.to[:0], len(g.blocks))[:len(g.blocks)]
	i := int32(0)
	for ci, c := range g.order {
		b := g.cells[c].head
		g.cells[c].head = i
		for b >= 0 {
			blk := &g.blocks[b]
			next := blk.next
			to[b], i = i, i+1
			blk.next, blk.cell = i, int32(ci)
			if next < 0 {
				blk.next = -1
			}
			b = next
		}
	}
	in := i
	for _, b := range g.free {
		to[b], i = i, i+1
	}
	g.permute(to)
	g.to = to[:0]
	g.blocks, g.fat = g.blocks[:in], g.fat[:in]
	cells := g.spareCells[:0]
	for ci, c := range g.order {
		cells = append(cells, g.cells[c])
		if g.static && g.cells[c].boxes > blockLanes {
			g.layOut(g.cells[c].head, g.cells[c].boxes, int32(ci))
		}
	}
	g.spareCells, g.cells = g.cells[:0], cells
	g.free = g.free[:0]
	g.relinkAll()
	g.churn, g.laid = 0, g.boxes
}

// due reports whether as many boxes have entered cells since the last
// compact as the grid held then, or holds now if it holds fewer, and at
// least 1,024: its O(n log n) is then paid once per n/2 or more boxes
// entering cells. Compared with the boxes it holds now, which count those
// that entered, a grid that only grows would never be due again after its
// first 1,024 boxes, and a world built by Insert one box at a time would
// keep its blocks in the order the boxes came, and its 1% step would cost
// far more than that of the same world loaded by InsertBoxes
// (BenchmarkPeerStep's obb2d-world rows, whose world Insert builds, against
// BenchmarkWorldStep's).
func (g *grid) due() bool { return g.churn >= max(min(g.laid, g.boxes), 1024) }

// permute moves each block b, and its fat bounds when the grid keeps them,
// to place to[b], in place, to being a permutation of the blocks' indices;
// it leaves to[b] = b. Each swap puts one block in its final place, so
// it makes fewer swaps than there are blocks, in the grid's own array,
// where a copy would need a second array as large, kept from compaction
// to compaction. The swaps of a cycle go to places at random, a cache
// miss each in a grid larger than the cache; ahead follows the cycle
// permuteAhead swaps before them and asks for the blocks there
// (BenchmarkCompact, whose grids Scatter puts in a random order).
func (g *grid) permute(to []int32) {
	for b := range to {
		start := int32(b)
		ahead := to[b]
		for range permuteAhead {
			if ahead = g.ask(to, ahead, start); ahead == start {
				break
			}
		}
		for d := to[b]; d != start; d = to[b] {
			if ahead != start {
				ahead = g.ask(to, ahead, start)
			}
			g.blocks[b], g.blocks[d] = g.blocks[d], g.blocks[b]
			if g.keepFat {
				g.fat[b], g.fat[d] = g.fat[d], g.fat[b]
			}
			to[b], to[d] = to[d], d
		}
	}
}

// ask returns the place after a in its cycle of to, and asks for the
// block there (and its fat bounds when the grid keeps them) unless it is
// the cycle's start.
func (g *grid) ask(to []int32, a, start int32) int32 {
	if a = to[a]; a != start {
		batch.Prefetch(unsafe.Pointer(&g.blocks[a]), unsafe.Sizeof(block{}))
		if g.keepFat {
			batch.Prefetch(unsafe.Pointer(&g.fat[a]), unsafe.Sizeof(fatBlock{}))
		}
	}
	return a
}

// permuteAhead is how many swaps ahead permute asks for a block.
const permuteAhead = 8
