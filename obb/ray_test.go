package obb

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestRayCastCases(t *testing.T) {
	unit := FromHalf(Vec2{}, Vec2{1, 1}, 0)
	turned := FromHalf(Vec2{10, 0}, Vec2{2, 1}, math.Pi/2) // Axis (0, 1) rounded
	nan := float32(math.NaN())
	cases := []struct {
		name          string
		box           Box
		origin, delta Vec2
		t             float32
		normal        Vec2
		hit           bool
	}{
		{"from the left", unit, Vec2{-3, 0}, Vec2{4, 0}, 0.5, Vec2{-1, 0}, true},
		{"from above", unit, Vec2{0, 5}, Vec2{0, -8}, 0.5, Vec2{0, 1}, true},
		{"too short", unit, Vec2{-3, 0}, Vec2{1, 0}, 0, Vec2{}, false},
		{"pointing away", unit, Vec2{-3, 0}, Vec2{-4, 0}, 0, Vec2{}, false},
		{"passing above", unit, Vec2{-3, 2}, Vec2{6, 0}, 0, Vec2{}, false},
		{"along the top edge", unit, Vec2{-3, 1}, Vec2{6, 0}, 1.0 / 3, Vec2{-1, 0}, true},
		{"through a corner", unit, Vec2{-2, -2}, Vec2{4, 4}, 0.25, Vec2{-1, 0}, true},
		{"from inside", unit, Vec2{0.5, 0}, Vec2{4, 0}, 0, Vec2{}, true},
		{"a point inside", unit, Vec2{0.5, 0}, Vec2{}, 0, Vec2{}, true},
		{"a point outside", unit, Vec2{1.5, 0}, Vec2{}, 0, Vec2{}, false},
		{"ending on the face", unit, Vec2{-3, 0}, Vec2{2, 0}, 1, Vec2{-1, 0}, true},
		{"rotated box, from below", turned, Vec2{10, -5}, Vec2{0, 10}, 0.3, Vec2{turned.Axis.X * -1, -1}, true},
		{"NaN origin", unit, Vec2{nan, 0}, Vec2{4, 0}, 0, Vec2{}, false},
		{"NaN delta", unit, Vec2{-3, 0}, Vec2{4, nan}, 0, Vec2{}, false},
		{"negative half extent", FromHalf(Vec2{}, Vec2{-1, 1}, 0), Vec2{-3, 0}, Vec2{6, 0}, 0, Vec2{}, false},
	}
	for _, c := range cases {
		tt, n, hit := c.box.RayCast(c.origin, c.delta)
		if hit != c.hit || tt != c.t || n != c.normal {
			t.Errorf("%s: RayCast = %v, %v, %v; want %v, %v, %v", c.name, tt, n, hit, c.t, c.normal, c.hit)
		}
	}
}

// TestRayCastAgainstContainment checks RayCast against ContainsPoint: a
// segment that hits enters the box near its start point, and one that
// misses has no sampled point well inside the box.
func TestRayCastAgainstContainment(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 100000 {
		b := FromHalf(Vec2{float32(r.NormFloat64() * 3), float32(r.NormFloat64() * 3)},
			Vec2{float32(0.1 + r.Float64()*3), float32(0.1 + r.Float64()*3)}, r.Float64()*7)
		o := Vec2{float32(r.NormFloat64() * 6), float32(r.NormFloat64() * 6)}
		d := Vec2{float32(r.NormFloat64() * 8), float32(r.NormFloat64() * 8)}
		tt, n, hit := b.RayCast(o, d)
		shrunk := b
		shrunk.Half = b.Half.Scale(0.999)
		grown := b
		grown.Half = b.Half.Scale(1.001).Add(Vec2{1e-3, 1e-3})
		if !hit {
			for k := 0; k <= 64; k++ {
				if p := o.Add(d.Scale(float32(k) / 64)); shrunk.ContainsPoint(p) {
					t.Fatalf("case %d: %v misses the segment %v + t·%v, but t = %d/64 is inside", i, b, o, d, k)
				}
			}
			continue
		}
		p := o.Add(d.Scale(tt))
		if !grown.ContainsPoint(p) {
			t.Fatalf("case %d: %v: entry point %v at t = %v is not on the box", i, b, p, tt)
		}
		if tt > 0 && tt < 1 {
			before := o.Add(d.Scale(max(0, tt-2e-3)))
			if shrunk.ContainsPoint(before) {
				t.Fatalf("case %d: %v: the segment is inside before its entry at t = %v", i, b, tt)
			}
			if n != b.Axis && n != b.Axis.Scale(-1) && n != b.Axis.Perp() && n != b.Axis.Perp().Scale(-1) {
				t.Fatalf("case %d: normal %v is not a face normal of %v", i, n, b)
			}
			if n.Dot(d) > 0 {
				t.Fatalf("case %d: normal %v points along the segment %v", i, n, d)
			}
		}
	}
}
