package world_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/world"
)

// checkRays checks RayCastAll and RayCast of the segment from p to p+d
// against the model's brute force.
func checkRays(t *testing.T, w *world.World, m *model, p, d obb.Vec2) {
	t.Helper()
	want := m.rays(p, d, ^uint32(0))
	if got := w.RayCastAll(nil, p, d, ^uint32(0)); !slices.Equal(got, want) {
		t.Fatalf("RayCastAll(%v, %v): %d hits, brute force %d: %v, want %v", p, d, len(got), len(want), got, want)
	}
	if first, ok := w.RayCast(p, d, ^uint32(0)); ok != (len(want) > 0) || ok && first != want[0] {
		t.Fatalf("RayCast(%v, %v) = %v, %v; brute force %v", p, d, first, ok, want)
	}
}

// TestRayCastTies checks RayCast where several boxes are hit at the same
// T, in cells of every order along the segment: piles of overlapping
// boxes, whose handles are in random order of place, with segments that
// start inside several (T = 0) or run along the boxes' shared edges, on
// integer coordinates. RayCast must return the lowest handle of the
// first T even when that box's cell comes after the others' along the
// segment.
func TestRayCastTies(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 22))
	for range 40 {
		w, m := world.New(), &model{}
		size := []float32{0.25, 1, 8}[r.IntN(3)]
		for range 60 {
			c := obb.Vec2{X: float32(r.IntN(17)-8) * size, Y: float32(r.IntN(17)-8) * size}
			b := obb.FromHalf(c, obb.Vec2{X: size, Y: size * float32(1+r.IntN(2))}, 0)
			k := randomKind(r)
			m.insert(w.Insert(b, k, world.DefaultFilter), b, k, world.DefaultFilter)
		}
		for range 60 {
			p := obb.Vec2{X: float32(r.IntN(17)-8) * size, Y: float32(r.IntN(17)-8) * size}
			a := float64(r.IntN(8)) * math.Pi / 4
			l := float64(size) * []float64{1, 8, 40}[r.IntN(3)]
			d := obb.Vec2{X: float32(math.Round(l * math.Cos(a))), Y: float32(math.Round(l * math.Sin(a)))}
			checkRays(t, w, m, p, d)
		}
	}
}

// TestRayCastFarAxes checks RayCastAll and RayCast with boxes whose axes
// are far from unit length, up to the largest float32, and long segments,
// against obb.Box.RayCast on every box. With such an axis the slab test's
// products overflow, and it can report a hit, at t = 0, far from the box's
// bounds: a box of zero extents with axis (-3.4e38, -0.84) at the origin
// is hit by a segment from (-0.6, -0.04) that moves away from it, and the
// box at the origin with axis (1000, 0) and half extents 1 by the segment
// from (1e34, 0) to (1.01e36, 0).
func TestRayCastFarAxes(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	w, m := world.New(), &model{}
	add := func(b obb.Box) {
		m.insert(w.Insert(b, world.Dynamic, world.DefaultFilter), b, world.Dynamic, world.DefaultFilter)
	}
	add(obb.Box{Center: obb.Vec2{X: 0.0039901733, Y: -0.030399323}, Axis: obb.Vec2{X: -math.MaxFloat32, Y: -0.84126943}})
	add(obb.Box{Axis: obb.Vec2{X: 1000}, Half: obb.Vec2{X: 1, Y: 1}})
	for range 300 {
		b := obb.FromHalf(obb.Vec2{X: float32(r.NormFloat64()), Y: float32(r.NormFloat64())}, obb.Vec2{X: r.Float32(), Y: r.Float32()}, r.Float64()*7)
		scale := []float32{1, 1e3, 0x1p20, 0x1p60, 1e30, math.MaxFloat32}[r.IntN(6)]
		b.Axis = b.Axis.Scale([]float32{scale, 1 / scale}[r.IntN(2)])
		if r.IntN(3) == 0 {
			b.Half = obb.Vec2{}
		}
		add(b)
	}
	for i := range 300 {
		p := obb.Vec2{X: float32(r.NormFloat64()), Y: float32(r.NormFloat64())}
		d := obb.Vec2{X: float32(r.NormFloat64()), Y: float32(r.NormFloat64())}.Scale([]float32{3, 1e20, 1e37}[r.IntN(3)])
		switch i {
		case 0:
			p, d = obb.Vec2{X: -0.59778774, Y: -0.035316795}, obb.Vec2{X: -2.819931, Y: 5.397613}
		case 1:
			p, d = obb.Vec2{X: 1e34}, obb.Vec2{X: 1e36}
		}
		checkRays(t, w, m, p, d)
	}
}
