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
// sweep axis (x or y, whichever spreads a sample of the centers more) is its
// exact bounds widened by the rounding band of package obb, so that no pair
// the float32 test calls overlapping can be dropped: when the test says two
// boxes overlap, their exact rectangles are within √2 times the band of each
// other. After sorting by interval start, the candidates of a box are the
// contiguous run of later boxes that start before it ends. [Finder.All]
// hands the sorted set to kernel.Sweep a chunk of boxes at a time, which
// finds each box's run and tests it in one call; [Finder.Between] finds the
// runs of each set in the other and hands them to kernel.OverlapsRunsPruned.
// Both kernels' reach test first drops the candidates whose centers are too
// far apart across the sweep axis: each box's reach is its exact half
// extent across the sweep, widened like the interval.
// Boxes that fail obb.Box.Validate (NaN, infinities, negative extents, axes
// that are not unit length), for which the band does not hold, are tested
// against every box by the scalar test, so the result equals the
// brute-force answer for every input.
//
// Pairs are returned with I < J (for [Finder.Between], I indexes the moving
// set and J the static set), sorted by I and then J, whatever the kernel and
// the number of workers.
package pairs

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/internal/stagger"
	"github.com/obb2d/obb2d/kernel"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// Pair names two boxes by index.
type Pair struct{ I, J int32 }

// Finder runs all-pairs passes and keeps its scratch memory between calls.
// A pass allocates only when it needs more room than the passes before it
// have made: for more boxes, a denser chunk of candidates, a larger group
// of the sort, or more pairs (a pass that finds more pairs than there is
// room for makes room for an eighth more). So once a simulation step has
// run, a step over boxes about like it allocates nothing, with any number
// of workers and whichever worker takes which share of the work: after
// each pass, every worker gets as much room in each buffer as the roomiest
// has, and all workers put their pairs in one buffer of the Finder's.
//
// Starting the goroutines and waiting for them allocates nothing of the
// Finder's; the Go runtime may still allocate a goroutine or a wait record
// of its own now and then, while its caches of them, kept per P, adjust to
// goroutines that start on one P and end on another.
//
// With more than one worker, a pass starts its goroutines once and ends
// them before it returns. While it runs they wait for each other between
// its phases by spinning (yielding to other goroutines now and then), so
// a pass keeps its workers' cores busy from start to end, its serial
// parts included.
//
// A Finder must not be used by two goroutines at once; its zero value is
// ready to use and single-threaded.
type Finder struct {
	// Workers is how many goroutines a pass uses; 0 or 1 means the calling
	// goroutine only, a negative value means runtime.GOMAXPROCS(0). A pass
	// over fewer than 8,192 boxes (of both sets, for Between) uses the
	// calling goroutine only, whatever Workers says, unless the Finder's
	// last pass found 32,768 pairs or more: a second core measured slower
	// on fewer boxes with few pairs. The result does not depend on it.
	Workers int

	a, b  sorted
	phase int // what parallel's positions are: see the phase constants
	// In the phases of build: the set being sorted, and the axis.
	src    *soa.Boxes
	dst    *sorted
	useY   bool
	filter []uint64 // Filter's bitset
	wk     []worker
	wg     sync.WaitGroup
	next   atomic.Int64
	// The positions and chunk size of the phase that parallel runs.
	phaseN, phaseChunk int
	// helpers[i-1] is worker i's goroutine: made once (for this Finder,
	// self, not for one it was copied from), so that starting a pass's
	// goroutines allocates nothing. helping of them are running; they run
	// a phase each time gen moves on (from helperGen, when they started),
	// pending counts those still at work on the current one, and stopping
	// tells them to return.
	helpers   []func()
	self      *Finder
	small     bool // this pass runs on the calling goroutine alone: see isSmall
	lastPairs int  // how many pairs the last All or Between found
	helping   int
	gen       atomic.Uint32
	helperGen uint32
	pending   atomic.Int32
	stopping  bool
	// The pass's pairs: a worker reserves room for a chunk's pairs at
	// found[foundLen:] (see room), or puts them in its spill when found is
	// full; merge then gives found room for them all.
	found    []Pair
	foundLen atomic.Int64
	// merge's output, the number of I and of J, the pairs sorted by J
	// within each range of I, the ranges' bounds on I (cut) and first
	// positions, and the sample the cuts come from.
	mergeOut         []Pair
	mergeNI, mergeNJ int
	byJ              []Pair
	mergeCut         []int32
	mergeStart       []int
	mergeSample      []int32
	// With more than one range of I, the split copies each of
	// len(parts)/ranges equal slices (units) of the pairs into the same
	// positions of split, ordered by range: unit u's pairs of range r are
	// parts[u·ranges+r]. With one range, parts holds the pairs themselves.
	// splitAt holds each unit's counts per range.
	split   []Pair
	parts   [][]Pair
	splitAt []int
}

// sorted is one set's boxes ordered by the start of their sweep interval,
// with the columns copied in that order so that a candidate run is a
// contiguous slice the kernel can read.
//
// The columns of boxes hold each box as seen with the sweep axis as x: for a
// sweep along y, x and y are swapped (CX holds the center's y, UX the axis's
// y, and the other way round), so that the kernel's reach test (kernel.Sweep's
// and kernel.OverlapsRunsPruned's, on CY) applies across the sweep. The
// separating-axis test's answer does not change: with x and y swapped, each of
// its float32 operations gives the same value, or the same value negated
// inside an absolute value (a sum's terms trade places, a difference's
// operands trade places, and rounding to nearest is symmetric). The
// brute-force tests run scenes swept along each axis.
type sorted struct {
	boxes   soa.Boxes
	start   []uint32    // padded sweep interval's start as sortable(lo), in sorted order
	hi      []float32   // padded sweep interval's end, in sorted order
	reach   []float32   // bound on the half extent across the sweep, padded: see crossReach
	index   []int32     // original index of each sorted box
	special []int32     // original indices of boxes for the side path (invalid)
	stats   []chunkStat // each chunk's starts and side-path count, from intervals
	// lo holds the padded sweep interval's start as a float32, in sorted
	// order, when withLo: the column kernel.Sweep finds each run's end in.
	lo     []float32
	withLo bool
	// keys holds sortable(lo) << 32 | index for every box, by original
	// index; boxes for the side path have the start sideKey.
	keys []uint64
	// recs holds each box with its interval's end, by original index.
	recs []record
	// The sort partitions the records into groups of consecutive buckets
	// (part, with part keys sortable(lo) << 32 | position in part), then
	// sorts each group's keys and gathers it from a few pages of part
	// instead of from the whole set: see build.
	part     []record
	partKeys []uint64
	// The bucket of each valid box's start: keyBucket by original index,
	// from the count, and partBucket as the bucket within its group by
	// position in part, from the scatter. Mapping a start to its bucket
	// takes a chain of floating-point steps, so it is done once a box.
	keyBucket  []int32
	partBucket []uint8
	groupStart []int32 // group g is part[groupStart[g]:groupStart[g+1]]
	// The partition splits the indices into ranges: row r of fill (groups
	// entries) holds range r's boxes per group, then its next position in each
	// group.
	groups, ranges int
	fill           []int32
	// bucket[k] is the first sorted position whose start maps to bucket k
	// or later, start -> (start-bucketLo)*bucketScale: a coarse index over
	// the starts that brackets firstAbove's answer. Group g holds the boxes
	// of buckets [g·bucketsPerGroup, (g+1)·bucketsPerGroup), the last group
	// the last bucket too.
	bucket      []int32
	bucketLo    float64
	bucketScale float64
}

