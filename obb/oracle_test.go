package obb_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit/exact"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
)

// casesPerGenerator is how many pairs each generator makes against the exact
// oracle; -short runs a tenth.
func casesPerGenerator() int {
	if testing.Short() {
		return 500
	}
	return 5000
}

type tally struct {
	cases, overlaps, inBand, wrong int
	worst                          float64 // largest |margin|/band among the in-band disagreements
}

// compare runs overlaps against the oracle on one generator's pairs. A
// disagreement on a pair outside the rounding band is reported through fail.
func compare(gen scene.Generator, seed uint64, n int, overlaps func(a, b obb.Box) bool, fail func(p scene.Pair, got bool, v exact.Verdict)) tally {
	r := rand.New(rand.NewPCG(seed, 0x0bb2d))
	var t tally
	for i := 0; i < n; i++ {
		p := gen.Make(r)
		if !exact.Applies(p.A, p.B) {
			continue
		}
		t.cases++
		got := overlaps(p.A, p.B)
		v := exact.Decide(p.A, p.B)
		if v.Overlap {
			t.overlaps++
		}
		if got == v.Overlap {
			continue
		}
		if v.NearTouch() && !gen.Exact {
			t.inBand++
			t.worst = math.Max(t.worst, closest(v))
			continue
		}
		t.wrong++
		fail(p, got, v)
	}
	return t
}

func TestOverlapsAgainstExactOracle(t *testing.T) {
	n := casesPerGenerator()
	total := tally{}
	for gi, gen := range scene.Generators {
		t.Run(gen.Name, func(t *testing.T) {
			res := compare(gen, uint64(gi)+1, n, obb.Box.Overlaps, func(p scene.Pair, got bool, v exact.Verdict) {
				t.Errorf("Overlaps(%+v, %+v) = %v, exact %v; margins %s, band %s",
					p.A, p.B, got, v.Overlap, margins(v), v.Band.FloatString(12))
			})
			t.Logf("%d cases, %d overlapping, %d decided differently within the band (closest margin at most %.3f of the band)",
				res.cases, res.overlaps, res.inBand, res.worst)
			if res.cases < n*9/10 {
				t.Errorf("only %d of %d generated pairs were in the oracle's domain", res.cases, n)
			}
			// A generator that makes only overlapping or only disjoint pairs
			// would not test the boundary.
			if gen.Name != "containment" && gen.Name != "identical" && (res.overlaps == 0 || res.overlaps == res.cases) {
				t.Errorf("generator %s made %d overlapping of %d: not a boundary test", gen.Name, res.overlaps, res.cases)
			}
			total.cases += res.cases
			total.inBand += res.inBand
		})
	}
	t.Logf("oracle: %d pairs over %d generators, %d within-band disagreements", total.cases, len(scene.Generators), total.inBand)
}

// closest returns the smallest |margin|/band over the four axes.
func closest(v exact.Verdict) float64 {
	best := math.Inf(1)
	for _, m := range v.Margin {
		ratio, _ := new(big.Rat).Quo(new(big.Rat).Abs(m), v.Band).Float64()
		best = math.Min(best, ratio)
	}
	return best
}

func margins(v exact.Verdict) string {
	s := ""
	for _, m := range v.Margin {
		f, _ := m.Float64()
		s += " " + big.NewFloat(f).Text('g', 6)
	}
	return s
}

// TestOracleCatchesWrongTests proves the harness can fail: tests with the
// classic mistakes (a strict comparison, a missing axis, the XNA seed's
// epsilon-widened radii) must be caught outside the band.
func TestOracleCatchesWrongTests(t *testing.T) {
	wrong := map[string]func(a, b obb.Box) bool{
		// Touching boxes reported disjoint, as a test with p < r would.
		"strict <": func(a, b obb.Box) bool { return shrink(a).Overlaps(shrink(b)) },
		// The one-way test the flipcode article warns about.
		"only a's axes": onlyFirstAxes,
		"radii widened by 1e-3": func(a, b obb.Box) bool {
			w := b
			w.Half = obb.Vec2{X: b.Half.X + 1e-3, Y: b.Half.Y + 1e-3}
			return a.Overlaps(w)
		},
	}
	for name, f := range wrong {
		caught := 0
		for gi, gen := range scene.Generators {
			res := compare(gen, uint64(gi)+100, 400, f, func(scene.Pair, bool, exact.Verdict) {})
			caught += res.wrong
		}
		if caught == 0 {
			t.Errorf("the oracle comparison did not catch %q", name)
		} else {
			t.Logf("%q: %d wrong answers caught", name, caught)
		}
	}
}

