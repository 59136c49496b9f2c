package world

import (
	"math"
	mathbits "math/bits"

	"github.com/obb2d/obb2d/internal/bound"
	"github.com/obb2d/obb2d/internal/hugepage"
	"github.com/obb2d/obb2d/obb"
)

// The grid finds its cells through tiles of 8×8 cells of a level: a hash
// table (spatial hashing, Teschner et al. 2003, of tiles) maps a tile's
// coordinates to a 64-bit mask of the cells that exist and to the tile,
// which holds their indices and first blocks. A question whose range spans
// a few cells of a level then costs one hash lookup per tile it meets,
// usually one or two, and one AND to drop the empty cells, instead of a
// hash lookup per cell, found or not: a question the size of a level's
// boxes spans 4 to 9 of its cells (BenchmarkWorldQuery). And a dense
// level has a sixty-fourth as many tiles as cells, so their table stays in
// the cache where a table of a million-box world's cells would not.

const tileShift = 3 // a tile is 2³ × 2³ cells

// tile is the index of up to 64 cells of one level: cell coordinates
// (x, y) with x>>tileShift, y>>tileShift equal to the tile's key, cell
// (x&7, y&7) at entry 8·(y&7) + (x&7) of head and cell. A question reads
// the cell's first block from head, one dependent load fewer than through
// the list of cells. Which cells exist is kept in the tile's entry of the
// hash table.
type tile struct {
	key  cellKey // the tile's coordinates and level
	head [64]int32
	cell [64]int32
}

// tileRects are the rectangles (cellBounds) of a tile's cells, by entry as
// head. The Static grid keeps them in an array beside its tiles, by tile,
// and the Dynamic grid, which has none, keeps its tiles at 524 bytes
// instead of 1,548.
type tileRects [64]cellBounds

// cellBounds is lo.X, lo.Y, hi.X and hi.Y of a rectangle that holds the
// bound.Box of each box of a cell of the Static grid: the union of their
// bounds when the cell was laid out (grid.compact), widened by each box
// added since. A box that overlaps a question has bounds that meet the
// question's on each coordinate (package bound), so a cell whose
// rectangle misses the question's bounds holds no box that overlaps it,
// and a question skips it without reading its blocks (tileHeadsNear). A
// level's cells are four times as wide as its boxes' reach, and a
// question visits every cell whose boxes' centers could lie within that
// reach of its bounds, so the cells at the edge of its range mostly hold
// boxes that stop short of it. On BenchmarkWorldQuery's footprints a query
// of the uniform or the RTS map reads about half the blocks it would without
// the rectangles, and Query and Any take less time on every scene, most on
// the RTS map of a million boxes or more.
//
// The rectangles only grow between layouts, which a box's removal does not
// undo; the Dynamic grid has none, as its boxes move every step. A Static
// box that moves stays in its lane only while its bounds stay within its
// block's rectangle, which lies within its cell's (block_rects.go), and is
// otherwise taken out and added again (grid.holds), so no write in place
// escapes the rectangle.
type cellBounds [4]float32

// add widens r to hold [lo, hi].
func (r *cellBounds) add(lo, hi obb.Vec2) {
	r[0], r[1], r[2], r[3] = min(r[0], lo.X), min(r[1], lo.Y), max(r[2], hi.X), max(r[3], hi.Y)
}

// lo and hi return r's corners.
func (r *cellBounds) lo() obb.Vec2 { return obb.Vec2{X: r[0], Y: r[1]} }
func (r *cellBounds) hi() obb.Vec2 { return obb.Vec2{X: r[2], Y: r[3]} }

// meets reports whether r meets [lo, hi] on both coordinates.
func (r *cellBounds) meets(lo, hi obb.Vec2) bool {
	return r[0] <= hi.X && r[1] <= hi.Y && r[2] >= lo.X && r[3] >= lo.Y
}

