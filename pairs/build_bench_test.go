package pairs

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/scene"
	"github.com/obb2d/obb2d/soa"
)

// BenchmarkBuild times the part of an all-pairs pass before the kernel
// runs (the sweep axis, the intervals, the partition and the sorted copy)
// on bench/'s uniform scene of 100,000 boxes, with 1 and 2 workers: with
// BenchmarkAllPairs it says how the pass's time and its scaling split
// between the sort and the sweep.
func BenchmarkBuild(b *testing.B) {
	const n = 100000
	var boxes soa.Boxes
	scene.Uniform(rand.New(rand.NewPCG(n, 3)), n, &boxes)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d/n=%d", workers, n), func(b *testing.B) {
			f := Finder{Workers: workers}
			f.build(&f.a, &boxes, sweepAxis(&boxes), true)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				f.build(&f.a, &boxes, sweepAxis(&boxes), true)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/box")
		})
	}
}
