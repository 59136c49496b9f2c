package obb

import (
	"errors"
	"fmt"
	"math"

	"github.com/obb2d/obb2d/internal/f32"
)

// Vec2 is a point or a direction in the plane.
type Vec2 struct{ X, Y float32 }

// Add returns p + q.
func (p Vec2) Add(q Vec2) Vec2 { return Vec2{p.X + q.X, p.Y + q.Y} }

// Sub returns p - q.
func (p Vec2) Sub(q Vec2) Vec2 { return Vec2{p.X - q.X, p.Y - q.Y} }

// Scale returns k·p.
func (p Vec2) Scale(k float32) Vec2 { return Vec2{p.X * k, p.Y * k} }

// Dot returns p·q, each product rounded to float32 before the sum.
func (p Vec2) Dot(q Vec2) float32 { return float32(p.X*q.X) + float32(p.Y*q.Y) }

// Perp returns p rotated a quarter turn counter-clockwise, (-p.Y, p.X).
func (p Vec2) Perp() Vec2 { return Vec2{-p.Y, p.X} }

// Box is an oriented rectangle: the closed set of points
// Center + s·Axis + t·Axis.Perp() with |s| ≤ Half.X and |t| ≤ Half.Y.
//
// Axis is the unit direction of the box's local x edge, (cos θ, sin θ) for a
// box rotated θ radians counter-clockwise; the local y edge points along
// (-Axis.Y, Axis.X). Half holds the half extents (half the width along Axis
// and half the height along the y edge). The zero Box is invalid (its axis is
// zero); build boxes with [New], [FromHalf], [FromMinMax] or [FromCorners], or
// fill the fields with a unit Axis.
type Box struct {
	Center Vec2 // center of the rectangle
	Axis   Vec2 // unit direction of the local x edge: (cos θ, sin θ)
	Half   Vec2 // half width along Axis, half height along Axis.Perp()
}

// New returns the box centered at center, width wide along its local x edge
// and height tall along its local y edge, rotated angle radians
// counter-clockwise. Degrees must be converted first (angle·π/180): an angle
// of 30 means 30 radians.
//
// Axis is (cos angle, sin angle) rounded to float32 by this package's own
// sine and cosine, which give the same bits on every platform and are
// within one unit in the last place of math.Sincos for |angle| < 2²⁰; the
// axis's squared length is then within 2⁻²² of 1, far inside
// [AxisTolerance]. An angle that is NaN, infinite or of magnitude 2⁵⁰ or
// more gives a NaN axis. Half is (width/2, height/2).
func New(center Vec2, width, height float32, angle float64) Box {
	return FromHalf(center, Vec2{width / 2, height / 2}, angle)
}

// FromHalf returns the box centered at center with half extents half, rotated
// angle radians counter-clockwise.
func FromHalf(center, half Vec2, angle float64) Box {
	return Box{Center: center, Axis: axisOf(angle), Half: half}
}

func axisOf(angle float64) Vec2 {
	sin, cos := sincos(angle)
	return Vec2{cos, sin}
}

// FromMinMax returns the axis-aligned box (Axis = (1, 0)) covering the
// rectangle [min.X, max.X] × [min.Y, max.Y]. The center and half extents are
// rounded to float32 so that the box always contains the rectangle: where the
// exact half extent is not a float32, the next larger float32 is used. With
// min > max on an axis the half extent is negative (see [Box.Validate]).
func FromMinMax(min, max Vec2) Box {
	cx, hx := centerHalf(min.X, max.X)
	cy, hy := centerHalf(min.Y, max.Y)
	return Box{Center: Vec2{cx, cy}, Axis: Vec2{1, 0}, Half: Vec2{hx, hy}}
}

// centerHalf returns a float32 center and the smallest float32 half extent
// that, around that center, reaches both lo and hi.
func centerHalf(lo, hi float32) (center, half float32) {
	c64 := (float64(lo) + float64(hi)) / 2 // exact: float32 sums fit in float64
	center = float32(c64)
	need := math.Max(float64(hi)-float64(center), float64(center)-float64(lo)) // exact in float64
	if lo > hi {
		need = (float64(hi) - float64(lo)) / 2
	}
	return center, f32.Up(need)
}

// hypot returns √(x² + y²), the products rounded before the sum and the
// square root correctly rounded, so every platform gives the same bits
// (math.Hypot is assembly on some). For the differences of float32 values
// FromCorners passes, the squares cannot overflow.
func hypot(x, y float64) float64 { return math.Sqrt(float64(x*x) + float64(y*y)) }

