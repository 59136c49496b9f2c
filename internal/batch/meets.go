package batch

import "unsafe"

// Bounds is the axis-aligned bounds of up to 16 boxes, lane by lane, in
// four columns: min x, min y, max x, max y. A World keeps one a Block for
// the fat bounds of its boxes.
type Bounds [4][BlockLanes]float32

// Rect is the rectangle [X0, X1] × [Y0, Y1] that Meets asks about.
type Rect struct{ X0, Y0, X1, Y1 float32 }

// Meets returns the lanes, of the first n of b, whose bounds meet r: bit
// i set when !(minX > r.X1) && !(r.X0 > maxX) && !(minY > r.Y1) &&
// !(r.Y0 > maxY), so that bounds or a rectangle with a NaN meet
// everything, as bounds that cannot be told apart from r must. It panics
// unless 0 <= n <= 16. The assembly kernels test all 16 lanes, whatever
// the lanes past n hold, and drop their bits.
func Meets(r *Rect, b *Bounds, n int) uint32 {
	return meets(r, b, n, uint32(blockBits("Meets", "bounds", n)))
}

// MeetsBelow is Meets for the lanes whose handle h[i] is also below limit,
// as unsigned integers.
func MeetsBelow(r *Rect, b *Bounds, h *[BlockLanes]uint32, limit uint32, n int) uint32 {
	return meetsBelow(r, b, h, limit, n, uint32(blockBits("Meets", "bounds", n)))
}

// meetsGeneric is Meets in Go, over the n lanes in use, each lane's four
// comparisons combined by AND without a branch on their answers.
func meetsGeneric(r *Rect, b *Bounds, n int) uint32 {
	var m uint32
	for i := range n {
		m |= uint32(b2u(!(b[0][i] > r.X1))&b2u(!(r.X0 > b[2][i]))&b2u(!(b[1][i] > r.Y1))&b2u(!(r.Y0 > b[3][i]))) << i
	}
	return m
}

// meetsBelowGeneric is MeetsBelow in Go, over the n lanes in use.
func meetsBelowGeneric(r *Rect, b *Bounds, h *[BlockLanes]uint32, limit uint32, n int) uint32 {
	var m uint32
	for i := range n {
		m |= uint32(b2u(h[i] < limit)&b2u(!(b[0][i] > r.X1))&b2u(!(r.X0 > b[2][i]))&b2u(!(b[1][i] > r.Y1))&b2u(!(r.Y0 > b[3][i]))) << i
	}
	return m
}

// b2u returns 1 for true, 0 for false.
func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// The meets kernels read a Rect as four float32s and a Bounds as 64.
var (
	_ [unsafe.Sizeof(Rect{}) - 16]struct{}
	_ [16 - unsafe.Sizeof(Rect{})]struct{}
	_ [unsafe.Sizeof(Bounds{}) - 64*4]struct{}
	_ [64*4 - unsafe.Sizeof(Bounds{})]struct{}
)
