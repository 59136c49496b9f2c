// Package bound computes conservative axis-aligned bounds of boxes: intervals
// that contain every box obb.Box.Overlaps can say a box overlaps. The sweep of
// package pairs sorts by them and the grid of package world files boxes by
// them; neither may lose a pair the float32 test reports, so the bounds cover
// the test's rounding band as well as the exact rectangle.
package bound

import (
	"math"

	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/obb"
)

// PadFactor is the relative widening of every valid box's interval: four
// times the largest band factor 2⁻²⁰ + |1-|u|²| a valid box can have. When
// the float32 test says two boxes overlap, every exact margin is within the
// band, so the exact rectangles are within √2·band of each other (the corners
// of their Minkowski difference are at least 90°); the pair's scale S is then
// at most (1+√2) times the sum of the two boxes' Half.X+Half.Y, so widening
// each box by 4·factor·(Half.X+Half.Y) covers √2·band.
const PadFactor = 4 * (0x1p-20 + obb.AxisTolerance)

// Huge bounds the sum of a box's half extents for finite bounds: a box with
// |Half.X| + |Half.Y| ≥ Huge has none, and the sweep and the grid test it
// against every box. obb.Box.Overlaps' radius on an axis is one box's half
// extent plus the other's half extents times the axes' dot products; where
// it overflows to +Inf it passes every projection, +Inf included, so such
// a pair can overlap by the test however far apart it is: two boxes of
// axis (0.8, 0.6) and half extents (2¹²⁷, 2¹⁰⁵), 2¹²⁸ + 2¹²² apart along
// their axis, whose bounds on x are 4·10³⁶ apart. For two valid boxes
// below it the radius is below 2¹²⁶·(1 + √2·(1 + 2⁻¹⁶)), which rounds to
// less than 2¹²⁸; Irregular covers the others.
const Huge = 0x1p126

// Regular reports whether b is valid (obb.Box.Valid) and its half extents
// sum to less than Huge: the boxes whose bounds are Interval's.
func Regular(b obb.Box) bool {
	return b.Valid() && float64(b.Half.X)+float64(b.Half.Y) < Huge
}

// Class sorts boxes by what their bounds can be.
type Class uint8

const (
	// Finite boxes have finite bounds (Interval or Irregular).
	Finite Class = iota
	// NaN boxes have a NaN in some field and overlap nothing:
	// obb.Box.Overlaps fails its first comparison that reads the NaN, and
	// every comparison reads every field of both boxes through its terms or
	// an earlier one. They need no bounds and no test.
	NaN
	// Infinite boxes have an infinity in some field and no finite bounds;
	// they must be tested against every box.
	Infinite
)

// Classify returns b's class.
func Classify(b obb.Box) Class {
	v := [6]float32{b.Center.X, b.Center.Y, b.Axis.X, b.Axis.Y, b.Half.X, b.Half.Y}
	for _, x := range v {
		if x != x {
			return NaN
		}
	}
	for _, x := range v {
		if !f32.Finite(x) {
			return Infinite
		}
	}
	return Finite
}

