package world

import (
	"slices"
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
)

// The window index: for each level of a grid, an array of the tiles of a
// window of tile coordinates, built when the grid is laid out, which a
// question reads in place of the tiles' hash table.
//
// In a large world the table is larger than the cache: at 4,000,000 boxes
// of the uniform scene it holds 32,768 entries of 32 bytes for 9,801
// tiles, a megabyte, this machine's whole L2 cache, and the first load of
// a question's chain (table entry, tile, blocks) missed it. The window
// over the same tiles is 99 × 99 entries of 16 bytes, 157 kilobytes, and
// neighbouring tiles share its cache lines. Queries, rays and the step with
// 1% of the boxes moved take less time with the window than with the table
// alone, at a million boxes and more (BenchmarkWorldQuery;
// BenchmarkWorldStep, moved=1%). An entry of a tile index alone, 4 bytes,
// with the cells that do not exist dropped by their rectangles instead of
// the mask, makes the RTS map's queries slower: they then read the heads and
// rectangles of the many cells missing from its tiles.
//
// A level gets a window when its tiles fill at least a quarter of the
// rectangle of tile coordinates they span (windowFill): a map, a crowd of
// bodies, and most levels of the RTS scene. Sparse levels and far-flung
// coordinates keep the table alone, so a window never takes more than 64
// bytes a tile, as the table takes at least. Tiles made, changed or dropped
// between layouts inside a window are entered in it (noteTile); outside
// it, the table finds them.

// tileWindow is one level's window: the tiles with coordinates (x, y) in
// [x0, x0+w) × [y0, y0+h), their entries at at[(y-y0)·w + (x-x0)]. A level
// without a window has w = 0.
type tileWindow struct {
	x0, y0, w, h int32
	at           []windowEntry
}

// windowEntry is a tile's entry in its window: the mask of its cells that
// exist and its index + 1, as in its table entry (tileEntry), or zeros for
// no tile.
type windowEntry struct {
	occ  uint64
	tile int32
	_    int32
}

// windowFill is how many times as many entries as tiles a window may
// have.
const windowFill = 4

// inWindow returns the entry of the tile with key t in its level's
// window, or nil when t lies in no window.
func (g *grid) inWindow(t cellKey) *windowEntry {
	if len(g.windows) == 0 {
		return nil
	}
	d := &g.windows[int(t.level)-minLevel]
	x, y := int64(t.x)-int64(d.x0), int64(t.y)-int64(d.y0)
	if uint64(x) >= uint64(d.w) || uint64(y) >= uint64(d.h) {
		return nil
	}
	return &d.at[int(y)*int(d.w)+int(x)]
}

// entry returns the mask of the existing cells and the index + 1 of the
// tile with key t, from its window when the window holds t and from the
// table otherwise; zeros when there is no such tile.
func (g *grid) entry(t cellKey) (occ uint64, tile int32) {
	if e := g.inWindow(t); e != nil {
		return e.occ, e.tile
	}
	if i := g.findEntry(t); i >= 0 {
		return g.table[i].occ, g.table[i].tile
	}
	return 0, 0
}

// prefetchEntry asks for the entry of the tile with key t that entry
// reads: its window's, or its table slot's when it lies in no window. It
// is a link of a query's chain that step_ahead.go asks for ahead, with
// batch.PrefetchFar as the others.
func (g *grid) prefetchEntry(t cellKey) {
	if e := g.inWindow(t); e != nil {
		batch.PrefetchFar(unsafe.Pointer(e), unsafe.Sizeof(windowEntry{}))
		return
	}
	batch.PrefetchFar(unsafe.Pointer(&g.table[hash(t)&uint64(len(g.table)-1)]), unsafe.Sizeof(tileEntry{}))
}

// noteTile enters the table entry of the tile with key t, its mask of
// cells occ and its index + 1 (zeros when the tile is dropped), in its
// level's window when it lies in one.
func (g *grid) noteTile(t cellKey, occ uint64, tile int32) {
	if e := g.inWindow(t); e != nil {
		*e = windowEntry{occ: occ, tile: tile}
	}
}

// dropWindows takes every level's window away, as the grid is cleared.
func (g *grid) dropWindows() {
	for l := range g.windows {
		g.windows[l].w, g.windows[l].h = 0, 0
	}
}

// indexTiles makes each level's window from the table, after relinkAll
// (whose links enter the tiles in the windows of the last layout, which
// this then makes anew).
func (g *grid) indexTiles() {
	if g.windows == nil {
		g.windows = make([]tileWindow, levelSpan)
	}
	type span struct {
		x0, y0, x1, y1 int32
		n              int64
	}
	var spans [levelSpan]span
	for i := range g.tiles {
		k := g.tiles[i].key
		s := &spans[int(k.level)-minLevel]
		if s.n == 0 {
			s.x0, s.y0, s.x1, s.y1 = k.x, k.y, k.x, k.y
		}
		s.x0, s.y0, s.x1, s.y1 = min(s.x0, k.x), min(s.y0, k.y), max(s.x1, k.x), max(s.y1, k.y)
		s.n++
	}
	for l := range g.windows {
		d, s := &g.windows[l], &spans[l]
		d.w, d.h = 0, 0
		if s.n == 0 {
			continue
		}
		w, h := int64(s.x1)-int64(s.x0)+1, int64(s.y1)-int64(s.y0)+1
		if w*h > windowFill*s.n {
			continue
		}
		d.x0, d.y0, d.w, d.h = s.x0, s.y0, int32(w), int32(h)
		d.at = slices.Grow(d.at[:0], int(w*h))[:w*h]
		clear(d.at)
	}
	for _, e := range g.table {
		if e.tile != 0 {
			g.noteTile(e.key, e.occ, e.tile)
		}
	}
}
