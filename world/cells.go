package world

import (
	mathbits "math/bits"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/obb"
)

// A step where many boxes moved recomputes every pair cell by cell instead
// of querying each moved box: the boxes of a Dynamic cell, then those of the
// cells that can hold a partner, are copied into one set of columns, and
// each box of the cell is tested with one kernel call against the boxes
// after it in the set. Each pair is met once: within a cell, by the earlier
// box; across cells of a level, from the cell that has the other in one of
// its four forward neighbours (a box's bounds reach at most R = S/4 from its
// center, so two boxes of a level that overlap sit in cells at most one
// apart, and clamping coordinates keeps that); across levels, from the
// lower level's cell; Dynamic with Static, from the Dynamic cell. Querying
// each box visits its cells' neighbourhood once per box; this visits it once
// per cell, and one kernel call per box covers all of it
// (BenchmarkWorldStep, moved=100% against moved=1%, ns per moved box).

// fullStepShare: a step recomputes every pair when at least one Dynamic box
// in fullStepShare was marked dirty.
const fullStepShare = 8

// forward are the neighbours a cell pairs with on its own level.
var forward = [4][2]int32{{1, 0}, {-1, 1}, {0, 1}, {1, 1}}

// columns is a worker's set of boxes gathered for one cell.
type columns struct {
	cx, cy, ux, uy, hx, hy []float32
	h                      []Handle
	f                      []Filter
	bits                   []uint64
}

func (c *columns) reset() {
	c.cx, c.cy, c.ux, c.uy, c.hx, c.hy, c.h = c.cx[:0], c.cy[:0], c.ux[:0], c.uy[:0], c.hx[:0], c.hy[:0], c.h[:0]
	c.f = c.f[:0]
}

func (c *columns) add(b *block) bool {
	n, x := b.n, &b.cols
	c.cx, c.cy = append(c.cx, x.CX[:n]...), append(c.cy, x.CY[:n]...)
	c.ux, c.uy = append(c.ux, x.UX[:n]...), append(c.uy, x.UY[:n]...)
	c.hx, c.hy = append(c.hx, x.HX[:n]...), append(c.hy, x.HY[:n]...)
	c.h = append(c.h, b.h[:n]...)
	c.f = append(c.f, b.f[:n]...)
	return false
}

// cellPairs appends the pairs the Dynamic cell c is responsible for.
func (w *World) cellPairs(dst []uint64, cols *columns, c int32) []uint64 {
	g := &w.grids[Dynamic]
	ck := g.cells[c].key
	cols.reset()
	g.walk(g.cells[c].head, cols.add)
	own := len(cols.h)
	for _, d := range forward {
		g.walk(g.head(cellKey{ck.x + d[0], ck.y + d[1], ck.level}), cols.add)
	}
	// The cell's boxes' bounds, rounded outward; a clamped coordinate's
	// cell holds centers beyond its nominal range, so its side is open.
	r, s := sizes(int(ck.level))
	lo, hi := obb.Vec2{X: f32.Down(float64(float64(ck.x)*s) - r), Y: f32.Down(float64(float64(ck.y)*s) - r)},
		obb.Vec2{X: f32.Up(float64(float64(ck.x+1)*s) + r), Y: f32.Up(float64(float64(ck.y+1)*s) + r)}
	if ck.x == -maxCoord {
		lo.X = f32.Down(-0x1p200)
	}
	if ck.x == maxCoord {
		hi.X = f32.Up(0x1p200)
	}
	if ck.y == -maxCoord {
		lo.Y = f32.Down(-0x1p200)
	}
	if ck.y == maxCoord {
		hi.Y = f32.Up(0x1p200)
	}
	for _, k := range g.levels {
		if k > ck.level {
			g.visitLevel(k, lo, hi, cols.add)
		}
	}
	st := &w.grids[Static]
	for _, k := range st.levels {
		st.visitLevel(k, lo, hi, cols.add)
	}
	n := len(cols.h)
	if cap(cols.bits) < batch.Words(n) {
		cols.bits = make([]uint64, batch.Words(n))
	}
	for i := 0; i < own && i+1 < n; i++ {
		q := batch.Query{CX: cols.cx[i], CY: cols.cy[i], UX: cols.ux[i], UY: cols.uy[i], HX: cols.hx[i], HY: cols.hy[i]}
		m := n - i - 1
		out := cols.bits[:batch.Words(m)]
		j := i + 1
		batch.Overlaps(&q, cols.cx[j:], cols.cy[j:], cols.ux[j:], cols.uy[j:], cols.hx[j:], cols.hy[j:], out)
		h, f := cols.h[i], cols.f[i]
		for wi, word := range out {
			for ; word != 0; word &= word - 1 {
				x := j + wi<<6 + mathbits.TrailingZeros64(word)
				if f.allows(cols.f[x]) {
					dst = append(dst, key(h, cols.h[x]))
				}
			}
		}
	}
	return dst
}
