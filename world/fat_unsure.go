package world

import "github.com/obb2d/obb2d/obb"

// While the candidates are in use, a step checks its moved boxes against
// their fat bounds (escaped). A Move that keeps its box in its cell has
// just computed the box's reach to find that cell (bound.Reach), and the
// check needs nothing else but the fat bounds: Move makes it there, and
// MoveBoxes on its workers, and the step checks only the boxes they could
// not vouch for, the unsure ones. Made again in the step, the check would be
// a second pass over every moved box's slot with a second Reach, a large
// share of the all-moved step on the uniform scene (BenchmarkWorldStep,
// world=uniform/moved=100%/workers=1).
//
// The invariant, while the candidates are in use (fatState.valid, which
// only Pairs and Clear change), once the catch-up has run: every dirty slot
// that is not unsure holds a live box of its grid whose bounds lie inside
// the fat bounds made for its handle. Each change to a slot either vouches
// for it or marks it unsure. A Move that keeps the box in its cell vouches
// for it, after writing its pose, when the box lies inside, and so does the
// catch-up for a Move that left the cell to it (lag.go), which Pairs runs
// before it reads the marks; Insert, Remove, SetFilter and a Move to
// another cell mark the slot unsure. A mark is never taken back, so a slot
// none of whose changes marked it had its last change vouch for it, and
// fat bounds change only in Pairs, which clears the marks.

// within reports whether the box of slot i, handle h and center c lies
// inside the fat bounds made for h, by escaped's first test, given tx and
// ty at least (1 + 2⁻⁵⁰) times bound.Reach's rx and ry for it (slack);
// false when unsure: no fat bounds for h, or tx or ty +Inf or NaN.
//
// The bounds are within rx and ry of the center, so a center at least that
// far inside the fat bounds on each side has them inside. A float64
// difference of float32 values rounds by at most 2⁻⁵³ of it, and the
// product t = r·(1 + 2⁻⁵⁰) by at most 2⁻⁵³ of t, which the factor covers: a
// difference d ≥ t is exactly at least r.
func (v *fatState) within(i int32, h Handle, c obb.Vec2, tx, ty float64) bool {
	if int(i) >= len(v.box) || v.box[i].h != h {
		return false
	}
	f := &v.box[i]
	cx, cy := float64(c.X), float64(c.Y)
	return cx-float64(f.lo.X) >= tx && float64(f.hi.X)-cx >= tx && cy-float64(f.lo.Y) >= ty && float64(f.hi.Y)-cy >= ty
}

// slack returns r·(1 + 2⁻⁵⁰), within's margin over a reach r.
func slack(r float64) float64 { return r * (1 + 0x1p-50) }

// markUnsure records that slot i's box must be checked against its fat
// bounds by the next step, while the candidates are in use.
func (v *fatState) markUnsure(i int32) {
	if v.valid {
		v.unsure.add(i)
	}
}