// record is one box (transposed for a sweep along y), the end of its padded
// sweep interval and its index.
type record struct {
	cx, cy, ux, uy, hx, hy, hi float32
	index                      int32
}

// recordsPerLine is how many records a 64-byte cache line holds.
const recordsPerLine = 64 / int(unsafe.Sizeof(record{}))

// sideKey is the start key of a box for the side path: above sortable of
// every finite float32, so those boxes sort after all others.
const sideKey = math.MaxUint32

// worker is one goroutine's scratch.
type worker struct {
	tmp        []uint64     // a group's keys in sorted order
	count      []int32      // a group's boxes per bucket
	runs       []int32      // candidate runs: query position, first and end candidate position
	bits       []uint64     // the runs' bitsets
	wordStart  []int        // where each run's words start in bits, then the end
	spill      []Pair       // pairs that did not fit in the Finder's found
	hits       []kernel.Hit // kernel.Sweep's output: sweepHits of them
	candidates int          // boxes handed to the kernel in this pass
	sink       int32        // keeps sortGroup's prefetching loads
	// mergeRange's scratch: the pairs per I (J) of the range, then where
	// each I's (J's) pairs start.
	startI, startJ []int
}

// sweepAxis reports whether the centers of the sets spread more along y
// than along x. It looks at no more than axisSamples evenly spaced boxes of
// each set, each weighted by the spacing: the axis decides only how many
// candidates the sweep tests, never the pairs it finds, and a few thousand
// centers estimate the spread well. Summing every center was a serial pass
// over the set: BenchmarkBuild measured the sort about 14% faster with the
// sample.
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

// build sorts b into s along the chosen axis, with s.lo when withLo. The
// intervals are computed on all workers. The sort then
// partitions the records by bucket into groups of about groupSize boxes
// (the workers count and place fixed ranges of the indices, each read in
// index order), and sorts and gathers each group on all workers
// (sortGroup). Boxes with equal starts keep index order, so the result is
// the same for any number of workers.
//
// The partition exists because gathering the records straight into sorted
// order reads them in random order from the whole set: at 100,000 boxes
// that gather was a fifth of the pass's CPU profile. A group's records lie
// within a few pages, so its gather hits the caches.
func (f *Finder) build(s *sorted, b *soa.Boxes, useY, withLo bool) {
	n := b.Len()
	s.withLo = withLo
	if cap(s.recs) < n {
		s.recs, s.part = make([]record, n), make([]record, n)
		s.keys, s.partKeys = make([]uint64, n), make([]uint64, n)
		s.keyBucket, s.partBucket = make([]int32, n), make([]uint8, n)
	}
	s.recs, s.keys = s.recs[:n], s.keys[:n]
	if chunks := (n + chunk - 1) / chunk; cap(s.stats) < chunks {
		s.stats = make([]chunkStat, chunks)
	} else {
		s.stats = s.stats[:chunks]
	}
	f.src, f.dst, f.useY = b, s, useY
	f.phase = phaseBounds
	f.parallel(n, chunk)

	// The range of the starts, and the side path's boxes in index order
	// from the chunks that have any.
	s.special = s.special[:0]
	first, last := uint32(sideKey), uint32(0)
	for c, st := range s.stats {
		first, last = min(first, st.first), max(last, st.last)
		if st.special == 0 {
			continue
		}
		for i := c * chunk; i < min((c+1)*chunk, n); i++ {
			if s.keys[i]>>32 == sideKey {
				s.special = append(s.special, int32(i))
			}
		}
	}
	m := n - len(s.special)
	s.resize(m)
	groups := s.initBuckets(m, first, last)

	// Partition: count each range's boxes per group, then place every
	// record after the records of earlier groups and, within its group,
	// after those of earlier ranges, so that a group keeps index order. The
	// ranges are fixed slices of the indices, so the result does not depend
	// on which goroutine takes which; there are a few per worker, so that a
	// worker the machine stalls does not hold up the others.
	ranges := 1
	if w := f.workers(); w > 1 {
		ranges = rangesPerWorker * w
	}
	s.groups, s.ranges = groups, ranges
	grow(&s.fill, ranges*groups)
	f.phase = phaseCount
	f.parallel(ranges, 1)
	gs := s.groupStart[:groups+1]
	gs[0] = 0
	for g := 0; g < groups; g++ {
		at := gs[g]
		for r := 0; r < ranges; r++ { // the range's count becomes its first position
			c := s.fill[r*groups+g]
			s.fill[r*groups+g] = at
			at += c
		}
		gs[g+1] = at
	}
	f.phase = phaseScatter
	f.parallel(ranges, 1)

	f.phase = phaseGather
	f.parallel(groups, 1)
}

// groupSize is the number of boxes a group of the sort holds on average;
// bucketsPerGroup buckets of boxesPerBucket boxes each.
const (
	boxesPerBucket  = 4
	bucketsPerGroup = 128
	groupSize       = boxesPerBucket * bucketsPerGroup
)

// A box's bucket within its group, at most bucketsPerGroup in the last
// group, must fit the uint8 that partBucket keeps it in, and so must one
// more: sortGroup counts bucket b at b+1 in uint8 arithmetic.
const _ uint8 = bucketsPerGroup + 1

