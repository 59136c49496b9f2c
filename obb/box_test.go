package obb_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
)

func TestNewAndCorners(t *testing.T) {
	b := obb.New(obb.Vec2{X: 10, Y: 20}, 4, 2, math.Pi/2)
	if b.Half != (obb.Vec2{X: 2, Y: 1}) {
		t.Fatalf("Half = %v", b.Half)
	}
	want := [4]obb.Vec2{{X: 11, Y: 18}, {X: 11, Y: 22}, {X: 9, Y: 22}, {X: 9, Y: 18}}
	for i, c := range b.Corners() {
		if math.Abs(float64(c.X-want[i].X)) > 1e-5 || math.Abs(float64(c.Y-want[i].Y)) > 1e-5 {
			t.Errorf("corner %d = %v, want %v", i, c, want[i])
		}
	}
	if a := b.Angle(); math.Abs(a-math.Pi/2) > 1e-7 {
		t.Errorf("Angle = %v", a)
	}
}

func TestFromCornersRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 2000; i++ {
		b := obb.New(obb.Vec2{X: float32(r.Float64()*200 - 100), Y: float32(r.Float64()*200 - 100)},
			float32(0.1+r.Float64()*50), float32(0.1+r.Float64()*50), (r.Float64()*2-1)*math.Pi)
		got, err := obb.FromCorners(b.Corners())
		if err != nil {
			t.Fatalf("FromCorners(%v.Corners()): %v", b, err)
		}
		for _, d := range []float32{got.Center.X - b.Center.X, got.Center.Y - b.Center.Y, got.Half.X - b.Half.X, got.Half.Y - b.Half.Y} {
			if math.Abs(float64(d)) > 1e-4*float64(1+b.Half.X+b.Half.Y+abs(b.Center.X)+abs(b.Center.Y)) {
				t.Fatalf("round trip of %+v gave %+v", b, got)
			}
		}
		if math.Abs(float64(got.Axis.X-b.Axis.X))+math.Abs(float64(got.Axis.Y-b.Axis.Y)) > 1e-4 {
			t.Fatalf("round trip axis of %+v gave %+v", b, got)
		}
		// Clockwise corners describe the same rectangle.
		c := b.Corners()
		cw := [4]obb.Vec2{c[0], c[3], c[2], c[1]}
		if _, err := obb.FromCorners(cw); err != nil {
			t.Fatalf("clockwise corners rejected: %v", err)
		}
	}
}

func abs(v float32) float32 { return float32(math.Abs(float64(v))) }

func TestFromCornersRejects(t *testing.T) {
	sq := [4]obb.Vec2{{X: 0, Y: 0}, {X: 2, Y: 0}, {X: 2, Y: 1}, {X: 0, Y: 1}}
	rhombus := [4]obb.Vec2{{X: 0, Y: 0}, {X: 2, Y: 0}, {X: 3, Y: 1}, {X: 1, Y: 1}}
	kite := sq
	kite[2] = obb.Vec2{X: 2.5, Y: 1}
	swapped := [4]obb.Vec2{sq[0], sq[2], sq[1], sq[3]}
	if _, err := obb.FromCorners(sq); err != nil {
		t.Fatalf("rectangle rejected: %v", err)
	}
	for name, c := range map[string][4]obb.Vec2{"rhombus": rhombus, "kite": kite, "out of order": swapped} {
		if _, err := obb.FromCorners(c); !errors.Is(err, obb.ErrNotRectangle) {
			t.Errorf("%s: err = %v, want ErrNotRectangle", name, err)
		}
	}
	nan := sq
	nan[1].X = float32(math.NaN())
	if _, err := obb.FromCorners(nan); err == nil || !strings.Contains(err.Error(), "corner 1") {
		t.Errorf("NaN corner: err = %v", err)
	}
	pt, err := obb.FromCorners([4]obb.Vec2{{X: 3, Y: 4}, {X: 3, Y: 4}, {X: 3, Y: 4}, {X: 3, Y: 4}})
	if err != nil || pt.Half != (obb.Vec2{}) || pt.Center != (obb.Vec2{X: 3, Y: 4}) || pt.Validate() != nil {
		t.Errorf("point: %+v, %v", pt, err)
	}
}

