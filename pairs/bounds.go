package pairs

import (
	"math"

	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// sweepAxis reports whether the centers of the sets spread more along y
// than along x. It looks at no more than axisSamples evenly spaced boxes of
// each set, each weighted by the spacing: the axis decides only how many
// candidates the sweep tests, never the pairs it finds, and a few thousand
// centers estimate the spread well. Summing every center was a serial pass
// over the set, which BenchmarkBuild measured slower than the sample.
func sweepAxis(sets ...*soa.Boxes) (useY bool) {
	var n, sx, sy, sxx, syy float64
	for _, b := range sets {
		stride := max(1, b.Len()/axisSamples)
		w := float64(stride)
		for i := 0; i < b.Len(); i += stride {
			x, y := float64(b.CX[i]), float64(b.CY[i])
			if math.IsNaN(x+y) || math.IsInf(x+y, 0) {
				continue
			}
			// float64(...) around products that are not exact: no fused
			// multiply-add, so every CPU picks the same axis.
			n += w
			sx, sy = sx+float64(w*x), sy+float64(w*y)
			sxx, syy = sxx+float64(w*x*x), syy+float64(w*y*y)
		}
	}
	if n == 0 {
		return false
	}
	return syy-float64(sy*sy)/n > sxx-float64(sx*sx)/n
}

// axisSamples is the most boxes of a set sweepAxis looks at.
const axisSamples = 4096

// padFactor is the relative widening of every valid box's sweep interval:
// four times the largest band factor 2⁻²⁰ + |1-|u|²| a valid box can have.
// When the float32 test says two boxes overlap, every exact margin is within
// the band, so the exact rectangles are within √2·band of each other (the
// corners of their Minkowski difference are at least 90°); the pair's scale S
// is then at most (1+√2) times the sum of the two boxes' Half.X+Half.Y, so
// widening each box by 4·factor·(Half.X+Half.Y) covers √2·band.
const padFactor = 4 * (0x1p-20 + obb.AxisTolerance)

// interval copies box i into its record and its key with its padded sweep
// interval, and returns the key's start: for a valid box (obb.Box.Valid),
// its exact extent padded by the rounding band (sweepBounds); for another
// box, what irregular gives. It reads the columns directly and computes
// only the sweep axis's extent: this runs for every box on every pass, so
// the valid path has no data-dependent branch (directed rounding, which
// picks a direction per value, cost a mispredicted branch per bound).
func (s *sorted) interval(i int) (start uint32) {
	b := s.src
	cx, cy, ux, uy, hx, hy := b.CX[i], b.CY[i], b.UX[i], b.UY[i], b.HX[i], b.HY[i]
	// Extent along x is hx·|ux| + hy·|uy|; along y, hx·|uy| + hy·|ux|.
	c, along, across := cx, ux, uy
	if s.useY {
		c, along, across = cy, uy, ux
	}
	var lo, hi float32
	box := obb.Box{Center: obb.Vec2{X: cx, Y: cy}, Axis: obb.Vec2{X: ux, Y: uy}, Half: obb.Vec2{X: hx, Y: hy}}
	if box.Valid() {
		lo, hi = sweepBounds(float64(c), float64(hx), float64(hy), float64(along), float64(across))
	} else if key, sorted := irregular(box); !sorted {
		s.keys[i] = uint64(key)<<32 | uint64(i)
		return key
	} else {
		lo, hi = irregularBounds(c, hx, hy, along, across)
	}
	if !f32.Finite(lo) || !f32.Finite(hi) {
		s.keys[i] = invalidKey<<32 | uint64(i)
		return invalidKey
	}
	start = sortable(lo)
	s.keys[i] = uint64(start)<<32 | uint64(i)
	if s.useY {
		s.recs[i] = record{cy, cx, uy, ux, hx, hy, hi, int32(i)}
	} else {
		s.recs[i] = record{cx, cy, ux, uy, hx, hy, hi, int32(i)}
	}
	return start
}

// irregular sorts out a box that fails obb.Box.Valid. A box with a NaN
// anywhere overlaps nothing (obb.Box.Overlaps fails its first comparison
// that reads the NaN, and every comparison reads every field of both boxes
// through its terms or an earlier one), so it gets nanKey and costs nothing
// more. A box with an infinity has no finite interval: it gets invalidKey,
// and the scalar test pairs it with every box. Any other box (negative
// half extents, or an axis that is not unit length) goes through the sweep
// with irregularBounds, sorted reports.
func irregular(b obb.Box) (key uint32, sorted bool) {
	v := [6]float32{b.Center.X, b.Center.Y, b.Axis.X, b.Axis.Y, b.Half.X, b.Half.Y}
	for _, x := range v {
		if x != x {
			return nanKey, false
		}
	}
	for _, x := range v {
		if !f32.Finite(x) {
			return invalidKey, false
		}
	}
	return 0, true
}

// irregularBounds returns the padded interval of a finite box that is not
// valid, c its center and along and across its axis's components along and
// across the sweep; crossReach's reach for it is the same with c = 0 and
// the components swapped. Both are conservative: when obb.Box.Overlaps says
// such a box overlaps any other, their intervals overlap and their centers
// are within the sum of their reaches across the sweep.
//
// With a unit axis (within obb.AxisTolerance), the box's half extents are
// taken as |hx| and |hy|: the separating-axis test's radii only grow with
// them (each is a sum of products of a half extent and a non-negative
// value, and rounding to nearest is monotonic), so the box overlaps no
// box that the valid box with |hx| and |hy| does not, and that box's
// interval is the valid one.
//
// With an axis u of length L ≠ 1, the test on the other box B's axes
// (Gottschalk's axes 3 and 4) bounds the centers' difference d by B's half
// extents plus L·(|hx| + |hy|) along each of B's axes, and the test on the
// box's own axes bounds it by (|hx| + |hy|)/L plus L_B·Σ_B along each of its
// own. Either way each coordinate of d is at most B's extent along that
// coordinate plus E = √2·(|hx| + |hy|)·max(L, 1/L) (when B is valid, its
// exact extent; when B too is irregular, E_B): E is the half extent this
// box's interval and reach use, padded by sweepBounds as a valid box's,
// which covers the float32 test's rounding with room to spare. An axis of
// length 0 makes E infinite, and the box goes to the scalar test.
func irregularBounds(c, hx, hy, along, across float32) (lo, hi float32) {
	h1, h2 := float64(f32.Abs(hx)), float64(f32.Abs(hy))
	a, b := float64(along), float64(across)
	l2 := float64(a*a) + float64(b*b)
	if math.Abs(l2-1) <= obb.AxisTolerance {
		return sweepBounds(float64(c), h1, h2, a, b)
	}
	l := math.Sqrt(l2)
	e := float64(math.Sqrt2*(h1+h2)) * max(l, 1/l)
	return sweepBounds(float64(c), e, 0, 1, 0)
}

// boundsJob is the sort's first job: each box's record and key with its
// padded sweep interval (positions are box indices).
type boundsJob sorted

// do runs interval on boxes [start, end), chunk by chunk, and notes each
// chunk's range of starts and its number of invalid boxes in
// stats, so that build needs no serial pass over all the keys.
func (j *boundsJob) do(_ *worker, start, end int) {
	for c := start; c < end; c += chunk {
		(*sorted)(j).intervals(c, min(c+chunk, end))
	}
}

func (s *sorted) intervals(start, end int) {
	st := chunkStat{first: nanKey}
	for i := start; i < end; i++ {
		k := s.interval(i)
		if k >= nanKey {
			st.unsorted++
			if k == invalidKey {
				st.invalid++
			}
			continue
		}
		st.first, st.last = min(st.first, k), max(st.last, k)
	}
	s.stats[start/chunk] = st
}

// chunkStat is what intervals notes of one chunk of boxes.
type chunkStat struct {
	first, last uint32 // the lowest and highest start; nanKey and 0 when none
	unsorted    int    // boxes with nanKey or invalidKey
	invalid     int    // boxes with invalidKey
}

// sweepBounds returns float32 bounds lo ≤ c - e - w and hi ≥ c + e + w, for
// the exact extent e = h1·|along| + h2·|across| and padding w = padFactor·(h1+h2) + 2⁻¹⁴⁰,
// with round-to-nearest conversions only. The products of float32 values are
// exact in float64; each of the few float64 sums is off by at most 2⁻⁵³ of
// S = |c| + e + w, and the final rounding to float32 by at most 2⁻²⁴ of the
// result plus half the smallest subnormal. The margin m = 2⁻²²·S + 2⁻¹⁴⁸
// exceeds all of them together, so moving m further out before rounding
// keeps the bounds on the safe side without a directed rounding step.
func sweepBounds(c, h1, h2, along, across float64) (lo, hi float32) {
	e := float64(h1*math.Abs(along)) + float64(h2*math.Abs(across))
	w := float64(padFactor*(h1+h2)) + 0x1p-140
	m := float64((math.Abs(c)+e+w)*0x1p-22) + 0x1p-148
	return float32(c - e - w - m), float32(c + e + w + m)
}

// crossReach returns a float32 at least e + w for the exact half extent
// e = hx·|uy| + hy·|ux| of a valid box across the sweep (the box transposed
// for a sweep along y) and the padding w of sweepBounds: the reach of
// batch.Sweep and batch.RunsPruned. When the float32 test says
// two boxes overlap, their exact rectangles are within w₁ + w₂ of each other
// (see padFactor), so their centers across the sweep are at most
// e₁ + w₁ + e₂ + w₂ ≤ reach₁ + reach₂ apart, exactly. The kernel compares
// the float32 difference of the centers with the float32 sum of the
// reaches, and rounding to nearest never reverses a ≤, so it keeps every
// such pair. A box that is sorted but not valid gets irregularBounds'
// reach.
func crossReach(hx, hy, ux, uy float32) float32 {
	a, b := float64(ux), float64(uy)
	if hx >= 0 && hy >= 0 && math.Abs(float64(a*a)+float64(b*b)-1) <= obb.AxisTolerance {
		_, hi := sweepBounds(0, float64(hx), float64(hy), b, a)
		return hi
	}
	_, hi := irregularBounds(0, hx, hy, uy, ux)
	return hi
}

// sortable maps a float32 that is not NaN to a uint32 with the same order:
// -0 and +0 map to the same key, and comparing keys as integers gives what
// comparing the floats gives.
func sortable(v float32) uint32 {
	b := math.Float32bits(v + 0) // -0 + 0 is +0
	if b>>31 != 0 {
		return ^b
	}
	return b | 1<<31
}

// unsortable inverts sortable (giving +0 for zero).
func unsortable(k uint32) float32 {
	if k>>31 != 0 {
		return math.Float32frombits(k &^ (1 << 31))
	}
	return math.Float32frombits(^k)
}
