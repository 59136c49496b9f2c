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
			boxes := benchBoxes(sc, n)
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("world=%s/workers=%d/n=%d", sc, workers, n), func(b *testing.B) {
					w := world.New()
					w.Workers = workers
					w.InsertBoxes(nil, boxes, world.Dynamic, world.DefaultFilter)
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

// BenchmarkCompact times the compaction of a grid (grid.compact and
// World.relocate) alone, on worlds of the uniform and RTS scenes loaded as
// Dynamic or Static boxes: the layout a world pays for once per as many
// boxes entering cells as it holds, and once after a large load. Before
// each, untimed, Scatter puts the grid's blocks in a random order, as a
// load's cells, made in the caller's order, or boxes entering cells leave
// them.
func BenchmarkCompact(b *testing.B) {
	for _, sc := range []string{"uniform", "rts"} {
		for _, n := range []int{100000, 1000000} {
			boxes := benchBoxes(sc, n)
			for _, k := range []world.Kind{world.Dynamic, world.Static} {
				b.Run(fmt.Sprintf("world=%s/kind=%s/n=%d", sc, []string{"dynamic", "static"}[k], n), func(b *testing.B) {
					w := world.New()
					w.InsertBoxes(nil, boxes, k, world.DefaultFilter)
					r := rand.New(rand.NewPCG(1, 1))
					for b.Loop() {
						b.StopTimer()
						world.Scatter(w, k, r)
						b.StartTimer()
						world.Compact(w, k)
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/box")
				})
			}
		}
	}
}

// benchBoxes returns n boxes of scene sc: uniform, rts, or mixed (the
// uniform scene with one box in a hundred a hundred times larger).
func benchBoxes(sc string, n int) *soa.Boxes {
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
	return &boxes
}