func TestFromMinMaxContains(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for i := 0; i < 10000; i++ {
		lo := obb.Vec2{X: float32(r.NormFloat64() * 1e4), Y: float32(r.NormFloat64() * 1e-3)}
		hi := obb.Vec2{X: lo.X + float32(r.Float64()*100), Y: lo.Y + float32(r.Float64())}
		b := obb.FromMinMax(lo, hi)
		for _, p := range []obb.Vec2{lo, hi, {X: lo.X, Y: hi.Y}, {X: hi.X, Y: lo.Y}} {
			if !b.ContainsPoint(p) {
				t.Fatalf("FromMinMax(%v, %v) = %+v does not contain corner %v", lo, hi, b, p)
			}
		}
		if b.Validate() != nil {
			t.Fatalf("FromMinMax(%v, %v) invalid: %v", lo, hi, b.Validate())
		}
	}
}

func TestBoundsContainCorners(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, gen := range scene.Generators {
		for i := 0; i < 1000; i++ {
			b := gen.Make(r).A
			min, max := b.Bounds()
			for _, c := range b.Corners() {
				// Corners are rounded to float32, the bounds outward from the
				// exact extents: allow the corner's own rounding.
				tol := func(v float32) float64 { return 1e-7 * (1 + math.Abs(float64(v))) }
				if float64(c.X) < float64(min.X)-tol(c.X) || float64(c.X) > float64(max.X)+tol(c.X) ||
					float64(c.Y) < float64(min.Y)-tol(c.Y) || float64(c.Y) > float64(max.Y)+tol(c.Y) {
					t.Fatalf("%s: corner %v outside bounds [%v, %v] of %+v", gen.Name, c, min, max, b)
				}
			}
		}
	}
	b := obb.New(obb.Vec2{X: 1, Y: 1}, 2, 4, 0)
	if min, max := b.Bounds(); min != (obb.Vec2{X: 0, Y: -1}) || max != (obb.Vec2{X: 2, Y: 3}) {
		t.Errorf("axis-aligned bounds = %v %v", min, max)
	}
}

func TestOverlapsAABBMatchesOverlaps(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, gen := range scene.Generators {
		for i := 0; i < 3000; i++ {
			p := gen.Make(r)
			min, max := p.B.Bounds()
			if got, want := p.A.OverlapsAABB(min, max), p.A.Overlaps(obb.FromMinMax(min, max)); got != want {
				t.Fatalf("%s: OverlapsAABB(%v, %v) = %v, Overlaps(FromMinMax) = %v for %+v", gen.Name, min, max, got, want, p.A)
			}
		}
	}
	a := obb.New(obb.Vec2{}, 4, 2, 0.3)
	nan := float32(math.NaN())
	if a.OverlapsAABB(obb.Vec2{X: nan, Y: 0}, obb.Vec2{X: 1, Y: 1}) {
		t.Error("NaN tile overlaps")
	}
}

func TestContainsPoint(t *testing.T) {
	b := obb.New(obb.Vec2{X: 1, Y: 1}, 4, 2, 0)
	for p, want := range map[obb.Vec2]bool{
		{X: 1, Y: 1}: true, {X: 3, Y: 2}: true, {X: -1, Y: 0}: true,
		{X: 3.001, Y: 1}: false, {X: 1, Y: 2.001}: false,
		{X: float32(math.NaN()), Y: 1}: false,
	} {
		if got := b.ContainsPoint(p); got != want {
			t.Errorf("ContainsPoint(%v) = %v, want %v", p, got, want)
		}
	}
}

