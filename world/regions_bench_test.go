package world_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

// BenchmarkSortedPasses backs the size rule of regions.go: every box of the
// uniform scene moved by MoveBoxes, then Pairs, with the passes in block
// order in worlds of every size (sorted=true) or in none (sorted=false).
func BenchmarkSortedPasses(b *testing.B) {
	defer world.SortAll(false)
	for _, n := range []int{10000, 100000, 1000000} {
		var boxes soa.Boxes
		scene.Uniform(rand.New(rand.NewPCG(uint64(n), 5)), n, &boxes)
		var poses [2]soa.Boxes
		r := rand.New(rand.NewPCG(1, 2))
		for i := range n {
			x := boxes.At(i)
			poses[0].Append(x)
			x.Center = x.Center.Add(obb.Vec2{X: float32(r.NormFloat64() * 0.05), Y: float32(r.NormFloat64() * 0.05)})
			poses[1].Append(x)
		}
		for _, sorted := range []bool{false, true} {
			b.Run(fmt.Sprintf("sorted=%v/n=%d", sorted, n), func(b *testing.B) {
				if sorted {
					world.SortAll(true)
				} else {
					world.SortNone()
				}
				w := world.New()
				hs := w.InsertBoxes(nil, &boxes, world.Dynamic, world.DefaultFilter)
				var pairs []world.Pair
				for k := 0; b.Loop(); k++ {
					w.MoveBoxes(hs, &poses[k&1])
					pairs = w.Pairs(pairs[:0])
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/box")
			})
		}
	}
}
