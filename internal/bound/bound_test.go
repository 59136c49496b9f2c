package bound_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/internal/bound"
	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
)

// TestReach checks that Reach, when it answers, bounds the distance from
// the center to each of Box's bounds on that bound's coordinate, answers
// only for valid boxes whose bounds are finite, and answers for every valid
// box whose bounds are well inside the float32 range: on hostile boxes, on
// axes either side of Valid's tolerance, and on random boxes moved out and
// grown towards the float32 limit, where Reach must give up first.
func TestReach(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 11))
	set := testkit.HostileSet(r, 20000)
	answered := 0
	for i := range set.Len() {
		b := set.At(i)
		switch i % 4 {
		case 1: // far out: |c| up to 2¹²⁸
			s := float32(math.Ldexp(1, r.IntN(128)))
			b.Center = obb.Vec2{X: b.Center.X * s, Y: b.Center.Y * s}
		case 2: // large: extents up to 2¹²⁸
			s := float32(math.Ldexp(1, r.IntN(128)))
			b.Half = obb.Vec2{X: b.Half.X * s, Y: b.Half.Y * s}
		case 3: // small
			s := float32(math.Ldexp(1, -r.IntN(150)))
			b.Half = obb.Vec2{X: b.Half.X * s, Y: b.Half.Y * s}
		}
		rx, ry, ok := bound.Reach(b)
		if ok && !b.Valid() {
			t.Fatalf("Reach(%v) answers for a box that is not valid", b)
		}
		lo, hi, finite := bound.Box(b)
		if !ok {
			// A valid box well inside the range must be answered.
			far := max(f32.Abs(lo.X), f32.Abs(hi.X), f32.Abs(lo.Y), f32.Abs(hi.Y))
			if b.Valid() && finite && far < 0x1p120 {
				t.Fatalf("Reach(%v) does not answer for a valid box with bounds %v, %v", b, lo, hi)
			}
			continue
		}
		answered++
		if !finite {
			t.Fatalf("Reach(%v) = %g, %g, true, but Box's bounds %v, %v are not finite", b, rx, ry, lo, hi)
		}
		for _, d := range []struct{ d, r float64 }{
			{float64(b.Center.X) - float64(lo.X), rx}, {float64(hi.X) - float64(b.Center.X), rx},
			{float64(b.Center.Y) - float64(lo.Y), ry}, {float64(hi.Y) - float64(b.Center.Y), ry},
		} {
			if !(d.d <= d.r) {
				t.Fatalf("Reach(%v) = %g, %g: %g is below the distance %g to Box's bounds %v, %v", b, rx, ry, d.r, d.d, lo, hi)
			}
		}
	}
	// Axes of squared length on either side of Valid's tolerance.
	for k := -40; k <= 40; k++ {
		l := math.Sqrt(1 + float64(k)*0.5e-6)
		b := obb.Box{Center: obb.Vec2{X: 3, Y: -2}, Axis: obb.Vec2{X: float32(0.6 * l), Y: float32(0.8 * l)}, Half: obb.Vec2{X: 1, Y: 2}}
		if _, _, ok := bound.Reach(b); ok != b.Valid() {
			t.Fatalf("Reach(%v) answers %v, Valid says %v", b, ok, b.Valid())
		}
	}
	// Most of the boxes are valid, and all but the farthest and largest of
	// those are answered.
	if answered < set.Len()/3 {
		t.Fatalf("Reach answered %d of %d boxes", answered, set.Len())
	}
}

