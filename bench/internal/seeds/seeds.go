// Package seeds re-implements, from their published descriptions, the three
// forms of the 2D OBB overlap test that obb2d started from, so the benchmarks
// can time them beside obb2d on the same boxes and count where they answer
// differently from the exact result. None of their code is reused: each type
// follows the article's data layout and arithmetic, written here in Go.
//
//   - [Corner]: Morgan McGuire's flipcode article (before 2005). Each box keeps
//     its four corners and its two edge vectors divided by their squared
//     length, so projecting onto an axis maps the box to [origin, origin+1]
//     with no square root. Overlap is tested one way (b's corners against a's
//     axes) and then the other. float64, as in the C++ original's doubles.
//   - [Matrix]: the XNA C# version. Each box keeps its center, its two unit
//     axes (a 2x2 rotation matrix) and its half widths; the test projects the
//     center offset onto the four axes and adds an epsilon of 1e-5 to every
//     |cos| term "against parallel axes", which makes nearly touching boxes
//     overlap. float32, as in C#.
//   - [Flash]: Will Perone's AS3 version. Each box keeps its position, its
//     rotation in degrees and its unrotated full width and height; every call
//     turns the rotations into cosines and sines and compares doubled
//     projections with full widths. Its "width" lies along the rotated y
//     axis. float64, as AS3's Number.
//
// All three answer "overlap" for touching boxes, like obb2d.
package seeds

import (
	"math"

	"github.com/obb2d/obb2d/obb"
)

// Corner is a box in the flipcode article's form.
type Corner struct {
	corner [4][2]float64
	// axis[k] is edge k from corner 0 divided by its squared length.
	axis [2][2]float64
	// origin[k] is corner 0 projected onto axis[k].
	origin [2]float64
}

// NewCorner precomputes b in the corner form; the corners are computed in
// float64 from b's float32 fields.
func NewCorner(b obb.Box) Corner {
	cx, cy := float64(b.Center.X), float64(b.Center.Y)
	ux, uy := float64(b.Axis.X), float64(b.Axis.Y)
	ex, ey := ux*float64(b.Half.X), uy*float64(b.Half.X)  // half edge along u
	fx, fy := -uy*float64(b.Half.Y), ux*float64(b.Half.Y) // half edge along v
	var c Corner
	c.corner = [4][2]float64{
		{cx - ex - fx, cy - ey - fy},
		{cx + ex - fx, cy + ey - fy},
		{cx + ex + fx, cy + ey + fy},
		{cx - ex + fx, cy - ey + fy},
	}
	for k, far := range [2]int{1, 3} {
		dx := c.corner[far][0] - c.corner[0][0]
		dy := c.corner[far][1] - c.corner[0][1]
		l2 := dx*dx + dy*dy
		// A zero-length edge gives an infinite axis, as in the original;
		// the projections then become NaN or infinite.
		c.axis[k] = [2]float64{dx / l2, dy / l2}
		c.origin[k] = c.corner[0][0]*c.axis[k][0] + c.corner[0][1]*c.axis[k][1]
	}
	return c
}

// oneWay reports whether b's corners, projected on each of a's axes, reach
// a's unit interval there.
func (a *Corner) oneWay(b *Corner) bool {
	for k := 0; k < 2; k++ {
		ax, ay := a.axis[k][0], a.axis[k][1]
		lo := b.corner[0][0]*ax + b.corner[0][1]*ay
		hi := lo
		for i := 1; i < 4; i++ {
			t := b.corner[i][0]*ax + b.corner[i][1]*ay
			lo, hi = math.Min(lo, t), math.Max(hi, t)
		}
		if lo > 1+a.origin[k] || hi < a.origin[k] {
			return false
		}
	}
	return true
}

// Overlaps reports whether a and b overlap: each must reach the other.
func (a *Corner) Overlaps(b *Corner) bool { return a.oneWay(b) && b.oneWay(a) }

// matrixEpsilon is the XNA version's allowance added to every |cos| term.
const matrixEpsilon = 1e-5

// Matrix is a box in the XNA version's form.
type Matrix struct {
	center [2]float32
	axis   [2][2]float32 // unit x and y axes: the rotation matrix's columns
	half   [2]float32
}

// NewMatrix copies b into the matrix form.
func NewMatrix(b obb.Box) Matrix {
	return Matrix{
		center: [2]float32{b.Center.X, b.Center.Y},
		axis:   [2][2]float32{{b.Axis.X, b.Axis.Y}, {-b.Axis.Y, b.Axis.X}},
		half:   [2]float32{b.Half.X, b.Half.Y},
	}
}

func dot32(p, q [2]float32) float32 { return float32(p[0]*q[0]) + float32(p[1]*q[1]) }

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// Overlaps reports whether a and b overlap, with the epsilon of the original.
func (a *Matrix) Overlaps(b *Matrix) bool {
	// r[i][j] = a's axis i · b's axis j; padded is |r| + epsilon.
	var padded [2][2]float32
	for i := 0; i < 2; i++ {
		for j := 0; j < 2; j++ {
			padded[i][j] = abs32(dot32(a.axis[i], b.axis[j])) + matrixEpsilon
		}
	}
	d := [2]float32{b.center[0] - a.center[0], b.center[1] - a.center[1]}
	for i := 0; i < 2; i++ { // a's axes
		rb := float32(b.half[0]*padded[i][0]) + float32(b.half[1]*padded[i][1])
		if abs32(dot32(d, a.axis[i])) > a.half[i]+rb {
			return false
		}
	}
	for j := 0; j < 2; j++ { // b's axes
		ra := float32(a.half[0]*padded[0][j]) + float32(a.half[1]*padded[1][j])
		if abs32(dot32(d, b.axis[j])) > ra+b.half[j] {
			return false
		}
	}
	return true
}

// Flash is a box in the AS3 version's form.
type Flash struct {
	x, y     float64
	rotation float64 // degrees
	// width lies along the box's rotated y axis and height along its x
	// axis: the AS3 test pairs them with the axes that way round.
	width, height float64
}

// NewFlash converts b into the AS3 form.
func NewFlash(b obb.Box) Flash {
	return Flash{
		x:        float64(b.Center.X),
		y:        float64(b.Center.Y),
		rotation: b.Angle() * 180 / math.Pi,
		width:    2 * float64(b.Half.Y),
		height:   2 * float64(b.Half.X),
	}
}

// Overlaps reports whether a and b overlap, computing both boxes' cosines
// and sines from their rotations on every call, as the original does.
func (a *Flash) Overlaps(b *Flash) bool {
	asin, acos := math.Sincos(a.rotation * math.Pi / 180)
	bsin, bcos := math.Sincos(b.rotation * math.Pi / 180)
	dx, dy := b.x-a.x, b.y-a.y
	cosAB := math.Abs(acos*bcos + asin*bsin) // |A·B|
	sinAB := math.Abs(asin*bcos - acos*bsin) // |A×B|
	switch {
	case math.Abs(acos*dy-asin*dx)*2 > a.width+b.width*cosAB+b.height*sinAB:
		return false
	case math.Abs(acos*dx+asin*dy)*2 > a.height+b.width*sinAB+b.height*cosAB:
		return false
	case math.Abs(bcos*dy-bsin*dx)*2 > b.width+a.width*cosAB+a.height*sinAB:
		return false
	case math.Abs(bcos*dx+bsin*dy)*2 > b.height+a.width*sinAB+a.height*cosAB:
		return false
	}
	return true
}
