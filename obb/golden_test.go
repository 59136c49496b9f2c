package obb_test

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit/exact"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt from the trap cases and the exact oracle")

var goldenPath = filepath.Join("..", "testdata", "golden.txt")

const goldenHeader = `Regression cases for the seed articles' traps. Written by
go test ./obb -run TestGolden -update; the last column is the exact oracle's
answer (math/big.Rat on the float32 fields), never a float32 implementation's.
Format: name a.cx a.cy a.ux a.uy a.hx a.hy b.cx b.cy b.ux b.uy b.hx b.hy overlap`

func aligned(cx, cy, ux, uy, hx, hy float32) obb.Box {
	return obb.Box{Center: obb.Vec2{X: cx, Y: cy}, Axis: obb.Vec2{X: ux, Y: uy}, Half: obb.Vec2{X: hx, Y: hy}}
}

func up(v float32) float32 { return math.Nextafter32(v, float32(math.Inf(1))) }

const degree = math.Pi / 180

// trapCases builds the golden pairs; their expected answers come from the
// oracle when the file is written.
func trapCases() []scene.Case {
	big := obb.New(obb.Vec2{}, 50, 100, 0.3)
	para := obb.New(obb.Vec2{}, 200, 100, 0.7)
	gap := 200 + 1e-3 // centers 200.001 apart along the shared axis: a gap of 1e-3
	paraB := para.MovedTo(obb.Vec2{X: float32(gap * float64(para.Axis.X)), Y: float32(gap * float64(para.Axis.Y))})
	cases := []scene.Case{
		{Name: "containment-rotated", A: obb.New(obb.Vec2{}, 40, 20, 0.5), B: obb.New(obb.Vec2{X: 3, Y: 1}, 4, 2, 2)},
		{Name: "containment-in-aabb", A: obb.FromMinMax(obb.Vec2{X: -10, Y: -10}, obb.Vec2{X: 10, Y: 10}), B: obb.New(obb.Vec2{X: 9, Y: 9}, 0.5, 0.5, 0.7)},
		{Name: "identical-rotated", A: obb.New(obb.Vec2{X: 5, Y: -3}, 7, 3, 1.1), B: obb.New(obb.Vec2{X: 5, Y: -3}, 7, 3, 1.1)},
		{Name: "identical-points", A: aligned(1, 2, 1, 0, 0, 0), B: aligned(1, 2, 1, 0, 0, 0)},
		// The demo of the Chinese write-up: 50x100 boxes, the rotating one at
		// "angle 10" (radians, as its code passes it to cos and sin).
		{Name: "cn-demo-start", A: obb.New(obb.Vec2{X: 100, Y: 100}, 50, 100, 10), B: obb.New(obb.Vec2{X: 50, Y: 50}, 50, 100, 0)},
		// Normalisation: an axis scaled by 1/|e| instead of 1/|e|² makes the
		// projected interval [o, o+1] far too short for 50x100 boxes.
		{Name: "normalisation-overlapping", A: big, B: obb.New(obb.Vec2{X: 30, Y: 10}, 50, 100, 0.5)},
		{Name: "normalisation-disjoint", A: big, B: obb.New(obb.Vec2{X: 200}, 50, 100, 1)},
		// AS3: the OBB-vs-AABB shortcut forgets to turn degrees into radians.
		{Name: "as3-degrees-30", A: obb.New(obb.Vec2{}, 10, 2, 30*degree), B: obb.FromMinMax(obb.Vec2{X: 4, Y: 3}, obb.Vec2{X: 5, Y: 4})},
		// XNA: an epsilon added to |cos| and |sin| "for parallel edges" makes
		// parallel boxes 1e-3 apart overlap.
		{Name: "parallel-gap-1e-3", A: para, B: paraB},
		{Name: "parallel-touching", A: aligned(0, 0, 1, 0, 2, 1), B: aligned(4, 0.5, 1, 0, 2, 1)},
		{Name: "parallel-one-ulp-apart", A: aligned(0, 0, 1, 0, 2, 1), B: aligned(up(4), 0.5, 1, 0, 2, 1)},
		{Name: "antiparallel-touching", A: aligned(0, 0, 1, 0, 2, 1), B: aligned(4, -0.5, -1, 0, 2, 1)},
		{Name: "perpendicular-touching", A: aligned(0, 0, 1, 0, 3, 1), B: aligned(4, 0, 0, 1, 2, 1)},
		{Name: "corner-to-corner", A: aligned(0, 0, 1, 0, 1, 1), B: aligned(2, 2, 1, 0, 1, 1)},
		{Name: "corner-to-corner-apart", A: aligned(0, 0, 1, 0, 1, 1), B: aligned(2, up(2), 1, 0, 1, 1)},
		{Name: "point-on-edge", A: aligned(0, 0, 1, 0, 2, 1), B: aligned(2, 0.5, 1, 0, 0, 0)},
		{Name: "point-off-edge", A: aligned(0, 0, 1, 0, 2, 1), B: aligned(up(2), 0.5, 1, 0, 0, 0)},
		{Name: "segments-crossing", A: obb.New(obb.Vec2{}, 10, 0, 0.5), B: obb.New(obb.Vec2{}, 10, 0, -0.5)},
		// Bounds overlap, the boxes do not: an AABB-only test says yes.
		{Name: "diamond-near-corner", A: aligned(0, 0, 1, 0, 1, 1), B: obb.New(obb.Vec2{X: 2.2, Y: 2.2}, 2, 2, 45*degree)},
	}
	for i := range cases {
		cases[i].Overlap = exact.Decide(cases[i].A, cases[i].B).Overlap
	}
	return cases
}