// initBuckets sizes the bucket index and the groups for m boxes whose
// sortable starts run from first to last, sets the mapping from a start to
// its bucket, and returns the number of groups.
func (s *sorted) initBuckets(m int, first, last uint32) (groups int) {
	groups = max(1, m/groupSize)
	nb := groups * bucketsPerGroup
	if cap(s.bucket) < nb+1 {
		s.bucket = make([]int32, nb+1)
	}
	s.bucket = s.bucket[:nb+1]
	if cap(s.groupStart) < groups+1 {
		s.groupStart = make([]int32, groups+1)
	}
	s.groupStart = s.groupStart[:groups+1]
	s.bucketLo, s.bucketScale = 0, 0
	if m > 0 {
		s.bucketLo = float64(unsortable(first))
		if span := float64(unsortable(last)) - s.bucketLo; span > 0 {
			s.bucketScale = float64(nb) / span
		}
	}
	return groups
}

// groupOf returns the group of the sort that bucket k belongs to.
func (s *sorted) groupOf(k int32) int32 {
	return min(k/bucketsPerGroup, int32(len(s.groupStart)-2))
}

// rangesPerWorker is how many index ranges the partition makes per worker
// when there is more than one.
const rangesPerWorker = 4

// indexRange returns range r of the partition's ranges of box indices.
func (s *sorted) indexRange(r int) (start, end int) {
	n := len(s.keys)
	return r * n / s.ranges, (r + 1) * n / s.ranges
}

// countRange notes the bucket of each valid box of index range r and
// counts the range's boxes per group, into the range's row of fill.
func (s *sorted) countRange(r int) {
	count := s.fill[r*s.groups : (r+1)*s.groups]
	clear(count)
	start, end := s.indexRange(r)
	buckets := s.keyBucket[start:end]
	for i, k := range s.keys[start:end] {
		if start := uint32(k >> 32); start != sideKey {
			b := int32(s.bucketOf(unsortable(start)))
			buckets[i] = b
			count[s.groupOf(b)]++
		}
	}
}

// scatterRange places each valid box of index range r in part, at the next
// position of the range's row of fill for its group, with its start and
// position in partKeys and its bucket within the group in partBucket.
func (s *sorted) scatterRange(r int) {
	fill := s.fill[r*s.groups : (r+1)*s.groups]
	n := len(s.keys)
	part, partKeys, partBucket := s.part[:n], s.partKeys[:n], s.partBucket[:n]
	start, end := s.indexRange(r)
	for i := start; i < end; i++ {
		k := s.keys[i]
		start := uint32(k >> 32)
		if start == sideKey {
			continue
		}
		b := s.keyBucket[i]
		g := s.groupOf(b)
		p := fill[g]
		fill[g]++
		part[p] = s.recs[i]
		partKeys[p] = uint64(start)<<32 | uint64(p)
		partBucket[p] = uint8(b - g*bucketsPerGroup)
	}
}

// bucketOf returns the bucket v falls in, clamped to the index.
func (s *sorted) bucketOf(v float32) int {
	x := (float64(v) - s.bucketLo) * s.bucketScale
	if !(x > 0) { // NaN included
		return 0
	}
	return int(min(x, float64(len(s.bucket)-1)))
}

// sortGroup sorts group g by start and copies it from part into the sorted
// columns at the same positions. It counts the group's boxes per bucket
// (the scatter noted each box's bucket within the group), which gives the
// group's bucket index entries, places the keys bucket by bucket, and sorts
// each bucket's few keys by insertion (a bucket holding many equal or
// clustered starts by slices.Sort). A key ends in the box's
// position in part, which follows index order within the group, so boxes
// with equal starts stay in index order.
func (s *sorted) sortGroup(w *worker, g int) {
	start, end := int(s.groupStart[g]), int(s.groupStart[g+1])
	k0, kEnd := g*bucketsPerGroup, (g+1)*bucketsPerGroup
	if g == len(s.groupStart)-2 {
		kEnd = len(s.bucket)
	}
	// First load one word of every cache line of the group's records, in
	// order: the copy at the end reads them in sorted order, which no
	// hardware prefetcher follows, and the scatter wrote them long enough
	// ago that they have left the core's caches. These loads do not depend
	// on each other, so their misses overlap, and the counting below runs
	// while they arrive. Alternating runs (BenchmarkAllPairs, avx2, 100,000
	// boxes, -benchtime 10x, 10 rounds) measured the uniform pass 19%
	// faster with one worker and 15% with two.
	var sink int32
	for i := start; i < end; i += recordsPerLine {
		sink ^= s.part[i].index
	}
	w.sink = sink
	count := grow(&w.count, kEnd-k0+1)
	clear(count)
	keys, local := s.partKeys[start:end], s.partBucket[start:end]
	for _, b := range local {
		count[b+1]++
	}
	for b := range count[1:] {
		count[b+1] += count[b]
	}
	for b, c := range count[:kEnd-k0] {
		s.bucket[k0+b] = int32(start) + c
	}
	placed := grow(&w.tmp, len(keys))
	for i, k := range keys {
		b := local[i]
		placed[count[b]] = k
		count[b]++
	}
	lo := 0
	for _, hi := range count[:kEnd-k0] {
		sortKeys(placed[lo:hi])
		lo = int(hi)
	}

	d, part := &s.boxes, s.part
	cx, cy, ux, uy, hx, hy := d.CX[start:end], d.CY[start:end], d.UX[start:end], d.UY[start:end], d.HX[start:end], d.HY[start:end]
	starts, his, reach, index := s.start[start:end], s.hi[start:end], s.reach[start:end], s.index[start:end]
	for p, k := range placed {
		r := &part[uint32(k)]
		cx[p], cy[p], ux[p], uy[p], hx[p], hy[p] = r.cx, r.cy, r.ux, r.uy, r.hx, r.hy
		starts[p], his[p], index[p] = uint32(k>>32), r.hi, r.index
		reach[p] = crossReach(r.hx, r.hy, r.ux, r.uy)
	}
	if s.withLo {
		for p, k := range starts {
			s.lo[start+p] = unsortable(k)
		}
	}
}

// sortKeys sorts distinct keys. Most of the slices it gets (a bucket of the
// sort) hold fewer than two keys, so it inlines to a length check and calls
// sortMany only for the others.
func sortKeys(keys []uint64) {
	if len(keys) > 1 {
		sortMany(keys)
	}
}

