// Package scene generates boxes for tests, benchmarks and the demo command:
// pairs that stress the overlap test's rounding, and maps of many boxes.
// Every generator is deterministic for a given *rand.Rand.
package scene

import (
	"math"
	"math/rand/v2"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// Pair is two boxes to test against each other.
type Pair struct{ A, B obb.Box }

// Generator makes one pair.
type Generator struct {
	Name string
	// Exact is true when every float32 operation of the overlap test is exact
	// for the pairs it makes, so the float32 answer must equal the exact one
	// even on touching pairs.
	Exact bool
	Make  func(r *rand.Rand) Pair
}

// Generators lists the pair generators the oracle tests run.
var Generators = []Generator{
	{Name: "random", Make: random},
	{Name: "near-touching", Make: func(r *rand.Rand) Pair { return touching(r, box(r, 100, 0.1, 30), angle(r), 4) }},
	{Name: "parallel", Make: func(r *rand.Rand) Pair { return turned(r, 0) }},
	{Name: "anti-parallel", Make: func(r *rand.Rand) Pair { return turned(r, math.Pi) }},
	{Name: "perpendicular", Make: func(r *rand.Rand) Pair { return turned(r, math.Pi/2) }},
	{Name: "corner-to-corner", Make: cornerToCorner},
	{Name: "containment", Make: containment},
	{Name: "identical", Make: func(r *rand.Rand) Pair { a := box(r, 100, 0.1, 30); return Pair{a, a} }},
	{Name: "zero-size", Make: zeroSize},
	{Name: "tiny", Make: tiny},
	{Name: "far-from-origin", Make: far},
	{Name: "integer-grid", Exact: true, Make: integerGrid},
}

func angle(r *rand.Rand) float64 { return (r.Float64()*2 - 1) * math.Pi }

func uniform(r *rand.Rand, lo, hi float64) float64 { return lo + r.Float64()*(hi-lo) }

// box returns a box centered within ±spread with side lengths in [lo, hi].
func box(r *rand.Rand, spread, lo, hi float64) obb.Box {
	c := obb.Vec2{X: float32(uniform(r, -spread, spread)), Y: float32(uniform(r, -spread, spread))}
	return obb.New(c, float32(uniform(r, lo, hi)), float32(uniform(r, lo, hi)), angle(r))
}

func random(r *rand.Rand) Pair { return Pair{box(r, 40, 0.1, 30), box(r, 40, 0.1, 30)} }

// Nudge moves v by up to k float32 steps either way, the number drawn from r.
func Nudge(r *rand.Rand, v float32, k int) float32 {
	for i := r.IntN(2*k+1) - k; i != 0; {
		if i > 0 {
			v = math.Nextafter32(v, float32(math.Inf(1)))
			i--
		} else {
			v = math.Nextafter32(v, float32(math.Inf(-1)))
			i++
		}
	}
	return v
}

// touching places a box with angle theta against a so that, in exact
// arithmetic on float64 values, they touch along one of the four candidate
// axes, then rounds its center to float32 and nudges it by up to k ulps.
func touching(r *rand.Rand, a obb.Box, theta float64, k int) Pair {
	b := obb.New(obb.Vec2{}, float32(uniform(r, 0.1, 30)), float32(uniform(r, 0.1, 30)), theta)
	return place(r, a, b, k)
}

func place(r *rand.Rand, a, b obb.Box, k int) Pair {
	ua := [2]float64{float64(a.Axis.X), float64(a.Axis.Y)}
	ub := [2]float64{float64(b.Axis.X), float64(b.Axis.Y)}
	axes := [4][2]float64{ua, {-ua[1], ua[0]}, ub, {-ub[1], ub[0]}}
	n := axes[r.IntN(4)]
	ln := math.Hypot(n[0], n[1])
	n[0], n[1] = n[0]/ln, n[1]/ln
	radius := func(x obb.Box, n [2]float64) float64 {
		ux, uy := float64(x.Axis.X), float64(x.Axis.Y)
		return float64(x.Half.X)*math.Abs(ux*n[0]+uy*n[1]) + float64(x.Half.Y)*math.Abs(-uy*n[0]+ux*n[1])
	}
	dist := radius(a, n) + radius(b, n)
	if r.IntN(2) == 0 {
		dist = -dist
	}
	// Slide along the touching line by a random amount so the contact is
	// sometimes edge-to-edge and sometimes corner-to-edge.
	slide := uniform(r, -1, 1) * (float64(a.Half.X+a.Half.Y) + float64(b.Half.X+b.Half.Y)) * 0.5
	cx := float64(a.Center.X) + dist*n[0] - slide*n[1]
	cy := float64(a.Center.Y) + dist*n[1] + slide*n[0]
	b.Center = obb.Vec2{X: Nudge(r, float32(cx), k), Y: Nudge(r, float32(cy), k)}
	if r.IntN(2) == 0 {
		return Pair{b, a}
	}
	return Pair{a, b}
}

// turned makes a pair whose axes differ by delta radians, plus or minus a
// float32 step or two, touching on one axis.
func turned(r *rand.Rand, delta float64) Pair {
	a := box(r, 100, 0.1, 30)
	b := obb.New(obb.Vec2{}, float32(uniform(r, 0.1, 30)), float32(uniform(r, 0.1, 30)), a.Angle()+delta)
	b.Axis = obb.Vec2{X: Nudge(r, b.Axis.X, 2), Y: Nudge(r, b.Axis.Y, 2)}
	return place(r, a, b, 4)
}

func cornerToCorner(r *rand.Rand) Pair {
	a := box(r, 100, 0.1, 30)
	b := obb.New(obb.Vec2{}, float32(uniform(r, 0.1, 30)), float32(uniform(r, 0.1, 30)), angle(r))
	ca, cb := a.Corners(), b.Corners()
	i, j := r.IntN(4), r.IntN(4)
	// Put b's corner j on a's corner i (b is centered at the origin now).
	cx := float64(ca[i].X) - float64(cb[j].X)
	cy := float64(ca[i].Y) - float64(cb[j].Y)
	b.Center = obb.Vec2{X: Nudge(r, float32(cx), 4), Y: Nudge(r, float32(cy), 4)}
	return Pair{a, b}
}

func containment(r *rand.Rand) Pair {
	a := box(r, 100, 1, 30)
	m := math.Min(float64(a.Half.X), float64(a.Half.Y))
	// A box of diagonal below m/2 centered within m/2 of a's center lies inside a.
	side := uniform(r, 0, m/3)
	b := obb.New(obb.Vec2{}, float32(side), float32(side), angle(r))
	off := uniform(r, 0, m/2-side)
	t := angle(r)
	b.Center = obb.Vec2{X: a.Center.X + float32(off*math.Cos(t)), Y: a.Center.Y + float32(off*math.Sin(t))}
	if r.IntN(2) == 0 {
		return Pair{b, a}
	}
	return Pair{a, b}
}

func zeroSize(r *rand.Rand) Pair {
	a := box(r, 100, 0.1, 30)
	b := obb.New(obb.Vec2{}, float32(uniform(r, 0.1, 30)), float32(uniform(r, 0.1, 30)), angle(r))
	switch r.IntN(4) {
	case 0:
		b.Half.X = 0
	case 1:
		b.Half.Y = 0
	case 2:
		b.Half = obb.Vec2{}
	default:
		b.Half, a.Half = obb.Vec2{}, obb.Vec2{X: 0, Y: a.Half.Y}
	}
	return place(r, a, b, 4)
}

func tiny(r *rand.Rand) Pair {
	s := math.Pow(10, uniform(r, -20, -3))
	a := obb.New(obb.Vec2{X: float32(uniform(r, -s, s)), Y: float32(uniform(r, -s, s))},
		float32(uniform(r, 0.01, 1)*s), float32(uniform(r, 0.01, 1)*s), angle(r))
	b := obb.New(obb.Vec2{}, float32(uniform(r, 0.01, 1)*s), float32(uniform(r, 0.01, 1)*s), angle(r))
	return place(r, a, b, 4)
}

func far(r *rand.Rand) Pair {
	a := obb.New(obb.Vec2{X: float32(1e5 + uniform(r, -100, 100)), Y: float32(-1e5 + uniform(r, -100, 100))},
		float32(uniform(r, 0.5, 10)), float32(uniform(r, 0.5, 10)), angle(r))
	b := obb.New(obb.Vec2{}, float32(uniform(r, 0.5, 10)), float32(uniform(r, 0.5, 10)), angle(r))
	return place(r, a, b, 4)
}

// integerGrid makes axis-aligned boxes (axes ±x, ±y) with small integer
// centers and half extents: every operation of the test is exact, and many
// pairs touch exactly.
func integerGrid(r *rand.Rand) Pair {
	axes := [4]obb.Vec2{{X: 1}, {Y: 1}, {X: -1}, {Y: -1}}
	mk := func() obb.Box {
		return obb.Box{
			Center: obb.Vec2{X: float32(r.IntN(13) - 6), Y: float32(r.IntN(13) - 6)},
			Axis:   axes[r.IntN(4)],
			Half:   obb.Vec2{X: float32(r.IntN(5)), Y: float32(r.IntN(5))},
		}
	}
	return Pair{mk(), mk()}
}

// Map fills boxes with n buildings and units scattered over a square world of
// the given side: a mix of axis-aligned buildings on a grid and rotated
// units, a few overlapping as in a real map.
func Map(r *rand.Rand, n int, side float64, boxes *soa.Boxes) {
	boxes.Reset()
	boxes.Grow(n)
	for i := 0; i < n; i++ {
		c := obb.Vec2{X: float32(r.Float64() * side), Y: float32(r.Float64() * side)}
		if r.IntN(3) == 0 {
			boxes.Append(obb.New(c, float32(uniform(r, 0.5, 2)), float32(uniform(r, 0.5, 2)), angle(r)))
			continue
		}
		c = obb.Vec2{X: float32(math.Round(float64(c.X))), Y: float32(math.Round(float64(c.Y)))}
		boxes.Append(obb.New(c, float32(1+r.IntN(4)), float32(1+r.IntN(4)), 0))
	}
}

// MapSide is the side of the square world that Map covers about 15% of with
// n boxes: about 40 area units per box.
func MapSide(n int) float64 { return math.Sqrt(40 * float64(n)) }

// Placement is the benchmarks' building-placement scene: Map's n boxes on a
// world of MapSide(n), seeded by n, and the planned building queried against
// them, in the middle of the world. Most boxes are far from it.
func Placement(n int, boxes *soa.Boxes) (query obb.Box) {
	side := MapSide(n)
	Map(rand.New(rand.NewPCG(uint64(n), 1)), n, side, boxes)
	return obb.New(obb.Vec2{X: float32(side / 2), Y: float32(side / 2)}, 5, 3, 0.4)
}

// Footprint returns a building footprint to place somewhere in the world.
func Footprint(r *rand.Rand, side float64) obb.Box {
	c := obb.Vec2{X: float32(r.Float64() * side), Y: float32(r.Float64() * side)}
	return obb.New(c, float32(uniform(r, 2, 6)), float32(uniform(r, 2, 6)), angle(r))
}

// Hostile lists float32 values that break naive kernels: NaNs with payloads
// and both signs, infinities, signed zeros, subnormals, extremes.
var Hostile = []float32{
	float32(math.NaN()), math.Float32frombits(0x7fc00001), math.Float32frombits(0xffc00000),
	math.Float32frombits(0x7f800001), // signalling NaN
	float32(math.Inf(1)), float32(math.Inf(-1)),
	0, float32(math.Copysign(0, -1)),
	math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 0x1p-127,
	math.MaxFloat32, -math.MaxFloat32, 1, -1, 0.5, 2, 1e-20, 1e20, 3.4e38, 1.5,
}

// Uniform fills boxes with n boxes of sides 0.5 to 3 spread uniformly over a
// square world about 15% covered.
func Uniform(r *rand.Rand, n int, boxes *soa.Boxes) {
	boxes.Reset()
	boxes.Grow(n)
	side := math.Sqrt(40 * float64(n))
	for i := 0; i < n; i++ {
		c := obb.Vec2{X: float32(r.Float64() * side), Y: float32(r.Float64() * side)}
		boxes.Append(obb.New(c, float32(uniform(r, 0.5, 3)), float32(uniform(r, 0.5, 3)), angle(r)))
	}
}

// RTS fills boxes with n boxes laid out like real-time-strategy bases: dense
// clusters of axis-aligned buildings on a grid, packed edge to edge, with
// rotated units milling around them.
func RTS(r *rand.Rand, n int, boxes *soa.Boxes) {
	boxes.Reset()
	boxes.Grow(n)
	bases := max(1, n/400)
	world := math.Sqrt(float64(bases)) * 120
	for boxes.Len() < n {
		bx, by := math.Round(r.Float64()*world), math.Round(r.Float64()*world)
		for k := 0; k < 400 && boxes.Len() < n; k++ {
			if k%3 == 0 {
				// A unit: small, rotated, anywhere in the base.
				c := obb.Vec2{X: float32(bx + r.NormFloat64()*15), Y: float32(by + r.NormFloat64()*15)}
				boxes.Append(obb.New(c, float32(uniform(r, 0.4, 1)), float32(uniform(r, 0.4, 1)), angle(r)))
				continue
			}
			// A building on the base's grid of 4x4 cells; neighbours touch.
			gx, gy := float64(r.IntN(10)-5)*4, float64(r.IntN(10)-5)*4
			w := float32(4 * (1 + r.IntN(2)))
			c := obb.Vec2{X: float32(bx+gx) + w/2, Y: float32(by+gy) + 2}
			boxes.Append(obb.New(c, w, 4, 0))
		}
	}
}

// Pile fills boxes with n boxes that all overlap one another.
func Pile(r *rand.Rand, n int, boxes *soa.Boxes) {
	boxes.Reset()
	boxes.Grow(n)
	for i := 0; i < n; i++ {
		c := obb.Vec2{X: float32(r.Float64()), Y: float32(r.Float64())}
		boxes.Append(obb.New(c, float32(uniform(r, 3, 5)), float32(uniform(r, 3, 5)), angle(r)))
	}
}
