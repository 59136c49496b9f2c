package world

import (
	"math"
	"slices"

	"github.com/obb2d/obb2d/internal/bound"
	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/obb"
)

// A full step pairs each Dynamic cell's boxes with the boxes of the higher
// levels whose cells its bounds reach (crossPairs). A higher level's cell
// is 2ʲ times as wide as the lower one's, j levels up, and holds every box
// of its level centered in it. In the mixed scene (one box in a hundred a
// hundred times larger, six levels up), testing each small box against all
// the large boxes of the cells in reach takes some seventy tests a pair
// found, and half of the step.
//
// So for a level at least farGap above the cell's, the step keeps, of its
// boxes in reach, the ones whose bounds (bound.Box, which pack computes for
// the far levels' boxes) meet the bounds of a square of farSide × farSide
// lower cells, gathers them into a worker's farSet, and tests every cell
// of the square against that set. No pair is lost: when obb.Box.Overlaps
// says two boxes overlap, their bounds meet on each coordinate (package
// bound), and the bounds of a cell's boxes lie inside the square's
// (squareBounds). The cells come in rows, so a worker keeps the set of the
// last square it gathered and gathers again when a cell lies in another.
// That makes the mixed scene's all-moved step much shorter at a million
// boxes and more (BenchmarkWorldStep, world=mixed/moved=100%/move=bulk).
//
// A level is far (packed.farLevels) when it has no more boxes than the
// levels at least farGap below it, which are the boxes that gather from
// it: the bounds cost a scalar bound.Box a box a step. The RTS scene's
// buildings are three levels above its units and four times as many; with
// every level above the lowest far and squares of 8 × 8 cells, its steps
// that go cell by cell would take longer (BenchmarkWorldDrift, world=rts,
// speed=0.1 and 0.3).
const farGap = 4

// farShift sets the side of a farSet's square, farSide = 2^farShift lower
// cells. A larger square is gathered less often and gathers more boxes
// for each of its cells to test: 4 × 4 cells filter more bounds a small box
// than 8 × 8 and take longer, and 16 × 16 take as long as 8 × 8
// (BenchmarkWorldStep, world=mixed/moved=100%, n=1000000).
const (
	farShift = 3
	farSide  = 1 << farShift
)

// rect is a box's bounds, as bound.Box gives them.
type rect struct{ lo, hi obb.Vec2 }

// anywhere is the rect of a box without finite bounds: it meets every
// other rect.
var anywhere = rect{
	lo: obb.Vec2{X: float32(math.Inf(-1)), Y: float32(math.Inf(-1))},
	hi: obb.Vec2{X: float32(math.Inf(1)), Y: float32(math.Inf(1))},
}

// meets reports whether r and the bounds lo, hi share a point.
func (r *rect) meets(lo, hi obb.Vec2) bool {
	return r.lo.X <= hi.X && r.hi.X >= lo.X && r.lo.Y <= hi.Y && r.hi.Y >= lo.Y
}

// farLevels marks the far levels of the Dynamic grid g, in p.far, and
// reports whether there are any: a level is far when some level lies at
// least farGap below it and those levels hold at least as many boxes as it
// does.
func (p *packed) farLevels(g *grid) (some bool) {
	p.far = slices.Grow(p.far[:0], len(g.levels))[:len(g.levels)]
	p.perLvl = slices.Grow(p.perLvl[:0], len(g.levels))[:len(g.levels)]
	clear(p.perLvl)
	for c := range g.cells {
		if i, ok := slices.BinarySearch(g.levels, g.cells[c].key.level); ok {
			p.perLvl[i] += int(g.cells[c].boxes)
		}
	}
	below, j := 0, 0
	for i, k := range g.levels {
		for ; g.levels[j] <= k-farGap; j++ {
			below += p.perLvl[j]
		}
		p.far[i] = below > 0 && below >= p.perLvl[i]
		some = some || p.far[i]
	}
	return some
}

// isFar reports whether level k of g is far.
func (p *packed) isFar(g *grid, k int16) bool {
	i, ok := slices.BinarySearch(g.levels, k)
	return ok && p.far[i]
}

