package world

import (
	mathbits "math/bits"
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
)

// The grid finds its cells through tiles of 8×8 cells of a level: a hash
// table (spatial hashing, Teschner et al. 2003, of tiles) maps a tile's
// coordinates to the tile, which holds a 64-bit mask of the cells that
// exist and their indices. A question whose range spans a few cells of a
// level then costs one hash lookup per tile it meets, usually one or two,
// and one AND to drop the empty cells, instead of a hash lookup per cell,
// found or not: a question the size of a level's boxes spans 4 to 9 of its
// cells (BenchmarkWorldQuery). And a dense level has a sixty-fourth as many
// tiles as cells, so their table stays in the cache where a table of a
// million-box world's cells would not.

const tileShift = 3 // a tile is 2³ × 2³ cells

// tile is the index of up to 64 cells of one level: cell coordinates
// (x, y) with x>>tileShift, y>>tileShift equal to the tile's key, cell
// (x&7, y&7) at bit 8·(y&7) + (x&7) of occ and in that entry of head and
// cell. A question reads the cell's first block from head, one dependent
// load fewer than through the list of cells.
type tile struct {
	key  cellKey // the tile's coordinates and level
	occ  uint64  // which cells exist
	head [64]int32
	cell [64]int32
}

func tileKey(k cellKey) cellKey { return cellKey{k.x >> tileShift, k.y >> tileShift, k.level} }

func tileSlot(k cellKey) uint { return uint(k.y&7)<<3 | uint(k.x&7) }

// findTile returns the index of the tile with key k, or -1.
func (g *grid) findTile(k cellKey) int32 {
	if len(g.table) == 0 {
		return -1
	}
	m := uint64(len(g.table) - 1)
	for i := hash(k) & m; ; i = (i + 1) & m {
		t := g.table[i]
		if t == 0 {
			return -1
		}
		if g.tiles[t-1].key == k {
			return t - 1
		}
	}
}

// locate returns the tile and the entry of the cell with key k, or -1 for
// the tile when there is no such cell.
func (g *grid) locate(k cellKey) (int32, uint) {
	t := g.findTile(tileKey(k))
	s := tileSlot(k)
	if t < 0 || g.tiles[t].occ&(1<<s) == 0 {
		return -1, s
	}
	return t, s
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
	t := g.findTile(tk)
	if t < 0 {
		t = g.newTile(tk)
	}
	s := tileSlot(k)
	g.tiles[t].occ |= 1 << s
	g.tiles[t].cell[s] = c
	g.tiles[t].head[s] = g.cells[c].head
}

// setHead records that the cell with key k starts at block b.
func (g *grid) setHead(k cellKey, b int32) {
	g.tiles[g.findTile(tileKey(k))].head[tileSlot(k)] = b
}

// head returns the first block of the cell with key k, or -1 when there is
// no such cell.
func (g *grid) head(k cellKey) int32 {
	if t, s := g.locate(k); t >= 0 {
		return g.tiles[t].head[s]
	}
	return -1
}

// relink records that the cell with key k is now cell c.
func (g *grid) relink(k cellKey, c int32) {
	g.tiles[g.findTile(tileKey(k))].cell[tileSlot(k)] = c
}

// unlink takes the cell with key k out of its tile, and drops the tile
// when it was its last.
func (g *grid) unlink(k cellKey) {
	t := g.findTile(tileKey(k))
	if g.tiles[t].occ &^= 1 << tileSlot(k); g.tiles[t].occ == 0 {
		g.deleteTile(t)
	}
}

func (g *grid) newTile(k cellKey) int32 {
	if 2*(len(g.tiles)+1) > len(g.table) {
		g.rehash(max(64, 2*len(g.table)))
	}
	t := int32(len(g.tiles))
	g.tiles = append(g.tiles, tile{key: k})
	g.insertIndex(t)
	return t
}

// insertIndex enters tile t in the table (open addressing, linear
// probing).
func (g *grid) insertIndex(t int32) {
	m := uint64(len(g.table) - 1)
	i := hash(g.tiles[t].key) & m
	for g.table[i] != 0 {
		i = (i + 1) & m
	}
	g.table[i] = t + 1
}

func (g *grid) rehash(size int) {
	if cap(g.table) >= size {
		g.table = g.table[:size]
		clear(g.table)
	} else {
		g.table = make([]int32, size)
	}
	for t := range g.tiles {
		g.insertIndex(int32(t))
	}
}

// deleteTile drops the empty tile t from the table (backward-shift
// deletion, so probes stay unbroken) and from the list, where the last
// tile takes its place.
func (g *grid) deleteTile(t int32) {
	m := uint64(len(g.table) - 1)
	i := hash(g.tiles[t].key) & m
	for g.table[i] != t+1 {
		i = (i + 1) & m
	}
	for j := (i + 1) & m; g.table[j] != 0; j = (j + 1) & m {
		home := hash(g.tiles[g.table[j]-1].key) & m
		// Move entry j into the hole at i unless its home lies cyclically
		// in (i, j].
		if (j-home)&m >= (j-i)&m {
			g.table[i] = g.table[j]
			i = j
		}
	}
	g.table[i] = 0
	last := int32(len(g.tiles) - 1)
	if t != last {
		g.tiles[t] = g.tiles[last]
		for j := hash(g.tiles[t].key) & m; ; j = (j + 1) & m {
			if g.table[j] == last+1 {
				g.table[j] = t + 1
				break
			}
		}
	}
	g.tiles = g.tiles[:last]
}

// relinkAll rebuilds the tiles from the list of cells.
func (g *grid) relinkAll() {
	g.tiles = g.tiles[:0]
	clear(g.table)
	for c := range g.cells {
		g.link(int32(c))
	}
}

// visitRange calls fn with the blocks of level k's cells with coordinates
// in [x0, x1] × [y0, y1], tile by tile, and stops early when fn returns
// true, which it then returns.
func (g *grid) visitRange(k int16, x0, x1, y0, y1 int32, fn func(*block) bool) bool {
	for ty := y0 >> tileShift; ty <= y1>>tileShift; ty++ {
		base := ty << tileShift
		rows := span(max(y0, base)-base, min(y1, base+7)-base, 8)
		for tx := x0 >> tileShift; tx <= x1>>tileShift; tx++ {
			t := g.findTile(cellKey{tx, ty, k})
			if t < 0 {
				continue
			}
			base := tx << tileShift
			cols := span(max(x0, base)-base, min(x1, base+7)-base, 1) * 0x0101010101010101
			tl := &g.tiles[t]
			bits := tl.occ & rows & cols
			// Name every first block before reading any: in a world larger
			// than the cache each is a miss, and they then overlap
			// (BenchmarkWorldQuery, n=1000000).
			for b := bits; b != 0; b &= b - 1 {
				blk := &g.blocks[tl.head[mathbits.TrailingZeros64(b)]]
				batch.Prefetch(unsafe.Pointer(blk), blockHead)
			}
			for ; bits != 0; bits &= bits - 1 {
				if g.walk(tl.head[mathbits.TrailingZeros64(bits)], fn) {
					return true
				}
			}
		}
	}
	return false
}

// span returns the mask of bits a·unit to (b+1)·unit - 1, for
// 0 <= a <= b <= 7 and unit 1 or 8: the columns or rows a to b of a tile.
func span(a, b int32, unit uint) uint64 {
	hi := uint64(1)<<(uint(b+1)*unit) - 1 // a shift by 64 gives 0, so all ones
	return hi &^ (uint64(1)<<(uint(a)*unit) - 1)
}
