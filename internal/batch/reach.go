package batch

import (
	"math"

	"github.com/obb2d/obb2d/internal/bound"
	"github.com/obb2d/obb2d/obb"
)

// Reaches sets rx[i] and ry[i] to bound.Reach's rx and ry for box i of the
// six columns, or both to -1 where Reach returns false (a reach it returns
// is never negative). The assembly computes 4 (AVX2) or 8 (AVX-512) boxes
// per instruction, each lane with Reach's float64 operations in Reach's
// order, so every implementation gives Reach's bits. World.MoveBoxes
// computes the reaches of a chunk of boxes with it before it looks up
// their cells: Reach is about a hundred scalar instructions a box, and was
// the largest part of the step's time when every box moved
// (BenchmarkWorldStep, moved=100%/move=bulk). It panics unless the eight
// columns have the same length.
func Reaches(cx, cy, ux, uy, hx, hy []float32, rx, ry []float64) {
	n := len(cx)
	if len(cy) != n || len(ux) != n || len(uy) != n || len(hx) != n || len(hy) != n || len(rx) != n || len(ry) != n {
		panic("batch: Reaches with columns of different lengths")
	}
	if n > 0 {
		reaches(cx, cy, ux, uy, hx, hy, rx, ry)
	}
}

func reachesGeneric(cx, cy, ux, uy, hx, hy []float32, rx, ry []float64) {
	for i := range cx {
		b := obb.Box{Center: obb.Vec2{X: cx[i], Y: cy[i]}, Axis: obb.Vec2{X: ux[i], Y: uy[i]}, Half: obb.Vec2{X: hx[i], Y: hy[i]}}
		x, y, ok := bound.Reach(b)
		if !ok {
			x, y = -1, -1
		}
		rx[i], ry[i] = x, y
	}
}

// Intervals sets lo[i] and hi[i] to bound.Interval's float32 bounds of box
// i on one coordinate where the box is Regular (bound.Regular: valid, with
// half extents that sum to less than bound.Huge), and both to NaN where it
// is not: c is the coordinate's center column and c2 the other center's,
// along and across the axis's components along and across the coordinate.
// The assembly computes 4 (AVX2) or 8 (AVX-512) boxes per instruction with
// Regular's and Interval's float64 operations in their order, so every
// implementation gives the same bits. Package pairs
// computes the sweep intervals of a chunk of boxes with it: one box at a
// time, the validity check and Interval were a third of Finder.All's time
// on 10,000 boxes (BenchmarkAllPairsScaling). It panics unless the eight
// columns have the same length.
func Intervals(c, c2, along, across, hx, hy, lo, hi []float32) {
	n := len(c)
	if len(c2) != n || len(along) != n || len(across) != n || len(hx) != n || len(hy) != n || len(lo) != n || len(hi) != n {
		panic("batch: Intervals with columns of different lengths")
	}
	if n > 0 {
		intervals(c, c2, along, across, hx, hy, lo, hi)
	}
}

// noInterval is the NaN Intervals gives a box that is not Regular: the one
// the assembly's conversion of float64's quiet NaN gives.
var noInterval = math.Float32frombits(0x7fc00000)

func intervalsGeneric(c, c2, along, across, hx, hy, lo, hi []float32) {
	for i := range c {
		b := obb.Box{Center: obb.Vec2{X: c[i], Y: c2[i]}, Axis: obb.Vec2{X: along[i], Y: across[i]}, Half: obb.Vec2{X: hx[i], Y: hy[i]}}
		if !bound.Regular(b) {
			lo[i], hi[i] = noInterval, noInterval
			continue
		}
		lo[i], hi[i] = bound.Interval(float64(c[i]), float64(hx[i]), float64(hy[i]), float64(along[i]), float64(across[i]))
	}
}
