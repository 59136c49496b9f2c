package world_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

// BenchmarkBuildFat times the build of the candidates of fat bounds
// (fat.go) alone, on worlds of Dynamic boxes of the uniform and RTS
// scenes and the mixed one (the uniform scene with one box in a hundred a
// hundred times larger), with the margins a build gives boxes that did
// not move: the cost a step pays when the candidates are built again.
func BenchmarkBuildFat(b *testing.B) {
	for _, sc := range []string{"uniform", "rts", "mixed"} {
		for _, n := range []int{10000, 100000} {
			var boxes soa.Boxes
			r := rand.New(rand.NewPCG(uint64(n), 5))
			if sc == "rts" {
				scene.RTS(r, n, &boxes)
			} else {
				scene.Uniform(r, n, &boxes)
			}
			if sc == "mixed" {
				for i := range n {
					if r.IntN(100) == 0 {
						boxes.HX[i], boxes.HY[i] = 100*boxes.HX[i], 100*boxes.HY[i]
					}
				}
			}
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("world=%s/workers=%d/n=%d", sc, workers, n), func(b *testing.B) {
					w := world.New()
					w.Workers = workers
					w.InsertBoxes(nil, &boxes, world.Dynamic, world.DefaultFilter)
					w.Pairs(nil)
					for b.Loop() {
						world.BuildFat(w)
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/box")
				})
			}
		}
	}
}
