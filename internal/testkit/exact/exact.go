// Package exact decides overlap of two boxes exactly, in rational arithmetic
// on their float32 fields. It is the oracle the float32 implementations are
// tested against; it is slow and allocates.
package exact

import (
	"math"
	"math/big"

	"github.com/obb2d/obb2d/obb"
)

// Verdict is the exact answer for one pair and how close the pair is to
// touching on each axis.
type Verdict struct {
	Overlap bool
	// Margin[k] is |D·n| - (r_a(n) + r_b(n)) on axis n = u_a, v_a, u_b, v_b
	// (the stored axis vectors, not normalised): positive means n separates.
	Margin [4]*big.Rat
	// Band is the rounding band documented in package obb for this pair.
	Band *big.Rat
}

// NearTouch reports whether some axis's margin is within the band of zero:
// only such pairs may be decided differently by a float32 implementation.
func (v Verdict) NearTouch() bool {
	for _, m := range v.Margin {
		if new(big.Rat).Abs(m).Cmp(v.Band) <= 0 {
			return true
		}
	}
	return false
}

// Applies reports whether the oracle's model describes the pair: every field
// finite, half extents not negative and both axes non-zero. For other inputs
// the float32 answer is defined only by the documented operation order.
func Applies(a, b obb.Box) bool {
	for _, x := range [...]obb.Box{a, b} {
		for _, v := range [...]float32{x.Center.X, x.Center.Y, x.Axis.X, x.Axis.Y, x.Half.X, x.Half.Y} {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return false
			}
		}
		if x.Half.X < 0 || x.Half.Y < 0 || (x.Axis.X == 0 && x.Axis.Y == 0) {
			return false
		}
	}
	return true
}

func rat(v float32) *big.Rat { return new(big.Rat).SetFloat64(float64(v)) }

func mul(x, y *big.Rat) *big.Rat { return new(big.Rat).Mul(x, y) }
func add(x, y *big.Rat) *big.Rat { return new(big.Rat).Add(x, y) }
func sub(x, y *big.Rat) *big.Rat { return new(big.Rat).Sub(x, y) }
func abs(x *big.Rat) *big.Rat    { return new(big.Rat).Abs(x) }

type vec struct{ x, y *big.Rat }

func dot(p, q vec) *big.Rat { return add(mul(p.x, q.x), mul(p.y, q.y)) }

// Decide returns the exact verdict for the closed rectangles
// {C + s·u + t·v : |s| ≤ Half.X, |t| ≤ Half.Y} with u = Axis and
// v = (-Axis.Y, Axis.X) taken exactly as stored. Two convex polygons are
// disjoint iff one of their edge normals separates them, and u ⊥ v exactly,
// so the four axes decide; scaling an axis scales both sides of its test, so
// the axes need not be normalised. Decide requires Applies(a, b).
func Decide(a, b obb.Box) Verdict {
	ua := vec{rat(a.Axis.X), rat(a.Axis.Y)}
	ub := vec{rat(b.Axis.X), rat(b.Axis.Y)}
	va := vec{new(big.Rat).Neg(ua.y), ua.x}
	vb := vec{new(big.Rat).Neg(ub.y), ub.x}
	d := vec{sub(rat(b.Center.X), rat(a.Center.X)), sub(rat(b.Center.Y), rat(a.Center.Y))}
	hxa, hya, hxb, hyb := rat(a.Half.X), rat(a.Half.Y), rat(b.Half.X), rat(b.Half.Y)

	radius := func(u, v vec, hx, hy *big.Rat, n vec) *big.Rat {
		return add(mul(hx, abs(dot(u, n))), mul(hy, abs(dot(v, n))))
	}
	var verdict Verdict
	verdict.Overlap = true
	for k, n := range [4]vec{ua, va, ub, vb} {
		m := sub(abs(dot(d, n)), add(radius(ua, va, hxa, hya, n), radius(ub, vb, hxb, hyb, n)))
		verdict.Margin[k] = m
		if m.Sign() > 0 {
			verdict.Overlap = false
		}
	}

	// band = (2^-20 + |1-|ua|²| + |1-|ub|²|)·S + 2^-146
	one := big.NewRat(1, 1)
	factor := add(new(big.Rat).SetFloat64(0x1p-20), add(abs(sub(one, dot(ua, ua))), abs(sub(one, dot(ub, ub)))))
	scale := add(add(abs(d.x), abs(d.y)), add(add(abs(hxa), abs(hya)), add(abs(hxb), abs(hyb))))
	verdict.Band = add(mul(factor, scale), new(big.Rat).SetFloat64(0x1p-146))
	return verdict
}