func TestMovedRotated(t *testing.T) {
	b := obb.New(obb.Vec2{X: 1, Y: 2}, 4, 2, 0.5)
	if m := b.MovedTo(obb.Vec2{X: 7, Y: 8}); m.Center != (obb.Vec2{X: 7, Y: 8}) || m.Axis != b.Axis || m.Half != b.Half {
		t.Errorf("MovedTo: %+v", m)
	}
	if m := b.Translated(obb.Vec2{X: 1, Y: -1}); m.Center != (obb.Vec2{X: 2, Y: 1}) {
		t.Errorf("Translated: %+v", m)
	}
	if w := b.WithAngle(1.25); w.Axis != obb.New(obb.Vec2{}, 1, 1, 1.25).Axis || w.Center != b.Center {
		t.Errorf("WithAngle: %+v", w)
	}
	x := b
	for i := 0; i < 100000; i++ {
		x = x.Rotated(0.01)
	}
	if err := x.Validate(); err != nil {
		t.Errorf("after 1e5 small turns: %v", err)
	}
	if d := math.Remainder(x.Angle()-(0.5+1000), 2*math.Pi); math.Abs(d) > 1e-3 {
		t.Errorf("after 1e5 turns of 0.01 the angle is off by %v", d)
	}
}

func TestValidate(t *testing.T) {
	good := obb.New(obb.Vec2{}, 2, 2, 1)
	if err := good.Validate(); err != nil {
		t.Fatalf("good box: %v", err)
	}
	cases := []struct {
		mutate func(*obb.Box)
		field  string
		reason string
	}{
		{func(b *obb.Box) { b.Center.X = float32(math.NaN()) }, "Center.X", "NaN"},
		{func(b *obb.Box) { b.Center.Y = float32(math.Inf(-1)) }, "Center.Y", "infinite"},
		{func(b *obb.Box) { b.Axis.X = float32(math.NaN()) }, "Axis.X", "NaN"},
		{func(b *obb.Box) { b.Axis.Y = float32(math.Inf(1)) }, "Axis.Y", "infinite"},
		{func(b *obb.Box) { b.Half.X = -1 }, "Half.X", "negative"},
		{func(b *obb.Box) { b.Half.Y = float32(math.NaN()) }, "Half.Y", "NaN"},
		{func(b *obb.Box) { b.Axis = obb.Vec2{X: 1.001, Y: 0} }, "Axis", "not unit length"},
		{func(b *obb.Box) { b.Axis = obb.Vec2{} }, "Axis", "not unit length"},
	}
	for _, c := range cases {
		b := good
		c.mutate(&b)
		var fe *obb.FieldError
		if err := b.Validate(); !errors.As(err, &fe) || fe.Field != c.field || fe.Reason != c.reason {
			t.Errorf("Validate(%+v) = %v, want %s %s", b, err, c.field, c.reason)
		}
	}
	near := good
	near.Axis = obb.Vec2{X: 1 + 4e-6, Y: 0}
	if err := near.Validate(); err != nil {
		t.Errorf("axis within tolerance rejected: %v", err)
	}
	zero := obb.Box{Axis: obb.Vec2{X: 1}}
	if err := zero.Validate(); err != nil {
		t.Errorf("a point box is valid: %v", err)
	}
}

// TestValidMatchesValidate checks Valid against Validate, which decides
// field by field on its own, on boxes with hostile values in any field and
// axes around the tolerance.
func TestValidMatchesValidate(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for i := 0; i < 100000; i++ {
		b := obb.New(obb.Vec2{X: float32(r.NormFloat64()), Y: float32(r.NormFloat64())}, 2, 3, r.Float64()*7)
		f := [6]*float32{&b.Center.X, &b.Center.Y, &b.Axis.X, &b.Axis.Y, &b.Half.X, &b.Half.Y}
		switch r.IntN(3) {
		case 0:
			*f[r.IntN(6)] = scene.Hostile[r.IntN(len(scene.Hostile))]
		case 1:
			*f[2+r.IntN(2)] *= float32(1 + (r.Float64()*2-1)*1e-5)
		}
		if valid, err := b.Valid(), b.Validate(); valid != (err == nil) {
			t.Fatalf("%+v: Valid %v, Validate %v", b, valid, err)
		}
	}
}
