package pairs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit/scene"
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
			f.sortSet(&boxes, sweepAxis(&boxes), true)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				f.sortSet(&boxes, sweepAxis(&boxes), true)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/box")
		})
	}
}

// BenchmarkMerge times the merge that sorts an all-pairs pass's pairs by I
// then J, on one worker, over the pairs of bench/'s uniform scene of
// 100,000 to 4,000,000 boxes (0.17 pairs a box) and its RTS scene of
// 100,000 (11 pairs a box): as mergeRange picks (merge=auto), by counting,
// and by radix wherever it may (where the pairs are fewer than the indices
// per pass; elsewhere merge=radix counts too).
func BenchmarkMerge(b *testing.B) {
	auto := radixMinIndices
	defer func() { radixMinIndices = auto }()
	for _, sc := range []struct {
		name  string
		make  func(*rand.Rand, int, *soa.Boxes)
		sizes []int
	}{{"uniform", scene.Uniform, []int{100000, 1000000, 2000000, 4000000}}, {"rts", scene.RTS, []int{100000}}} {
		for _, n := range sc.sizes {
			var boxes soa.Boxes
			sc.make(rand.New(rand.NewPCG(uint64(n), 3)), n, &boxes)
			var f Finder
			dst := f.All(nil, &boxes)
			for _, by := range []struct {
				name string
				min  int
			}{{"auto", auto}, {"counting", math.MaxInt}, {"radix", 0}} {
				b.Run(fmt.Sprintf("scene=%s/merge=%s/n=%d", sc.name, by.name, n), func(b *testing.B) {
					radixMinIndices = by.min
					b.ReportAllocs()
					for b.Loop() {
						dst = f.merge(dst[:0], n, n)
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/box")
				})
			}
		}
	}
}

// BenchmarkSmallPasses times All with one and two workers on bench/'s
// uniform and RTS scenes of a few thousand boxes. The package's tests set
// parallelMinBoxes to 0, so two workers here really run on two goroutines:
// this is the comparison parallelMinBoxes is chosen from.
func BenchmarkSmallPasses(b *testing.B) {
	for _, sc := range []struct {
		name string
		make func(*rand.Rand, int, *soa.Boxes)
	}{{"uniform", scene.Uniform}, {"rts", scene.RTS}} {
		for _, n := range []int{5000, 10000, 20000} {
			var boxes soa.Boxes
			sc.make(rand.New(rand.NewPCG(uint64(n), 3)), n, &boxes)
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("scene=%s/n=%d/workers=%d", sc.name, n, workers), func(b *testing.B) {
					f := Finder{Workers: workers}
					dst := f.All(nil, &boxes)
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						dst = f.All(dst[:0], &boxes)
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/box")
				})
			}
		}
	}
}

// BenchmarkBandThreshold times All on bench/'s uniform and RTS scenes
// around minBandedBoxes, in one sweep (bands=one) and cut into the bands
// bandsFor gives (bands=cut), with one and two workers: the comparison
// minBandedBoxes is chosen from (benchstat -col /bands).
func BenchmarkBandThreshold(b *testing.B) {
	for _, sc := range []struct {
		name string
		make func(*rand.Rand, int, *soa.Boxes)
	}{{"uniform", scene.Uniform}, {"rts", scene.RTS}} {
		for _, n := range []int{70000, 100000, 150000, 200000, 500000} {
			var boxes soa.Boxes
			sc.make(rand.New(rand.NewPCG(uint64(n), 3)), n, &boxes)
			for _, workers := range []int{1, 2} {
				for _, bands := range []struct {
					name string
					k    int
				}{{"one", 1}, {"cut", bandsFor(n)}} {
					b.Run(fmt.Sprintf("scene=%s/workers=%d/bands=%s/n=%d", sc.name, workers, bands.name, n), func(b *testing.B) {
						f := Finder{Workers: workers}
						dst := f.all(nil, &boxes, bands.k)
						b.ReportAllocs()
						for b.Loop() {
							dst = f.all(dst[:0], &boxes, bands.k)
						}
						b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/box")
					})
				}
			}
		}
	}
}
