package batch

import "github.com/obb2d/obb2d/internal/f32"

// Query is one box's fields, as the kernels broadcast them to every lane:
// center, unit x-edge direction and half extents.
type Query struct{ CX, CY, UX, UY, HX, HY float32 }

// overlapsGeneric is Overlaps in Go: the fallback on every platform and the
// oracle the assembly kernels are tested against. It works in steps of
// eight boxes, as the AVX2 kernel does, and tests each box with lane.
func overlapsGeneric(q *Query, cx, cy, ux, uy, hx, hy []float32, out []uint64) {
	n := len(cx)
	cy, ux, uy, hx, hy = cy[:n], ux[:n], uy[:n], hx[:n], hy[:n]
	var word uint64
	i := 0
	for ; i+8 <= n; i += 8 {
		var bits uint64
		for l := 0; l < 8; l++ {
			if lane(q, cx[i+l], cy[i+l], ux[i+l], uy[i+l], hx[i+l], hy[i+l]) {
				bits |= 1 << l
			}
		}
		word |= bits << (i & 63)
		if i&63 == 56 {
			out[i>>6] = word
			word = 0
		}
	}
	for ; i < n; i++ {
		if lane(q, cx[i], cy[i], ux[i], uy[i], hx[i], hy[i]) {
			word |= 1 << (i & 63)
		}
	}
	if n&63 != 0 {
		out[n>>6] = word
	}
}

// lane is obb.Box.Overlaps for the query against one box: the same
// operations in the same order, with the same return after each axis that
// separates the boxes, so it computes the same bit, NaN included (a NaN
// fails the first comparison it reaches). Returning early matters: on a
// spread-out map the first axis settles most boxes, and computing all four
// axes before comparing made this kernel slower than the
// scalar test in a loop (BenchmarkOverlaps, impl=generic against
// impl=scalar). The query stays behind a pointer: taking it by value
// measured slower on both of BenchmarkOverlaps' scenes.
func lane(q *Query, cx, cy, ux, uy, hx, hy float32) bool {
	dx := cx - q.CX
	dy := cy - q.CY
	ac := f32.Abs(float32(q.UX*ux) + float32(q.UY*uy))
	as := f32.Abs(float32(q.UX*uy) - float32(q.UY*ux))

	if !(f32.Abs(float32(dx*q.UX)+float32(dy*q.UY)) <= q.HX+(float32(hx*ac)+float32(hy*as))) {
		return false
	}
	if !(f32.Abs(float32(dy*q.UX)-float32(dx*q.UY)) <= q.HY+(float32(hx*as)+float32(hy*ac))) {
		return false
	}
	if !(f32.Abs(float32(dx*ux)+float32(dy*uy)) <= hx+(float32(q.HX*ac)+float32(q.HY*as))) {
		return false
	}
	return f32.Abs(float32(dy*ux)-float32(dx*uy)) <= hy+(float32(q.HX*as)+float32(q.HY*ac))
}
