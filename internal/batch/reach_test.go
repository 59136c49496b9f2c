package batch_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/bound"
	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// reachSet makes n boxes for Reaches that reach each of Reach's tests from
// both sides: hostile values in any field (testkit.HostileSet), axes whose
// squared length lies a few units of rounding either side of the
// tolerance, negative and zero half extents, half extents whose sum is
// bound.Huge or just below it, and centers and extents near the 2¹²⁷ limit
// on either coordinate (limitSet has boxes at the limit itself). The
// tolerance test's < and <= need no such boxes: |l2 - 1|, for l2 in
// [0.5, 2], is exact and a multiple of 2⁻⁵³, and the float64 nearest 10⁻⁵
// is an odd multiple of 2⁻⁶⁹, so the two never meet.
func reachSet(r *rand.Rand, n int) *soa.Boxes {
	b := testkit.HostileSet(r, n)
	for i := range n {
		switch r.IntN(8) {
		case 0: // an axis of length about 1 ± tolerance
			a := r.Float64() * 2 * math.Pi
			l := math.Sqrt(1 + float64(r.IntN(3)-1)*1e-5 + float64(r.IntN(9)-4)*1e-7)
			b.UX[i], b.UY[i] = float32(l*math.Cos(a)), float32(l*math.Sin(a))
		case 1: // near the limit on one coordinate
			col := [2][]float32{b.CX, b.CY}[r.IntN(2)]
			col[i] = float32(0x1p127 - math.Ldexp(1, 100+r.IntN(28)))
			if r.IntN(2) == 0 {
				col[i] = -col[i]
			}
			b.HX[i] = float32(math.Ldexp(1, 90+r.IntN(38)))
		case 2: // a half extent near zero, either sign
			hx := [4]float32{0, float32(math.Copysign(0, -1)), -math.SmallestNonzeroFloat32, -1e-30}
			b.HX[i] = hx[r.IntN(4)]
		case 3: // huge extents
			b.HY[i] = float32(math.Ldexp(1, 120+r.IntN(8)))
		case 4: // half extents that sum to bound.Huge, or a few units less
			b.HX[i] = 0x1p125
			b.HY[i] = math.Float32frombits(math.Float32bits(0x1p125) - uint32(r.IntN(3)))
		}
	}
	return b
}

// limitSet makes n pairs of boxes either side of Reach's last test,
// max(|cx|, |cy|) + max(rx, ry) < 2¹²⁷, most of them at 2¹²⁷ itself,
// where < and <= differ. One center coordinate is a float32 just below
// 2¹²⁷; one axis component is small. A binary search on each of the half
// extents and the other center coordinate in turn, in a random order,
// finds the last float32 value of that field that Reach accepts: the
// fields whose effect on the sums is scaled down by the small component
// or by the margin's 2⁻²² step the sums by less than the float64 unit
// near 2¹²⁷ once the coarser fields are set, so the declined box's
// largest sum usually rounds to the limit. The pairs differ in the field
// searched last; which sum decides varies with the configuration.
func limitSet(r *rand.Rand, n int) *soa.Boxes {
	var b soa.Boxes
	accepts := func(x obb.Box) bool { _, _, ok := bound.Reach(x); return ok }
	for b.Len() < 2*n {
		big := float32(0x1p127 - math.Ldexp(float64(1+r.IntN(64)), 103+r.IntN(6)))
		small := math.Ldexp(1, -10-r.IntN(15))
		x := obb.Box{Center: obb.Vec2{X: big}, Axis: obb.Vec2{X: 1, Y: float32(small)}}
		if r.IntN(2) == 0 {
			x.Axis.X, x.Axis.Y = x.Axis.Y, x.Axis.X
		}
		fields := []*float32{&x.Half.X, &x.Half.Y, &x.Center.Y}
		if r.IntN(2) == 0 {
			x.Center.X, x.Center.Y = x.Center.Y, x.Center.X
			fields[2] = &x.Center.X
		}
		if !accepts(x) {
			continue
		}
		r.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
		var lo, hi uint32
		for _, f := range fields {
			lo, hi = math.Float32bits(*f), math.Float32bits(math.MaxFloat32)
			for hi-lo > 1 {
				mid := lo + (hi-lo)/2
				if *f = math.Float32frombits(mid); accepts(x) {
					lo = mid
				} else {
					hi = mid
				}
			}
			*f = math.Float32frombits(lo)
		}
		f := fields[len(fields)-1]
		b.Append(x)
		*f = math.Float32frombits(hi)
		b.Append(x)
	}
	return &b
}

// wantReaches is bound.Reach of each box, -1 for both where it declines.
func wantReaches(b *soa.Boxes) (rx, ry []float64) {
	rx, ry = make([]float64, b.Len()), make([]float64, b.Len())
	for i := range b.Len() {
		x, y, ok := bound.Reach(b.At(i))
		if !ok {
			x, y = -1, -1
		}
		rx[i], ry[i] = x, y
	}
	return rx, ry
}

