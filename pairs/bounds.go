package pairs

import (
	"math"

	"github.com/obb2d/obb2d/internal/bound"
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

// interval copies box i into its record and its key with its padded sweep
// interval, and returns the key's start: for a valid box (obb.Box.Valid),
// its exact extent padded by the rounding band (bound.Interval); for another
// box, what bound.Classify and bound.Irregular give. It reads the columns
// directly and computes only the sweep axis's extent: this runs for every
// box on every pass, so the valid path has no data-dependent branch.
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
	valid := box.Valid()
	if valid {
		lo, hi = bound.Interval(float64(c), float64(hx), float64(hy), float64(along), float64(across))
	} else if class := bound.Classify(box); class != bound.Finite {
		key := uint32(nanKey)
		if class == bound.Infinite {
			key = invalidKey
		}
		s.keys[i] = uint64(key)<<32 | uint64(i)
		return key
	} else {
		lo, hi = bound.Irregular(c, hx, hy, along, across)
	}
	if !f32.Finite(lo) || !f32.Finite(hi) {
		s.keys[i] = invalidKey<<32 | uint64(i)
		return invalidKey
	}
	start = sortable(lo)
	s.keys[i] = uint64(start)<<32 | uint64(i)
	if s.bands > 1 {
		c2 := cy
		if s.useY {
			c2 = cx
		}
		var lo, hi float32
		if valid {
			lo, hi = bound.Interval(float64(c2), float64(hx), float64(hy), float64(across), float64(along))
		} else {
			lo, hi = bound.Irregular(c2, hx, hy, across, along)
		}
		s.cross[i] = uint64(math.Float32bits(lo))<<32 | uint64(math.Float32bits(hi))
	}
	if s.useY {
		s.recs[i] = record{cy, cx, uy, ux, hx, hy, hi, int32(i)}
	} else {
		s.recs[i] = record{cx, cy, ux, uy, hx, hy, hi, int32(i)}
	}
	return start
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
	st := chunkStat{first: nanKey, crossLo: math.Inf(1), crossHi: math.Inf(-1)}
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
		if s.bands > 1 {
			if lo, hi, ok := crossBounds(s.cross[i]); ok {
				st.crossLo, st.crossHi = min(st.crossLo, lo), max(st.crossHi, hi)
				st.crossSum += hi - lo
				st.crossN++
			}
		}
	}
	s.stats[start/chunk] = st
}

// chunkStat is what intervals notes of one chunk of boxes.
type chunkStat struct {
	first, last uint32 // the lowest and highest start; nanKey and 0 when none
	unsorted    int    // boxes with nanKey or invalidKey
	invalid     int    // boxes with invalidKey
	// The range of the finite bounds across the sweep of the sorted boxes
	// (crossBounds, when there is more than one band): +Inf and -Inf when
	// none; the sum of their spans and their number.
	crossLo, crossHi, crossSum float64
	crossN                     int
}

// crossBounds returns the bounds across the sweep of a sorted box, from
// its cross, the float32 bits of lo << 32 | hi (bound.Along's), and whether
// they are finite. The bounds of two boxes that overlap overlap too.
func crossBounds(c uint64) (lo, hi float64, ok bool) {
	l, h := math.Float32frombits(uint32(c>>32)), math.Float32frombits(uint32(c))
	return float64(l), float64(h), f32.Finite(l) && f32.Finite(h)
}

// crossReach returns a float32 at least e + w for the exact half extent
// e = hx·|uy| + hy·|ux| of a valid box across the sweep (the box transposed
// for a sweep along y) and the padding w of bound.Interval: the reach of
// batch.Sweep and batch.RunsPruned. When the float32 test says
// two boxes overlap, their exact rectangles are within w₁ + w₂ of each other
// (see bound.PadFactor), so their centers across the sweep are at most
// e₁ + w₁ + e₂ + w₂ ≤ reach₁ + reach₂ apart, exactly. The kernel compares
// the float32 difference of the centers with the float32 sum of the
// reaches, and rounding to nearest never reverses a ≤, so it keeps every
// such pair. A box that is sorted but not valid gets bound.Irregular's
// reach.
func crossReach(hx, hy, ux, uy float32) float32 {
	a, b := float64(ux), float64(uy)
	if hx >= 0 && hy >= 0 && math.Abs(float64(a*a)+float64(b*b)-1) <= obb.AxisTolerance {
		_, hi := bound.Interval(0, float64(hx), float64(hy), b, a)
		return hi
	}
	_, hi := bound.Irregular(0, hx, hy, uy, ux)
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
