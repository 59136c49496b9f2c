package kernel

import "github.com/obb2d/obb2d/obb"

// Query is one box prepared for testing against many. Build it with
// [NewQuery]; the zero Query is a box whose axis is zero.
type Query struct {
	cx, cy float32 // center
	ux, uy float32 // unit x-edge direction
	hx, hy float32 // half extents
}

// NewQuery prepares b for testing against many boxes.
//
// The separating-axis test of package obb uses the query's fields as they
// are: every product in it involves both boxes, so nothing of the query can be
// folded in ahead without changing the operation order the kernels share. The
// kernels broadcast each field to every lane once per call.
func NewQuery(b obb.Box) Query {
	return Query{b.Center.X, b.Center.Y, b.Axis.X, b.Axis.Y, b.Half.X, b.Half.Y}
}

// Box returns the box the query was made from.
func (q *Query) Box() obb.Box {
	return obb.Box{
		Center: obb.Vec2{X: q.cx, Y: q.cy},
		Axis:   obb.Vec2{X: q.ux, Y: q.uy},
		Half:   obb.Vec2{X: q.hx, Y: q.hy},
	}
}