// noBounds is a new cell's rectangle, which every box widens.
var noBounds = cellBounds{float32(math.Inf(1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Inf(-1))}

// tileEntry is a slot of the tiles' hash table (open addressing, linear
// probing): a tile's key and the mask of its cells that exist, at bit
// 8·(y&7) + (x&7), beside its index. A probe then compares keys, and a
// question drops the empty cells, without reading the tile: in a world
// larger than the cache every read on a question's chain of loads is a
// miss (BenchmarkWorldQuery, n=4000000). Entries are 32 bytes, so none
// straddles a cache line.
type tileEntry struct {
	key  cellKey
	tile int32 // the tile's index + 1, or 0 for an empty slot
	occ  uint64
	_    [8]byte
}

func tileKey(k cellKey) cellKey { return cellKey{k.x >> tileShift, k.y >> tileShift, k.level} }

func tileSlot(k cellKey) uint { return uint(k.y&7)<<3 | uint(k.x&7) }

// findEntry returns the table slot of the tile with key k, or -1.
func (g *grid) findEntry(k cellKey) int {
	if len(g.table) == 0 {
		return -1
	}
	m := uint64(len(g.table) - 1)
	for i := hash(k) & m; ; i = (i + 1) & m {
		e := &g.table[i]
		if e.tile == 0 {
			return -1
		}
		if e.key == k {
			return int(i)
		}
	}
}

// locate returns the tile and the entry of the cell with key k, or -1 for
// the tile when there is no such cell.
func (g *grid) locate(k cellKey) (int32, uint) {
	i := g.findEntry(tileKey(k))
	s := tileSlot(k)
	if i < 0 || g.table[i].occ&(1<<s) == 0 {
		return -1, s
	}
	return g.table[i].tile - 1, s
}

// find returns the index of the cell with key k, or -1.
func (g *grid) find(k cellKey) int32 {
	if t, s := g.locate(k); t >= 0 {
		return g.tiles[t].cell[s]
	}
	return -1
}

// link enters cell c in its tile, making the tile if need be.
func (g *grid) link(c int32) {
	k := g.cells[c].key
	tk := tileKey(k)
	i := g.findEntry(tk)
	if i < 0 {
		i = g.newTile(tk)
	}
	s := tileSlot(k)
	g.table[i].occ |= 1 << s
	g.noteTile(tk, g.table[i].occ, g.table[i].tile)
	t := g.table[i].tile - 1
	g.tiles[t].cell[s] = c
	g.tiles[t].head[s] = g.cells[c].head
	if g.static {
		g.rects[t][s] = noBounds
	}
}

// rect returns the rectangle of the cell with key k, of the Static grid,
// which exists.
func (g *grid) rect(k cellKey) *cellBounds {
	return &g.rects[g.table[g.findEntry(tileKey(k))].tile-1][tileSlot(k)]
}

// widen grows the rectangles of the cell with key k, of the Static grid,
// and of its block b to hold box x's bounds.
func (g *grid) widen(k cellKey, b *block, x obb.Box) {
	lo, hi, _ := bound.Box(x) // finite, or infinite where a float32 overflows: a box in the grid has no NaN
	g.rect(k).add(lo, hi)
	b.rect.add(lo, hi)
}

// existing returns the tile of the cell with key k, which exists.
func (g *grid) existing(k cellKey) *tile {
	return &g.tiles[g.table[g.findEntry(tileKey(k))].tile-1]
}

// setHead records that the cell with key k starts at block b.
func (g *grid) setHead(k cellKey, b int32) {
	g.existing(k).head[tileSlot(k)] = b
}

// relink records that the cell with key k is now cell c.
func (g *grid) relink(k cellKey, c int32) {
	g.existing(k).cell[tileSlot(k)] = c
}

// unlink takes the cell with key k out of its tile, and drops the tile
// when it was its last.
func (g *grid) unlink(k cellKey) {
	i := g.findEntry(tileKey(k))
	if g.table[i].occ &^= 1 << tileSlot(k); g.table[i].occ == 0 {
		g.deleteTile(i)
	} else {
		g.noteTile(g.table[i].key, g.table[i].occ, g.table[i].tile)
	}
}

// newTile makes an empty tile with key k and returns its table slot.
func (g *grid) newTile(k cellKey) int {
	if 2*(len(g.tiles)+1) > len(g.table) {
		g.grow(max(64, 2*len(g.table)))
	}
	t := int32(len(g.tiles))
	g.tiles = append(hugepage.Grow(g.tiles, 1), tile{key: k})
	if g.static {
		g.rects = append(hugepage.Grow(g.rects, 1), tileRects{})
	}
	return g.insertEntry(tileEntry{key: k, tile: t + 1})
}

// insertEntry puts e in the table and returns its slot.
func (g *grid) insertEntry(e tileEntry) int {
	m := uint64(len(g.table) - 1)
	i := hash(e.key) & m
	for g.table[i].tile != 0 {
		i = (i + 1) & m
	}
	g.table[i] = e
	return int(i)
}

// grow moves the table's entries to a table of size slots.
func (g *grid) grow(size int) {
	old := g.table
	g.table = make([]tileEntry, size)
	for _, e := range old {
		if e.tile != 0 {
			g.insertEntry(e)
		}
	}
}

// deleteTile drops the empty tile in table slot i from the table
// (backward-shift deletion, so probes stay unbroken) and from the list,
// where the last tile takes its place.
func (g *grid) deleteTile(i int) {
	t := g.table[i].tile - 1
	m := uint64(len(g.table) - 1)
	h := uint64(i)
	for j := (h + 1) & m; g.table[j].tile != 0; j = (j + 1) & m {
		home := hash(g.table[j].key) & m
		// Move entry j into the hole at h unless its home lies cyclically
		// in (h, j].
		if (j-home)&m >= (j-h)&m {
			g.table[h] = g.table[j]
			h = j
		}
	}
	g.table[h] = tileEntry{}
	g.noteTile(g.tiles[t].key, 0, 0)
	last := int32(len(g.tiles) - 1)
	if t != last {
		g.tiles[t] = g.tiles[last]
		e := &g.table[g.findEntry(g.tiles[t].key)]
		e.tile = t + 1
		g.noteTile(e.key, e.occ, e.tile)
		if g.static {
			g.rects[t] = g.rects[last]
		}
	}
	g.tiles = g.tiles[:last]
	if g.static {
		g.rects = g.rects[:last]
	}
}

// within reports whether box x's bounds lie within the rectangle of block
// blk, of the Static grid.
func (g *grid) within(blk int32, x obb.Box) bool {
	lo, hi, _ := bound.Box(x)
	b := &g.blocks[blk].rect
	return b[0] <= lo.X && b[1] <= lo.Y && b[2] >= hi.X && b[3] >= hi.Y
}

// relinkAll rebuilds the tiles from the list of cells, and in the Static
// grid the rectangles of their cells and blocks from their boxes.
func (g *grid) relinkAll() {
	g.tiles, g.rects = g.tiles[:0], g.rects[:0]
	clear(g.table)
	for c := range g.cells {
		g.link(int32(c))
		if !g.static {
			continue
		}
		r := noBounds
		for b := g.cells[c].head; b >= 0; b = g.blocks[b].next {
			blk := &g.blocks[b]
			blk.rect = noBounds
			for lane := range blk.n {
				lo, hi, _ := bound.Box(blk.at(lane))
				blk.rect.add(lo, hi)
			}
			r.add(blk.rect.lo(), blk.rect.hi())
		}
		*g.rect(g.cells[c].key) = r
	}
	g.indexTiles()
}

// visitRange calls fn with the blocks of level k's cells with coordinates
// in [x0, x1] × [y0, y1], tile by tile, and stops early when fn returns
// true, which it then returns.
func (g *grid) visitRange(k int16, x0, x1, y0, y1 int32, fn func(*block) bool) bool {
	var heads [64]int32
	for ty := y0 >> tileShift; ty <= y1>>tileShift; ty++ {
		rows := tileRows(ty, y0, y1)
		for tx := x0 >> tileShift; tx <= x1>>tileShift; tx++ {
			m := g.tileHeads(&heads, cellKey{tx, ty, k}, rows&tileColumns(tx, x0, x1))
			for _, hd := range heads[:m] {
				if g.walk(hd, fn) {
					return true
				}
			}
		}
	}
	return false
}

// tileHeads puts in heads the first blocks of the cells of the tile with
// key t whose bits are set in cells, and returns how many.
//
// A walk over a range of cells reads the first blocks of a tile's cells
// into heads before it walks any. The walk's loads of one cell's blocks
// then need no load of the tile first, and in a world larger than the
// cache the misses of the cells' blocks overlap: reading each head as its
// walk began costs uniform queries of a million boxes or more
// (BenchmarkWorldQuery). The blocks are not asked for ahead (batch.Prefetch)
// as well: on whole cache lines (block), asking makes every query slower, in
// a small world and in a large one (BenchmarkWorldQuery,
// BenchmarkWorldQueryPlaces).
func (g *grid) tileHeads(heads *[64]int32, t cellKey, cells uint64) int {
	occ, ti := g.entry(t)
	bits := occ & cells
	if bits == 0 {
		return 0
	}
	tl := &g.tiles[ti-1]
	m := 0
	for ; bits != 0; bits &= bits - 1 {
		heads[m] = tl.head[mathbits.TrailingZeros64(bits)]
		m++
	}
	return m
}

// tileHeadsNear is tileHeads for a question with bounds [lo, hi], less,
// on the Static grid, the cells whose rectangles (cellBounds) miss them on
// a coordinate; the Dynamic grid keeps no rectangles. It repeats
// tileHeads' lookup of the tile: shared as a function, which the compiler
// does not inline, it made Query and Any slower on the uniform and RTS maps
// (BenchmarkWorldQuery).
func (g *grid) tileHeadsNear(heads *[64]int32, t cellKey, cells uint64, lo, hi obb.Vec2) int {
	occ, ti := g.entry(t)
	bits := occ & cells
	if bits == 0 {
		return 0
	}
	tl := &g.tiles[ti-1]
	m := 0
	if !g.static {
		for ; bits != 0; bits &= bits - 1 {
			heads[m] = tl.head[mathbits.TrailingZeros64(bits)]
			m++
		}
		return m
	}
	rs := &g.rects[ti-1]
	for ; bits != 0; bits &= bits - 1 {
		s := mathbits.TrailingZeros64(bits)
		heads[m] = tl.head[s]
		m += int(b2i(rs[s].meets(lo, hi)))
	}
	return m
}

// clearOf reports whether blk, block b of the cell whose first block is
// hd, is one of a crowded cell's blocks of the Static grid whose rectangle
// misses [lo, hi] (block_rects.go). A cell of one block was tested by its
// own rectangle (tileHeadsNear).
func (g *grid) clearOf(b, hd int32, blk *block, lo, hi obb.Vec2) bool {
	return g.static && (b != hd || blk.next >= 0) && !blk.rect.meets(lo, hi)
}

// tileRows returns the mask, as in a tile's entry, of the cells of the
// tiles of row ty whose y is in [y0, y1], a range that meets the row;
// tileColumns that of the cells of the tiles of column tx whose x is in
// [x0, x1].
func tileRows(ty, y0, y1 int32) uint64 {
	by := ty << tileShift
	return span(max(y0, by)-by, min(y1, by+7)-by, 8)
}

func tileColumns(tx, x0, x1 int32) uint64 {
	bx := tx << tileShift
	return span(max(x0, bx)-bx, min(x1, bx+7)-bx, 1) * 0x0101010101010101
}

// span returns the mask of bits a·unit to (b+1)·unit - 1, for
// 0 <= a <= b <= 7 and unit 1 or 8: the columns or rows a to b of a tile.
func span(a, b int32, unit uint) uint64 {
	hi := uint64(1)<<(uint(b+1)*unit) - 1 // a shift by 64 gives 0, so all ones
	return hi &^ (uint64(1)<<(uint(a)*unit) - 1)
}
