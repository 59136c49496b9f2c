package pairs_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/pairs"
	"github.com/obb2d/obb2d/soa"
)

// TestBandsAgreeWithOneSweep compares All on sets cut into bands with one
// sweep over the whole set, on scenes that stress the bands: boxes far
// larger than a band, boxes on one line (no spread across the sweep), huge
// coordinates, and NaN and infinite boxes. Each set is cut into as many
// bands as All cuts a set of its size into and into a few other numbers, up
// to as many as its boxes' size allows, with each kernel and one or two
// workers.
func TestBandsAgreeWithOneSweep(t *testing.T) {
	n := 90000
	if testing.Short() {
		n = 40000
	}
	if pairs.BandCount(n) < 2 {
		t.Fatalf("%d boxes make %d band; the test needs several", n, pairs.BandCount(n))
	}
	makers := map[string]func(r *rand.Rand, n int, b *soa.Boxes){
		"uniform": scene.Uniform,
		"rts":     scene.RTS,
		"mixed": func(r *rand.Rand, n int, b *soa.Boxes) {
			scene.Uniform(r, n, b)
			for i := 0; i < n; i += 97 {
				b.HX[i], b.HY[i] = 100*b.HX[i], 100*b.HY[i]
			}
		},
		"line": func(r *rand.Rand, n int, b *soa.Boxes) {
			scene.Uniform(r, n, b)
			for i := range b.CY {
				b.CX[i], b.CY[i] = 100*b.CX[i], 0
			}
		},
		"huge": func(r *rand.Rand, n int, b *soa.Boxes) {
			scene.Uniform(r, n, b)
			for i := range b.CX {
				b.CX[i] += 1e6
				b.CY[i] -= 1e6
			}
		},
		"hostile": func(r *rand.Rand, n int, b *soa.Boxes) {
			scene.Uniform(r, n, b)
			nan, inf := float32(math.NaN()), float32(math.Inf(1))
			for i := 0; i+4 < n; i += n / 8 {
				b.CX[i], b.HY[i+1], b.UX[i+2], b.HX[i+3] = nan, inf, 0, -b.HX[i+3]
				b.UY[i+2] = 0
				b.CY[i+4] = 3e38 // finite bounds along the sweep, not across
			}
		},
	}
	for _, name := range []string{"uniform", "rts", "mixed", "line", "huge", "hostile"} {
		t.Run(name, func(t *testing.T) {
			for _, size := range []int{n, 3000} {
				var b soa.Boxes
				makers[name](rand.New(rand.NewPCG(5, uint64(len(name)))), size, &b)
				want := (&pairs.Finder{}).SweepAll(nil, &b)
				testkit.EachImpl(func(impl string) {
					for _, k := range []int{pairs.BandCount(size), 2, 7, 300} {
						for _, workers := range []int{1, 2} {
							f := pairs.Finder{Workers: workers}
							got := f.AllBands(nil, &b, k)
							if !slices.Equal(got, want) {
								t.Fatalf("impl=%s n=%d bands=%d (asked %d) workers=%d: %d pairs in bands, %d in one sweep", impl, size, f.Bands(), k, workers, len(got), len(want))
							}
							// Cut into fewer, larger groups, as a set of
							// millions of boxes is.
							old := pairs.SetMaxBandedGroups(4)
							got = f.AllBands(got[:0], &b, k)
							pairs.SetMaxBandedGroups(old)
							if !slices.Equal(got, want) {
								t.Fatalf("impl=%s n=%d bands=%d (asked %d) workers=%d, at most 4 groups: %d pairs in bands, %d in one sweep", impl, size, f.Bands(), k, workers, len(got), len(want))
							}
							// Boxes on one line are as high as their set; the others
							// spread across it.
							if oneLine := name == "line"; k > 1 && oneLine != (f.Bands() == 1) {
								t.Fatalf("n=%d asked for %d bands: got %d", size, k, f.Bands())
							}
						}
					}
				})
			}
		})
	}
}

// TestBandsKeepCandidatesFlat checks what the bands are for: on the
// uniform scene at constant density, the candidates per box do not grow
// with the number of boxes.
func TestBandsKeepCandidatesFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a million boxes")
	}
	per := map[int]float64{}
	sizes := []int{10000, 1000000}
	for _, n := range sizes {
		var b soa.Boxes
		scene.Uniform(rand.New(rand.NewPCG(uint64(n), 3)), n, &b)
		var f pairs.Finder
		f.All(nil, &b)
		per[n] = float64(f.Candidates()) / float64(n)
	}
	t.Logf("candidates per box: %.1f at 10,000 boxes, %.1f at 1,000,000", per[10000], per[1000000])
	for _, n := range sizes[1:] {
		if per[n] > 1.5*per[10000] {
			t.Errorf("candidates per box grow from %.1f at 10,000 boxes to %.1f at %d", per[10000], per[n], n)
		}
	}
}

// TestCrowdedBucketsStaySorted checks that a far box, whose start
// stretches the sort's buckets so that every other box falls in one, does
// not make All's runs longer: the sort leaves only small buckets unsorted
// for All's sweep, so the candidates stay about as many as without the far
// box, where an unsorted crowded bucket would make each run most of it.
func TestCrowdedBucketsStaySorted(t *testing.T) {
	const n = 20000
	var b soa.Boxes
	scene.Uniform(rand.New(rand.NewPCG(9, 9)), n, &b)
	var f pairs.Finder
	want := f.All(nil, &b)
	near := f.Candidates()
	for _, far := range []float32{1e30, -1e30} {
		var c soa.Boxes
		for i := range n {
			c.Append(b.At(i))
		}
		c.Append(obb.New(obb.Vec2{X: far, Y: far}, 1, 1, 0))
		got := f.All(nil, &c)
		if !slices.Equal(got, want) {
			t.Fatalf("far box at %g: %d pairs, want %d", far, len(got), len(want))
		}
		if f.Candidates() > 2*near {
			t.Errorf("far box at %g: %d candidates, %d without it", far, f.Candidates(), near)
		}
	}
}
