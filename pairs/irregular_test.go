package pairs_test

import (
	"fmt"
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

// irregularScene returns n boxes of bench/'s uniform scene with every k-th
// made bad in turn: a NaN in one field, negative half extents, or an axis
// scaled to a length from 10⁻³ to 10³ (and, with infinities, an infinite
// field), each moved next to a neighbour so that it touches or overlaps
// some boxes.
func irregularScene(r *rand.Rand, n, k int, infinities bool) *soa.Boxes {
	var b soa.Boxes
	scene.Uniform(r, n, &b)
	kinds := 3
	if infinities {
		kinds = 4
	}
	for i := 0; i < n; i += k {
		x := b.At(i)
		if j := r.IntN(n); j != i {
			x.Center = b.At(j).Center.Add(obb.Vec2{X: float32(r.Float64()*4 - 2), Y: float32(r.Float64()*4 - 2)})
		}
		switch (i / k) % kinds {
		case 0:
			f := [6]*float32{&x.Center.X, &x.Center.Y, &x.Axis.X, &x.Axis.Y, &x.Half.X, &x.Half.Y}
			*f[r.IntN(6)] = float32(math.NaN())
		case 1:
			x.Half = obb.Vec2{X: -x.Half.X, Y: x.Half.Y * float32(r.IntN(3)-1)}
		case 2:
			s := float32([]float64{1e-3, 0.1, 0.5, 0.9999, 1.01, 2, 10, 1e3}[r.IntN(8)])
			x.Axis = x.Axis.Scale(s)
		case 3:
			f := [6]*float32{&x.Center.X, &x.Center.Y, &x.Axis.X, &x.Axis.Y, &x.Half.X, &x.Half.Y}
			*f[r.IntN(6)] = float32(math.Inf(1 - 2*r.IntN(2)))
		}
		b.Set(i, x)
	}
	return &b
}

// TestIrregularBoxesAreSwept checks that a box with a NaN, negative half
// extents or an axis that is not unit length costs what its answers need:
// none of them goes to the scalar test against every box (a NaN box is
// left out, the others are swept with conservative bounds), and the pairs
// are still exactly the brute-force answer, with every kernel and one or
// two workers, for All and Between.
func TestIrregularBoxesAreSwept(t *testing.T) {
	for _, n := range []int{300, 2000} {
		for _, infinities := range []bool{false, true} {
			r := rand.New(rand.NewPCG(uint64(n), 71))
			b := irregularScene(r, n, 7, infinities)
			moving := irregularScene(r, n/3, 5, infinities)
			wantAll, wantBetween := bruteAll(b), bruteBetween(moving, b)
			testkit.EachImpl(func(impl string) {
				for _, workers := range []int{1, 2} {
					f := pairs.Finder{Workers: workers}
					if got := f.All(nil, b); !slices.Equal(got, wantAll) {
						t.Errorf("n=%d infinities=%v %s workers=%d: All found %d pairs, brute force %d", n, infinities, impl, workers, len(got), len(wantAll))
					}
					if k := pairs.ScalarTested(&f, false); !infinities && k != 0 {
						t.Errorf("n=%d %s: All sent %d boxes to the scalar test", n, impl, k)
					}
					if got := f.Between(nil, moving, b); !slices.Equal(got, wantBetween) {
						t.Errorf("n=%d infinities=%v %s workers=%d: Between found %d pairs, brute force %d", n, infinities, impl, workers, len(got), len(wantBetween))
					}
					if k := pairs.ScalarTested(&f, true); !infinities && k != 0 {
						t.Errorf("n=%d %s: Between sent %d boxes to the scalar test", n, impl, k)
					}
				}
			})
			if len(wantAll) == 0 || len(wantBetween) == 0 {
				t.Fatalf("n=%d: the scene has no pairs", n)
			}
		}
	}
}

// BenchmarkBadBoxes times All on bench/'s uniform scene of 100,000 boxes
// with none, 100 and 1,000 of them made bad as irregularScene makes them
// (no infinities): the pass's cost should not grow with them.
func BenchmarkBadBoxes(b *testing.B) {
	const n = 100000
	for _, bad := range []int{0, 100, 1000} {
		boxes := irregularScene(rand.New(rand.NewPCG(n, 5)), n, max(1, n/max(bad, 1)), false)
		if bad == 0 {
			boxes = new(soa.Boxes)
			scene.Uniform(rand.New(rand.NewPCG(n, 5)), n, boxes)
		}
		b.Run(fmt.Sprintf("bad=%d/n=%d", bad, n), func(b *testing.B) {
			var f pairs.Finder
			dst := f.All(nil, boxes)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				dst = f.All(dst[:0], boxes)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/box")
		})
	}
}

// TestExtremeAxesAreSwept checks All and Between against brute force, with
// every kernel and one or two workers, on sets where every other box has an
// axis so short that the test's products with it underflow
// (testkit.ShortAxisSet) or so long that its radii can overflow
// (testkit.LongAxisSet). The sweep's bounds of a short axis must cover the
// half unit or so, over the axis's length, within which the test says two
// of them overlap, and none of those boxes goes to the scalar test: their
// bounds are finite. A box whose radii can overflow (a long axis, or valid
// with half extents near 2¹²⁷) has no finite bounds, and is tested against
// every box.
func TestExtremeAxesAreSwept(t *testing.T) {
	sets := []struct {
		name string
		make func(*rand.Rand, int) *soa.Boxes
	}{{"short", testkit.ShortAxisSet}, {"long", testkit.LongAxisSet}}
	for _, set := range sets {
		for _, n := range []int{300, 2000} {
			r := rand.New(rand.NewPCG(uint64(n), 73))
			b, moving := set.make(r, n), set.make(r, n/3)
			wantAll, wantBetween := bruteAll(b), bruteBetween(moving, b)
			// Pairs of two boxes of the set's kind (even indices) that the
			// bounds must keep: apart for short axes, far apart for long.
			apart := 0
			for _, p := range wantAll {
				d := b.At(int(p.J)).Center.Sub(b.At(int(p.I)).Center)
				if p.I%2 == 0 && p.J%2 == 0 && (set.name == "short" && d != obb.Vec2{} || set.name == "long" && d.Dot(d) > 0x1p100) {
					apart++
				}
			}
			if apart < n/20 {
				t.Fatalf("%s n=%d: %d pairs of two of its axes apart: the set does not test their bounds", set.name, n, apart)
			}
			testkit.EachImpl(func(impl string) {
				for _, workers := range []int{1, 2} {
					f := pairs.Finder{Workers: workers}
					if got := f.All(nil, b); !slices.Equal(got, wantAll) {
						t.Errorf("%s n=%d %s workers=%d: All found %d pairs, brute force %d", set.name, n, impl, workers, len(got), len(wantAll))
					}
					if k := pairs.ScalarTested(&f, false); set.name == "short" && k != 0 {
						t.Errorf("%s n=%d %s: All sent %d boxes to the scalar test", set.name, n, impl, k)
					}
					if got := f.Between(nil, moving, b); !slices.Equal(got, wantBetween) {
						t.Errorf("%s n=%d %s workers=%d: Between found %d pairs, brute force %d", set.name, n, impl, workers, len(got), len(wantBetween))
					}
				}
			})
		}
	}
}
