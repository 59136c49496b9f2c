package world

import (
	"math"
	mathbits "math/bits"
	"slices"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/bound"
	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/obb"
)

// Query appends to dst the handles of the boxes that overlap b, as
// obb.Box.Overlaps decides, and whose Filter.Category&mask != 0, in
// ascending order, and returns the extended slice. A query box with a NaN
// overlaps nothing and costs nothing; one with an infinity is tested
// against every box.
func (w *World) Query(dst []Handle, b obb.Box, mask uint32) []Handle {
	start := len(dst)
	dst, _ = w.hits(dst, b, mask, false)
	if len(dst)-start > 1 {
		// Most footprints hit one box or none: slices.Sort is not called for
		// them (BenchmarkWorldQuery).
		slices.Sort(dst[start:])
	}
	return dst
}

// Any reports whether some box with Filter.Category&mask != 0 overlaps b,
// stopping at the first it finds: the question of a building placement.
func (w *World) Any(b obb.Box, mask uint32) bool {
	_, found := w.hits(nil, b, mask, true)
	return found
}

// QueryRegion appends the boxes that overlap the axis-aligned rectangle
// [min.X, max.X] × [min.Y, max.Y], as Query does with obb.FromMinMax(min, max).
func (w *World) QueryRegion(dst []Handle, min, max obb.Vec2, mask uint32) []Handle {
	return w.Query(dst, obb.FromMinMax(min, max), mask)
}

// QueryPoint appends to dst, in ascending order, the boxes with
// Filter.Category&mask != 0 that contain p, as obb.Box.ContainsPoint
// decides.
func (w *World) QueryPoint(dst []Handle, p obb.Vec2, mask uint32) []Handle {
	start := len(dst)
	w.catchUp()
	if p.X != p.X || p.Y != p.Y {
		return dst
	}
	test := func(h Handle, f Filter, b obb.Box) {
		if f.Category&mask != 0 && b.ContainsPoint(p) {
			dst = append(dst, h)
		}
	}
	// A box contains p, by ContainsPoint's float32 test, only if p lies in
	// its bound.Box: the test's rounding is a few units of 2⁻²⁴ of |p - c|,
	// which the bounds' padding covers (see bound.PadFactor), and for a
	// product that underflows up to 2⁻¹⁵⁰, which bound.Irregular's bounds
	// cover for an axis short enough for that to matter.
	finite := f32.Finite(p.X) && f32.Finite(p.Y)
	visit := func(blk *block) bool {
		blk.each(blk.used(), test)
		return false
	}
	px, py := float64(p.X), float64(p.Y)
	for k := range w.grids {
		g := &w.grids[k]
		if !finite {
			g.visitAll(visit)
			continue
		}
		for _, lv := range g.levels {
			r := g.reach[int(lv)-minLevel]
			g.visitFar(lv, p, p, r, func(blk *block) bool {
				if !g.static || blk.rect.meets(p, p) { // block_rects.go
					blk.each(nearPoint(blk, px, py, r), test)
				}
				return false
			})
		}
	}
	for _, h := range w.infinite {
		test(h, w.slots[h>>8].filter, w.slots[h>>8].box)
	}
	slices.Sort(dst[start:])
	return dst
}

// nearPoint returns the bits of the lanes of blk whose centers lie within
// r of (px, py) on each coordinate: on a level of reach r, the only boxes
// that can contain the point. A box that contains it has it within its
// bounds (QueryPoint), which lie within its reach of its center, and so
// within r: the float64 differences round monotonically, so they stay
// within the float64 r. Two differences and two compares a lane, it is
// cheaper than ContainsPoint on every lane of the cells QueryPoint visits,
// and leaves it a lane or two.
func nearPoint(blk *block, px, py, r float64) uint64 {
	var bits uint64
	for i := int32(0); i < blk.n; i += groupLanes {
		g := &blk.cols[i/groupLanes]
		for j := range min(blk.n-i, groupLanes) {
			dx, dy := float64(g.CX[j])-px, float64(g.CY[j])-py
			bits |= uint64(b2i(math.Abs(dx) <= r)&b2i(math.Abs(dy) <= r)) << (i + j)
		}
	}
	return bits
}

