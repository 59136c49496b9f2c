// Package pairs runs whole collision passes: every overlapping pair among a
// set of boxes (or between a moving set and a static set), and the narrow
// phase over a candidate pair list that someone else's broad phase produced.
//
// Every answer is exactly obb.Box.Overlaps of the two boxes: the passes only
// decide which pairs to hand to the batch kernels of package kernel, and the
// kernels compute the same bits as the scalar test.
//
// # All pairs
//
// [Finder.All] is a sort-and-sweep broad phase. Each box's interval on the
// sweep axis (x or y, whichever spreads the centers more) is its exact bounds
// widened by the rounding band of package obb, so that no pair the float32
// test calls overlapping can be dropped: when the test says two boxes overlap,
// their exact rectangles are within √2 times the band of each other. After
// sorting by interval start, the candidates of a box are the contiguous run of
// later boxes that start before it ends; each run goes straight into the
// one-against-many kernel. Boxes whose bounds are not finite (NaN, infinities)
// are tested against every box by the scalar test, so the result equals the
// brute-force answer for every input.
//
// Pairs are returned with I < J (for [Finder.Between], I indexes the moving
// set and J the static set), sorted by I and then J, whatever the kernel and
// the number of workers.
package pairs

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/kernel"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// Pair names two boxes by index.
type Pair struct{ I, J int32 }

func comparePairs(a, b Pair) int {
	if c := cmp.Compare(a.I, b.I); c != 0 {
		return c
	}
	return cmp.Compare(a.J, b.J)
}

// Finder runs all-pairs passes and keeps its scratch memory between calls,
// so that a simulation step that finds about as many pairs as the last one
// allocates nothing. A Finder must not be used by two goroutines at once; its
// zero value is ready to use and single-threaded.
type Finder struct {
	// Workers is how many goroutines a pass uses; 0 or 1 means the calling
	// goroutine only, a negative value means runtime.GOMAXPROCS(0). The
	// result does not depend on it.
	Workers int

	a, b    sorted
	between bool      // the pass under way: Between (else All)
	gather  soa.Boxes // second boxes of a run of candidate pairs
	filter  []uint64  // Filter's bitset
	wk      []worker
	wg      sync.WaitGroup
	next    atomic.Int64
	merged  []Pair
}

// sorted is one set's boxes ordered by the start of their sweep interval,
// with the columns copied in that order so that a candidate run is a
// contiguous slice the kernel can read.
type sorted struct {
	boxes   soa.Boxes
	lo, hi  []float32 // padded sweep interval, in sorted order
	index   []int32   // original index of each sorted box
	special []int32   // original indices of boxes with non-finite bounds
	keys    []key
}

type key struct {
	lo, hi float32
	i      int32
}

// worker is one goroutine's scratch.
type worker struct {
	bits       []uint64
	hits       []int32
	found      []Pair
	candidates int // boxes handed to the kernel in this pass
}

// sweepAxis reports whether the centers spread more along y than along x.
func sweepAxis(sets ...*soa.Boxes) (useY bool) {
	var n, sx, sy, sxx, syy float64
	for _, b := range sets {
		for i := range b.CX {
			x, y := float64(b.CX[i]), float64(b.CY[i])
			if math.IsNaN(x+y) || math.IsInf(x+y, 0) {
				continue
			}
			n++
			sx, sy, sxx, syy = sx+x, sy+y, sxx+x*x, syy+y*y
		}
	}
	if n == 0 {
		return false
	}
	return syy-sy*sy/n > sxx-sx*sx/n
}

// padFactor is the relative widening of every valid box's sweep interval:
// four times the largest band factor 2⁻²⁰ + |1-|u|²| a valid box can have.
// When the float32 test says two boxes overlap, every exact margin is within
// the band, so the exact rectangles are within √2·band of each other (the
// corners of their Minkowski difference are at least 90°); the pair's scale S
// is then at most (1+√2) times the sum of the two boxes' Half.X+Half.Y, so
// widening each box by 4·factor·(Half.X+Half.Y) covers √2·band.
const padFactor = 4 * (0x1p-20 + obb.AxisTolerance)

