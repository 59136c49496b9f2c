package obb

import "github.com/obb2d/obb2d/internal/f32"

// Manifold is how two boxes touch: the direction to push them apart and up
// to two contact points, what a physics engine's contact solver takes.
type Manifold struct {
	Normal Vec2 // unit, pointing from the first box toward the second
	Count  int  // 0, 1 or 2
	Points [2]ManifoldPoint
}

// ManifoldPoint is one contact point.
type ManifoldPoint struct {
	Point      Vec2    // world position, midway between the two surfaces
	Separation float32 // along Normal; negative when the boxes interpenetrate
	// ID names the features that made the point: bit 24 is set when the
	// reference face is the second box's, bits 16-17 are the reference face
	// and bits 8-9 the incident face (faces 0 to 3 have outward normals
	// +Axis, +Axis.Perp(), -Axis, -Axis.Perp()), and bits 0-1 the point's
	// origin on the incident edge: 0 and 1 its first and second corner, 2
	// and 3 a clip against the reference face's lower and upper side. It
	// stays the same from step to step while the same features touch, for
	// warm starting.
	ID uint32
}

// Collide returns the contact manifold of a and b: the separating-axis test
// on the four edge normals, as Overlaps computes it, picks the face of least
// penetration as the reference face; the other box's face most opposed to
// it is the incident face, whose edge is clipped to the reference face's
// sides (the clipping of Box2D's b2CollidePolygons; Catto, Contact
// Manifolds, GDC 2007); and the clipped corners whose separation is at most
// margin are the points. A positive margin gives speculative contacts for
// boxes not yet touching; with margin 0, Count > 0 agrees with Overlaps
// outside the rounding band.
//
// The operations, each rounded to float32, no fused multiply-add:
//
//	dx, dy, c, s, pk, rk as in Overlaps, with pk before |·|
//	sep_k = |pk| - rk                       k = 1, 2 (a's u, v), 3, 4 (b's u, v)
//	sepA = max(sep1, sep2), sepB = max(sep3, sep4)
//	Count = 0 unless max(sepA, sepB) <= margin
//	reference box R: b when sepB > sepA + tol, tol = 2⁻¹⁰·(a.Half.X + a.Half.Y + b.Half.X + b.Half.Y),
//	    else a (a keeps the reference through near-ties, as in Box2D, so the
//	    choice does not flip between frames); on R, its v axis when its
//	    v separation is larger than its u separation, else its u axis. When
//	    the incident edge below lies wholly beyond a side of R's face (a
//	    near-tie taken for a, corner against corner), the other box is R.
//
// Then in R's frame, with I the other box, D = I.Center - R.Center (dx, dy
// negated exactly when R is b) and σ the sign of D along the chosen axis
// (+ for 0): the normal n is σ·(that axis), t = n.Perp(), and hn, ht are R's
// half extents along n and t. Coordinates along n and t of D and of I's axes
// are ±p and ±c, ±s, exact sign changes of the values above. The incident
// face is a u face of I when |u_I·n| >= |v_I·n|, else a v face, the one
// whose outward normal points against n; its corners are
//
//	N = D·n + σ'·float32(h₁·(e₁·n)) ∓ float32(h₂·(e₂·n))   (T alike along t)
//
// with e₁ the face's axis, h₁ its half extent, σ' the face's side, e₂ and h₂
// the other axis; the corners are then ordered by T (the minus sign's
// first when T₁ <= T₂). A first corner with T < -ht is moved to the lower
// side, then a second with T > ht to the upper: λ = (side - T₁)/(T₂ - T₁),
// N = N₁ + float32(λ·(N₂ - N₁)), T = side, from the (moved) first corner. A point's separation is N - hn;
// its position is R.Center + (float32(n·m) + float32(t·T)) per coordinate,
// m = (N + hn)/2, halfway between the surfaces. The manifold's normal is n,
// or -n when R is b.
//
// Rounding: the separations are sums of the same rounded terms as
// Overlaps' margins. For boxes the exact oracle describes (package obb's
// Rounding section), the deepest point's Separation is within 64 bands of
// the exact penetration (the largest exact margin |D·n| - (r_a + r_b)) when
// the reference face is on the exact least-penetration axis, and within
// tol more when a near-tie kept a's face; the normal's squared length is
// within 10⁻⁵ of 1 (it is an axis as stored); and each point lies in both
// boxes grown by |Separation| + 10⁻⁵·S + 2⁻²¹·C, with S the pair's scale
// and C the largest center coordinate (the point is rounded next to a
// center). TestCollideInvariants checks these on generated pairs. For the
// features the computation chose (the ID), each point's Separation is
// within 4 bands of the exact value of the formulas above and its
// coordinates within 4 bands plus 2⁻²² of the reference box's center
// coordinate (TestCollidePointsAgainstExact).
//
// Bad data: a NaN anywhere fails the comparison with margin, and Count is
// 0. Boxes with negative half extents or axes not of unit length get what
// the operations above give.
func (a Box) Collide(b Box, margin float32) Manifold {
	dx, dy := b.Center.X-a.Center.X, b.Center.Y-a.Center.Y
	c := float32(a.Axis.X*b.Axis.X) + float32(a.Axis.Y*b.Axis.Y)
	s := float32(a.Axis.X*b.Axis.Y) - float32(a.Axis.Y*b.Axis.X)
	ac, as := f32.Abs(c), f32.Abs(s)
	p1 := float32(dx*a.Axis.X) + float32(dy*a.Axis.Y)
	r1 := a.Half.X + (float32(b.Half.X*ac) + float32(b.Half.Y*as))
	p2 := float32(dy*a.Axis.X) - float32(dx*a.Axis.Y)
	r2 := a.Half.Y + (float32(b.Half.X*as) + float32(b.Half.Y*ac))
	p3 := float32(dx*b.Axis.X) + float32(dy*b.Axis.Y)
	r3 := b.Half.X + (float32(a.Half.X*ac) + float32(a.Half.Y*as))
	p4 := float32(dy*b.Axis.X) - float32(dx*b.Axis.Y)
	r4 := b.Half.Y + (float32(a.Half.X*as) + float32(a.Half.Y*ac))
	sep1, sep2 := f32.Abs(p1)-r1, f32.Abs(p2)-r2
	sep3, sep4 := f32.Abs(p3)-r3, f32.Abs(p4)-r4
	sepA, sepB := max(sep1, sep2), max(sep3, sep4)
	if !(max(sepA, sepB) <= margin) {
		return Manifold{}
	}
	tol := float32(float32(0x1p-10) * (a.Half.X + a.Half.Y + b.Half.X + b.Half.Y))
	var m Manifold
	onB := sepB > sepA+tol
	for range 2 {
		var ok bool
		switch {
		case onB && sep4 > sep3: // b is the reference: D from b to a negates p3, p4 and s
			ok = clip(&m, b, a, 1, -p4, -p3, c, -s, margin, true)
		case onB:
			ok = clip(&m, b, a, 0, -p3, -p4, c, -s, margin, true)
		case sep2 > sep1:
			ok = clip(&m, a, b, 1, p2, p1, c, s, margin, false)
		default:
			ok = clip(&m, a, b, 0, p1, p2, c, s, margin, false)
		}
		if ok {
			return m
		}
		onB = !onB
	}
	return Manifold{}
}

