package batch

import (
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
