package world

import "slices"

// The Static grid's window index: for each level, an array of the tiles of
// a window of tile coordinates, built when the grid is laid out, which a
// question reads in place of the tiles' hash table.
//
// In a large map the table is larger than the cache: at 4,000,000 boxes
// of the uniform scene it holds 32,768 entries of 32 bytes for 9,801
// tiles, a megabyte, this machine's whole L2 cache, and the first load of
// a query's chain (table entry, tile, blocks) missed it. The window over
// the same tiles is 99 × 99 entries of 4 bytes, 39 kilobytes, which the
// cache keeps; and a tile found there needs no mask of its cells from the
// table, as a cell that does not exist has a rectangle no question meets
// (noRects). Query and Any on the uniform map took 9% and 7% less time at
// 1,000,000 boxes and 24% and 25% less at 4,000,000, the RTS and mixed
// maps' within the noise (BenchmarkWorldQuery, three rounds interleaved
// with the table alone).
//
// A level gets a window when its tiles fill at least a quarter of the
// rectangle of tile coordinates they span (windowFill): a map, and most
// levels of the RTS map. Sparse levels and far-flung coordinates keep the
// table alone, so the window never costs more than 16 bytes a tile. Tiles
// made or dropped between layouts inside a window are entered in it
// (noteTile); outside it, the table finds them.

// tileWindow is one level's window: the tiles with coordinates (x, y) in
// [x0, x0+w) × [y0, y0+h), tile index + 1 at at[(y-y0)·w + (x-x0)], 0 for
// none. A level without a window has w = 0.
type tileWindow struct {
	x0, y0, w, h int32
	at           []int32
}

// windowFill is how many times as many entries as tiles a window may
// have.
const windowFill = 4

// slot returns the entry of the window that holds the tile with key t,
// or false when t lies outside the window.
func (d *tileWindow) slot(t cellKey) (int, bool) {
	x, y := int64(t.x)-int64(d.x0), int64(t.y)-int64(d.y0)
	if uint64(x) >= uint64(d.w) || uint64(y) >= uint64(d.h) {
		return 0, false
	}
	return int(y)*int(d.w) + int(x), true
}

// indexTiles makes each level's window from the tiles, for the Static grid.
func (g *grid) indexTiles() {
	g.makeWindows()
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
	for i := range g.tiles {
		g.noteTile(g.tiles[i].key, int32(i)+1)
	}
}

// makeWindows gives the Static grid its levels' windows, none of them
// holding a tile yet, before its first tile: the questions that read the
// windows (tileHeadsNear) then find them there.
func (g *grid) makeWindows() {
	if g.windows == nil {
		g.windows = make([]tileWindow, levelSpan)
	}
}

// noteTile enters tile index + 1 (0 for none) for the tile with key t in
// its level's window, when it lies in one, in the Static grid.
func (g *grid) noteTile(t cellKey, v int32) {
	d := &g.windows[int(t.level)-minLevel]
	if p, ok := d.slot(t); ok {
		d.at[p] = v
	}
}

// noRects is the rectangles of a new tile's cells: noBounds, which no
// question meets, for the cells that do not exist.
var noRects = func() (r tileRects) {
	for i := range r {
		r[i] = noBounds
	}
	return r
}()
