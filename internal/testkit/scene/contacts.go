package scene

import (
	"math/rand/v2"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// Stacks fills boxes with columns of unit boxes resting on one another,
// each sunk a little into the one below and turned by a tiny angle, on a
// long ground box (box 0): the contacts of a physics engine's resting
// stacks. Every box touches the one below and above it.
func Stacks(r *rand.Rand, n int, boxes *soa.Boxes) {
	boxes.Reset()
	boxes.Grow(n)
	columns := max(1, n/20)
	boxes.Append(obb.FromHalf(obb.Vec2{X: float32(columns), Y: -1}, obb.Vec2{X: float32(columns) + 2, Y: 1}, 0))
	for c := 0; boxes.Len() < n; c++ {
		y := float32(0.5)
		for k := 0; k < 20 && boxes.Len() < n; k++ {
			x := float32(2*(c%columns)) + float32(r.NormFloat64()*0.01)
			boxes.Append(obb.FromHalf(obb.Vec2{X: x, Y: y - 0.01}, obb.Vec2{X: 0.5, Y: 0.5}, r.NormFloat64()*0.005))
			y += 0.99
		}
	}
}
