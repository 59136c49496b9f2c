package pairs

import (
	"cmp"
	"math"
	"slices"

	"github.com/obb2d/obb2d/internal/bound"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// A sweep along one axis hands each box every box whose interval on that
// axis overlaps its own, from the whole width of the set across the sweep:
// at constant density, √n of them, so one sweep over n boxes costs
// O(n^1.5). All therefore cuts a large set across the sweep into bands of
// about bandBoxes·√(n/bandBoxes) boxes, as Terdiman's multi box pruning cuts
// space into regions (Box Pruning Revisited, 2017), and sweeps each band: a
// band's height shrinks as 1/√n while its density stays, so each box gets a
// constant number of candidates (BenchmarkAllPairs, candidates per box at
// n=100000 and 1000000 against n=10000).
//
// A box goes into every band its bounds (bound.Box) reach across the sweep,
// so two boxes that overlap share every band between the higher of their
// first bands and the lower of their last; the pair is kept from the first
// of those only, the band of the higher first band. A box with no finite
// bounds goes into every band with first band 0, and a box with a NaN into
// none (it overlaps nothing).
const bandBoxes = 10000

// bandCount is how many bands All cuts n boxes into.
func bandCount(n int) int { return int(math.Sqrt(float64(n) / bandBoxes)) }

// bands is All's state for a banded pass, kept between passes.
type bands struct {
	inner      Finder    // sweeps one band
	first      []int32   // each box's first band, or -1 for a box in none
	last       []int32   // each box's last band
	start      []int     // where each band's boxes start in idx, then the end
	idx        []int32   // the boxes of each band, ascending within a band
	set        soa.Boxes // one band's boxes
	pairs      []Pair    // one band's pairs
	fill       []int     // where the next box of each band goes in idx
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
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range n {
		bl, bh, ok := crossBounds(b, i, useY)
		if ok {
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
		bl, bh, ok := crossBounds(b, i, useY)
		switch {
		case ok:
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
	fill := bs.pairsStartScratch(k)
	for i := range n {
		for t := bs.first[i]; t <= bs.last[i]; t++ {
			bs.idx[fill[t]] = int32(i)
			fill[t]++
		}
	}
	bs.inner.Workers = f.Workers
	bs.candidates = 0
	from := len(dst)
	for t := range k {
		members := bs.idx[bs.start[t]:bs.start[t+1]]
		bs.set.Reset()
		bs.set.Grow(len(members))
		for _, i := range members {
			bs.set.CX = append(bs.set.CX, b.CX[i])
			bs.set.CY = append(bs.set.CY, b.CY[i])
			bs.set.UX = append(bs.set.UX, b.UX[i])
			bs.set.UY = append(bs.set.UY, b.UY[i])
			bs.set.HX = append(bs.set.HX, b.HX[i])
			bs.set.HY = append(bs.set.HY, b.HY[i])
		}
		bs.pairs = bs.inner.sweepAll(bs.pairs[:0], &bs.set)
		bs.candidates += bs.inner.Candidates()
		for _, p := range bs.pairs {
			i, j := members[p.I], members[p.J]
			if max(bs.first[i], bs.first[j]) == int32(t) {
				dst = append(dst, Pair{i, j})
			}
		}
	}
	// Each band's pairs are in order (its members ascend); the bands' runs
	// are merged by a sort.
	slices.SortFunc(dst[from:], func(a, b Pair) int {
		if c := cmp.Compare(a.I, b.I); c != 0 {
			return c
		}
		return cmp.Compare(a.J, b.J)
	})
	f.lastPairs = len(dst) - from
	return dst, true
}

// pairsStartScratch returns a copy of the bands' starts to fill from,
// in memory kept from pass to pass.
func (bs *bands) pairsStartScratch(k int) []int {
	bs.fill = append(bs.fill[:0], bs.start[:k]...)
	return bs.fill
}

// crossBounds returns box i's bounds across the sweep, and false when they
// are not finite.
func crossBounds(b *soa.Boxes, i int, useY bool) (lo, hi float32, ok bool) {
	x := obb.Box{
		Center: obb.Vec2{X: b.CX[i], Y: b.CY[i]},
		Axis:   obb.Vec2{X: b.UX[i], Y: b.UY[i]},
		Half:   obb.Vec2{X: b.HX[i], Y: b.HY[i]},
	}
	l, h, ok := bound.Box(x)
	if useY {
		return l.X, h.X, ok
	}
	return l.Y, h.Y, ok
}
