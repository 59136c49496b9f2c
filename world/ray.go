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
//
// It visits the grid's cells in the segment's direction and stops, on
// each of the grid's levels, at the first cell the segment enters after
// the best hit so far: a long segment costs what it crosses up to its
// first hit, not its whole length.
func (w *World) RayCast(origin, delta obb.Vec2, mask uint32) (hit RayHit, ok bool) {
	tmax := float32(1)
	w.ray(origin, delta, mask, &tmax, func(h RayHit) {
		if !ok || h.T < hit.T || (h.T == hit.T && h.Handle < hit.Handle) {
			hit, ok = h, true
			tmax = h.T
		}
	})
	return hit, ok
}

// RayCastAll appends to dst every box with Filter.Category&mask != 0 that
// the segment enters, sorted by T and then by handle, and returns the
// extended slice.
func (w *World) RayCastAll(dst []RayHit, origin, delta obb.Vec2, mask uint32) []RayHit {
	start := len(dst)
	tmax := float32(1)
	w.ray(origin, delta, mask, &tmax, func(h RayHit) { dst = append(dst, h) })
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

// ray calls fn with each hit of the segment at T ≤ *tmax, and may leave
// out those after it; fn may lower *tmax.
func (w *World) ray(origin, delta obb.Vec2, mask uint32, tmax *float32, fn func(RayHit)) {
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
	every := func(blk *block) bool {
		blk.each(blk.used(), test)
		return false
	}
	seg := newSegment(origin, delta)
	along := func(blk *block, pad float64) bool {
		blk.each(seg.near(blk, pad), test)
		return false
	}
	// A segment of scale 2¹⁰⁰ or more may overflow the slab test's
	// products with a box's axis (farAxis), and one with an infinity has
	// no range of cells: both test every box.
	scale := math.Abs(float64(origin.X)) + math.Abs(float64(origin.Y)) + math.Abs(float64(delta.X)) + math.Abs(float64(delta.Y))
	for k := range w.grids {
		if scale < 0x1p100 {
			w.grids[k].visitSegment(&seg, tmax, along)
		} else {
			w.grids[k].visitAll(every)
		}
	}
	for _, h := range w.infinite {
		test(h, w.slots[h>>8].filter, w.slots[h>>8].box)
	}
}

// visitSegment calls fn with every block that may hold a box the segment
// from p to p+d can hit, and that block's level's pad, column by column of
// each level's cells, so that a long segment visits the cells along it, not
// those of its bounding box. A box's bounds lie within the level's reach r
// of its center (levelReach), and the float32 slab test's rounding moves
// the segment by a few units of 2⁻²⁴ of |p| + |d| + r at most, as half
// extents are at most 2r (the reach of one is at least their sum's half),
// besides the 2⁻¹⁴⁸ over its axis's length of a box whose products
// underflow, which its bounds cover (bound.Irregular): the pad is r plus
// 2⁻¹⁶ of |p| + |d| + 4r, computed in float64, whose rounding is far inside
// the margin. Each column's range of cells is widened by the pad; a box the
// segment hits has its center, or the point of its cell nearShift names,
// within the pad of a point of it on each coordinate. The pad takes the
// level's reach, not its R, which would visit more boxes for no more hits
// (BenchmarkWorldQuery, op=ray).
//
// In the Static grid it skips the blocks whose rectangles (block_rects.go)
// the segment misses by more than the slab test's rounding, the part of
// the pad past r: a box the slab test hits lies within it of a point of
// the segment on each coordinate, and its bounds hold the box. Segments that
// start inside several of the mixed scene's large boxes, and RTS segments
// among the buildings, then skip the large boxes near their start
// (BenchmarkWorldQuery, op=ray and op=sight).
func (g *grid) visitSegment(seg *segment, tmax *float32, fn func(blk *block, pad float64) bool) bool {
	px, py, dx, dy := seg.px, seg.py, seg.dx, seg.dy
	scale := math.Abs(px) + math.Abs(py) + math.Abs(dx) + math.Abs(dy)
	for _, k := range g.levels {
		r := g.reach[int(k)-minLevel]
		round := float64((scale + float64(4*r)) * 0x1p-16)
		pad := r + round
		at := func(blk *block) bool {
			if g.static && !seg.meets(&blk.rect, round) {
				return false
			}
			return fn(blk, pad)
		}
		xa, xb := min(px, px+dx), max(px, px+dx)
		ya, yb := min(py, py+dy), max(py, py+dy)
		stop, ok := g.columns(k, px, py, dx, dy, pad, tmax, at)
		if !ok {
			// More cells along the segment than in the level: scan the
			// level's cells instead.
			stop = g.scanLevel(k, xa-pad, xb+pad, ya-pad, yb+pad, at)
		}
		if stop {
			return true
		}
	}
	return false
}

// segment is a segment from p to p + d in float64, with d·d/2 and |d|, for
// near.
type segment struct{ px, py, dx, dy, mid, length float64 }

func newSegment(p, d obb.Vec2) segment {
	dx, dy := float64(d.X), float64(d.Y)
	d2 := float64(dx*dx) + float64(dy*dy)
	return segment{float64(p.X), float64(p.Y), dx, dy, float64(d2 * 0.5), math.Sqrt(d2)}
}

// meets reports whether the segment passes within round of rectangle r on
// each coordinate, or may: it tests the rectangle widened by 2·round
// against the segment's bounding box and its line (the separating axes of
// a segment and a rectangle), in float64. A rectangle with an infinite
// side passes the line's test. The float64 rounding moves each quantity
// by a few units of 2⁻⁵³ of the largest magnitude on its coordinate: where
// that is the segment's, |p| + |d|, the second round covers it, as round
// is at least 2⁻¹⁶ of |p| + |d|; where it is the rectangle's, whose near
// side the bounding box's test put within the segment's reach, its far
// side is that far and its half side about half that, so the 2⁻⁴⁰ of
// |a| + |b| + reach that the line's test adds covers it.
func (s *segment) meets(r *cellBounds, round float64) bool {
	w := 2 * round
	x0, y0 := float64(r[0])-w, float64(r[1])-w
	x1, y1 := float64(r[2])+w, float64(r[3])+w
	ex, ey := s.px+s.dx, s.py+s.dy
	if min(s.px, ex) > x1 || max(s.px, ex) < x0 || min(s.py, ey) > y1 || max(s.py, ey) < y0 {
		return false
	}
	hx, hy := float64(x1-x0)*0.5, float64(y1-y0)*0.5
	if !(hx < math.Inf(1) && hy < math.Inf(1)) {
		return true
	}
	cx, cy := float64(x0+hx)-s.px, float64(y0+hy)-s.py
	a, b := float64(cx*s.dy), float64(cy*s.dx)
	reach := float64(hx*math.Abs(s.dy)) + float64(hy*math.Abs(s.dx))
	return math.Abs(a-b) <= reach+float64((math.Abs(a)+math.Abs(b)+reach)*0x1p-40)
}

// near returns the bits of the lanes of blk whose centers lie within 1.5
// pads of the segment: the only ones its slab test can hit. A hit box's
// center c lies within the pad of a point q of the segment on each
// coordinate (visitSegment), so within √2 pads of q, and then, with
// e = c - p, |e × d| ≤ √2·pad·|d| (its distance from the segment's line)
// and e·d in [-√2·pad·|d|, d·d + √2·pad·|d|] (its place along it), that is
// |e·d - d·d/2| ≤ d·d/2 + √2·pad·|d|. The test compares with 1.5 pads: the
// rest, 0.08·pad·|d|, covers the float64 rounding of e, of the products
// and of the sums, each within a few units of 2⁻⁵³ of |e|·|d| ≤
// (|d| + 2·pad)·|d| for a center that passes, as pad ≥ 2⁻¹⁶·|d|; |d| is
// math.Sqrt's, correctly rounded on every platform, and these bits only
// choose the lanes that the slab test decides. A segment of length 0
// passes every lane. Of the boxes of the cells along a segment, it leaves
// the slab test a fifth on the uniform and RTS scenes, and saves more time
// than it takes (BenchmarkWorldQuery, op=ray).
func (s *segment) near(blk *block, pad float64) uint64 {
	side := float64(float64(1.5*pad)*s.length) * (1 + 0x1p-40)
	mid := s.mid
	span := mid + side
	var bits uint64
	for i := int32(0); i < blk.n; i += groupLanes {
		g := &blk.cols[i/groupLanes]
		for j := range min(blk.n-i, groupLanes) {
			ex, ey := float64(g.CX[j])-s.px, float64(g.CY[j])-s.py
			cross := float64(ex*s.dy) - float64(ey*s.dx)
			dot := float64(ex*s.dx) + float64(ey*s.dy)
			bits |= uint64(b2i(math.Abs(cross) <= side)&b2i(math.Abs(dot-mid) <= span)) << (i + j)
		}
	}
	return bits
}

// columns visits level k's cells along the segment column by column, in
// the segment's direction, and reports false, having visited nothing,
// when they are more than the level's cells. It stops at the first column
// whose band, widened by two pads, the segment enters after *tmax, and in
// a column at the first such row: a box that the segment hits at T has
// the point p + T·d within the pad of its cell on each coordinate, as
// visitSegment's argument holds for the slab test's T too (its rounding
// moves the point it stands for by a few units of 2⁻²⁴ of the same
// scale), so T lies after the segment enters the cell's column and row
// widened by one pad, and the second pad, at least 2⁻¹⁶ of |p| + |d|,
// covers the float64 rounding of the entry. The entries grow in the
// segment's direction, and a box in a band entered after *tmax has a T
// past it, so no tie with the best hit is lost. Stopping there, RayCast of a
// segment that hits something costs what the segment crosses up to the hit,
// which is most of the time saved on long segments (BenchmarkWorldQuery,
// op=ray and op=sight).
func (g *grid) columns(k int16, px, py, dx, dy, pad float64, tmax *float32, fn func(*block) bool) (stop, ok bool) {
	_, s := sizes(int(k))
	x0, x1 := coord(min(px, px+dx)-pad, s), coord(max(px, px+dx)+pad, s)
	budget := int64(len(g.cells))
	var last lastTile
	first := 0
	if cellsAlong(x1, x0, s, pad, dx, dy) <= float64(budget) {
		first = 1 // no need to count them
	} else if y0, y1 := coord(min(py, py+dy)-pad, s), coord(max(py, py+dy)+pad, s); max(int64(x1)-int64(x0), int64(y1)-int64(y0)) >= budget {
		// Nor here: the walk visits a cell or more in each column, and
		// its columns' rows, which reach from the segment's ends widened
		// by a pad and overlap by two pads, meet every row from y0 to y1;
		// so the count would exceed the budget. (The decision only
		// chooses between two visits that both cover every cell the
		// segment needs.) A long segment on a fine level, the RTS scene's
		// units' cells of side 2, then scans the level's cells instead of
		// walking more columns than it has cells (BenchmarkWorldQuery,
		// op=sight).
		return false, false
	}
	for pass := first; pass < 2; pass++ {
		cells := int64(0)
		for i := range int64(x1) - int64(x0) + 1 {
			x := toward(x0, x1, i, dx)
			if pass == 1 && enters(x, s, pad, px, dx) > float64(*tmax) {
				break
			}
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
			for j := range int64(y1) - int64(y0) + 1 {
				y := toward(y0, y1, j, dy)
				if enters(y, s, pad, py, dy) > float64(*tmax) {
					break
				}
				if g.walk(last.head(g, cellKey{x, y, k}), fn) {
					return true, true
				}
			}
		}
	}
	return false, true
}

// cellsAlong returns at least the number of cells that columns visits in
// columns x0 to x1 when it runs to the end, without a pass over them: in
// each column the segment spans at most |dy|·(s + 2·pad)/|dx| (all of |dy|
// when dx is 0) plus a pad either way, which meets at most that over s
// plus 2 cells, and one more covers the rounding. It only chooses between
// columns and scanLevel, which both visit every cell the segment may need.
func cellsAlong(x1, x0 int32, s, pad, dx, dy float64) float64 {
	span := math.Abs(dy)
	if dx != 0 {
		span = float64(span*(s+2*pad)) / math.Abs(dx)
	}
	return float64(float64(int64(x1)-int64(x0)+1) * ((span+2*pad)/s + 3))
}

// lastTile is the tile that the cell before along a segment was in, and
// its entry (grid.entry: the mask of its cells and its index + 1, zeros
// for none): the next cell is mostly in the same tile, and a segment
// across empty land then costs a lookup per tile, not per cell. That pays on
// the RTS scene, whose bases lie apart, and costs nothing measurable on the
// uniform one (BenchmarkWorldQuery, op=sight).
type lastTile struct {
	key   cellKey
	occ   uint64
	tile  int32
	valid bool
}

// head returns the first block of the cell with key k, or -1 when there
// is no such cell, looking its tile up only when it is not the last one.
func (t *lastTile) head(g *grid, k cellKey) int32 {
	if tk := tileKey(k); !t.valid || tk != t.key {
		t.occ, t.tile = g.entry(tk)
		t.key, t.valid = tk, true
	}
	if s := tileSlot(k); t.occ&(1<<s) != 0 {
		return g.tiles[t.tile-1].head[s]
	}
	return -1
}

// toward returns the i-th of the coordinates a to b in the direction of d:
// from b down when d is negative.
func toward(a, b int32, i int64, d float64) int32 {
	if d < 0 {
		return int32(int64(b) - i)
	}
	return int32(int64(a) + i)
}

// enters returns the T at which p + T·d enters the band of cells
// coordinate c of side s widened by two pads, or -Inf when d is 0.
func enters(c int32, s, pad, p, d float64) float64 {
	switch {
	case d > 0:
		return (float64(float64(c)*s) - 2*pad - p) / d
	case d < 0:
		return (float64(float64(c+1)*s) + 2*pad - p) / d
	}
	return math.Inf(-1)
}

// scanLevel calls fn with the blocks of level k's cells that hold centers
// in [x0, x1] × [y0, y1].
func (g *grid) scanLevel(k int16, x0, x1, y0, y1 float64, fn func(*block) bool) bool {
	_, s := sizes(int(k))
	return g.scanCells(k, coord(x0, s), coord(x1, s), coord(y0, s), coord(y1, s), fn)
}
