package kernel

import (
	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/obb"
)

// Query is one box prepared for testing against many. Build it with
// [NewQuery]; the zero Query is a box whose axis is zero.
type Query struct{ q batch.Query }

// NewQuery prepares b for testing against many boxes.
//
// The separating-axis test of package obb uses the query's fields as they
// are: every product in it involves both boxes, so nothing of the query can be
// folded in ahead without changing the operation order the kernels share. The
// kernels broadcast each field to every lane once per call.
func NewQuery(b obb.Box) Query {
	return Query{batch.Query{CX: b.Center.X, CY: b.Center.Y, UX: b.Axis.X, UY: b.Axis.Y, HX: b.Half.X, HY: b.Half.Y}}
}

// Box returns the box the query was made from.
func (q *Query) Box() obb.Box {
	return obb.Box{
		Center: obb.Vec2{X: q.q.CX, Y: q.q.CY},
		Axis:   obb.Vec2{X: q.q.UX, Y: q.q.UY},
		Half:   obb.Vec2{X: q.q.HX, Y: q.q.HY},
	}
}