// TestBoxIsAlong checks that Box gives, bit for bit, Along's bounds on x
// and on y, a NaN where Along has a NaN of any bits (no caller reads a
// NaN's bits, which differ between processors), and reports whether all
// four are finite: on hostile boxes (a NaN, an infinity, a signed zero, a
// subnormal or a huge value in one field), on every field of a valid box
// set in turn to each hostile value, ±MaxFloat32 and +Inf, and on axes of
// squared length either side of Valid's tolerance.
func TestBoxIsAlong(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 19))
	set := testkit.HostileSet(r, 20000)
	var boxes []obb.Box
	for i := range set.Len() {
		boxes = append(boxes, set.At(i))
	}
	base := obb.Box{Center: obb.Vec2{X: 3, Y: -2}, Axis: obb.Vec2{X: 0.6, Y: 0.8}, Half: obb.Vec2{X: 1, Y: 2}}
	for _, v := range append(slices.Clone(scene.Hostile), math.MaxFloat32, -math.MaxFloat32, float32(math.Inf(1))) {
		for f := range 6 {
			b := base
			*[]*float32{&b.Center.X, &b.Center.Y, &b.Axis.X, &b.Axis.Y, &b.Half.X, &b.Half.Y}[f] = v
			boxes = append(boxes, b)
		}
	}
	for k := -40; k <= 40; k++ {
		l := math.Sqrt(1 + float64(k)*0.5e-6)
		b := base
		b.Axis = obb.Vec2{X: float32(0.6 * l), Y: float32(0.8 * l)}
		boxes = append(boxes, b)
	}
	same := func(a, b obb.Vec2) bool {
		eq := func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) || x != x && y != y }
		return eq(a.X, b.X) && eq(a.Y, b.Y)
	}
	valid := 0
	for _, b := range boxes {
		var lo, hi obb.Vec2
		lo.X, hi.X = bound.Along(b, false)
		lo.Y, hi.Y = bound.Along(b, true)
		finite := f32.Finite(lo.X) && f32.Finite(hi.X) && f32.Finite(lo.Y) && f32.Finite(hi.Y)
		glo, ghi, ok := bound.Box(b)
		if !same(glo, lo) || !same(ghi, hi) || ok != finite {
			t.Fatalf("Box(%v) = %v, %v, %v; Along gives %v, %v, finite %v", b, glo, ghi, ok, lo, hi, finite)
		}
		if b.Valid() {
			valid++
		}
	}
	if valid < len(boxes)/3 || valid == len(boxes) {
		t.Fatalf("%d of %d boxes valid: the set does not try both of Box's ways", valid, len(boxes))
	}
}