// Irregular returns the padded interval of a finite box that is not
// Regular, c its center and along and across its axis's components
// along and across the interval's coordinate. It is conservative: when
// obb.Box.Overlaps says such a box overlaps any other, their intervals
// overlap on each coordinate.
//
// With a unit axis (within obb.AxisTolerance), the box's half extents are
// taken as |hx| and |hy|: the separating-axis test's radii only grow with
// them (each is a sum of products of a half extent and a non-negative
// value, and rounding to nearest is monotonic), so the box overlaps no
// box that the valid box with |hx| and |hy| does not, and that box's
// interval is the valid one.
//
// With an axis u of length L ≠ 1, the test on the other box B's axes
// (Gottschalk's axes 3 and 4) bounds the centers' difference d by B's half
// extents plus L·(|hx| + |hy|) along each of B's axes, and the test on the
// box's own axes bounds it by (|hx| + |hy|)/L plus L_B·Σ_B along each of its
// own. Either way each coordinate of d is at most B's extent along that
// coordinate plus E = √2·((|hx| + |hy|)·max(L, 1/L) + 2⁻¹⁴⁸/L) (when B is
// valid, its exact extent; when B too is irregular, E_B): E is the half
// extent this box's interval uses, padded by Interval as a valid box's,
// which covers the float32 test's relative rounding with room to spare.
//
// The term 2⁻¹⁴⁸/L is the test's absolute rounding, which a short axis
// magnifies. A product that underflows is off by up to 2⁻¹⁵⁰, half the
// smallest subnormal, not by a share of itself (a sum of subnormals is
// exact), so the test's projection of d on this box's axis, two products
// and their sum, is off by up to 2⁻¹⁴⁹, and its radius by as much again
// plus 2⁻¹⁴⁹·(B's |hx| + |hy|), the axes' dot products having underflowed
// too: 2⁻¹⁴⁸ in all, and 2⁻¹⁴⁸/L of distance along the axis, beside
// 2⁻¹⁴⁹·Σ_B/L. Take the test on the axes of whichever box has the longer
// axis; that term is then at most 2⁻¹⁴⁹·Σ_B/L_B, which fits in the gap
// between B's Σ_B·max(L_B, 1/L_B) and the Σ_B·L_B the bound already takes
// from it (for L_B < 1 because L_B² + 2⁻¹⁴⁹ ≤ 1, for L_B > 1 in the
// padding), or, when B is valid, take the test on B's axes, where it is
// 2⁻¹⁴⁹ of this box's sum of half extents, in the padding. Two boxes of
// axis (0, 2⁻¹⁴⁹) and no extent, whose every product rounds to zero,
// overlap by the test wherever their centers are within half a unit of
// each other on each coordinate: without the term their intervals would
// be points. obb.Box.ContainsPoint's test is the same projections against
// the bare half extents, off by no more. An axis of length 0 makes E
// infinite (or NaN, with no extent), and the interval is not finite.
//
// The bounds above need the radii of the axes they take the test on to be
// finite: a radius that overflows to +Inf passes every projection, +Inf
// included, so two boxes can overlap by the test however far apart they
// are. A box whose axis is 2⁶⁰ long or more, or whose L·(|hx| + |hy|) is,
// gets an interval that is not finite, and is tested against every box,
// as is one whose half extents sum to Huge or more.
// When neither box is such, the radii of the axes taken are finite: each
// is a half extent plus the products of the other box's half extents with
// the axes' dot products, which are at most √2·L_A·L_B; on the axes of a
// valid box (L about 1), or else of the box with the longer axis, those
// products are at most √2 times the other box's L·(|hx| + |hy|) times the
// longer length, below 2¹²¹, and a half extent plus them cannot round
// past the largest float32.
func Irregular(c, hx, hy, along, across float32) (lo, hi float32) {
	h1, h2 := float64(f32.Abs(hx)), float64(f32.Abs(hy))
	if h1+h2 >= Huge {
		return float32(math.Inf(-1)), float32(math.Inf(1))
	}
	a, b := float64(along), float64(across)
	l2 := float64(a*a) + float64(b*b)
	if math.Abs(l2-1) <= obb.AxisTolerance {
		return Interval(float64(c), h1, h2, a, b)
	}
	l := math.Sqrt(l2)
	if l >= 0x1p60 || float64((h1+h2)*l) >= 0x1p60 {
		return float32(math.Inf(-1)), float32(math.Inf(1))
	}
	e := float64(math.Sqrt2 * (float64((h1+h2)*max(l, 1/l)) + 0x1p-148/l))
	return Interval(float64(c), e, 0, 1, 0)
}

// Interval returns float32 bounds lo ≤ c - e - w and hi ≥ c + e + w, for the
// exact extent e = h1·|along| + h2·|across| and padding
// w = PadFactor·(h1+h2) + 2⁻¹⁴⁰, with round-to-nearest conversions only. The
// products of float32 values are exact in float64; each of the few float64
// sums is off by at most 2⁻⁵³ of S = |c| + e + w, and the final rounding to
// float32 by at most 2⁻²⁴ of the result plus half the smallest subnormal. The
// margin m = 2⁻²²·S + 2⁻¹⁴⁸ exceeds all of them together, so moving m further
// out before rounding keeps the bounds on the safe side without a directed
// rounding step (which picks a direction per value, and cost the sweep a
// mispredicted branch per bound).
func Interval(c, h1, h2, along, across float64) (lo, hi float32) {
	e := float64(h1*math.Abs(along)) + float64(h2*math.Abs(across))
	w := float64(PadFactor*(h1+h2)) + 0x1p-140
	m := float64((math.Abs(c)+e+w)*0x1p-22) + 0x1p-148
	return float32(c - e - w - m), float32(c + e + w + m)
}

