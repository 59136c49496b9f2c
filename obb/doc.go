// Package obb holds one two-dimensional oriented bounding box (OBB) in
// float32 and decides whether two of them overlap with the separating-axis
// test of Gottschalk (Collision Queries using Oriented Bounding Boxes, UNC
// Chapel Hill, 1999). In two dimensions only four candidate axes exist: the
// two edge directions of each box.
//
// # The box
//
// A [Box] is stored the way the overlap test wants it: a center, the unit
// direction of the box's local x edge (Axis = (cos θ, sin θ)), and the half
// extents along the local x edge and the local y edge, whose direction is
// Axis rotated a quarter turn counter-clockwise, (-Axis.Y, Axis.X). Storing
// the rotation as a cosine/sine pair instead of an angle means the test needs
// no trigonometry and no square root.
//
// The set a Box describes is the closed rectangle
//
//	{ Center + s·u + t·v : |s| ≤ Half.X, |t| ≤ Half.Y },  u = Axis, v = (-Axis.Y, Axis.X)
//
// taken with the float32 values exactly as stored. Boxes are closed: two
// boxes that only touch along an edge or at a corner overlap, a box overlaps
// itself, and a box that contains another overlaps it.
//
// # The overlap test, operation by operation
//
// Every implementation in this module (the scalar [Box.Overlaps], the pure-Go
// batch kernel and the assembly kernels in package kernel) performs exactly
// the following IEEE-754 binary32 operations, each rounded to nearest even,
// with no fused multiply-add, and therefore returns the same answer for every
// input, including NaN and infinities. With a the first box, b the second,
// |x| meaning x with its sign bit cleared, and every product written
// float32(x*y) in Go so the compiler may not fuse it into an add:
//
//	dx = b.Center.X - a.Center.X
//	dy = b.Center.Y - a.Center.Y
//	c  = float32(a.Axis.X*b.Axis.X) + float32(a.Axis.Y*b.Axis.Y)   // cos of the angle between the boxes
//	s  = float32(a.Axis.X*b.Axis.Y) - float32(a.Axis.Y*b.Axis.X)   // sin of it
//	ac = |c|,  as = |s|
//
//	axis 1, a's x edge u_a:
//	  p1 = |float32(dx*a.Axis.X) + float32(dy*a.Axis.Y)|
//	  r1 = a.Half.X + (float32(b.Half.X*ac) + float32(b.Half.Y*as))
//	axis 2, a's y edge v_a:
//	  p2 = |float32(dy*a.Axis.X) - float32(dx*a.Axis.Y)|
//	  r2 = a.Half.Y + (float32(b.Half.X*as) + float32(b.Half.Y*ac))
//	axis 3, b's x edge u_b:
//	  p3 = |float32(dx*b.Axis.X) + float32(dy*b.Axis.Y)|
//	  r3 = b.Half.X + (float32(a.Half.X*ac) + float32(a.Half.Y*as))
//	axis 4, b's y edge v_b:
//	  p4 = |float32(dy*b.Axis.X) - float32(dx*b.Axis.Y)|
//	  r4 = b.Half.Y + (float32(a.Half.X*as) + float32(a.Half.Y*ac))
//
//	overlap = p1 <= r1 && p2 <= r2 && p3 <= r3 && p4 <= r4
//
// pk is the distance between the centers projected on axis k and rk is the
// sum of the two boxes' projected radii on it; the axis separates the boxes
// when pk > rk. The radii use |u_a·v_b| = |s| and |u_a·u_b| = |v_a·v_b| = |c|,
// so four products of unit vectors serve all four axes. The comparisons are
// ordered and quiet (false when either side is NaN; VCMPPS predicate LE_OQ,
// 0x12, in the assembly), and the test returns early after the first axis that
// fails, which cannot change the answer. The axes are tried in the order above
// because the first one is the one most likely to separate two disjoint boxes.
//
// Swapping a and b negates dx, dy and s exactly and swaps axes 1↔3 and 2↔4
// with the same operands in the same order, so a.Overlaps(b) == b.Overlaps(a)
// for every pair of inputs.
//
// # Rounding
//
// The test is computed in float32 and can disagree with the exact answer only
// for pairs that nearly touch. The package's tests compare it with an exact
// rational oracle (math/big.Rat on the stored float32 values, deciding the
// closed rectangles above) and allow a disagreement only where the exact
// margin |D·n| - (r_a + r_b) on some axis n is within
//
//	band = (2⁻²⁰ + |1 - |a.Axis|²| + |1 - |b.Axis|²|) · S + 2⁻¹⁴⁶
//	S    = |dx| + |dy| + |a.Half.X| + |a.Half.Y| + |b.Half.X| + |b.Half.Y|
//
// of zero: sixteen units of float32 rounding (2⁻²⁴) of the pair's scale S,
// plus what an axis that is not exactly unit length costs, since the formula
// takes |Axis| = 1, plus eight of the smallest subnormal float32 for products
// that underflow. An axis made by [New] from cos and sin is within a few
// units of rounding of unit length; [Box.Validate] accepts an axis whose
// squared length is within [AxisTolerance] of 1.
//
// # Bad data
//
// Bad data is not a programming error and gets a deterministic answer, the one
// the operations above give, identical on every CPU and in every
// implementation:
//   - NaN in any field of either box: false. A NaN reaches every pk or rk
//     (0·NaN is NaN), and every comparison with NaN is false. Such a box
//     overlaps nothing, itself included.
//   - ±Inf: the IEEE result of the formula (for example Inf-Inf or 0·Inf make
//     NaN, and the answer is then false).
//   - Negative half extents are used as given and shrink the radii.
//   - An axis that is not unit length is used as given.
//
// [Box.Validate] reports each of these so a caller can reject them early.
//
// # Angles
//
// [New], [FromHalf], [Box.WithAngle] and [Box.Rotated] turn an angle into
// Axis, and [Box.Angle] turns Axis back, with this package's own sine,
// cosine and arctangent: float64 polynomials after a Cody-Waite reduction,
// every product rounded before it is added, no math function but the
// correctly rounded square root. The math package's differ across
// platforms in their last bit (the compiler fuses math.Sincos into FMA
// instructions on arm64, ppc64le, s390x, riscv64, loong64 and amd64 with
// GOAMD64=v3; s390x computes math.Atan2 in assembly), and a box built from
// the same angle must be the same box everywhere. The axis is within one
// float32 ulp of math.Sincos for |angle| < 2²⁰ radians, and [Box.Corners],
// [Box.Bounds] and the validity checks round every product explicitly too.
package obb
