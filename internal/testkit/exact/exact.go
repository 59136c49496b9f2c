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

// Point is a manifold point computed exactly: its separation and position.
type Point struct{ Separation, X, Y *big.Rat }

// ClippedPoint returns, exactly, the point of a.Collide(b, margin) that id
// names (see obb.ManifoldPoint): the reference face and the incident face
// the float32 computation chose, and the incident corner or side clip it
// made, evaluated in rational arithmetic with the same formula: with R the
// reference box and n its face's axis as stored (σ·u or σ·v, t = n
// rotated a quarter turn), a corner P of the incident face has N = (P -
// R.Center)·n and T = (P - R.Center)·t; a side clip is the point of the
// incident edge at T = ∓(R's half extent along t); the separation is N -
// hn and the position R.Center + n·(N + hn)/2 + t·T. It isolates the
// rounding of the float32 computation from its choices of features.
// ClippedPoint requires Applies(a, b).
func ClippedPoint(a, b obb.Box, id uint32) Point {
	r, i := a, b
	if id>>24&1 == 1 {
		r, i = b, a
	}
	perp := func(v vec) vec { return vec{new(big.Rat).Neg(v.y), v.x} }
	scale := func(v vec, k *big.Rat) vec { return vec{mul(v.x, k), mul(v.y, k)} }
	plus := func(p, q vec) vec { return vec{add(p.x, q.x), add(p.y, q.y)} }
	ur, ui := vec{rat(r.Axis.X), rat(r.Axis.Y)}, vec{rat(i.Axis.X), rat(i.Axis.Y)}
	cr, ci := vec{rat(r.Center.X), rat(r.Center.Y)}, vec{rat(i.Center.X), rat(i.Center.Y)}

	ref := id >> 16 & 3
	n, hn, ht := ur, rat(r.Half.X), rat(r.Half.Y)
	if ref&1 == 1 {
		n, hn, ht = perp(ur), rat(r.Half.Y), rat(r.Half.X)
	}
	if ref >= 2 {
		n = scale(n, big.NewRat(-1, 1))
	}
	t := perp(n)

	inc := id >> 8 & 3
	e1, h1, e2, h2 := ui, rat(i.Half.X), perp(ui), rat(i.Half.Y)
	if inc&1 == 1 {
		e1, h1, e2, h2 = perp(ui), rat(i.Half.Y), ui, rat(i.Half.X)
	}
	side := big.NewRat(1, 1)
	if inc >= 2 {
		side = big.NewRat(-1, 1)
	}
	center := plus(ci, scale(e1, mul(side, h1)))
	corners := [2]vec{plus(center, scale(e2, new(big.Rat).Neg(h2))), plus(center, scale(e2, h2))}
	var nn, tt [2]*big.Rat
	for k, p := range corners {
		d := vec{sub(p.x, cr.x), sub(p.y, cr.y)}
		nn[k], tt[k] = dot(d, n), dot(d, t)
	}
	var pn, pt *big.Rat
	switch f := id & 3; f {
	case 0, 1:
		pn, pt = nn[f], tt[f]
	default:
		pt = ht
		if f == 2 {
			pt = new(big.Rat).Neg(ht)
		}
		lambda := new(big.Rat).Quo(sub(pt, tt[0]), sub(tt[1], tt[0]))
		pn = add(nn[0], mul(lambda, sub(nn[1], nn[0])))
	}
	mid := mul(add(pn, hn), big.NewRat(1, 2))
	pos := plus(cr, plus(scale(n, mid), scale(t, pt)))
	return Point{Separation: sub(pn, hn), X: pos.x, Y: pos.y}
}
