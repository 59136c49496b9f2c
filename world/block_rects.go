package world

import (
	"cmp"
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
// On BenchmarkWorldQuery's footprints a query of the mixed map tests 5.0
// and 5.4 blocks instead of 23.4 and 27.9 at 100,000 and 1,000,000 boxes,
// of the RTS map, whose bases pile buildings in crowded cells, 0.73 and
// 0.68 instead of 2.0; the uniform map's cells seldom hold more than a
// block. Timed in one binary against the caller's order without the
// blocks' rectangles, mixed queries took 9%, 31% and 27% less time at
// 10,000, 100,000 and 1,000,000 boxes, RTS queries 4% less at 10,000
// and the same at the larger sizes, uniform ones within 1%.

// crowdBox is a box of a crowded cell while layOut orders it: its center
// and its place.
type crowdBox struct {
	x, y      float32
	h         Handle
	blk, lane int32
}

// layOut appends to nb (and to nf, when the grid keeps the fat bounds)
// the blocks of cell c, the ci-th in compact's order, holding its boxes
// in STR order, the cell's one partly full block first, and calls moved
// with each box's new place.
func (g *grid) layOut(nb []block, nf []fatBlock, c, ci int32, moved func(h Handle, blk, lane int32)) ([]block, []fatBlock) {
	boxes := g.crowd[:0]
	for b := g.cells[c].head; b >= 0; b = g.blocks[b].next {
		blk := &g.blocks[b]
		for lane := range blk.n {
			x := &blk.cols[lane/groupLanes]
			i := lane % groupLanes
			boxes = append(boxes, crowdBox{x.CX[i], x.CY[i], blk.h[lane], b, lane})
		}
	}
	g.crowd = boxes
	byX := func(a, b crowdBox) int { return cmp.Or(cmp.Compare(a.x, b.x), cmp.Compare(a.h, b.h)) }
	byY := func(a, b crowdBox) int { return cmp.Or(cmp.Compare(a.y, b.y), cmp.Compare(a.h, b.h)) }
	slices.SortFunc(boxes, byX)
	m := len(boxes)
	p := (m + blockLanes - 1) / blockLanes
	side := 1
	for side*side < p {
		side++
	}
	for i := 0; i < m; i += side * blockLanes {
		slices.SortFunc(boxes[i:min(i+side*blockLanes, m)], byY)
	}
	// The last, partly full block goes first: a cell's first block is the
	// only one that may be partly full (put).
	if r := m % blockLanes; r != 0 {
		nb, nf = g.fill(nb, nf, boxes[m-r:], ci, moved)
		boxes = boxes[:m-r]
	}
	for i := 0; i < len(boxes); i += blockLanes {
		nb, nf = g.fill(nb, nf, boxes[i:i+blockLanes], ci, moved)
	}
	return nb, nf
}

// fill appends a block of cell ci holding boxes, and their fat bounds when
// the grid keeps them, and calls moved with each box's new place.
func (g *grid) fill(nb []block, nf []fatBlock, boxes []crowdBox, ci int32, moved func(h Handle, blk, lane int32)) ([]block, []fatBlock) {
	i := int32(len(nb))
	nb = append(nb, block{n: int32(len(boxes)), next: i + 1, cell: ci, rect: noBounds})
	if g.keepFat {
		nf = append(nf, fatBlock{})
	}
	to := &nb[i]
	for lane, x := range boxes {
		from := &g.blocks[x.blk]
		to.set(int32(lane), from.at(x.lane))
		to.h[lane], to.f[lane] = from.h[x.lane], from.f[x.lane]
		if g.keepFat {
			f, t := &g.fat[x.blk], &nf[i]
			t[0][lane], t[1][lane], t[2][lane], t[3][lane] = f[0][x.lane], f[1][x.lane], f[2][x.lane], f[3][x.lane]
		}
		moved(to.h[lane], i, int32(lane))
	}
	to.recommon()
	return nb, nf
}
