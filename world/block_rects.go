package world

import (
	"math"
	"slices"
)

// A cell of the Static grid that holds more boxes than a block keeps them
// in spatial order, and each block of the Static grid keeps a rectangle
// that holds its boxes' bounds (block.rect), so a question skips the
// blocks of a crowded cell whose rectangles miss its bounds, as it skips
// the cells whose rectangles do (cellBounds). A level's cells are sized
// for its largest boxes, four times their reach, so a level of boxes
// whose sizes spread over a factor of eight holds in a cell many times
// the boxes that can meet a question's bounds there: on the mixed map
// (one box in a hundred a hundred times larger) a full cell of the large
// boxes' level holds about 250 of them, in 16 blocks, where a point lies
// in about eight.
//
// The order is Sort-Tile-Recursive (Leutenegger, Lopez and Edgington,
// "STR: A Simple and Efficient Algorithm for R-Tree Packing", 1997), the
// R-tree bulk load, on the boxes' centers: sorted by x, cut into ⌈√P⌉
// slices of ⌈√P⌉ blocks each for P blocks, each slice sorted by y and
// cut into blocks, so that each block's boxes lie near each other. compact
// lays out each crowded cell so, and relinkAll sets each block's rectangle
// from its boxes. Between layouts a rectangle only grows: put widens the
// rectangle of the block a box joins, remove that of the block the cell's
// last box fills a hole in, and a Static box moves in place only while
// its bounds stay within its block's rectangle (grid.holds), so each
// block's rectangle lies within its cell's.
//
// On BenchmarkWorldQuery's footprints a query of the mixed map tests a fifth
// of the blocks it tests without the order and the rectangles, and takes
// less time; one of the RTS map, whose bases pile buildings in crowded
// cells, a third, in as much time; the uniform map's cells seldom hold more
// than a block.

// crowdKey orders a crowded cell's boxes for layOut: a coordinate of the
// box's center, as bits that sort as the float32 does (orderedBits), over
// the box's index in the cell's list (crowd.at).
type crowdKey = uint64

// crowd is compact's scratch for a crowded cell: a copy of its blocks and
// their fat bounds, its boxes' places in that copy, in the order of the
// cell's list, and their keys.
type crowd struct {
	blocks []block
	fat    []fatBlock
	at     []int32 // block<<4 | lane in blocks, by index
	keys   []crowdKey
}

// orderedBits maps a float32 that is not NaN to a uint32 in the same
// order, -0 just below +0.
func orderedBits(x float32) uint32 {
	b := math.Float32bits(x)
	return b ^ (uint32(int32(b)>>31) | 0x80000000)
}

// layOut lays out the boxes of cell ci, whose m boxes fill the blocks
// from first on (compact has put them one after the other), in STR order,
// the cell's one partly full block first: it copies the blocks aside and
// writes them back in that order. The sorts are of integers, each box's
// coordinate over its index, which slices.Sort compares without a call:
// with slices.SortFunc on records of the center, the handle and the place,
// and each lane copied through obb.Box, a load of the RTS scene as Static
// boxes took longer (BenchmarkWorldLoad, 10,000 and 100,000 boxes, three
// interleaved rounds). A place, block<<4 | lane,
// fits an int32: a cell holds fewer than 2²⁴ boxes.
func (g *grid) layOut(first, m, ci int32) {
	cr := &g.crowd
	p := (m + blockLanes - 1) / blockLanes // only a cell's first block may be partly full (put)
	cr.blocks = append(cr.blocks[:0], g.blocks[first:first+p]...)
	if g.keepFat {
		cr.fat = append(cr.fat[:0], g.fat[first:first+p]...)
	}
	at, keys := cr.at[:0], cr.keys[:0]
	for b := range cr.blocks {
		blk := &cr.blocks[b]
		for lane := range blk.n {
			x := &blk.cols[lane/groupLanes]
			keys = append(keys, crowdKey(orderedBits(x.CX[lane%groupLanes]))<<32|crowdKey(len(at)))
			at = append(at, int32(b)<<4|lane)
		}
	}
	cr.at, cr.keys = at, keys
	slices.Sort(keys)
	side := int32(1)
	for side*side < p {
		side++
	}
	for i := int32(0); i < m; i += side * blockLanes {
		slice := keys[i:min(i+side*blockLanes, m)]
		for j, k := range slice {
			src := at[uint32(k)]
			x := &cr.blocks[src>>4].cols[(src&15)/groupLanes]
			slice[j] = crowdKey(orderedBits(x.CY[src&15%groupLanes]))<<32 | k&0xffffffff
		}
		slices.Sort(slice)
	}
	// The last, partly full block goes first: a cell's first block is the
	// only one that may be partly full (put).
	to := first
	if r := m % blockLanes; r != 0 {
		g.fill(to, keys[m-r:], ci)
		keys, to = keys[:m-r], to+1
	}
	for i := 0; i < len(keys); i += blockLanes {
		g.fill(to, keys[i:i+blockLanes], ci)
		to++
	}
	g.blocks[to-1].next = -1
}

// fill writes block i of cell ci, holding the boxes of keys from the
// crowd's copy, and their fat bounds when the grid keeps them.
func (g *grid) fill(i int32, keys []crowdKey, ci int32) {
	cr := &g.crowd
	g.blocks[i] = block{n: int32(len(keys)), next: i + 1, cell: ci, rect: noBounds, common: ^uint32(0)}
	if g.keepFat {
		g.fat[i] = fatBlock{}
	}
	to := &g.blocks[i]
	for lane, k := range keys {
		src := cr.at[uint32(k)]
		fb, fl := src>>4, src&15
		from := &cr.blocks[fb]
		x, y := &from.cols[fl/groupLanes], &to.cols[lane/groupLanes]
		j, l := fl%groupLanes, lane%groupLanes
		y.CX[l], y.CY[l], y.UX[l], y.UY[l], y.HX[l], y.HY[l] = x.CX[j], x.CY[j], x.UX[j], x.UY[j], x.HX[j], x.HY[j]
		to.h[lane], to.f[lane] = from.h[fl], from.f[fl]
		to.common &= from.f[fl].Category
		if g.keepFat {
			f, t := &cr.fat[fb], &g.fat[i]
			t[0][lane], t[1][lane], t[2][lane], t[3][lane] = f[0][fl], f[1][fl], f[2][fl], f[3][fl]
		}
	}
}