// ErrNotRectangle is returned (wrapped) by [FromCorners] when the four points
// are not the corners of a rectangle in order.
var ErrNotRectangle = errors.New("obb: corners do not form a rectangle")

// CornerTolerance is the relative tolerance [FromCorners] allows: each corner
// may miss the exact rectangle by this fraction of the rectangle's size.
const CornerTolerance = 1e-4

// FromCorners returns the box whose corners are c, in the order [Box.Corners]
// gives them: c[1]-c[0] is the local x edge and c[3]-c[0] the local y edge,
// with c[2] opposite c[0]. Either winding is accepted. It returns an error
// wrapping [ErrNotRectangle] when the edges are not perpendicular, or c[2] is
// not at c[1]+c[3]-c[0], within [CornerTolerance] of the rectangle's size,
// and an error for non-finite coordinates. The center is the mean of the
// corners; the axis is the normalised first edge (or the second edge turned a
// quarter clockwise when the first has zero length, or (1, 0) when the box is a
// point).
func FromCorners(c [4]Vec2) (Box, error) {
	var x, y [4]float64
	for i, p := range c {
		x[i], y[i] = float64(p.X), float64(p.Y)
		if !f32.Finite(p.X) || !f32.Finite(p.Y) {
			return Box{}, fmt.Errorf("obb: corner %d is not finite: (%g, %g)", i, p.X, p.Y)
		}
	}
	e0x, e0y := x[1]-x[0], y[1]-y[0]
	e1x, e1y := x[3]-x[0], y[3]-y[0]
	l0, l1 := hypot(e0x, e0y), hypot(e1x, e1y)
	scale := l0 + l1
	tol := CornerTolerance * scale
	if scale == 0 {
		tol = 0
	}
	// Opposite corner must close the parallelogram.
	if gap := hypot(x[2]-(x[1]+x[3]-x[0]), y[2]-(y[1]+y[3]-y[0])); gap > tol {
		return Box{}, fmt.Errorf("%w: corner 2 is %g away from c1+c3-c0", ErrNotRectangle, gap)
	}
	// Edges must be perpendicular: the parallelogram's skew is |e0·e1|/|e0|.
	if l0 > 0 && l1 > 0 {
		if skew := math.Abs(float64(e0x*e1x)+float64(e0y*e1y)) / math.Max(l0, l1); skew > tol {
			return Box{}, fmt.Errorf("%w: edges are not perpendicular (skew %g)", ErrNotRectangle, skew)
		}
	}
	var ux, uy float64
	switch {
	case l0 > 0:
		ux, uy = e0x/l0, e0y/l0
	case l1 > 0:
		ux, uy = e1y/l1, -e1x/l1
	default:
		ux, uy = 1, 0
	}
	cx := (x[0] + x[1] + x[2] + x[3]) / 4
	cy := (y[0] + y[1] + y[2] + y[3]) / 4
	return Box{
		Center: Vec2{float32(cx), float32(cy)},
		Axis:   Vec2{float32(ux), float32(uy)},
		Half:   Vec2{float32(l0 / 2), float32(l1 / 2)},
	}, nil
}

// Overlaps reports whether the closed rectangles a and b share at least one
// point, by the separating-axis test written out operation by operation in
// the package documentation. Touching boxes overlap; a box with a NaN field
// overlaps nothing. Overlaps is symmetric for every input:
// a.Overlaps(b) == b.Overlaps(a).
func (a Box) Overlaps(b Box) bool {
	dx := b.Center.X - a.Center.X
	dy := b.Center.Y - a.Center.Y
	ac := f32.Abs(float32(a.Axis.X*b.Axis.X) + float32(a.Axis.Y*b.Axis.Y))
	as := f32.Abs(float32(a.Axis.X*b.Axis.Y) - float32(a.Axis.Y*b.Axis.X))

	// Axis 1: a's x edge. Most disjoint pairs are settled here.
	p := f32.Abs(float32(dx*a.Axis.X) + float32(dy*a.Axis.Y))
	r := a.Half.X + (float32(b.Half.X*ac) + float32(b.Half.Y*as))
	if !(p <= r) {
		return false
	}
	// Axis 2: a's y edge.
	p = f32.Abs(float32(dy*a.Axis.X) - float32(dx*a.Axis.Y))
	r = a.Half.Y + (float32(b.Half.X*as) + float32(b.Half.Y*ac))
	if !(p <= r) {
		return false
	}
	// Axis 3: b's x edge.
	p = f32.Abs(float32(dx*b.Axis.X) + float32(dy*b.Axis.Y))
	r = b.Half.X + (float32(a.Half.X*ac) + float32(a.Half.Y*as))
	if !(p <= r) {
		return false
	}
	// Axis 4: b's y edge.
	p = f32.Abs(float32(dy*b.Axis.X) - float32(dx*b.Axis.Y))
	r = b.Half.Y + (float32(a.Half.X*as) + float32(a.Half.Y*ac))
	return p <= r
}