// build sorts b into s along the chosen axis.
func (s *sorted) build(b *soa.Boxes, useY bool) {
	n := b.Len()
	s.keys = s.keys[:0]
	s.special = s.special[:0]
	for i := 0; i < n; i++ {
		box := obb.Box{
			Center: obb.Vec2{X: b.CX[i], Y: b.CY[i]},
			Axis:   obb.Vec2{X: b.UX[i], Y: b.UY[i]},
			Half:   obb.Vec2{X: b.HX[i], Y: b.HY[i]},
		}
		min, max := box.Bounds()
		l, h := min.X, max.X
		if useY {
			l, h = min.Y, max.Y
		}
		w := padFactor*(float64(box.Half.X)+float64(box.Half.Y)) + 0x1p-140
		lo, hi := f32.Down(float64(l)-w), f32.Up(float64(h)+w)
		// The band holds for valid boxes only: NaN, infinities, negative
		// extents and non-unit axes go to the brute-force side path.
		if box.Validate() != nil || !f32.Finite(lo) || !f32.Finite(hi) {
			s.special = append(s.special, int32(i))
			continue
		}
		s.keys = append(s.keys, key{lo, hi, int32(i)})
	}
	slices.SortFunc(s.keys, func(a, b key) int {
		if c := cmp.Compare(a.lo, b.lo); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	m := len(s.keys)
	s.boxes.Reset()
	s.boxes.Grow(m)
	s.lo, s.hi, s.index = s.lo[:0], s.hi[:0], s.index[:0]
	for _, k := range s.keys {
		s.boxes.CX = append(s.boxes.CX, b.CX[k.i])
		s.boxes.CY = append(s.boxes.CY, b.CY[k.i])
		s.boxes.UX = append(s.boxes.UX, b.UX[k.i])
		s.boxes.UY = append(s.boxes.UY, b.UY[k.i])
		s.boxes.HX = append(s.boxes.HX, b.HX[k.i])
		s.boxes.HY = append(s.boxes.HY, b.HY[k.i])
		s.lo = append(s.lo, k.lo)
		s.hi = append(s.hi, k.hi)
		s.index = append(s.index, k.i)
	}
}

// firstAbove returns the first position p >= from with s.lo[p] > v
// (strict) or >= v (when orEqual), by binary search.
func (s *sorted) firstAbove(from int, v float32, orEqual bool) int {
	lo, hi := from, len(s.lo)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if s.lo[mid] > v || (orEqual && s.lo[mid] == v) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

func (s *sorted) box(p int) obb.Box { return s.boxes.At(p) }

// All appends to dst every pair (I, J), I < J, of boxes of b that overlap, as
// obb.Box.Overlaps decides, sorted by I then J, and returns the extended
// slice. It panics if b's columns differ in length or b has more than
// math.MaxInt32 boxes.
func (f *Finder) All(dst []Pair, b *soa.Boxes) []Pair {
	checkSize(b)
	useY := sweepAxis(b)
	f.a.build(b, useY)
	s := &f.a
	f.between = false
	f.parallel(len(s.lo))
	// Boxes with non-finite bounds, against everything, by the scalar test.
	n := b.Len()
	w := &f.wk[0]
	for _, x := range s.special {
		bx := b.At(int(x))
		for j := 0; j < n; j++ {
			if j == int(x) || (isSpecial(s.special, int32(j)) && int32(j) < x) {
				continue
			}
			if bx.Overlaps(b.At(j)) {
				w.found = append(w.found, ordered(x, int32(j)))
			}
		}
	}
	return f.merge(dst)
}

// Between appends to dst every pair (I, J) with box I of moving overlapping
// box J of static, sorted by I then J, and returns the extended slice. It
// panics if either set's columns differ in length or a set has more than
// math.MaxInt32 boxes.
func (f *Finder) Between(dst []Pair, moving, static *soa.Boxes) []Pair {
	checkSize(moving)
	checkSize(static)
	useY := sweepAxis(moving, static)
	f.a.build(moving, useY)
	f.b.build(static, useY)
	a, b := &f.a, &f.b
	f.between = true
	f.parallel(len(a.lo) + len(b.lo))
	w := &f.wk[0]
	for _, x := range a.special {
		bx := moving.At(int(x))
		for j := 0; j < static.Len(); j++ {
			if bx.Overlaps(static.At(j)) {
				w.found = append(w.found, Pair{x, int32(j)})
			}
		}
	}
	for _, y := range b.special {
		by := static.At(int(y))
		for i := 0; i < moving.Len(); i++ {
			if !isSpecial(a.special, int32(i)) && by.Overlaps(moving.At(i)) {
				w.found = append(w.found, Pair{int32(i), y})
			}
		}
	}
	return f.merge(dst)
}

func isSpecial(special []int32, i int32) bool {
	_, ok := slices.BinarySearch(special, i)
	return ok
}

func ordered(i, j int32) Pair {
	if i > j {
		i, j = j, i
	}
	return Pair{i, j}
}

func checkSize(b *soa.Boxes) {
	if n := b.Len(); n > math.MaxInt32 {
		panic(fmt.Sprintf("pairs: %d boxes do not fit int32 indices", n))
	}
}

// overlapping runs the kernel on one candidate run and returns the offsets
// of the overlapping boxes within it, in w's scratch.
func (w *worker) overlapping(q *kernel.Query, run *soa.Boxes) []int32 {
	words := kernel.Words(run.Len())
	if cap(w.bits) < words {
		w.bits = make([]uint64, words)
	}
	set := w.bits[:words]
	w.candidates += run.Len()
	kernel.Overlaps(q, run, set)
	hits := w.hits[:0]
	for i, word := range set {
		for word != 0 {
			hits = append(hits, int32(i*64+bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
	w.hits = hits
	return hits
}

// step does the work of sweep position p: the candidate run of one box,
// through the kernel, into w.found.
func (f *Finder) step(w *worker, p int) {
	if !f.between {
		s := &f.a
		end := s.firstAbove(p+1, s.hi[p], false)
		if end <= p+1 {
			return
		}
		q := kernel.NewQuery(s.box(p))
		run := s.boxes.Slice(p+1, end)
		for _, k := range w.overlapping(&q, &run) {
			w.found = append(w.found, ordered(s.index[p], s.index[p+1+int(k)]))
		}
		return
	}
	// Pass 1 (p < len(a)): moving box p against the statics whose interval
	// starts within its own. Pass 2: static box p against the movings whose
	// interval starts strictly inside its own. Every pair of overlapping
	// intervals is met exactly once.
	a, b := &f.a, &f.b
	from, to := a, b
	pass1 := p < len(a.lo)
	if !pass1 {
		from, to, p = b, a, p-len(a.lo)
	}
	start := to.firstAbove(0, from.lo[p], pass1)
	end := to.firstAbove(start, from.hi[p], false)
	if end <= start {
		return
	}
	q := kernel.NewQuery(from.box(p))
	run := to.boxes.Slice(start, end)
	for _, k := range w.overlapping(&q, &run) {
		if pass1 {
			w.found = append(w.found, Pair{a.index[p], b.index[start+int(k)]})
		} else {
			w.found = append(w.found, Pair{a.index[start+int(k)], b.index[p]})
		}
	}
}

// parallel calls f.step(w, p) for every p in [0, n), on f.workers()
// goroutines, each with its own worker scratch. Positions go out in chunks so
// that dense regions do not leave one goroutine with all the work.
func (f *Finder) parallel(n int) {
	workers := f.workers()
	for len(f.wk) < workers {
		f.wk = append(f.wk, worker{})
	}
	for i := range f.wk {
		f.wk[i].found = f.wk[i].found[:0]
		f.wk[i].candidates = 0
	}
	if workers == 1 || n < 2*chunk {
		for p := 0; p < n; p++ {
			f.step(&f.wk[0], p)
		}
		return
	}
	f.next.Store(0)
	f.wg.Add(workers)
	for i := 0; i < workers; i++ {
		go func(w *worker) {
			defer f.wg.Done()
			for {
				start := int(f.next.Add(chunk)) - chunk
				if start >= n {
					return
				}
				for p := start; p < min(start+chunk, n); p++ {
					f.step(w, p)
				}
			}
		}(&f.wk[i])
	}
	f.wg.Wait()
}

// chunk is how many sweep positions a worker takes at a time.
const chunk = 256

func (f *Finder) workers() int {
	switch {
	case f.Workers < 0:
		return runtime.GOMAXPROCS(0)
	case f.Workers == 0:
		return 1
	}
	return f.Workers
}

// Candidates returns how many candidate pairs the last All or Between pass
// handed to the kernel: a measure of how much the sweep prunes.
func (f *Finder) Candidates() int {
	n := 0
	for i := range f.wk {
		n += f.wk[i].candidates
	}
	return n
}

// merge gathers the workers' pairs, sorts them and appends them to dst.
func (f *Finder) merge(dst []Pair) []Pair {
	f.merged = f.merged[:0]
	for i := range f.wk {
		f.merged = append(f.merged, f.wk[i].found...)
	}
	slices.SortFunc(f.merged, comparePairs)
	return append(dst, f.merged...)
}
