package world_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

// BenchmarkStepFloor sets an incremental step beside the memory floor of
// its search for the moved boxes' pairs. reads=step is BenchmarkWorldStep's
// moved=1% step with Move and one worker on the uniform scene: every
// hundredth box moved by a small random step, then Pairs, which tests the
// moved boxes' candidates of fat bounds (fat_few.go). reads=lines reads one
// byte of each cache line that step's test reads (world.StepLines), in the
// same order: the same memory with nothing computed and every address known
// in advance, where the step finds each link from the one before. The loads
// are independent of each other, so the processor has as many in flight
// as it can hold; asking for each box's lines some boxes ahead
// (batch.Prefetch) made the loop slower at every n. ns/moved is per moved
// box; lines/moved how many lines the step reads a moved box.
func BenchmarkStepFloor(b *testing.B) {
	sizes := []int{10000, 100000, 1000000, 4000000}
	if testing.Short() {
		sizes = sizes[:2]
	}
	for _, n := range sizes {
		var boxes soa.Boxes
		scene.Uniform(rand.New(rand.NewPCG(uint64(n), 5)), n, &boxes)
		w := world.New()
		hs := w.InsertBoxes(nil, &boxes, world.Dynamic, world.DefaultFilter)
		var moved []world.Handle
		var poses [2][]obb.Box
		r := rand.New(rand.NewPCG(1, 2))
		for i := 0; i < n; i += 100 {
			a := boxes.At(i)
			poses[0] = append(poses[0], a)
			a.Center = a.Center.Add(obb.Vec2{X: float32(r.NormFloat64() * 0.05), Y: float32(r.NormFloat64() * 0.05)})
			poses[1] = append(poses[1], a)
			moved = append(moved, hs[i])
		}
		move := func(k int) {
			for j, h := range moved {
				w.Move(h, poses[k&1][j])
			}
		}
		// As many steps as BenchmarkWorldStep's before the timer: the
		// candidates of fat bounds are built in the first twenty or so.
		pairs := w.Pairs(nil)
		for k := range 40 {
			move(k)
			pairs = w.Pairs(pairs[:0])
		}
		b.Run(fmt.Sprintf("reads=step/n=%d", n), func(b *testing.B) {
			for k := 0; b.Loop(); k++ {
				move(k)
				pairs = w.Pairs(pairs[:0])
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(moved)), "ns/moved")
		})
		move(0)
		lines := w.StepLines()
		b.Run(fmt.Sprintf("reads=lines/n=%d", n), func(b *testing.B) {
			var sum byte
			for b.Loop() {
				for _, p := range lines {
					sum += *(*byte)(p)
				}
			}
			floorSink += sum
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(moved)), "ns/moved")
			b.ReportMetric(float64(len(lines))/float64(len(moved)), "lines/moved")
		})
		pairs = w.Pairs(pairs[:0])
		runtime.KeepAlive(w)
	}
}

var floorSink byte