// clip finishes Collide with reference box r and incident box i: axis 0
// (r's u) or 1 (r's v) as the reference face's axis, pj and po the
// coordinates of D along that axis and the other one, c and s i's u axis in
// r's frame. It reports false when the incident edge lies wholly beyond a
// side of the reference face (or its corners compare as NaN).
func clip(m *Manifold, r, i Box, axis int, pj, po, c, s, margin float32, second bool) bool {
	sigma := float32(1)
	if !(pj >= 0) {
		sigma = -1
	}
	// (n, t) coordinates of r-frame vectors (x along u, y along v):
	// axis 0: n = σu, t = σv, so (σx, σy); axis 1: n = σv, t = -σu, so
	// (σy, -σx). D is (pj, po) along (axis, other); i's u is (c, s) and
	// its v (-s, c).
	var dN, dT, uN, uT, vN, vT float32
	if axis == 0 {
		dN, dT = sigma*pj, sigma*po
		uN, uT, vN, vT = sigma*c, sigma*s, sigma*-s, sigma*c
	} else {
		dN, dT = sigma*pj, -sigma*po
		uN, uT, vN, vT = sigma*s, -sigma*c, sigma*c, sigma*s
	}
	u := r.Axis
	var n Vec2
	var hn, ht float32
	refFace := uint32(axis)
	if axis == 0 {
		n, hn, ht = u.Scale(sigma), r.Half.X, r.Half.Y
	} else {
		n, hn, ht = u.Perp().Scale(sigma), r.Half.Y, r.Half.X
	}
	if sigma < 0 {
		refFace += 2
	}
	t := n.Perp()

	// The incident face and its corners, in (n, t).
	// A u face (face 0 or 2) when |u_i·n| >= |v_i·n|, else a v face (1 or
	// 3): e1 is the face's axis with half extent h1, e2 the other.
	h1, e1N, e1T, h2, e2N, e2T, incFace := i.Half.X, uN, uT, i.Half.Y, vN, vT, uint32(0)
	if !(f32.Abs(uN) >= f32.Abs(vN)) {
		h1, e1N, e1T, h2, e2N, e2T, incFace = i.Half.Y, vN, vT, i.Half.X, uN, uT, 1
	}
	side := float32(1) // the face whose outward normal opposes n
	if e1N >= 0 {
		side, incFace = -1, incFace+2
	}
	bn, bt := dN+side*float32(h1*e1N), dT+side*float32(h1*e1T)
	en, et := float32(h2*e2N), float32(h2*e2T)
	n1, t1, n2, t2 := bn-en, bt-et, bn+en, bt+et
	// Order the corners by T, so that clipping moves the first to the lower
	// side and the second to the upper.
	f1, f2 := uint32(0), uint32(1)
	if t2 < t1 {
		n1, t1, n2, t2 = n2, t2, n1, t1
		f1, f2 = 1, 0
	}
	if !(t2 >= -ht && t1 <= ht) {
		return false
	}
	if t1 < -ht {
		lambda := (-ht - t1) / (t2 - t1)
		n1, t1, f1 = n1+float32(lambda*(n2-n1)), -ht, 2
	}
	if t2 > ht {
		lambda := (ht - t1) / (t2 - t1)
		n2, t2, f2 = n1+float32(lambda*(n2-n1)), ht, 3
	}

	*m = Manifold{Normal: n}
	id := refFace<<16 | incFace<<8
	if second {
		m.Normal = Vec2{-n.X, -n.Y}
		id |= 1 << 24
	}
	for _, q := range [2]struct {
		n, t float32
		f    uint32
	}{{n1, t1, f1}, {n2, t2, f2}} {
		sep := q.n - hn
		if !(sep <= margin) {
			continue
		}
		mid := (q.n + hn) / 2
		p := Vec2{
			X: r.Center.X + (float32(n.X*mid) + float32(t.X*q.t)),
			Y: r.Center.Y + (float32(n.Y*mid) + float32(t.Y*q.t)),
		}
		m.Points[m.Count] = ManifoldPoint{Point: p, Separation: sep, ID: id | q.f}
		m.Count++
	}
	return true
}
