// Package testkit holds what obb2d's tests share: running a test under
// every kernel implementation, sets of boxes made to test both answers and
// hostile values, the scalar answers to compare with, and a check that a
// call panics with a given message. Its subpackages hold the scenes
// (scene) and the exact rational oracle (exact).
package testkit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// EachImpl calls f with each implementation this CPU and build can run
// selected, slowest first, and restores the selection afterwards.
func EachImpl(f func(impl string)) {
	saved := batch.Name()
	defer batch.Use(saved)
	for _, name := range batch.Names() {
		if err := batch.Use(name); err != nil {
			panic(err)
		}
		f(name)
	}
}

// ForEachImpl runs f as the subtest "impl=<name>" with each implementation
// selected.
func ForEachImpl(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	EachImpl(func(name string) { t.Run("impl="+name, f) })
}

// MustPanic fails t unless f panics with a message that contains want.
func MustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("no panic; want one mentioning %q", want)
		}
		if msg := fmt.Sprint(r); !strings.Contains(msg, want) {
			t.Fatalf("panic %q does not mention %q", msg, want)
		}
	}()
	f()
}

// Sentinel fills output words a call must not write, so a test can see
// that it did not.
const Sentinel = 0xdeadbeefcafef00d

// RandomSet makes n boxes near the origin, from the oracle's generators of
// touching and nearly touching pairs, so that about half overlap a query
// box of a few units around the origin.
func RandomSet(r *rand.Rand, n int) *soa.Boxes {
	var b soa.Boxes
	for i := 0; i < n; i++ {
		p := scene.Generators[r.IntN(len(scene.Generators))].Make(r)
		p.B.Center = obb.Vec2{X: p.B.Center.X - p.A.Center.X, Y: p.B.Center.Y - p.A.Center.Y}
		b.Append(p.B)
	}
	return &b
}

// HostileSet is RandomSet with a third of the boxes given a hostile value
// (NaN, an infinity, a signed zero, a subnormal, a huge or negative value)
// in one column.
func HostileSet(r *rand.Rand, n int) *soa.Boxes {
	b := RandomSet(r, n)
	cols := [6][]float32{b.CX, b.CY, b.UX, b.UY, b.HX, b.HY}
	for i := 0; i < n; i++ {
		if r.IntN(3) == 0 {
			col := cols[r.IntN(6)]
			col[i] = scene.Hostile[r.IntN(len(scene.Hostile))]
		}
	}
	return b
}

// ShortAxisSet is RandomSet with every other box given an axis so short
// that the overlap test's products with it underflow: a length of 2⁻¹⁴⁹ to
// 2⁻¹⁴⁴ at a random angle, a component zero one time in four (never a zero
// axis), and half extents of zero to three times 2⁻¹⁴⁹, moved to a random
// place in a square of side √n/3 around the origin. Two such boxes overlap
// by the float32 test, its products rounding to zero, wherever their
// centers lie within about 2⁻¹⁵⁰ over the longer axis's length of each
// other on each coordinate (half a unit for the shortest axes), and such a
// box overlaps a valid box it lies in.
func ShortAxisSet(r *rand.Rand, n int) *soa.Boxes {
	b := RandomSet(r, n)
	side := math.Sqrt(float64(n)) / 3
	for i := 0; i < n; i += 2 {
		l := math.Ldexp(1, -149+r.IntN(6))
		u := obb.FromHalf(obb.Vec2{}, obb.Vec2{}, r.Float64()*2*math.Pi).Axis.Scale(float32(l))
		if r.IntN(4) == 0 {
			u.X = 0
		}
		if u == (obb.Vec2{}) {
			u.Y = math.SmallestNonzeroFloat32 // a zero axis has no finite bounds
		}
		h := obb.Vec2{X: math.Float32frombits(uint32(r.IntN(4))), Y: math.Float32frombits(uint32(r.IntN(4)))}
		c := obb.Vec2{X: float32((r.Float64() - 0.5) * side), Y: float32((r.Float64() - 0.5) * side)}
		b.Set(i, obb.Box{Center: c, Axis: u, Half: h})
	}
	return b
}

// LongAxisSet is RandomSet with every other box given an axis so long that
// the overlap test's radii can overflow: a length of 2⁸ to 2⁷⁰ at a
// random angle, a component zero one time in four, half extents of 1 to
// 2¹⁰⁰, and a center up to 2¹²⁰ from the origin; one in four of those is
// instead a valid box of axis (0.8, 0.6) and half extents of 2¹²⁷ to
// 1.1·2¹²⁷ and 2¹⁰⁵ to 2¹²⁰, centered 2¹²⁷·(1 + 2⁻⁶ to 2⁻¹⁰) from the
// origin along its axis, one way or the other. Two such boxes whose radii
// overflow on the axes that separate them overlap by the float32 test
// however far apart they are: for the valid ones, two on opposite sides.
func LongAxisSet(r *rand.Rand, n int) *soa.Boxes {
	b := RandomSet(r, n)
	for i := 0; i < n; i += 2 {
		if i%8 == 0 {
			d := float32(math.Ldexp(1+math.Ldexp(1, -6-r.IntN(5)), 127) * float64(1-2*r.IntN(2)))
			b.Set(i, obb.Box{
				Center: obb.Vec2{X: 0.8 * d, Y: 0.6 * d}, Axis: obb.Vec2{X: 0.8, Y: 0.6},
				Half: obb.Vec2{X: float32(math.Ldexp(1+0.1*r.Float64(), 127)), Y: float32(math.Ldexp(1+r.Float64(), 105+r.IntN(15)))},
			})
			continue
		}
		u := obb.FromHalf(obb.Vec2{}, obb.Vec2{}, r.Float64()*2*math.Pi).Axis.Scale(float32(math.Ldexp(1, 8+r.IntN(63))))
		if r.IntN(4) == 0 {
			u.X = 0
		}
		h := obb.Vec2{X: float32(math.Ldexp(1+r.Float64(), r.IntN(100))), Y: float32(math.Ldexp(1+r.Float64(), r.IntN(100)))}
		c := obb.Vec2{X: float32(math.Ldexp(r.Float64()-0.5, r.IntN(121))), Y: float32(math.Ldexp(r.Float64()-0.5, r.IntN(121)))}
		b.Set(i, obb.Box{Center: c, Axis: u, Half: h})
	}
	return b
}

// ScalarBits is the bitset obb.Box.Overlaps gives for q against every box
// of b, one pair at a time.
func ScalarBits(q obb.Box, b *soa.Boxes) []uint64 {
	out := make([]uint64, batch.Words(b.Len()))
	for i := 0; i < b.Len(); i++ {
		if q.Overlaps(b.At(i)) {
			out[i/64] |= 1 << (i % 64)
		}
	}
	return out
}