// TestAlongKeepsOverlaps checks that Along's intervals of two boxes
// overlap on each coordinate whenever obb.Box.Overlaps says the boxes
// overlap, and hold every point obb.Box.ContainsPoint says a box contains,
// where the test's rounding is not relative. Short axes: lengths of 2⁻¹⁴⁹
// to 2⁶, half extents up to a few units, the second center within a few
// units of the first or within a few units over the axis's length; there
// products underflow, and two boxes whose every product rounds to zero
// overlap wherever they are within half a unit over the axis's length of
// each other. Long axes: lengths of 1 to 2⁸⁰, half extents up to 2⁷⁰,
// centers up to 2¹²⁰ apart; there the radii can overflow to +Inf, which
// every finite projection and +Inf itself pass. Huge boxes: unit axes,
// half extents of 2¹²⁰ to 2¹²⁸, centers 2¹²⁵ to 2¹²⁹ apart either side of
// the origin, often along the first box's axis, the second box often of
// the same axis: there the radius of valid boxes overflows. In each, one
// axis in four has a zero component and one in four a subnormal one, and
// one box in three a zero Half.X.
func TestAlongKeepsOverlaps(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 23))
	type family struct {
		name     string
		axis     func() float64 // the axis's length
		half     func() float32
		distance func(l float64) float64
		least    int // overlapping pairs the draw must reach
		far      float64
		leastFar int // of them, more than far apart
		// aligned: the centers either side of the origin, and one time in
		// two the second box's axis the first's, one in two the offset
		// along the first's axis, where a radius that overflows decides.
		aligned bool
	}
	families := []family{
		{"short", func() float64 { return math.Ldexp(1, -149+r.IntN(156)) },
			func() float32 { return float32(r.Float64() * 4) },
			func(l float64) float64 {
				d := r.Float64() * 4
				if r.IntN(2) == 0 {
					d /= l
				}
				return d
			}, 10000, 0.1, 1000, false},
		{"long", func() float64 { return math.Ldexp(1+r.Float64(), r.IntN(80)) },
			func() float32 { return float32(math.Ldexp(r.Float64(), r.IntN(80)-10)) },
			func(float64) float64 { return math.Ldexp(r.Float64(), r.IntN(121)) }, 10000, 0x1p100, 100, false},
		{"huge", func() float64 { return 1 },
			func() float32 { return float32(math.Ldexp(1+r.Float64(), 120+r.IntN(8))) },
			func(float64) float64 { return math.Ldexp(1+r.Float64(), 125+r.IntN(4)) }, 10000, 0x1p120, 100, true},
	}
	// An interval that is not finite (a zero axis's) leaves nothing out:
	// the sweep and the grid test such a box against every box.
	finite := func(v ...float32) bool {
		for _, x := range v {
			if !f32.Finite(x) {
				return false
			}
		}
		return true
	}
	inside := func(b obb.Box, p obb.Vec2) bool {
		lx, hx := bound.Along(b, false)
		ly, hy := bound.Along(b, true)
		return !finite(lx, hx, ly, hy) || lx <= p.X && p.X <= hx && ly <= p.Y && p.Y <= hy
	}
	for _, fm := range families {
		box := func(c obb.Vec2) obb.Box {
			u := obb.FromHalf(obb.Vec2{}, obb.Vec2{}, r.Float64()*2*math.Pi).Axis.Scale(float32(fm.axis()))
			switch r.IntN(4) {
			case 0:
				u.X = 0
			case 1:
				u.Y = math.Float32frombits(uint32(1 + r.IntN(8)))
			}
			h := obb.Vec2{X: fm.half(), Y: fm.half()}
			if r.IntN(3) == 0 {
				h.X = 0
			}
			return obb.Box{Center: c, Axis: u, Half: h}
		}
		overlaps, far := 0, 0
		for range 400000 {
			a := box(obb.Vec2{X: float32(r.Float64()*20 - 10), Y: float32(r.Float64()*20 - 10)})
			l := math.Hypot(float64(a.Axis.X), float64(a.Axis.Y))
			d := fm.distance(l)
			angle := r.Float64() * 2 * math.Pi
			dx, dy := d*math.Cos(angle), d*math.Sin(angle)
			if fm.aligned {
				if r.IntN(2) == 0 && l > 0 {
					dx, dy = d*float64(a.Axis.X)/l, d*float64(a.Axis.Y)/l
				}
				a.Center = obb.Vec2{X: float32(-dx / 2), Y: float32(-dy / 2)}
			}
			b := box(obb.Vec2{X: a.Center.X + float32(dx), Y: a.Center.Y + float32(dy)})
			if fm.aligned && r.IntN(2) == 0 {
				b.Axis = a.Axis
			}
			if a.Overlaps(b) {
				overlaps++
				if math.Abs(float64(b.Center.X-a.Center.X))+math.Abs(float64(b.Center.Y-a.Center.Y)) > fm.far {
					far++
				}
				for _, y := range []bool{false, true} {
					alo, ahi := bound.Along(a, y)
					blo, bhi := bound.Along(b, y)
					if finite(alo, ahi, blo, bhi) && !(alo <= bhi && blo <= ahi) {
						t.Fatalf("%s: %v and %v overlap, but their intervals on %s are [%v, %v] and [%v, %v]", fm.name, a, b, map[bool]string{false: "x", true: "y"}[y], alo, ahi, blo, bhi)
					}
				}
			}
			if a.ContainsPoint(b.Center) && !inside(a, b.Center) {
				t.Fatalf("%s: %v contains %v, which its intervals leave out", fm.name, a, b.Center)
			}
		}
		if overlaps < fm.least || far < fm.leastFar {
			t.Fatalf("%s: %d pairs overlap, %d of them more than %g apart: the draw does not test the bounds", fm.name, overlaps, far, fm.far)
		}
	}
}