// OverlapsAABB reports whether a overlaps the axis-aligned rectangle
// [min.X, max.X] × [min.Y, max.Y]: static map tiles, say. It is the
// separating-axis test with the second box's axis fixed to (1, 0), so the
// products with 0 and 1 drop out. Whenever the difference of the two centers
// is finite (no NaN or infinity in the inputs and no overflow), it returns
// exactly a.Overlaps(FromMinMax(min, max)). With a NaN anywhere it returns
// false.
func (a Box) OverlapsAABB(min, max Vec2) bool {
	b := FromMinMax(min, max)
	dx := b.Center.X - a.Center.X
	dy := b.Center.Y - a.Center.Y
	// With b.Axis = (1, 0): c = a.Axis.X and s = -a.Axis.Y.
	ac := f32.Abs(a.Axis.X)
	as := f32.Abs(a.Axis.Y)

	// b's axes are the world axes: the cheap tests first.
	p := f32.Abs(dx)
	r := b.Half.X + (float32(a.Half.X*ac) + float32(a.Half.Y*as))
	if !(p <= r) {
		return false
	}
	p = f32.Abs(dy)
	r = b.Half.Y + (float32(a.Half.X*as) + float32(a.Half.Y*ac))
	if !(p <= r) {
		return false
	}
	p = f32.Abs(float32(dx*a.Axis.X) + float32(dy*a.Axis.Y))
	r = a.Half.X + (float32(b.Half.X*ac) + float32(b.Half.Y*as))
	if !(p <= r) {
		return false
	}
	p = f32.Abs(float32(dy*a.Axis.X) - float32(dx*a.Axis.Y))
	r = a.Half.Y + (float32(b.Half.X*as) + float32(b.Half.Y*ac))
	return p <= r
}

// ContainsPoint reports whether p lies in the closed rectangle a, computed
// as |float32(d·u)| <= Half.X && |float32(d·v)| <= Half.Y with d = p - Center,
// each product rounded to float32. A NaN anywhere gives false.
func (a Box) ContainsPoint(p Vec2) bool {
	dx := p.X - a.Center.X
	dy := p.Y - a.Center.Y
	return f32.Abs(float32(dx*a.Axis.X)+float32(dy*a.Axis.Y)) <= a.Half.X &&
		f32.Abs(float32(dy*a.Axis.X)-float32(dx*a.Axis.Y)) <= a.Half.Y
}

// Corners returns the four corners counter-clockwise (for a positive Half),
// starting with corner 0 = Center - Half.X·u - Half.Y·v, then
// 1 = Center + Half.X·u - Half.Y·v, 2 = Center + Half.X·u + Half.Y·v and
// 3 = Center - Half.X·u + Half.Y·v, where u = Axis and v = Axis.Perp().
// Each coordinate is computed in float64 and rounded once to float32.
func (a Box) Corners() [4]Vec2 {
	cx, cy := float64(a.Center.X), float64(a.Center.Y)
	ux, uy := float64(a.Axis.X), float64(a.Axis.Y)
	hx, hy := float64(a.Half.X), float64(a.Half.Y)
	// Offsets of the half edges: hx·u and hy·v with v = (-uy, ux). Each
	// product is rounded on its own (it is exact: float32 times float32 fits
	// in float64) and negated after, so no platform can fuse a product into
	// the sums below and change a zero's sign.
	ex, ey := float64(hx*ux), float64(hx*uy)
	fx, fy := -float64(hy*uy), float64(hy*ux)
	return [4]Vec2{
		{float32(cx - ex - fx), float32(cy - ey - fy)},
		{float32(cx + ex - fx), float32(cy + ey - fy)},
		{float32(cx + ex + fx), float32(cy + ey + fy)},
		{float32(cx - ex + fx), float32(cy - ey + fy)},
	}
}