// hits appends the handles of the boxes overlapping b with a category in
// mask, unsorted; with first, it stops at the first and reports it.
func (w *World) hits(dst []Handle, b obb.Box, mask uint32, first bool) ([]Handle, bool) {
	w.catchUp()
	// Finite bounds mean finite fields (a NaN or an infinity in any field
	// makes a bound NaN or infinite: bound.Box), so Classify, a tenth of a
	// query, runs only for the boxes whose bounds are not.
	lo, hi, finite := bound.Box(b)
	if !finite && bound.Classify(b) == bound.NaN {
		return dst, false
	}
	// Field by field: a composite literal stored the six fields one by one
	// and copied them with 16-byte loads, which the CPU cannot forward from
	// the stores (a CPU profile of BenchmarkWorldQueryPlaces, places=16).
	var q batch.Query
	q.CX, q.CY, q.UX, q.UY, q.HX, q.HY = b.Center.X, b.Center.Y, b.Axis.X, b.Axis.Y, b.Half.X, b.Half.Y
	found := false
	visit := func(blk *block) bool {
		all := blk.common&mask != 0 // every lane passes the mask (block)
		for bits := overlapsBlock(&q, blk); bits != 0; bits &= bits - 1 {
			lane := mathbits.TrailingZeros64(bits)
			if all || blk.f[lane].Category&mask != 0 {
				found = true
				if first {
					return true
				}
				dst = append(dst, blk.h[lane])
			}
		}
		return false
	}
	var heads [64]int32
	for k := range w.grids {
		g := &w.grids[k]
		if !finite {
			if g.visitAll(visit) {
				return dst, true
			}
			continue
		}
		// visitLevel's walk over the cells, written out: the test of each
		// block is then the closure above, which the compiler inlines
		// here, not a call through a function value in walk
		// (BenchmarkWorldQuery, op=query and op=any).
		for i := range g.levels {
			// Any takes the coarsest level first: its boxes are the
			// largest, so the likeliest to overlap b, and b's range of
			// cells there is the smallest. Without a hit every level is
			// walked either way. It pays most on the mixed and RTS scenes,
			// whose large boxes are few (BenchmarkWorldQuery, op=any).
			lv := g.levels[i]
			if first {
				lv = g.levels[len(g.levels)-1-i]
			}
			x0, x1, y0, y1, few := g.cellsAround(lv, lo, hi, g.reach[int(lv)-minLevel])
			if !few {
				if g.scanCells(lv, x0, x1, y0, y1, visit) {
					return dst, true
				}
				continue
			}
			for ty := y0 >> tileShift; ty <= y1>>tileShift; ty++ {
				rows := tileRows(ty, y0, y1)
				for tx := x0 >> tileShift; tx <= x1>>tileShift; tx++ {
					m := g.tileHeadsNear(&heads, cellKey{tx, ty, lv}, rows&tileColumns(tx, x0, x1), lo, hi)
					for _, hd := range heads[:m] {
						for b := hd; b >= 0; b = g.blocks[b].next {
							blk := &g.blocks[b]
							if g.clearOf(b, hd, blk, lo, hi) {
								continue
							}
							if visit(blk) {
								return dst, true
							}
						}
					}
				}
			}
		}
	}
	for _, h := range w.infinite {
		if s := &w.slots[h>>8]; s.filter.Category&mask != 0 && b.Overlaps(s.box) {
			if first {
				return dst, true
			}
			found = true
			dst = append(dst, h)
		}
	}
	return dst, found
}

// overlapsBlock returns the bits of the boxes of blk that overlap q.
func overlapsBlock(q *batch.Query, blk *block) uint64 {
	return batch.OverlapsBlock(q, &blk.cols, int(blk.n))
}

// visitLevel calls fn with every block of level k that may hold a box
// whose bounds meet [lo, hi], and stops early when fn returns true, which
// it then returns. A box's center, or the point of its cell nearShift
// names, a float64 whose coord is the cell's, lies within the level's
// reach r = reach[k] of every point of its bounds (levelReach), so only
// cells whose coordinates are in coord(lo - r) to coord(hi + r) can hold
// one: lo - r is rounded to nearest, which keeps it at or below any
// float64 at or above the exact value, such points included, and coord is
// monotonic. When the range has more cells than the grid, the grid's cells
// are scanned instead.
func (g *grid) visitLevel(k int16, lo, hi obb.Vec2, fn func(*block) bool) bool {
	return g.visitFar(k, lo, hi, g.reach[int(k)-minLevel], fn)
}

// visitFar is visitLevel for things of the level's boxes that lie within
// far of their centers, not reach[k]: the cells whose coordinates are in
// coord(lo - far) to coord(hi + far), by visitLevel's argument, which holds for
// any float64 far at least the distance.
func (g *grid) visitFar(k int16, lo, hi obb.Vec2, r float64, fn func(*block) bool) bool {
	x0, x1, y0, y1, few := g.cellsAround(k, lo, hi, r)
	if !few {
		return g.scanCells(k, x0, x1, y0, y1, fn)
	}
	return g.visitRange(k, x0, x1, y0, y1, fn)
}

// cellsAround returns the range of level k's cells that visitFar visits,
// and whether it has at most as many cells as the grid.
func (g *grid) cellsAround(k int16, lo, hi obb.Vec2, r float64) (x0, x1, y0, y1 int32, few bool) {
	_, s := sizes(int(k))
	x0, x1 = coord(float64(lo.X)-r, s), coord(float64(hi.X)+r, s)
	y0, y1 = coord(float64(lo.Y)-r, s), coord(float64(hi.Y)+r, s)
	return x0, x1, y0, y1, (int64(x1)-int64(x0)+1)*(int64(y1)-int64(y0)+1) <= int64(len(g.cells))
}

// scanCells calls fn with the blocks of level k's cells whose coordinates
// are in [x0, x1] × [y0, y1], going through the list of cells: for ranges
// with more cells than the grid holds.
func (g *grid) scanCells(k int16, x0, x1, y0, y1 int32, fn func(*block) bool) bool {
	for c := range g.cells {
		key := g.cells[c].key
		if key.level == k && key.x >= x0 && key.x <= x1 && key.y >= y0 && key.y <= y1 {
			if g.walk(g.cells[c].head, fn) {
				return true
			}
		}
	}
	return false
}

// visitAll calls fn with every block, for a question without finite bounds.
func (g *grid) visitAll(fn func(*block) bool) bool {
	for c := range g.cells {
		if g.walk(g.cells[c].head, fn) {
			return true
		}
	}
	return false
}

func (g *grid) walk(b int32, fn func(*block) bool) bool {
	for ; b >= 0; b = g.blocks[b].next {
		if fn(&g.blocks[b]) {
			return true
		}
	}
	return false
}
