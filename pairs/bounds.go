package pairs

import (
	"math"

	"github.com/obb2d/obb2d/internal/batch"
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

// irregular files box i, which is not Regular (bound.Regular), and
// returns its key's start: nanKey for a NaN box, invalidKey for a box
// with an infinity, and for another its interval from bound.Irregular.
func (s *sorted) irregular(i int) (start uint32) {
	b := s.src
	cx, cy, ux, uy, hx, hy := b.CX[i], b.CY[i], b.UX[i], b.UY[i], b.HX[i], b.HY[i]
	c, c2, along, across := cx, cy, ux, uy
	if s.useY {
		c, c2, along, across = cy, cx, uy, ux
	}
	box := obb.Box{Center: obb.Vec2{X: cx, Y: cy}, Axis: obb.Vec2{X: ux, Y: uy}, Half: obb.Vec2{X: hx, Y: hy}}
	if class := bound.Classify(box); class != bound.Finite {
		key := uint32(nanKey)
		if class == bound.Infinite {
			key = invalidKey
		}
		s.keys[i] = uint64(key)<<32 | uint64(i)
		return key
	}
	lo, hi := bound.Irregular(c, hx, hy, along, across)
	var clo, chi float32
	if s.bands > 1 {
		clo, chi = bound.Irregular(c2, hx, hy, across, along)
	}
	return s.file(i, lo, hi, clo, chi)
}

// file notes box i's key and end with its padded sweep interval lo, hi,
// and its bounds across the sweep clo, chi when there is more than one
// band, and returns the key's start; a box whose interval is not finite
// gets invalidKey.
func (s *sorted) file(i int, lo, hi, clo, chi float32) (start uint32) {
	if !f32.Finite(lo) || !f32.Finite(hi) {
		s.keys[i] = invalidKey<<32 | uint64(i)
		return invalidKey
	}
	start = sortable(lo)
	s.keys[i] = uint64(start)<<32 | uint64(i)
	if s.bands > 1 {
		s.cross[i] = uint64(math.Float32bits(clo))<<32 | uint64(math.Float32bits(chi))
	}
	s.ends[i] = hi
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

// intervals files boxes [start, end), at most chunk of them: each Regular
// box's padded interval (bound.Interval) and bounds across the sweep come
// from batch.Intervals, a few boxes per instruction; the other boxes go
// through irregular.
func (s *sorted) intervals(start, end int) {
	st := chunkStat{first: nanKey, crossLo: math.Inf(1), crossHi: math.Inf(-1)}
	var lo, hi, clo, chi [chunk]float32
	b, n := s.src, end-start
	c, c2, along, across := b.CX[start:end], b.CY[start:end], b.UX[start:end], b.UY[start:end]
	if s.useY {
		c, c2, along, across = c2, c, across, along
	}
	hx, hy := b.HX[start:end], b.HY[start:end]
	batch.Intervals(c, c2, along, across, hx, hy, lo[:n], hi[:n])
	if s.bands > 1 {
		batch.Intervals(c2, c, across, along, hx, hy, clo[:n], chi[:n])
	}
	for i := start; i < end; i++ {
		var k uint32
		if j := i - start; lo[j] == lo[j] { // not NaN: a Regular box
			k = s.file(i, lo[j], hi[j], clo[j], chi[j])
		} else {
			k = s.irregular(i)
		}
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
// e = hx·|uy| + hy·|ux| of a Regular box (bound.Regular) across the sweep
// (the box transposed for a sweep along y) and the padding w of
// bound.Interval: the reach of batch.Sweep and batch.RunsPruned. When the
// float32 test says two boxes overlap, their exact rectangles are within
// w₁ + w₂ of each other (see bound.PadFactor), so their centers across the
// sweep are at most e₁ + w₁ + e₂ + w₂ ≤ reach₁ + reach₂ apart, exactly.
// The kernel compares the float32 difference of the centers with the
// float32 sum of the reaches, and rounding to nearest never reverses a ≤,
// so it keeps every such pair. A box that is sorted but not Regular gets
// bound.Irregular's reach.
func crossReach(hx, hy, ux, uy float32) float32 {
	a, b := float64(ux), float64(uy)
	if hx >= 0 && hy >= 0 && float64(hx)+float64(hy) < bound.Huge && math.Abs(float64(a*a)+float64(b*b)-1) <= obb.AxisTolerance {
		_, hi := bound.Interval(0, float64(hx), float64(hy), b, a)
		return hi
	}
	_, hi := bound.Irregular(0, hx, hy, uy, ux)
	return hi
}

// crossReaches sets reach[i] to crossReach(hx[i], hy[i], ux[i], uy[i]) for
// at most chunk boxes, a few per instruction. For a Regular box, crossReach
// is the hi of bound.Interval(0, hx, hy, uy, ux), which batch.Intervals
// gives for the box with center (0, 0), axis (uy, ux) and half extents hx,
// hy wherever that box is Regular: then hx and hy are at least 0 with a sum
// below bound.Huge, and the squared length, Valid's two products summed in
// the other order (a float64 sum does not depend on the order of its
// terms), is within obb.AxisTolerance of 1, so crossReach takes its first
// branch and returns the same float32. Where batch.Intervals gives NaN,
// crossReach is called. One box at a time, crossReach is a tenth of
// Finder.All's time (BenchmarkAllPairsScaling, CPU profile).
func crossReaches(ux, uy, hx, hy, reach []float32) {
	var zero, lo [chunk]float32
	n := len(reach)
	batch.Intervals(zero[:n], zero[:n], uy, ux, hx, hy, lo[:n], reach)
	for i, r := range reach {
		if r != r { // not Regular
			reach[i] = crossReach(hx[i], hy[i], ux[i], uy[i])
		}
	}
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
