package world_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

// TestFarSquares checks the full step's pairs of small boxes with large
// ones (package world's cells_far.go) against brute force: small boxes
// over a few hundred squares of their level's cells, large boxes of two
// higher levels scattered among them, every box Dynamic, and steps in
// which every box moved, on one worker and two. A worker gathers the large
// boxes that can reach a square once and tests each cell of the square
// against them, so a set kept for the wrong square, or gathered for too
// small a square, loses pairs here.
func TestFarSquares(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			r := rand.New(rand.NewPCG(11, uint64(workers)))
			var b soa.Boxes
			const side = 600
			for i := range 3000 {
				half := obb.Vec2{X: 0.5 + r.Float32(), Y: 0.5 + r.Float32()}
				switch {
				case i%60 == 0:
					half = half.Scale(30)
				case i%20 == 1:
					half = half.Scale(4)
				}
				c := obb.Vec2{X: r.Float32() * side, Y: r.Float32() * side}
				b.Append(obb.FromHalf(c, half, r.Float64()*2*math.Pi))
			}
			w := world.New()
			w.Workers = workers
			hs := w.InsertBoxes(nil, &b, world.Dynamic, world.DefaultFilter)
			for step := range 3 {
				got, want := w.Pairs(nil), brutePairs(hs, &b)
				if !slices.Equal(got, want) {
					t.Fatalf("step %d: %d pairs, brute force %d", step, len(got), len(want))
				}
				for i := range hs {
					b.CX[i] += float32(r.NormFloat64())
					b.CY[i] += float32(r.NormFloat64())
				}
				w.MoveBoxes(hs, &b)
			}
		})
	}
}