// boundsOf sets p.bounds of the packed boxes [lo, hi).
func (p *packed) boundsOf(lo, hi int) {
	for j := lo; j < hi; j++ {
		b := obb.Box{
			Center: obb.Vec2{X: p.b.CX[j], Y: p.b.CY[j]},
			Axis:   obb.Vec2{X: p.b.UX[j], Y: p.b.UY[j]},
			Half:   obb.Vec2{X: p.b.HX[j], Y: p.b.HY[j]},
		}
		r := anywhere
		if l, h, ok := bound.Box(b); ok {
			r = rect{l, h}
		}
		p.bounds[j] = r
	}
}

// squareBounds returns float32 bounds, rounded outward, of the boxes of
// level k's cells (x, y) for x in [x0, x1] and y in [y0, y1]: their
// bounds lie within R of points in [x0·S, (x1+1)·S) × [y0·S, (y1+1)·S),
// their centers or nearShift's. A clamped coordinate's cell holds centers
// beyond its nominal range, so a side at the clamp is open.
func squareBounds(k int16, x0, y0, x1, y1 int32) (lo, hi obb.Vec2) {
	r, s := sizes(int(k))
	lo = obb.Vec2{X: f32.Down(float64(float64(x0)*s) - r), Y: f32.Down(float64(float64(y0)*s) - r)}
	hi = obb.Vec2{X: f32.Up(float64(float64(x1+1)*s) + r), Y: f32.Up(float64(float64(y1+1)*s) + r)}
	if x0 <= -maxCoord {
		lo.X = f32.Down(-0x1p200)
	}
	if x1 >= maxCoord {
		hi.X = f32.Up(0x1p200)
	}
	if y0 <= -maxCoord {
		lo.Y = f32.Down(-0x1p200)
	}
	if y1 >= maxCoord {
		hi.Y = f32.Up(0x1p200)
	}
	return lo, hi
}

// farSet is a worker's gathered higher boxes for the square of key: the
// square's first cell's coordinates shifted right by farShift, and the
// level. Past the boxes, 16 lanes of room for the kernel's last group, as
// in packed.
type farSet struct {
	key cellKey
	ok  bool // key's boxes are gathered, in this step
	gathered
	n int32 // the boxes, without the room
}

// far returns the higher Dynamic boxes that can pair with the boxes of
// cell ck, gathered for ck's square unless the worker's set holds them.
func (w *World) far(cols *columns, p *packed, ck cellKey) *farSet {
	fs := &cols.far
	key := cellKey{ck.x >> farShift, ck.y >> farShift, ck.level}
	if fs.ok && fs.key == key {
		return fs
	}
	fs.key, fs.ok = key, true
	fs.reset()
	x0, y0 := key.x<<farShift, key.y<<farShift
	lo, hi := squareBounds(ck.level, x0, y0, x0+farSide-1, y0+farSide-1)
	g := &w.grids[Dynamic]
	for i, k := range g.levels {
		if !p.far[i] || k-ck.level < farGap {
			continue
		}
		last := int32(-1)
		g.visitLevel(k, lo, hi, func(b *block) bool {
			if b.cell == last { // a cell's blocks come one after the other
				return false
			}
			last = b.cell
			for j := p.start[last]; j < p.start[last+1]; j++ {
				if p.bounds[j].meets(lo, hi) {
					fs.add(p, j)
				}
			}
			return false
		})
	}
	fs.n = int32(len(fs.h))
	for range blockLanes {
		fs.add(p, 0) // room for the kernel, never in a run
	}
	return fs
}

// add appends packed box j.
func (fs *farSet) add(p *packed, j int32) {
	fs.b.CX, fs.b.CY = append(fs.b.CX, p.b.CX[j]), append(fs.b.CY, p.b.CY[j])
	fs.b.UX, fs.b.UY = append(fs.b.UX, p.b.UX[j]), append(fs.b.UY, p.b.UY[j])
	fs.b.HX, fs.b.HY = append(fs.b.HX, p.b.HX[j]), append(fs.b.HY, p.b.HY[j])
	fs.rch, fs.h, fs.f = append(fs.rch, p.reach[j]), append(fs.h, p.h[j]), append(fs.f, p.f[j])
}
