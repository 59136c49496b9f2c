package world

import (
	"math"
	"slices"

	"github.com/obb2d/obb2d/obb"
)

// RayHit is where a segment enters a box: the box, the fraction T of the
// segment's delta at which it enters, and the box face's outward normal
// (zero when the segment starts inside the box), as obb.Box.RayCast gives
// them.
type RayHit struct {
	Handle Handle
	T      float32
	Normal obb.Vec2
}

// RayCast returns the first box with Filter.Category&mask != 0 that the
// segment from origin to origin+delta enters, as obb.Box.RayCast decides:
// the hit with the smallest T, and of those the lowest handle. ok is false
// when the segment hits nothing.
func (w *World) RayCast(origin, delta obb.Vec2, mask uint32) (hit RayHit, ok bool) {
	w.ray(origin, delta, mask, func(h RayHit) {
		if !ok || h.T < hit.T || (h.T == hit.T && h.Handle < hit.Handle) {
			hit, ok = h, true
		}
	})
	return hit, ok
}

// RayCastAll appends to dst every box with Filter.Category&mask != 0 that
// the segment enters, sorted by T and then by handle, and returns the
// extended slice.
func (w *World) RayCastAll(dst []RayHit, origin, delta obb.Vec2, mask uint32) []RayHit {
	start := len(dst)
	w.ray(origin, delta, mask, func(h RayHit) { dst = append(dst, h) })
	slices.SortFunc(dst[start:], func(a, b RayHit) int {
		switch {
		case a.T < b.T:
			return -1
		case a.T > b.T:
			return 1
		}
		return int(int64(a.Handle) - int64(b.Handle))
	})
	return dst
}

// ray calls fn with each hit of the segment.
func (w *World) ray(origin, delta obb.Vec2, mask uint32, fn func(RayHit)) {
	w.catchUp()
	if origin.X != origin.X || origin.Y != origin.Y || delta.X != delta.X || delta.Y != delta.Y {
		return
	}
	// The block's own columns and filters, not the slots: no slot read at
	// random per box.
	test := func(h Handle, f Filter, b obb.Box) {
		if f.Category&mask == 0 {
			return
		}
		if t, n, hit := b.RayCast(origin, delta); hit {
			fn(RayHit{h, t, n})
		}
	}
	visit := func(blk *block) bool {
		for lane := range blk.n {
			test(blk.h[lane], blk.f[lane], blk.at(lane))
		}
		return false
	}
	// A segment of scale 2¹⁰⁰ or more may overflow the slab test's
	// products with a box's axis (farAxis), and one with an infinity has
	// no range of cells: both test every box.
	scale := math.Abs(float64(origin.X)) + math.Abs(float64(origin.Y)) + math.Abs(float64(delta.X)) + math.Abs(float64(delta.Y))
	for k := range w.grids {
		if scale < 0x1p100 {
			w.grids[k].visitSegment(origin, delta, visit)
		} else {
			w.grids[k].visitAll(visit)
		}
	}
	for _, h := range w.infinite {
		test(h, w.slots[h>>8].filter, w.slots[h>>8].box)
	}
}

// visitSegment calls fn with every block that may hold a box the segment
// from p to p+d can hit, column by column of each level's cells, so that a
// long segment visits the cells along it, not those of its bounding box.
// A box's bounds lie within R of its center, and the float32 slab test's
// rounding moves the segment by a few units of 2⁻²⁴ of |p| + |d| + R at
// most; each column's range of cells is widened by R plus 2⁻¹⁶ of that
// scale, and computed in float64, whose rounding is far inside the margin.
func (g *grid) visitSegment(p, d obb.Vec2, fn func(*block) bool) bool {
	px, py, dx, dy := float64(p.X), float64(p.Y), float64(d.X), float64(d.Y)
	scale := math.Abs(px) + math.Abs(py) + math.Abs(dx) + math.Abs(dy)
	for _, k := range g.levels {
		r, _ := sizes(int(k))
		pad := r + float64((scale+float64(2*r))*0x1p-16)
		xa, xb := min(px, px+dx), max(px, px+dx)
		ya, yb := min(py, py+dy), max(py, py+dy)
		stop, ok := g.columns(k, px, py, dx, dy, pad, fn)
		if !ok {
			// More cells along the segment than in the level: scan the
			// level's cells instead.
			stop = g.scanLevel(k, xa-pad, xb+pad, ya-pad, yb+pad, fn)
		}
		if stop {
			return true
		}
	}
	return false
}

// columns visits level k's cells along the segment column by column, and
// reports false, having visited nothing, when they are more than the
// level's cells.
func (g *grid) columns(k int16, px, py, dx, dy, pad float64, fn func(*block) bool) (stop, ok bool) {
	_, s := sizes(int(k))
	x0, x1 := coord(min(px, px+dx)-pad, s), coord(max(px, px+dx)+pad, s)
	budget := int64(len(g.cells))
	for pass := range 2 {
		cells := int64(0)
		for x := x0; x <= x1; x++ {
			// The part of the segment over this column, widened by pad.
			lo, hi := float64(float64(x)*s)-pad, float64(float64(x+1)*s)+pad
			t0, t1 := 0.0, 1.0
			if dx != 0 {
				ta, tb := (lo-px)/dx, (hi-px)/dx
				t0, t1 = max(0, min(ta, tb)), min(1, max(ta, tb))
			}
			ya, yb := py+float64(t0*dy), py+float64(t1*dy)
			y0, y1 := coord(min(ya, yb)-pad, s), coord(max(ya, yb)+pad, s)
			if pass == 0 {
				if cells += int64(y1) - int64(y0) + 1; cells > budget {
					return false, false
				}
				continue
			}
			for y := y0; y <= y1; y++ {
				if g.walk(g.head(cellKey{x, y, k}), fn) {
					return true, true
				}
			}
		}
	}
	return false, true
}

// scanLevel calls fn with the blocks of level k's cells that hold centers
// in [x0, x1] × [y0, y1].
func (g *grid) scanLevel(k int16, x0, x1, y0, y1 float64, fn func(*block) bool) bool {
	_, s := sizes(int(k))
	return g.scanCells(k, coord(x0, s), coord(x1, s), coord(y0, s), coord(y1, s), fn)
}