// sortMany sorts distinct keys: by insertion when there are few of them.
func sortMany(keys []uint64) {
	if len(keys) > 16 {
		slices.Sort(keys)
		return
	}
	for i := 1; i < len(keys); i++ {
		k, j := keys[i], i
		for ; j > 0 && keys[j-1] > k; j-- {
			keys[j] = keys[j-1]
		}
		keys[j] = k
	}
}

// grow sets *buf to length n, reallocated (contents lost) when its
// capacity is short, and returns it. It sets *buf, not only the slice it
// returns, because some phases read a buffer's length: merge once kept the
// cuts in a local slice of length n and left f.mergeCut at an earlier
// pass's length.
func grow[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// interval copies box i into its record and its key with its padded sweep
// interval, or gives the box the side path's key, and returns the key's
// start. It reads the columns directly and computes only the sweep axis's
// extent: this runs for every box on every pass, so it has no
// data-dependent branch (directed rounding, which picks a direction per
// value, cost a mispredicted branch per bound).
func (f *Finder) interval(i int) (start uint32) {
	b, s := f.src, f.dst
	cx, cy, ux, uy, hx, hy := b.CX[i], b.CY[i], b.UX[i], b.UY[i], b.HX[i], b.HY[i]
	// The band holds for valid boxes only: NaN, infinities, negative
	// extents and non-unit axes go to the brute-force side path.
	box := obb.Box{Center: obb.Vec2{X: cx, Y: cy}, Axis: obb.Vec2{X: ux, Y: uy}, Half: obb.Vec2{X: hx, Y: hy}}
	if !box.Valid() {
		s.keys[i] = sideKey<<32 | uint64(i)
		return sideKey
	}
	// Extent along x is hx·|ux| + hy·|uy|; along y, hx·|uy| + hy·|ux|.
	c, along, across := cx, ux, uy
	if f.useY {
		c, along, across = cy, uy, ux
	}
	lo, hi := sweepBounds(float64(c), float64(hx), float64(hy), float64(along), float64(across))
	if !f32.Finite(lo) || !f32.Finite(hi) {
		s.keys[i] = sideKey<<32 | uint64(i)
		return sideKey
	}
	start = sortable(lo)
	s.keys[i] = uint64(start)<<32 | uint64(i)
	if f.useY {
		s.recs[i] = record{cy, cx, uy, ux, hx, hy, hi, int32(i)}
	} else {
		s.recs[i] = record{cx, cy, ux, uy, hx, hy, hi, int32(i)}
	}
	return start
}

// intervals runs interval on boxes [start, end), at most one chunk starting
// at a multiple of chunk, and notes the chunk's range of starts and its
// number of boxes for the side path in dst.stats, so that build needs no
// serial pass over all the keys.
func (f *Finder) intervals(start, end int) {
	st := chunkStat{first: sideKey}
	for i := start; i < end; i++ {
		k := f.interval(i)
		if k == sideKey {
			st.special++
			continue
		}
		st.first, st.last = min(st.first, k), max(st.last, k)
	}
	f.dst.stats[start/chunk] = st
}

// chunkStat is what intervals notes of one chunk of boxes.
type chunkStat struct {
	first, last uint32 // the lowest and highest start; sideKey and 0 when none
	special     int    // boxes for the side path
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
	e := h1*math.Abs(along) + h2*math.Abs(across)
	w := float64(padFactor*(h1+h2)) + 0x1p-140
	m := (math.Abs(c)+e+w)*0x1p-22 + 0x1p-148
	return float32(c - e - w - m), float32(c + e + w + m)
}

// crossReach returns a float32 at least e + w for the exact half extent
// e = hx·|uy| + hy·|ux| of a valid box across the sweep (the box transposed
// for a sweep along y) and the padding w of sweepBounds: the reach of
// kernel.Sweep and kernel.OverlapsRunsPruned. When the float32 test says
// two boxes overlap, their exact rectangles are within w₁ + w₂ of each other
// (see padFactor), so their centers across the sweep are at most
// e₁ + w₁ + e₂ + w₂ ≤ reach₁ + reach₂ apart, exactly. The kernel compares
// the float32 difference of the centers with the float32 sum of the
// reaches, and rounding to nearest never reverses a ≤, so it keeps every
// such pair.
func crossReach(hx, hy, ux, uy float32) float32 {
	_, hi := sweepBounds(0, float64(hx), float64(hy), float64(uy), float64(ux))
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

// resize sets the sorted columns' length to m. The columns the gather
// writes in step (ten, eleven with lo) are staggered a cache line apart
// within the page (see package stagger): allocated one by one they all
// start page aligned, and the gather then ran six times slower.
func (s *sorted) resize(m int) {
	if cap(s.hi) < m {
		cols := stagger.Columns[float32](m, 8, 0)
		s.boxes = soa.Boxes{CX: cols[0], CY: cols[1], UX: cols[2], UY: cols[3], HX: cols[4], HY: cols[5]}
		s.hi, s.reach = cols[6], cols[7]
		s.start = stagger.Columns[uint32](m, 1, 8)[0]
		s.index = stagger.Columns[int32](m, 1, 9)[0]
		s.lo = nil
	}
	if s.withLo && cap(s.lo) < m {
		s.lo = stagger.Columns[float32](m, 1, 10)[0]
	}
	d := &s.boxes
	d.CX, d.CY, d.UX, d.UY, d.HX, d.HY = d.CX[:m], d.CY[:m], d.UX[:m], d.UY[:m], d.HX[:m], d.HY[:m]
	s.start, s.hi, s.reach, s.index = s.start[:m], s.hi[:m], s.reach[:m], s.index[:m]
	if s.withLo {
		s.lo = s.lo[:m]
	}
}

// firstAbove returns the first position p >= from whose start is above v
// (strict) or at least v (when orEqual), for v not NaN. The bucket index
// brackets the answer: positions before v's bucket hold starts below v and
// positions from the next bucket on hold starts above it, because bucketOf
// never decreases. A bisection on the integer keys (which order as the
// starts do) finishes inside the bracket, a few positions wide on
// spread-out data.
func (s *sorted) firstAbove(from int, v float32, orEqual bool) int {
	// Positions whose key is at most kv are not above v. (For orEqual the
	// key of v itself is above; sortable(v) is not 0, which only a NaN has.)
	kv := sortable(v)
	if orEqual {
		kv--
	}
	return s.search(from, s.bucketOf(v), kv)
}

// search returns the first position p >= from whose start key is above kv,
// for the bucket k that the value of kv falls in.
func (s *sorted) search(from, k int, kv uint32) int {
	keys := s.start
	l := max(int(s.bucket[k]), from)
	h := len(keys)
	if k+1 < len(s.bucket) {
		h = max(int(s.bucket[k+1]), l)
	}
	// The step is masked in rather than branched on: a data-dependent
	// branch here mispredicts about every other time, and the compiler
	// turns the 0-or-1 assignment into a SETcc.
	size := h - l  // the answer is in [l, l+size]
	for size > 1 { // halve the range, keeping the answer in it
		half := size >> 1
		below := 0
		if keys[l+half-1] <= kv {
			below = 1
		}
		l += half & -below
		size -= half
	}
	if size == 1 && keys[l] <= kv {
		l++
	}
	return l
}

// All appends to dst every pair (I, J), I < J, of boxes of b that overlap, as
// obb.Box.Overlaps decides, sorted by I then J, and returns the extended
// slice. It panics if b's columns differ in length or b has more than
// math.MaxInt32 boxes.
func (f *Finder) All(dst []Pair, b *soa.Boxes) []Pair {
	checkSize(b)
	f.small = f.isSmall(b.Len())
	defer f.stopHelpers()
	useY := sweepAxis(b)
	f.build(&f.a, b, useY, true)
	s := &f.a
	f.phase = phaseAll
	f.parallel(len(s.start), chunk)
	// Invalid boxes, against everything, by the scalar test.
	n := b.Len()
	w := &f.wk[0]
	for _, x := range s.special {
		bx := b.At(int(x))
		for j := 0; j < n; j++ {
			if j == int(x) || (isSpecial(s.special, int32(j)) && int32(j) < x) {
				continue
			}
			if bx.Overlaps(b.At(j)) {
				f.room(w, 1)[0] = ordered(x, int32(j))
			}
		}
	}
	return f.merge(dst, n, n)
}

// Between appends to dst every pair (I, J) with box I of moving overlapping
// box J of static, sorted by I then J, and returns the extended slice. It
// panics if either set's columns differ in length or a set has more than
// math.MaxInt32 boxes.
func (f *Finder) Between(dst []Pair, moving, static *soa.Boxes) []Pair {
	checkSize(moving)
	checkSize(static)
	f.small = f.isSmall(moving.Len() + static.Len())
	defer f.stopHelpers()
	useY := sweepAxis(moving, static)
	f.build(&f.a, moving, useY, false)
	f.build(&f.b, static, useY, false)
	a, b := &f.a, &f.b
	f.phase = phaseBetween
	f.parallel(len(a.start)+len(b.start), chunk)
	w := &f.wk[0]
	for _, x := range a.special {
		bx := moving.At(int(x))
		for j := 0; j < static.Len(); j++ {
			if bx.Overlaps(static.At(j)) {
				f.room(w, 1)[0] = Pair{x, int32(j)}
			}
		}
	}
	for _, y := range b.special {
		by := static.At(int(y))
		for i := 0; i < moving.Len(); i++ {
			if !isSpecial(a.special, int32(i)) && by.Overlaps(moving.At(i)) {
				f.room(w, 1)[0] = Pair{int32(i), y}
			}
		}
	}
	return f.merge(dst, moving.Len(), static.Len())
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

// steps does the work of positions [start, end) of the current phase.
func (f *Finder) steps(w *worker, start, end int) {
	switch f.phase {
	case phaseBounds:
		for c := start; c < end; c += chunk {
			f.intervals(c, min(c+chunk, end))
		}
	case phaseCount:
		for r := start; r < end; r++ {
			f.dst.countRange(r)
		}
	case phaseScatter:
		for r := start; r < end; r++ {
			f.dst.scatterRange(r)
		}
	case phaseGather:
		for g := start; g < end; g++ {
			f.dst.sortGroup(w, g)
		}
	case phaseAll:
		// kernel.Sweep finds each box's run and tests it in one call.
		s := &f.a
		st := kernel.SweepState{Q: start, C: start + 1}
		for st.Q < end {
			n := kernel.Sweep(&s.boxes, s.lo, s.hi, s.reach, &st, end, w.hits)
			if n == 0 {
				continue
			}
			out := f.room(w, n)
			for i, h := range w.hits[:n] {
				out[i] = ordered(s.index[h.Q], s.index[h.C])
			}
		}
		w.candidates += st.Candidates
	case phaseSplit:
		for i := start; i < end; i++ {
			f.splitFound(i)
		}
	case phaseMerge:
		for r := start; r < end; r++ {
			f.mergeRange(w, r)
		}
	default:
		// Pass 1 (positions below len(a)): moving box p against the statics
		// whose interval starts within its own. Pass 2: static box p against
		// the movings whose interval starts strictly inside its own. Every
		// pair of overlapping intervals is met exactly once.
		a, b := &f.a, &f.b
		if na := len(a.start); start < na {
			w.runs = between(w.runs[:0], a, b, start, min(end, na), true)
			f.sweep(w, a, b, w.runs, func(p, j int32) Pair { return Pair{a.index[p], b.index[j]} })
			start = na
		}
		if start < end {
			na := len(a.start)
			w.runs = between(w.runs[:0], b, a, start-na, end-na, false)
			f.sweep(w, b, a, w.runs, func(p, j int32) Pair { return Pair{a.index[j], b.index[p]} })
		}
	}
}

// between appends the non-empty candidate runs of boxes [start, end) of from
// among the boxes of to: those whose interval starts inside the box's own,
// at its start too when atStart.
func between(runs []int32, from, to *sorted, start, end int, atStart bool) []int32 {
	for p := start; p < end; p++ {
		lo := to.firstAbove(0, unsortable(from.start[p]), atStart)
		if hi := to.firstAbove(lo, from.hi[p], false); hi > lo {
			runs = append(runs, int32(p), int32(lo), int32(hi))
		}
	}
	return runs
}

// sweep hands the candidate runs, triples of a query position in qs and a
// range of positions in cand, to the kernel in one call, and adds the pair
// that pair(query position, candidate position) makes of every overlapping
// candidate to the pass's pairs.
func (f *Finder) sweep(w *worker, qs, cand *sorted, runs []int32, pair func(p, j int32) Pair) {
	// Where each run's words start, and one past the last run's.
	starts := w.wordStart[:0]
	words := 0
	for k := 0; k < len(runs); k += 3 {
		starts = append(starts, words)
		words += kernel.Words(int(runs[k+2] - runs[k+1]))
		w.candidates += int(runs[k+2] - runs[k+1])
	}
	starts = append(starts, words)
	w.wordStart = starts
	if cap(w.bits) < words {
		w.bits = make([]uint64, words)
	}
	set := w.bits[:words]
	kernel.OverlapsRunsPruned(&qs.boxes, &cand.boxes, qs.reach, cand.reach, runs, set)
	// Few words have a bit set (on bench/'s uniform scene of 100,000 boxes a run
	// of All's sweep held about 111 candidates, two words, and a pass finds
	// 17,425 pairs), so the words are scanned as one array, and the run a nonzero
	// word belongs to is found by moving a cursor forward over the runs' starts
	// instead of visiting every run. The pairs are counted first, so that room
	// for them all is reserved at once.
	n := 0
	for _, word := range set {
		n += bits.OnesCount64(word)
	}
	if n == 0 {
		return
	}
	out := f.room(w, n)
	k, r := 0, 0
	for i, word := range set {
		if word == 0 {
			continue
		}
		for starts[r+1] <= i {
			r++
		}
		p, at := runs[3*r], runs[3*r+1]+64*int32(i-starts[r])
		for word != 0 {
			out[k] = pair(p, at+int32(bits.TrailingZeros64(word)))
			k++
			word &= word - 1
		}
	}
}

// room returns n places for worker w's next pairs: the next n of f.found
// when they are free, or else n more at the end of w.spill. The workers
// reserve their places in found with a compare-and-swap, so that
// found[:foundLen] is always filled by pairs and a pass that fits in found
// allocates nothing, however the work is split.
func (f *Finder) room(w *worker, n int) []Pair {
	for {
		at := f.foundLen.Load()
		end := at + int64(n)
		if end > int64(len(f.found)) {
			break
		}
		if f.foundLen.CompareAndSwap(at, end) {
			return f.found[at:end]
		}
	}
	m := len(w.spill)
	w.spill = slices.Grow(w.spill, n)[:m+n]
	return w.spill[m:]
}

// parallel does the current phase's work for every position in [0, n), on
// f.workers() goroutines, each with its own worker scratch. Positions go out
// chunk at a time, so that dense regions do not leave one goroutine with all
// the work. The calling goroutine is worker 0.
//
// The other workers are helper goroutines that live for one pass: the first
// phase that runs on more than one worker starts them, and the pass stops them
// when it ends (stopHelpers). Between phases they wait by spinning, yielding
// their P now and then, and the calling goroutine waits for them the same way,
// so that no P goes idle inside a pass: on the README's second machine a
// goroutine started with a go statement while its starter kept running
// began a median 583 to 841 µs later, and a tenth of them not before a
// millisecond (bench's BenchmarkGoStart, 3 runs), and a pass used to start
// its helpers anew for each of its five or more phases. Alternating runs of the builds before
// and after (BenchmarkAllPairs, avx2, 100,000 boxes, 8 rounds) measured the
// two-worker uniform pass 3% faster (67.6 to 65.5 ns a box, p=0.02) and the
// RTS pass unchanged. (A version an earlier session tried, whose helpers spun
// for up to 100 µs between phases, measured no faster; it was not committed,
// so what made the difference is not known.)
func (f *Finder) parallel(n, chunk int) {
	workers := f.workers()
	for len(f.wk) < workers {
		f.wk = append(f.wk, worker{hits: make([]kernel.Hit, sweepHits)})
	}
	if f.phase == phaseAll || f.phase == phaseBetween {
		f.foundLen.Store(0)
		for i := range f.wk {
			f.wk[i].spill = f.wk[i].spill[:0]
			f.wk[i].candidates = 0
		}
	}
	if workers == 1 || n < 2*chunk {
		f.steps(&f.wk[0], 0, n)
		return
	}
	f.next.Store(0)
	f.phaseN, f.phaseChunk = n, chunk
	f.pending.Store(int32(workers - 1))
	if f.helping == 0 {
		f.startHelpers(workers - 1)
	} else {
		f.gen.Add(1)
	}
	f.drain(&f.wk[0])
	for spins := 0; f.pending.Load() != 0; spins++ {
		if spins%yieldEvery == yieldEvery-1 {
			runtime.Gosched()
		}
	}
}

// isSmall reports whether a pass over n boxes (of both sets, for Between)
// runs on the calling goroutine alone: when n is below parallelMinBoxes and
// the Finder's last pass found fewer than mergeParallelPairs pairs. A few
// boxes that overlap a lot, as on bench/'s pile scene, are work enough for
// a second core (4,000 boxes, 8 million pairs: 28.8 µs a box with two
// workers against 39.8 with one, BenchmarkAllPairs at 18213f8); a
// simulation's steps are alike, so the last pass tells. The first pass of
// a Finder, with no last pass, counts as having found none.
func (f *Finder) isSmall(n int) bool {
	return n < parallelMinBoxes && f.lastPairs < mergeParallelPairs
}

// parallelMinBoxes is the fewest boxes (of both sets, for Between) a pass
// runs on more than one worker, unless it has many pairs (see isSmall).
// Below it, waking another core and handing out the work cost more than
// the second worker saved. BenchmarkSmallPasses (-benchtime 0.3s, 6
// rounds, benchstat -col /workers) measured two workers against one at
// 5,000 boxes 40% slower on bench/'s uniform scene (79.3 against 56.7 ns a
// box) and 7% on its RTS scene; at 10,000, 8% slower on the uniform scene
// and 9% faster on the RTS scene (p=0.035); at 20,000, 11% and 18%
// faster. The package's tests set it to 0, so that their small scenes run
// on several workers.
var parallelMinBoxes = 8192

// yieldEvery is how many polls of a spinning wait go by between calls of
// runtime.Gosched, which lets the other goroutines of the P run: a worker
// of this pass when there are fewer Ps than workers, the garbage
// collector, or the program's own.
const yieldEvery = 64

// startHelpers starts n helpers on the phase parallel has set up.
func (f *Finder) startHelpers(n int) {
	if f.self != f { // a new Finder, or a copy: the helpers are not its own
		f.self, f.helpers = f, nil
	}
	for i := len(f.helpers) + 1; i <= n; i++ {
		f.helpers = append(f.helpers, func() { f.help(&f.wk[i]) })
	}
	f.helperGen = f.gen.Load()
	f.gen.Add(1)
	f.helping = n
	f.wg.Add(n)
	for _, help := range f.helpers[:n] {
		go help()
	}
}

// help is one helper's life: it does its share of each phase the pass
// runs, as drain, and returns when stopHelpers says so. A phase starts
// when f.gen moves past the last one the helper saw; parallel starts the
// next only after every helper has finished this one, so no helper can
// miss a phase.
func (f *Finder) help(w *worker) {
	defer f.wg.Done()
	seen := f.helperGen
	for {
		for spins := 0; f.gen.Load() == seen; spins++ {
			if spins%yieldEvery == yieldEvery-1 {
				runtime.Gosched()
			}
		}
		seen = f.gen.Load()
		if f.stopping {
			return
		}
		f.drain(w)
		f.pending.Add(-1)
	}
}

// stopHelpers ends the helpers the pass started, if any, and waits until
// they have returned. Every pass calls it when it ends, panics included,
// so that no helper spins once the pass is over.
func (f *Finder) stopHelpers() {
	if f.helping == 0 {
		return
	}
	f.stopping = true
	f.gen.Add(1)
	f.wg.Wait()
	f.stopping, f.helping = false, 0
}

// drain does chunks of the current phase's positions [0, f.phaseN) until
// none is left.
func (f *Finder) drain(w *worker) {
	n, chunk := f.phaseN, f.phaseChunk
	for {
		start := int(f.next.Add(int64(chunk))) - chunk
		if start >= n {
			return
		}
		f.steps(w, start, min(start+chunk, n))
	}
}

// sweepHits is how many hits a worker's kernel.Sweep call has room for.
const sweepHits = 1024

// chunk is how many positions a worker takes at a time in the bounds and
// sweep phases (the gather hands out single groups).
const chunk = 256

// The phases of a pass that run on all workers.
const (
	phaseBounds  = iota // each box's record and interval
	phaseCount          // each index range's boxes per group
	phaseScatter        // each index range's records placed in their groups
	phaseGather         // each group sorted and copied into sorted order
	phaseAll
	phaseBetween
	phaseSplit // each unit of the pairs split by range of I
	phaseMerge // each range of I sorted
)

func (f *Finder) workers() int {
	switch {
	case f.small:
		return 1
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

// merge sorts the pass's pairs by I then J and appends them to dst; every I
// is below nI and every J below nJ.
//
// Each range of I is sorted by two stable counting sorts, by J into f.byJ
// and then by I into dst, which is linear in the boxes and the pairs. It
// used to count by I and then sort each I's pairs by J: on the RTS scene of
// 100,000 boxes (11 pairs a box, many more for a box in a dense cluster)
// those small sorts made the serial merge 42% of the one-worker pass's CPU
// profile, against 28% for the counting sorts. A radix sort of the pairs
// packed into 34-bit keys, in three passes of 12 bits whose write positions
// stay in the caches, took 46%. Later, with BenchmarkMerge, radix sorts in
// place of each range's counting sorts (an even number of passes between
// byJ and the output, from the parts) measured the RTS scene's merge 2.9x
// slower with four passes of 9 bits and 4x with six of 6. A radix sort in
// three passes of 12 bits, used only where it counts less than the
// counting sorts, took the uniform scene's merge (17,425 pairs) from about
// 25 to 17 ns a box, under 1% of its pass, and was left out.
//
// With more than one worker and at least mergeParallelPairs pairs, the I
// axis is cut into one range per worker, each holding about as many pairs
// (the cuts come from a sample of the pairs), each worker splits an equal
// slice of the pairs by range, and the ranges are sorted in parallel:
// alternating runs of the builds before and after (BenchmarkAllPairs, avx2,
// 2 workers, -benchtime 10x, 8 rounds) measured the RTS pass at 100,000
// boxes 8% faster (2.61 to 2.39 µs a box, p=0.005). The pairs are
// distinct, so the order does not depend on where in found each worker put
// its pairs, nor on the cuts.
func (f *Finder) merge(dst []Pair, nI, nJ int) []Pair {
	pairs := f.gather()
	total := len(pairs)
	dst = slices.Grow(dst, total)
	f.mergeOut, f.mergeNI, f.mergeNJ = dst[len(dst):len(dst)+total], nI, nJ
	// byJ and split follow found's length, so that they grow only when it
	// does.
	grow(&f.byJ, len(f.found))
	workers := f.workers()
	ranges := 1
	if workers > 1 && total >= mergeParallelPairs {
		ranges = workers
	}
	cut := grow(&f.mergeCut, ranges+1) // its length gives the phases the ranges
	cut[0], cut[ranges] = 0, int32(nI)
	if cap(f.parts) < workers*workers {
		f.parts = make([][]Pair, workers*workers)
	}
	if ranges == 1 {
		f.parts = append(f.parts[:0], pairs)
	} else {
		// The cuts: quantiles of every step-th pair's I, at most
		// total/step + 1 <= 2·mergeSamples + 1 of them (total is at least
		// mergeParallelPairs).
		step := max(1, total/mergeSamples)
		if n := 2*mergeSamples + 1; cap(f.mergeSample) < n {
			f.mergeSample = make([]int32, 0, n)
		}
		sample := f.mergeSample[:0]
		for k := 0; k < total; k += step {
			sample = append(sample, pairs[k].I)
		}
		slices.Sort(sample)
		for r := 1; r < ranges; r++ {
			cut[r] = sample[r*len(sample)/ranges]
		}
		f.mergeSample = sample
		grow(&f.split, len(f.found))
		grow(&f.splitAt, workers*(ranges+1))
		f.parts = f.parts[:workers*ranges] // workers units
		f.phase = phaseSplit
		f.parallel(workers, 1)
	}
	// Range r's pairs go to positions from start[r] on.
	start := grow(&f.mergeStart, ranges+1)
	start[0] = 0
	for r := 0; r < ranges; r++ {
		start[r+1] = start[r]
		for u := r; u < len(f.parts); u += ranges {
			start[r+1] += len(f.parts[u])
		}
	}
	f.phase = phaseMerge
	f.parallel(ranges, 1)
	if workers > 1 {
		f.evenOut(workers, ranges > 1)
	}
	f.mergeOut = nil // the caller's memory: do not keep it
	f.lastPairs = total
	return dst[:len(dst)+total]
}

// gather returns the pass's pairs, in f.found. When some did not fit there,
// it first makes found room for them all and an eighth more, so that the
// next pass with about as many pairs fits, copies them in and lets the
// workers' spills go.
func (f *Finder) gather() []Pair {
	total := int(f.foundLen.Load())
	spilled := 0
	for i := range f.wk {
		spilled += len(f.wk[i].spill)
	}
	if spilled == 0 {
		return f.found[:total]
	}
	found := make([]Pair, total+spilled+(total+spilled)/8)
	n := copy(found, f.found[:total])
	for i := range f.wk {
		n += copy(found[n:], f.wk[i].spill)
		f.wk[i].spill = nil
	}
	f.found = found
	f.foundLen.Store(int64(n))
	return found[:n]
}

// evenOut gives each of the first n workers as much room in each scratch
// buffer as the roomiest of them has. What a buffer must hold depends on
// the chunk of positions, the group of the sort or the range of I a worker
// takes, and which worker takes which changes from pass to pass: after
// this, a pass over the same boxes finds room for every one of them in
// whichever worker takes it. The merge's buffers, as large as the sets,
// are evened out only after a pass that merged ranges on several workers
// (merged).
func (f *Finder) evenOut(n int, merged bool) {
	wk := f.wk[:n]
	evenOut(wk, func(w *worker) *[]int32 { return &w.runs })
	evenOut(wk, func(w *worker) *[]uint64 { return &w.bits })
	evenOut(wk, func(w *worker) *[]int { return &w.wordStart })
	evenOut(wk, func(w *worker) *[]uint64 { return &w.tmp })
	evenOut(wk, func(w *worker) *[]int32 { return &w.count })
	if merged {
		evenOut(wk, func(w *worker) *[]int { return &w.startI })
		evenOut(wk, func(w *worker) *[]int { return &w.startJ })
	}
}

// evenOut gives each worker of wk as much room in the buffer buf returns
// as the roomiest has.
func evenOut[T any](wk []worker, buf func(*worker) *[]T) {
	most := 0
	for i := range wk {
		most = max(most, cap(*buf(&wk[i])))
	}
	for i := range wk {
		if b := buf(&wk[i]); cap(*b) < most {
			*b = make([]T, 0, most)
		}
	}
}

// mergeParallelPairs is the fewest pairs merge sorts on more than one
// worker. Each range's sort still counts the pairs per J over every J, so
// the parallel merge saves only the work per pair, and with few pairs that
// is less than the split and the extra wait cost. The value is a judgment,
// not a measured optimum: bench/'s uniform scene of 100,000 boxes (17,425
// pairs) merges on one worker, its RTS scene (1,115,665) on all.
const mergeParallelPairs = 1 << 15

// mergeSamples is about how many pairs merge looks at to place its cuts.
const mergeSamples = 1024

// splitFound copies unit u of the pairs (the u-th of len(f.parts)/ranges
// equal slices) into the same positions of f.split, ordered by the range
// of I each pair falls in, and sets the unit's parts.
func (f *Finder) splitFound(u int) {
	cut := f.mergeCut[1 : len(f.mergeCut)-1]
	ranges := len(cut) + 1
	pairs, units := f.found[:f.foundLen.Load()], len(f.parts)/ranges
	first, end := u*len(pairs)/units, (u+1)*len(pairs)/units
	pairs = pairs[first:end]
	at := f.splitAt[u*(ranges+1) : (u+1)*(ranges+1)]
	clear(at)
	for _, p := range pairs {
		at[rangeOf(cut, p.I)+1]++
	}
	at[0] = first
	for r := range ranges { // each count becomes the part's end
		at[r+1] += at[r]
	}
	for r := range ranges {
		f.parts[u*ranges+r] = f.split[at[r]:at[r+1]]
	}
	for _, p := range pairs {
		r := rangeOf(cut, p.I)
		f.split[at[r]] = p
		at[r]++
	}
}

// rangeOf returns how many of the cuts are at most i, the range of I that i
// falls in, without a branch: the ranges of the pairs come in no order a
// branch predictor could follow.
func rangeOf(cut []int32, i int32) int {
	r := 0
	for _, c := range cut {
		r += int(uint32(c-i-1) >> 31) // 1 when c <= i; c and i are not negative
	}
	return r
}

// mergeRange sorts the pairs of range r of I (every unit's part r) by I
// then J, into the range's positions of the output.
func (f *Finder) mergeRange(w *worker, r int) {
	lo, hi := f.mergeCut[r], f.mergeCut[r+1]
	ranges := len(f.mergeCut) - 1
	// startI is sized for any range, so that a worker's scratch does not
	// grow when the cuts move.
	if cap(w.startI) < f.mergeNI+1 {
		w.startI = make([]int, f.mergeNI+1)
	}
	startI, startJ := w.startI[:hi-lo+1], grow(&w.startJ, f.mergeNJ+1)
	clear(startI)
	clear(startJ)
	for u := r; u < len(f.parts); u += ranges { // every unit's part r
		for _, p := range f.parts[u] {
			startI[p.I-lo+1]++
			startJ[p.J+1]++
		}
	}
	// Each count becomes the position of the first pair with that index.
	prefixSums(startI)
	prefixSums(startJ)
	first, end := f.mergeStart[r], f.mergeStart[r+1]
	byJ, out := f.byJ[first:end], f.mergeOut[first:end]
	for u := r; u < len(f.parts); u += ranges {
		for _, p := range f.parts[u] {
			byJ[startJ[p.J]] = p
			startJ[p.J]++
		}
	}
	for _, p := range byJ {
		out[startI[p.I-lo]] = p
		startI[p.I-lo]++
	}
}

// prefixSums replaces each count of c with the sum of it and the counts
// before it. The running sum stays in a register: written as
// c[i] += c[i-1], each step waited for the store before it to be read back,
// and the two sums over every index of a set were most of the uniform
// scene's merge: BenchmarkMerge measured that merge at 7.2 ns a box before
// and 4.0 after (medians of 5 alternating rounds; the RTS merge did not
// change).
func prefixSums(c []int) {
	sum := 0
	for i, v := range c {
		sum += v
		c[i] = sum
	}
}