// sameBits reports the first box whose reaches differ from want in any bit.
func sameBits(got, want []float64) error {
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			return fmt.Errorf("box %d: %v (%#x), want %v (%#x)", i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
		}
	}
	return nil
}

// kernelSets makes the sets TestReaches and TestIntervals run: reachSet's
// boxes at every length up to a few groups and at 20,000, and an RTS
// scene of 5,000 boxes.
func kernelSets(r *rand.Rand) []*soa.Boxes {
	var sets []*soa.Boxes
	for n := range 40 {
		sets = append(sets, reachSet(r, n))
	}
	var rts soa.Boxes
	scene.RTS(r, 5000, &rts)
	return append(sets, reachSet(r, 20000), &rts)
}

// bothAnswers fails t unless between a tenth and nine tenths of the boxes
// of sets pass test: a kernel's two answers must both be tested.
func bothAnswers(t *testing.T, sets []*soa.Boxes, test func(obb.Box) bool) {
	t.Helper()
	yes, all := 0, 0
	for _, b := range sets {
		for i := range b.Len() {
			if test(b.At(i)) {
				yes++
			}
			all++
		}
	}
	if yes < all/10 || yes > all*9/10 {
		t.Fatalf("%d of %d boxes pass: the sets do not test both answers", yes, all)
	}
}

// TestReaches compares every implementation of Reaches with bound.Reach,
// bit for bit, on kernelSets and limitSet's boxes, and checks that both of
// Reach's answers occur.
func TestReaches(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	sets := append(kernelSets(r), limitSet(r, 500))
	bothAnswers(t, sets, func(b obb.Box) bool { _, _, ok := bound.Reach(b); return ok })
	testkit.ForEachImpl(t, func(t *testing.T) {
		for _, b := range sets {
			wx, wy := wantReaches(b)
			rx, ry := make([]float64, b.Len()), make([]float64, b.Len())
			batch.Reaches(b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, rx, ry)
			if err := errors.Join(sameBits(rx, wx), sameBits(ry, wy)); err != nil {
				t.Fatalf("%d boxes: %v", b.Len(), err)
			}
		}
	})
}

func TestReachesPanics(t *testing.T) {
	b := testkit.RandomSet(rand.New(rand.NewPCG(1, 2)), 5)
	rx, ry := make([]float64, 5), make([]float64, 4)
	testkit.MustPanic(t, "batch: Reaches with columns of different lengths", func() {
		batch.Reaches(b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, rx, ry)
	})
}

// intervalColumns returns the columns Intervals takes for the bounds of b
// on x, or on y.
func intervalColumns(b *soa.Boxes, y bool) (c, c2, along, across []float32) {
	if y {
		return b.CY, b.CX, b.UY, b.UX
	}
	return b.CX, b.CY, b.UX, b.UY
}

// wantIntervals is bound.Along of each Regular box of b, one at a time,
// and the NaN 0x7fc00000 for both bounds of the others.
func wantIntervals(b *soa.Boxes, y bool) (lo, hi []float32) {
	lo, hi = make([]float32, b.Len()), make([]float32, b.Len())
	for i := range b.Len() {
		x := b.At(i)
		if !bound.Regular(x) {
			lo[i], hi[i] = math.Float32frombits(0x7fc00000), math.Float32frombits(0x7fc00000)
			continue
		}
		lo[i], hi[i] = bound.Along(x, y)
	}
	return lo, hi
}

// sameFloats reports the first box whose bounds differ from want in any
// bit.
func sameFloats(got, want []float32) error {
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			return fmt.Errorf("box %d: %v (%#x), want %v (%#x)", i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
	return nil
}

// TestIntervals compares every implementation of Intervals with
// bound.Regular and bound.Along, bit for bit, on both coordinates, on
// kernelSets' boxes (hostile values, axes at the tolerance's edge,
// negative and zero half extents, extents whose bounds overflow float32 or
// whose sum is at bound.Huge), and checks that both Regular and other
// boxes occur.
func TestIntervals(t *testing.T) {
	r := rand.New(rand.NewPCG(75, 76))
	sets := kernelSets(r)
	bothAnswers(t, sets, bound.Regular)
	testkit.ForEachImpl(t, func(t *testing.T) {
		for _, b := range sets {
			for _, y := range []bool{false, true} {
				wlo, whi := wantIntervals(b, y)
				lo, hi := make([]float32, b.Len()), make([]float32, b.Len())
				c, c2, along, across := intervalColumns(b, y)
				batch.Intervals(c, c2, along, across, b.HX, b.HY, lo, hi)
				if err := errors.Join(sameFloats(lo, wlo), sameFloats(hi, whi)); err != nil {
					t.Fatalf("%d boxes, y %v: %v", b.Len(), y, err)
				}
			}
		}
	})
}

func TestIntervalsPanics(t *testing.T) {
	b := testkit.RandomSet(rand.New(rand.NewPCG(1, 2)), 5)
	lo, hi := make([]float32, 5), make([]float32, 6)
	testkit.MustPanic(t, "batch: Intervals with columns of different lengths", func() {
		batch.Intervals(b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, lo, hi)
	})
}
