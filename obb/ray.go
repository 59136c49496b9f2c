package obb

import "github.com/obb2d/obb2d/internal/f32"

// RayCast intersects the segment from origin to origin+delta with the
// closed rectangle a, by the slab method (Kay and Kajiya, Ray Tracing
// Complex Scenes, 1986; Ericson, Real-Time Collision Detection, §5.3.3) in
// the box's own frame. It returns the fraction t in [0, 1] of delta at
// which the segment enters the box and the outward unit normal of the face
// it enters through (exactly ±Axis or ±Axis.Perp(), as stored, with no
// negative zero). A segment
// that starts inside the box hits at t = 0 with a zero normal.
//
// The operations, each rounded to float32, no fused multiply-add:
//
//	dx, dy = origin.X - Center.X, origin.Y - Center.Y
//	ox = float32(dx*u.X) + float32(dy*u.Y)       // origin in the box's frame
//	oy = float32(dy*u.X) - float32(dx*u.Y)
//	rx = float32(delta.X*u.X) + float32(delta.Y*u.Y) // delta in the box's frame
//	ry = float32(delta.Y*u.X) - float32(delta.X*u.Y)
//
// then for each slab (x with ox, rx, Half.X; y with oy, ry, Half.Y): when r
// is zero the slab holds the whole segment if |o| <= h and none of it
// otherwise; when r > 0 it enters at (-h - o)/r and leaves at (h - o)/r,
// and when r < 0 it enters at (h - o)/r and leaves at (-h - o)/r. The
// segment enters the box at tin, the larger entry (the x slab's on a tie),
// and leaves at tout, the smaller exit; it hits when tin <= tout,
// 0 <= tout and tin <= 1, all quiet ordered comparisons, so a NaN anywhere
// is a miss. A box with a negative half extent is empty and never hit.
func (a Box) RayCast(origin, delta Vec2) (t float32, normal Vec2, hit bool) {
	u := a.Axis
	dx, dy := origin.X-a.Center.X, origin.Y-a.Center.Y
	ox := float32(dx*u.X) + float32(dy*u.Y)
	oy := float32(dy*u.X) - float32(dx*u.Y)
	rx := float32(delta.X*u.X) + float32(delta.Y*u.Y)
	ry := float32(delta.Y*u.X) - float32(delta.X*u.Y)

	inX, outX, sx, okX := slab(ox, rx, a.Half.X)
	inY, outY, sy, okY := slab(oy, ry, a.Half.Y)
	if !okX || !okY {
		return 0, Vec2{}, false
	}
	tin, normal := inX, face(u, sx)
	if inY > inX {
		tin, normal = inY, face(u.Perp(), sy)
	}
	tout := min(outX, outY)
	if !(tin <= tout && 0 <= tout && tin <= 1) {
		return 0, Vec2{}, false
	}
	if !(tin >= 0) {
		return 0, Vec2{}, true
	}
	return tin, normal, true
}

// face returns sign·n with no negative zero (adding +0 turns -0 into +0
// and leaves every other value as it is), so that an axis-aligned normal
// prints and compares as (-1, 0), not (-1, -0).
func face(n Vec2, sign float32) Vec2 {
	return Vec2{float32(n.X*sign) + 0, float32(n.Y*sign) + 0}
}

// slab returns where a segment at o moving r per unit of t enters and
// leaves the slab |x| <= h, and the sign of the face it enters through;
// ok is false when it never is inside. A slab the segment runs along
// (r = 0) holds it for every t or for none, which -1 and 2, outside [0, 1],
// stand for.
func slab(o, r, h float32) (in, out, sign float32, ok bool) {
	switch {
	case r > 0:
		return (-h - o) / r, (h - o) / r, -1, true
	case r < 0:
		return (h - o) / r, (-h - o) / r, 1, true
	case r == 0 && f32.Abs(o) <= h:
		return -1, 2, 0, true
	}
	return 0, 0, 0, false
}