// Reach returns, for a Regular box whose bounds lie well inside the
// float32 range, float64s rx and ry at least the distance from the box's
// center to each of the two bounds Box returns on x and on y, and true;
// for any other box, false. It computes Interval's e, w and m on
// each coordinate, with the same operations, so the same values: the bound
// that Interval rounds to float32 is c - e - w - m moved out by less than
// m, so it lies within e + w + 2m of c, and each of rx and ry is that sum,
// whose two float64 additions each round by at most 2⁻⁵³ of it, enlarged
// by 2⁻⁵⁰. When |c| + max(rx, ry) is below 2¹²⁷ the bounds are finite,
// which Box reports too; otherwise Reach returns false and the caller asks
// Box. It skips Box's conversions to float32 and back: the grid of package
// world computes it for every box moved, and checks with it whether a
// moved box is still inside its fat bounds (BenchmarkWorldStep,
// moved=100%).
//
// It checks validity on the values it computes anyway, after the
// arithmetic, rather than by calling Valid first, which would add half again
// to Reach's time. The checks are Valid's: a NaN or an infinity in a half
// extent, an axis component or a center coordinate makes rx, ry or the
// axis's squared length NaN or infinite (an infinite half extent times a
// zero axis component is NaN, times any other infinite, and the sums keep an
// infinity or a NaN), so the last comparison fails; a negative half extent
// fails its own, and the squared length is Valid's. The sum of the half
// extents is Regular's.
func Reach(b obb.Box) (rx, ry float64, ok bool) {
	h1, h2 := float64(b.Half.X), float64(b.Half.Y)
	ux, uy := float64(b.Axis.X), float64(b.Axis.Y)
	ax, ay := math.Abs(ux), math.Abs(uy)
	cx, cy := math.Abs(float64(b.Center.X)), math.Abs(float64(b.Center.Y))
	l2 := float64(ux*ux) + float64(uy*uy)
	ex := float64(h1*ax) + float64(h2*ay)
	ey := float64(h1*ay) + float64(h2*ax)
	w := float64(PadFactor*(h1+h2)) + 0x1p-140
	mx := float64((cx+ex+w)*0x1p-22) + 0x1p-148
	my := float64((cy+ey+w)*0x1p-22) + 0x1p-148
	rx = float64(ex+float64(2*mx)+w) * (1 + 0x1p-50)
	ry = float64(ey+float64(2*my)+w) * (1 + 0x1p-50)
	if !(h1 >= 0 && h2 >= 0 && h1+h2 < Huge && math.Abs(l2-1) <= obb.AxisTolerance && max(cx, cy)+max(rx, ry) < 0x1p127) {
		return 0, 0, false
	}
	return rx, ry, true
}

// Box returns b's bounds on both coordinates (Along's), and whether all
// four are finite: they are not for a box with a NaN or an infinity, a zero
// axis, or extents near the float32 limit.
//
// For a box whose axis has a squared length within the tolerance and
// whose half extents are not negative and sum to less than Huge it
// computes Interval's e, w and m on each coordinate, with the same
// operations (as Reach does), in one body: through Valid, Along and two
// calls of Interval, none of which the compiler inlines, the bounds would be
// a sixth of World.Query's time (BenchmarkWorldQuery). Those boxes are the
// Regular ones and the ones Valid turns down only for an infinity or a NaN
// in a center coordinate, for which Irregular calls Interval with the same
// values (the half extents' magnitudes, which differ from them at most in
// the sign of a zero, and w > 0 is added to the sum that holds it); every
// other box goes to Irregular. TestBoxIsAlong checks Box against Along.
func Box(b obb.Box) (lo, hi obb.Vec2, ok bool) {
	cx, cy := float64(b.Center.X), float64(b.Center.Y)
	ux, uy := float64(b.Axis.X), float64(b.Axis.Y)
	h1, h2 := float64(b.Half.X), float64(b.Half.Y)
	if !(h1 >= 0 && h2 >= 0 && h1+h2 < Huge && math.Abs(float64(ux*ux)+float64(uy*uy)-1) <= obb.AxisTolerance) {
		lo.X, hi.X = Irregular(b.Center.X, b.Half.X, b.Half.Y, b.Axis.X, b.Axis.Y)
		lo.Y, hi.Y = Irregular(b.Center.Y, b.Half.X, b.Half.Y, b.Axis.Y, b.Axis.X)
	} else {
		ax, ay := math.Abs(ux), math.Abs(uy)
		w := float64(PadFactor*(h1+h2)) + 0x1p-140
		ex := float64(h1*ax) + float64(h2*ay)
		ey := float64(h1*ay) + float64(h2*ax)
		mx := float64((math.Abs(cx)+ex+w)*0x1p-22) + 0x1p-148
		my := float64((math.Abs(cy)+ey+w)*0x1p-22) + 0x1p-148
		lo.X, hi.X = float32(cx-ex-w-mx), float32(cx+ex+w+mx)
		lo.Y, hi.Y = float32(cy-ey-w-my), float32(cy+ey+w+my)
	}
	ok = f32.Finite(lo.X) && f32.Finite(hi.X) && f32.Finite(lo.Y) && f32.Finite(hi.Y)
	return lo, hi, ok
}

// Along returns b's bounds on one coordinate, y or x: Interval's for a
// Regular box, Irregular's for another.
func Along(b obb.Box, y bool) (lo, hi float32) {
	c, u, v := b.Center.X, b.Axis.X, b.Axis.Y // extent along x: hx·|ux| + hy·|uy|
	if y {
		c, u, v = b.Center.Y, b.Axis.Y, b.Axis.X // along y: hx·|uy| + hy·|ux|
	}
	if Regular(b) {
		return Interval(float64(c), float64(b.Half.X), float64(b.Half.Y), float64(u), float64(v))
	}
	return Irregular(c, b.Half.X, b.Half.Y, u, v)
}
