package bound_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/bound"
	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/obb"
)

// TestReach checks that Reach, when it answers, bounds the distance from
// the center to each of Box's bounds, and answers only for boxes whose
// bounds are finite: on hostile boxes, and on random ones moved out and
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
		reach, ok := bound.Reach(b)
		if ok && !b.Valid() {
			t.Fatalf("Reach(%v) answers for a box that is not valid", b)
		}
		if !ok {
			continue
		}
		answered++
		lo, hi, finite := bound.Box(b)
		if !finite {
			t.Fatalf("Reach(%v) = %g, true, but Box's bounds %v, %v are not finite", b, reach, lo, hi)
		}
		for _, d := range []float64{
			float64(b.Center.X) - float64(lo.X), float64(hi.X) - float64(b.Center.X),
			float64(b.Center.Y) - float64(lo.Y), float64(hi.Y) - float64(b.Center.Y),
		} {
			if !(d <= reach) {
				t.Fatalf("Reach(%v) = %g, below the distance %g to Box's bounds %v, %v", b, reach, d, lo, hi)
			}
		}
	}
	// Most of the boxes are valid, and all but the farthest and largest of
	// those are answered.
	if answered < set.Len()/3 {
		t.Fatalf("Reach answered %d of %d boxes", answered, set.Len())
	}
}