// Bounds returns the smallest axis-aligned rectangle [min, max], in float32,
// that contains a: the extents Half.X·|Axis.X| + Half.Y·|Axis.Y| (and the
// same with X and Y swapped) are computed in float64 and min and max rounded
// outward, so no point of the box lies outside. For a box with a NaN field the
// result holds NaN.
func (a Box) Bounds() (min, max Vec2) {
	ux, uy := math.Abs(float64(a.Axis.X)), math.Abs(float64(a.Axis.Y))
	hx, hy := float64(a.Half.X), float64(a.Half.Y)
	ex := float64(hx*ux) + float64(hy*uy)
	ey := float64(hx*uy) + float64(hy*ux)
	cx, cy := float64(a.Center.X), float64(a.Center.Y)
	min = Vec2{f32.Down(cx - ex), f32.Down(cy - ey)}
	max = Vec2{f32.Up(cx + ex), f32.Up(cy + ey)}
	return min, max
}

// Angle returns the box's rotation in radians, in [-π, π]: the angle of
// Axis, computed by this package's own arctangent, which gives the same bits
// on every platform and follows math.Atan2's special cases.
func (a Box) Angle() float64 { return atan2(float64(a.Axis.Y), float64(a.Axis.X)) }

// MovedTo returns a copy of a with its center at center.
func (a Box) MovedTo(center Vec2) Box {
	a.Center = center
	return a
}

// Translated returns a copy of a moved by d.
func (a Box) Translated(d Vec2) Box {
	a.Center = a.Center.Add(d)
	return a
}

// WithAngle returns a copy of a rotated to angle radians counter-clockwise
// about its center; center and half extents are kept.
func (a Box) WithAngle(angle float64) Box {
	a.Axis = axisOf(angle)
	return a
}

// Rotated returns a copy of a turned by delta radians counter-clockwise about
// its center. The new axis is computed from the angle, not by multiplying the
// old axis, so repeated small turns do not drift away from unit length.
func (a Box) Rotated(delta float64) Box {
	return a.WithAngle(a.Angle() + delta)
}

// AxisTolerance is how far from 1 [Box.Validate] lets the squared length of
// Axis be. Axes made from cos and sin of a float64 angle and rounded to
// float32 are within about 1.2e-7; the tolerance leaves room for axes users
// normalise in float32 themselves.
const AxisTolerance = 1e-5

// FieldError describes one bad field of a box: which one, its value and why.
type FieldError struct {
	Field  string  // "Center.X", "Axis", "Half.Y", ...
	Value  float32 // the offending value (the squared length for "Axis")
	Reason string  // "NaN", "infinite", "negative", "not unit length"
}

// Error names the field and what is wrong with it.
func (e *FieldError) Error() string {
	return fmt.Sprintf("obb: %s is %s (%g)", e.Field, e.Reason, e.Value)
}

// Valid reports whether Validate would return nil, without building an
// error: every field finite, half extents not negative, and the axis's
// squared length within [AxisTolerance] of 1. It is cheap enough for a
// per-box check on every pass of a sweep.
func (a Box) Valid() bool {
	if !f32.Finite(a.Center.X) || !f32.Finite(a.Center.Y) || !f32.Finite(a.Axis.X) ||
		!f32.Finite(a.Axis.Y) || !f32.Finite(a.Half.X) || !f32.Finite(a.Half.Y) {
		return false
	}
	if a.Half.X < 0 || a.Half.Y < 0 {
		return false
	}
	ux, uy := float64(a.Axis.X), float64(a.Axis.Y)
	return math.Abs(float64(ux*ux)+float64(uy*uy)-1) <= AxisTolerance
}

// Validate returns nil for a box the overlap test is meant for, and otherwise
// a *[FieldError] naming the first bad field in the order Center.X, Center.Y,
// Axis.X, Axis.Y, Half.X, Half.Y, Axis: a NaN or infinite value, a negative
// half extent, or an axis whose squared length is not within [AxisTolerance]
// of 1. Zero half extents are valid (a segment or a point).
func (a Box) Validate() error {
	fields := [...]struct {
		name string
		v    float32
		half bool
	}{
		{"Center.X", a.Center.X, false}, {"Center.Y", a.Center.Y, false},
		{"Axis.X", a.Axis.X, false}, {"Axis.Y", a.Axis.Y, false},
		{"Half.X", a.Half.X, true}, {"Half.Y", a.Half.Y, true},
	}
	for _, f := range fields {
		switch {
		case f.v != f.v:
			return &FieldError{f.name, f.v, "NaN"}
		case math.IsInf(float64(f.v), 0):
			return &FieldError{f.name, f.v, "infinite"}
		case f.half && f.v < 0:
			return &FieldError{f.name, f.v, "negative"}
		}
	}
	ux, uy := float64(a.Axis.X), float64(a.Axis.Y)
	if l2 := float64(ux*ux) + float64(uy*uy); math.Abs(l2-1) > AxisTolerance {
		return &FieldError{"Axis", float32(l2), "not unit length"}
	}
	return nil
}