func loadGolden(tb testing.TB) []scene.Case {
	f, err := os.Open(goldenPath)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	cases, err := scene.ReadGolden(f)
	if err != nil {
		tb.Fatal(err)
	}
	if len(cases) == 0 {
		tb.Fatal("no golden cases")
	}
	return cases
}

func TestGolden(t *testing.T) {
	if *update {
		var buf bytes.Buffer
		if err := scene.WriteGolden(&buf, goldenHeader, trapCases()); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenPath, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := loadGolden(t)
	if want := len(trapCases()); len(cases) != want {
		t.Fatalf("golden file has %d cases, the trap list %d: run with -update", len(cases), want)
	}
	for _, c := range cases {
		v := exact.Decide(c.A, c.B)
		if v.Overlap != c.Overlap {
			t.Errorf("%s: file says %v, exact oracle %v", c.Name, c.Overlap, v.Overlap)
		}
		if v.NearTouch() && (c.A.Axis.X != 1 && c.A.Axis.X != 0 && c.A.Axis.X != -1) {
			t.Errorf("%s: within the rounding band of touching and not exact: not a fair regression case", c.Name)
		}
		if got := c.A.Overlaps(c.B); got != c.Overlap {
			t.Errorf("%s: Overlaps = %v, want %v", c.Name, got, c.Overlap)
		}
		if got := c.B.Overlaps(c.A); got != c.Overlap {
			t.Errorf("%s: reversed Overlaps = %v, want %v", c.Name, got, c.Overlap)
		}
	}
}

// TestGoldenTrapsBite checks that each trap catches the mistake it is named
// for, so the golden file cannot silently stop testing anything.
func TestGoldenTrapsBite(t *testing.T) {
	byName := map[string]scene.Case{}
	for _, c := range loadGolden(t) {
		byName[c.Name] = c
	}
	need := func(name string) scene.Case {
		c, ok := byName[name]
		if !ok {
			t.Fatalf("golden case %s missing", name)
		}
		return c
	}
	// Degrees passed where radians are expected.
	c := need("as3-degrees-30")
	if obb.New(obb.Vec2{}, 10, 2, 30).Overlaps(c.B) == c.Overlap {
		t.Error("as3-degrees-30 does not tell degrees from radians")
	}
	// Unit axes with the [o, o+1] interval of scaled axes.
	c = need("normalisation-overlapping")
	if projectedUnitInterval(c.A, c.B) == c.Overlap {
		t.Error("normalisation-overlapping does not catch the 1/|e| axis scaling")
	}
	// Epsilon-widened |cos|, |sin|.
	c = need("parallel-gap-1e-3")
	if xnaEpsilon(c.A, c.B) == c.Overlap {
		t.Error("parallel-gap-1e-3 does not catch the epsilon-widened radii")
	}
	// Strict comparisons.
	for _, name := range []string{"parallel-touching", "corner-to-corner", "point-on-edge"} {
		c = need(name)
		if !c.Overlap || shrink(c.A).Overlaps(shrink(c.B)) {
			t.Errorf("%s does not tell touching from apart", name)
		}
	}
	// Bounds-only tests.
	c = need("diamond-near-corner")
	amin, amax := c.A.Bounds()
	bmin, bmax := c.B.Bounds()
	if c.Overlap || !(amin.X <= bmax.X && bmin.X <= amax.X && amin.Y <= bmax.Y && bmin.Y <= amax.Y) {
		t.Error("diamond-near-corner is not a case where bounds overlap and boxes do not")
	}
}

// projectedUnitInterval is the corner-projection test of the flipcode seed
// with the axes normalised to unit length but still tested against [o, o+1],
// the mistake its "fixed" versions argue about. Written here in float64.
func projectedUnitInterval(a, b obb.Box) bool {
	oneWay := func(a, b obb.Box) bool {
		ca, cb := a.Corners(), b.Corners()
		for _, e := range [2][2]int{{1, 0}, {3, 0}} {
			ax, ay := float64(ca[e[0]].X-ca[e[1]].X), float64(ca[e[0]].Y-ca[e[1]].Y)
			l := math.Hypot(ax, ay)
			ax, ay = ax/l, ay/l
			origin := float64(ca[0].X)*ax + float64(ca[0].Y)*ay
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, p := range cb {
				t := float64(p.X)*ax + float64(p.Y)*ay
				lo, hi = math.Min(lo, t), math.Max(hi, t)
			}
			if lo > origin+1 || hi < origin {
				return false
			}
		}
		return true
	}
	return oneWay(a, b) && oneWay(b, a)
}

// xnaEpsilon is the XNA seed's form: |R| widened by 1e-5 before the radii.
func xnaEpsilon(a, b obb.Box) bool {
	const eps = 1e-5
	dx, dy := float64(b.Center.X-a.Center.X), float64(b.Center.Y-a.Center.Y)
	ua := [2][2]float64{{float64(a.Axis.X), float64(a.Axis.Y)}, {-float64(a.Axis.Y), float64(a.Axis.X)}}
	ub := [2][2]float64{{float64(b.Axis.X), float64(b.Axis.Y)}, {-float64(b.Axis.Y), float64(b.Axis.X)}}
	ha := [2]float64{float64(a.Half.X), float64(a.Half.Y)}
	hb := [2]float64{float64(b.Half.X), float64(b.Half.Y)}
	var r, ar [2][2]float64
	for i := 0; i < 2; i++ {
		for j := 0; j < 2; j++ {
			r[i][j] = ua[i][0]*ub[j][0] + ua[i][1]*ub[j][1]
			ar[i][j] = math.Abs(r[i][j]) + eps
		}
	}
	t := [2]float64{dx*ua[0][0] + dy*ua[0][1], dx*ua[1][0] + dy*ua[1][1]}
	for i := 0; i < 2; i++ {
		if math.Abs(t[i]) > ha[i]+hb[0]*ar[i][0]+hb[1]*ar[i][1] {
			return false
		}
	}
	for i := 0; i < 2; i++ {
		if math.Abs(t[0]*r[0][i]+t[1]*r[1][i]) > hb[i]+ha[0]*ar[0][i]+ha[1]*ar[1][i] {
			return false
		}
	}
	return true
}
