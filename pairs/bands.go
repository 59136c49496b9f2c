package pairs

import (
	"math"
	"slices"

	"github.com/obb2d/obb2d/internal/bound"
	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// A sweep along one axis hands each box every box whose interval on that
// axis overlaps its own, from the whole width of the set across the sweep:
// at constant density, √n of them, so one sweep over n boxes costs
// O(n^1.5). All therefore cuts a large set across the sweep into bands, as
// Terdiman's multi box pruning cuts space into regions (Box Pruning
// Revisited, 2017), and sweeps each band. Two limits set their number:
//
//   - at least ⌊√(n/bandBoxes)⌋ bands: a band's height then shrinks as
//     1/√n while its density stays, so no box gets more candidates than in
//     a set of bandBoxes boxes (TestBandsKeepCandidatesFlat);
//   - at least ⌊n/bandMax⌋ bands: with √(n·bandBoxes) boxes, a band of a
//     set of millions no longer fits the L2 cache, and its sweep's sort,
//     copy and kernel calls slow down a box at a time, where thinner bands
//     cost only the boxes that cross into two (BenchmarkAllPairsScaling,
//     n=4000000: 90 ns a box with 20 bands, 74 with 100; 82 with 200 and
//     80 with 50). The second limit takes over from 1,600,000 boxes.
//
// A box goes into every band its bounds (crossBounds) reach across the sweep,
// so two boxes that overlap share every band between the higher of their
// first bands and the lower of their last; the pair is kept from the first
// of those only, the band of the higher first band. A box with no finite
// bounds goes into every band with first band 0, and a box with a NaN into
// none (it overlaps nothing).
//
// Bands cost a pass over the boxes' bounds, a copy of each band and a merge
// of the bands' pairs, which BenchmarkAllPairsScaling measured slower than
// one sweep at 100,000 boxes (123-129 against 95-115 ns a box) and faster
// at 4,000,000 (154-173 against 187-212): sets below minBandedBoxes get one
// sweep. The package's tests lower it, to band their smaller sets.
const (
	bandBoxes = 10000
	bandMax   = 40000
)

var minBandedBoxes = 1 << 19

// bandCount is how many bands All cuts n boxes into.
func bandCount(n int) int {
	if n < minBandedBoxes {
		return 1
	}
	return max(int(math.Sqrt(float64(n)/bandBoxes)), n/bandMax)
}

// bands is All's state for a banded pass, kept between passes.
type bands struct {
	inner      Finder    // sweeps one band
	first      []int32   // each box's first band, or -1 for a box in none
	last       []int32   // each box's last band
	start      []int     // where each band's boxes start in idx, then the end
	idx        []int32   // the boxes of each band, ascending within a band
	home       []bool    // as idx: whether this band is the box's first
	all        soa.Boxes // every band's boxes, band after band, as idx
	set        soa.Boxes // one band's boxes: a view of all
	pairs      []Pair    // one band's pairs
	fill       []int     // where the next box of each band goes in idx
	lo, hi     []float32 // each box's bounds across the sweep
	runs       []int     // where each band's pairs start in dst
	merged     []Pair    // mergeRuns' other buffer
	candidates int       // the pass's candidates, over all bands
	used       bool      // whether the last pass was banded
}

// allBands is All for n boxes in k > 1 bands. It returns false, having
// done nothing, when the boxes' bounds do not spread across the sweep.
func (f *Finder) allBands(dst []Pair, b *soa.Boxes, k int) ([]Pair, bool) {
	if f.bands == nil {
		f.bands = new(bands)
	}
	bs := f.bands
	n := b.Len()
	useY := sweepAxis(b)
	bs.first, bs.last = slices.Grow(bs.first[:0], n)[:n], slices.Grow(bs.last[:0], n)[:n]
	bs.lo, bs.hi = slices.Grow(bs.lo[:0], n)[:n], slices.Grow(bs.hi[:0], n)[:n]
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range n {
		bl, bh := crossBounds(b, i, useY)
		bs.lo[i], bs.hi[i] = bl, bh
		if f32.Finite(bl) && f32.Finite(bh) {
			lo, hi = min(lo, float64(bl)), max(hi, float64(bh))
		}
	}
	height := (hi - lo) / float64(k)
	if !(height > 0) || math.IsInf(height, 0) {
		return dst, false
	}
	band := func(y float32) int32 { return int32(min(max((float64(y)-lo)/height, 0), float64(k-1))) }
	bs.start = slices.Grow(bs.start[:0], k+1)[:k+1]
	clear(bs.start)
	for i := range n {
		bl, bh := bs.lo[i], bs.hi[i]
		switch {
		case f32.Finite(bl) && f32.Finite(bh):
			bs.first[i], bs.last[i] = band(bl), band(bh)
		case bound.Classify(b.At(i)) == bound.NaN:
			bs.first[i], bs.last[i] = -1, -2
		default:
			bs.first[i], bs.last[i] = 0, int32(k-1)
		}
		for t := bs.first[i]; t <= bs.last[i]; t++ {
			bs.start[t+1]++
		}
	}
	for t := range k {
		bs.start[t+1] += bs.start[t]
	}
	total := bs.start[k]
	bs.idx = slices.Grow(bs.idx[:0], total)[:total]
	bs.home = slices.Grow(bs.home[:0], total)[:total]
	// Copy every box into each of its bands' columns in one pass over the
	// boxes in order: the reads stream, and the writes go to k places that
	// each advance in order. A copy band by band would read each band's
	// members from across the whole set, a cache line per box and column,
	// so every line of the columns once per band (BenchmarkAllPairsScaling,
	// n=4000000).
	all := &bs.all
	all.Reset()
	all.Grow(total)
	all.CX, all.CY, all.UX, all.UY, all.HX, all.HY = all.CX[:total], all.CY[:total], all.UX[:total], all.UY[:total], all.HX[:total], all.HY[:total]
	fill := bs.fillStarts(k)
	for i := range n {
		for t := bs.first[i]; t <= bs.last[i]; t++ {
			at := fill[t]
			bs.idx[at] = int32(i)
			bs.home[at] = t == bs.first[i]
			all.CX[at], all.CY[at], all.UX[at], all.UY[at], all.HX[at], all.HY[at] = b.CX[i], b.CY[i], b.UX[i], b.UY[i], b.HX[i], b.HY[i]
			fill[t]++
		}
	}
	bs.inner.Workers = f.Workers
	bs.candidates = 0
	from := len(dst)
	bs.runs = bs.runs[:0]
	for t := range k {
		lo, hi := bs.start[t], bs.start[t+1]
		members, home := bs.idx[lo:hi], bs.home[lo:hi]
		bs.set = soa.Boxes{CX: all.CX[lo:hi:hi], CY: all.CY[lo:hi:hi], UX: all.UX[lo:hi:hi], UY: all.UY[lo:hi:hi], HX: all.HX[lo:hi:hi], HY: all.HY[lo:hi:hi]}
		bs.pairs = bs.inner.sweepAll(bs.pairs[:0], &bs.set)
		bs.candidates += bs.inner.Candidates()
		bs.runs = append(bs.runs, len(dst))
		// Both boxes are in band t, so their first bands are t or lower:
		// the pair's band, the higher of the two, is t when either box's
		// first band is. home keeps that beside the band's members, where
		// reading first would miss the cache on every pair of a large set.
		for _, p := range bs.pairs {
			if home[p.I] || home[p.J] {
				dst = append(dst, Pair{members[p.I], members[p.J]})
			}
		}
	}
	// Each band's pairs are in order (its members ascend): merge the runs.
	dst = bs.mergeRuns(dst, from)
	f.lastPairs = len(dst) - from
	return dst, true
}

// fillStarts returns a copy of the bands' starts, the places the next
// box of each band goes, in memory kept from pass to pass.
func (bs *bands) fillStarts(k int) []int {
	bs.fill = append(bs.fill[:0], bs.start[:k]...)
	return bs.fill
}

// mergeRuns merges the sorted runs of dst[from:], which start at bs.runs,
// two by two until one is left: log₂ k sequential passes, where one sort
// of all the pairs measured slower than the sweeps themselves on the RTS
// scene (BenchmarkAllPairs, scene=rts, n=100000).
func (bs *bands) mergeRuns(dst []Pair, from int) []Pair {
	bs.runs = append(bs.runs, len(dst))
	src := dst[from:]
	for i := range bs.runs {
		bs.runs[i] -= from
	}
	bs.merged = slices.Grow(bs.merged[:0], len(src))[:len(src)]
	a, b := src, bs.merged
	for len(bs.runs) > 2 {
		k := 0
		for r := 0; r+1 < len(bs.runs); r += 2 {
			lo, mid := bs.runs[r], bs.runs[r+1]
			hi := mid
			if r+2 < len(bs.runs) {
				hi = bs.runs[r+2]
			}
			mergePairs(b[lo:hi], a[lo:mid], a[mid:hi])
			bs.runs[k] = lo
			k++
		}
		bs.runs[k] = bs.runs[len(bs.runs)-1]
		bs.runs = bs.runs[:k+1]
		a, b = b, a
	}
	if len(src) > 0 && &a[0] != &src[0] {
		copy(src, a)
	}
	return dst
}

// mergePairs merges the ascending runs x and y into out.
func mergePairs(out, x, y []Pair) {
	i, j := 0, 0
	for k := range out {
		if j >= len(y) || (i < len(x) && less(x[i], y[j])) {
			out[k] = x[i]
			i++
		} else {
			out[k] = y[j]
			j++
		}
	}
}

func less(p, q Pair) bool { return p.I < q.I || (p.I == q.I && p.J < q.J) }

// crossBounds returns box i's bounds across the sweep (bound.Along); they
// are not finite for a box with no finite bounds.
func crossBounds(b *soa.Boxes, i int, useY bool) (lo, hi float32) {
	x := obb.Box{
		Center: obb.Vec2{X: b.CX[i], Y: b.CY[i]},
		Axis:   obb.Vec2{X: b.UX[i], Y: b.UY[i]},
		Half:   obb.Vec2{X: b.HX[i], Y: b.HY[i]},
	}
	return bound.Along(x, !useY)
}