// shrink makes the box one float32 step smaller on each side.
func shrink(x obb.Box) obb.Box {
	x.Half = obb.Vec2{X: math.Nextafter32(x.Half.X, -1), Y: math.Nextafter32(x.Half.Y, -1)}
	return x
}

// onlyFirstAxes is the one-way test the flipcode article warns about: it
// checks a's two axes only.
func onlyFirstAxes(a, b obb.Box) bool {
	dx := float64(b.Center.X - a.Center.X)
	dy := float64(b.Center.Y - a.Center.Y)
	c := math.Abs(float64(a.Axis.X*b.Axis.X + a.Axis.Y*b.Axis.Y))
	s := math.Abs(float64(a.Axis.X*b.Axis.Y - a.Axis.Y*b.Axis.X))
	p1 := math.Abs(dx*float64(a.Axis.X) + dy*float64(a.Axis.Y))
	p2 := math.Abs(dy*float64(a.Axis.X) - dx*float64(a.Axis.Y))
	return p1 <= float64(a.Half.X)+float64(b.Half.X)*c+float64(b.Half.Y)*s &&
		p2 <= float64(a.Half.Y)+float64(b.Half.X)*s+float64(b.Half.Y)*c
}

func TestSymmetry(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	check := func(a, b obb.Box) {
		if a.Overlaps(b) != b.Overlaps(a) {
			t.Fatalf("asymmetric: a.Overlaps(b) = %v, b.Overlaps(a) = %v for %+v, %+v", a.Overlaps(b), b.Overlaps(a), a, b)
		}
	}
	for _, gen := range scene.Generators {
		for i := 0; i < 2000; i++ {
			p := gen.Make(r)
			check(p.A, p.B)
		}
	}
	// Hostile values in every field of both boxes.
	for i := 0; i < 20000; i++ {
		p := scene.Generators[0].Make(r)
		fa, fb := fields(&p.A), fields(&p.B)
		*fa[r.IntN(6)] = scene.Hostile[r.IntN(len(scene.Hostile))]
		*fb[r.IntN(6)] = scene.Hostile[r.IntN(len(scene.Hostile))]
		check(p.A, p.B)
	}
}

func fields(b *obb.Box) [6]*float32 {
	return [6]*float32{&b.Center.X, &b.Center.Y, &b.Axis.X, &b.Axis.Y, &b.Half.X, &b.Half.Y}
}

func TestNaNOverlapsNothing(t *testing.T) {
	base := obb.New(obb.Vec2{}, 4, 2, 0.3)
	for _, nan := range scene.Hostile[:4] {
		for f := 0; f < 6; f++ {
			b := base
			*fields(&b)[f] = nan
			if b.Overlaps(base) || base.Overlaps(b) || b.Overlaps(b) {
				t.Errorf("box with NaN (%#x) in field %d overlaps", math.Float32bits(nan), f)
			}
		}
	}
}

func FuzzOverlaps(f *testing.F) {
	for _, c := range loadGolden(f) {
		f.Add(c.A.Center.X, c.A.Center.Y, c.A.Axis.X, c.A.Axis.Y, c.A.Half.X, c.A.Half.Y,
			c.B.Center.X, c.B.Center.Y, c.B.Axis.X, c.B.Axis.Y, c.B.Half.X, c.B.Half.Y)
	}
	f.Fuzz(func(t *testing.T, acx, acy, aux, auy, ahx, ahy, bcx, bcy, bux, buy, bhx, bhy float32) {
		a := obb.Box{Center: obb.Vec2{X: acx, Y: acy}, Axis: obb.Vec2{X: aux, Y: auy}, Half: obb.Vec2{X: ahx, Y: ahy}}
		b := obb.Box{Center: obb.Vec2{X: bcx, Y: bcy}, Axis: obb.Vec2{X: bux, Y: buy}, Half: obb.Vec2{X: bhx, Y: bhy}}
		got := a.Overlaps(b)
		if got != b.Overlaps(a) {
			t.Fatalf("asymmetric for %+v, %+v", a, b)
		}
		// The oracle's band assumes unit axes and no overflow: check the pairs
		// Validate accepts, at magnitudes where float32 sums cannot overflow.
		if a.Validate() != nil || b.Validate() != nil || !moderate(a) || !moderate(b) {
			return
		}
		if v := exact.Decide(a, b); got != v.Overlap && !v.NearTouch() {
			t.Fatalf("Overlaps(%+v, %+v) = %v, exact %v outside the band", a, b, got, v.Overlap)
		}
	})
}

func moderate(b obb.Box) bool {
	for _, v := range [...]float32{b.Center.X, b.Center.Y, b.Half.X, b.Half.Y} {
		if math.Abs(float64(v)) > 1e30 {
			return false
		}
	}
	return true
}
