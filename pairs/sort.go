package pairs

import (
	"math"
	"slices"
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/stagger"
	"github.com/obb2d/obb2d/soa"
)

// sorted is one set's boxes ordered by the start of their sweep interval,
// with the columns copied in that order so that a candidate run is a
// contiguous slice the kernel can read.
//
// The columns of boxes hold each box as seen with the sweep axis as x: for a
// sweep along y, x and y are swapped (CX holds the center's y, UX the axis's
// y, and the other way round), so that the kernel's reach test (batch.Sweep's
// and batch.RunsPruned's, on CY) applies across the sweep. The
// separating-axis test's answer does not change: with x and y swapped, each of
// its float32 operations gives the same value, or the same value negated
// inside an absolute value (a sum's terms trade places, a difference's
// operands trade places, and rounding to nearest is symmetric). The
// brute-force tests run scenes swept along each axis.
type sorted struct {
	src     *soa.Boxes // the set being sorted, during build
	useY    bool       // the sweep runs along y: x and y are swapped
	boxes   soa.Boxes
	start   []uint32    // padded sweep interval's start as sortable(lo), by position: sorted, or as far as sortGroup sorts when withLo
	hi      []float32   // padded sweep interval's end, by position
	reach   []float32   // bound on the half extent across the sweep, padded: see crossReach
	index   []int32     // original index of each sorted box
	invalid []int32     // original indices of the invalid boxes, ascending
	stats   []chunkStat // each chunk's starts and invalid count, from intervals
	// withLo marks a set sorted for All's own sweep, which needs the
	// starts in order only as far as their buckets: the boxes of a bucket
	// of up to unsortedMax stay in index order, and lo holds, by position,
	// the least start from that position to the end of its group as a
	// float32, the column batch.Sweep finds each run's end in (see
	// sortGroup).
	lo     []float32
	withLo bool
	// keys holds sortable(lo) << 32 | index for every box, by original
	// index; the boxes the sweep leaves out have nanKey or invalidKey.
	keys []uint64
	// ends holds each box's padded sweep interval's end, by original
	// index: the scatter makes each box's record from it and the columns.
	ends []float32
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
	partBucket []uint16
	groupStart []int32 // group g is part[groupStart[g]:groupStart[g+1]]
	// The partition splits the indices into ranges: row r of fill (groups
	// entries) holds range r's boxes per group, then its next position in each
	// group.
	groups, ranges int
	fill           []int32
	// bucket[k] is the first sorted position whose start maps to bucket k
	// or later (bucketMap maps a start to its bucket): a coarse index over
	// the starts that brackets firstAbove's answer. Group g of a band holds
	// the band's boxes of buckets [g·groupBuckets, (g+1)·groupBuckets), the
	// band's last group its last bucket too.
	bucket       []int32
	bucketMap    binMap
	buckets      int // buckets per band, nb: a start maps to one of [0, nb]
	groupBuckets int // buckets per group, 1 << groupShift
	groupShift   int
	// The bands across the sweep (bands.go): their number, the sort's
	// groups per band, and the mapping from a bound across the sweep to its
	// band. When the caller asks for more than one band, cross holds each
	// sorted box's bounds across the sweep by original index, as the
	// float32 bits of lo << 32 | hi (intervals; see crossBounds), then its
	// first and last band, first << 32 | last (countRange, for
	// scatterRange).
	bands, bandGroups int
	bandMap           binMap
	cross             []uint64
}

// record is one box (transposed for a sweep along y), the end of its padded
// sweep interval and its index.
type record struct {
	cx, cy, ux, uy, hx, hy, hi float32
	index                      int32
}

// recordsPerLine is how many records a 64-byte cache line holds.
const recordsPerLine = 64 / int(unsafe.Sizeof(record{}))

// invalidKey and nanKey are the start keys of the boxes the sweep leaves
// out (see bound.Classify): those the scalar test pairs with every box, and
// those that overlap nothing. Both are above sortable of every finite
// float32.
const (
	invalidKey = math.MaxUint32
	nanKey     = invalidKey - 1
)

// build sorts b into s along the chosen axis, with its small buckets
// unsorted and s.lo when withLo (All's sweep) and fully otherwise
// (Between's search), in at most k bands across the sweep (bands.go;
// Between's sets have one). The intervals are computed on all workers. The
// sort then partitions the records by band and bucket into groups of about
// groupSize boxes (the workers count and place fixed ranges of the
// indices, each read in index order), and sorts and gathers each group on
// all workers (sortGroup). Boxes with equal starts, and with withLo the
// boxes of a small bucket, keep index order, so the result is the same for
// any number of workers.
//
// The partition exists because gathering the records straight into sorted
// order reads them in random order from the whole set: at 100,000 boxes
// that gather was a fifth of the pass's CPU profile. A group's records lie
// within a few pages, so its gather hits the caches.
func (s *sorted) build(c *team, b *soa.Boxes, useY, withLo bool, k int) {
	n := b.Len()
	s.withLo = withLo
	s.bands = k
	if cap(s.ends) < n {
		s.ends, s.keys, s.keyBucket = make([]float32, n), make([]uint64, n), make([]int32, n)
	}
	s.ends, s.keys, s.keyBucket = s.ends[:n], s.keys[:n], s.keyBucket[:n]
	if k > 1 {
		grow(&s.cross, n)
	}
	if chunks := (n + chunk - 1) / chunk; cap(s.stats) < chunks {
		s.stats = make([]chunkStat, chunks)
	} else {
		s.stats = s.stats[:chunks]
	}
	s.src, s.useY = b, useY
	defer func() { s.src = nil }()
	c.run((*boundsJob)(s), n, chunk)

	// The range of the starts and of the finite bounds across the sweep,
	// and the invalid boxes in index order from the chunks that have any.
	s.invalid = s.invalid[:0]
	first, last := uint32(nanKey), uint32(0)
	crossLo, crossHi := math.Inf(1), math.Inf(-1)
	crossSum, crossN := 0.0, 0
	unsorted := 0
	for c, st := range s.stats {
		first, last = min(first, st.first), max(last, st.last)
		crossLo, crossHi = min(crossLo, st.crossLo), max(crossHi, st.crossHi)
		crossSum, crossN = crossSum+st.crossSum, crossN+st.crossN
		unsorted += st.unsorted
		if st.invalid == 0 {
			continue
		}
		for i := c * chunk; i < min((c+1)*chunk, n); i++ {
			if s.keys[i]>>32 == invalidKey {
				s.invalid = append(s.invalid, int32(i))
			}
		}
	}
	m := n - unsorted
	s.setBands(k, crossLo, crossHi, crossSum/float64(max(crossN, 1)))
	groups := s.initBuckets(m, first, last)

	// Partition: count each range's boxes per group, then place every
	// record after the records of earlier groups and, within its group,
	// after those of earlier ranges, so that a group keeps index order. The
	// ranges are fixed slices of the indices, so the result does not depend
	// on which goroutine takes which; there are a few per worker, so that a
	// worker the machine stalls does not hold up the others.
	ranges := 1
	if c.crew.Size() > 1 {
		ranges = rangesPerWorker * c.crew.Size()
	}
	s.groups, s.ranges = groups, ranges
	grow(&s.fill, ranges*groups)
	c.run((*countJob)(s), ranges, 1)
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
	total := int(gs[groups]) // m, and a copy for each further band a box reaches
	if cap(s.part) < total {
		s.part, s.partKeys, s.partBucket = make([]record, total), make([]uint64, total), make([]uint16, total)
	}
	s.resize(total)
	c.run((*scatterJob)(s), ranges, 1)
	c.run((*gatherJob)(s), groups, 1)
}

// The sort's jobs after boundsJob: countJob's and scatterJob's positions
// are the partition's index ranges, gatherJob's the groups.
type (
	countJob   sorted
	scatterJob sorted
	gatherJob  sorted
)

func (j *countJob) do(_ *worker, start, end int) {
	for r := start; r < end; r++ {
		(*sorted)(j).countRange(r)
	}
}

func (j *scatterJob) do(_ *worker, start, end int) {
	for r := start; r < end; r++ {
		(*sorted)(j).scatterRange(r)
	}
}

func (j *gatherJob) do(w *worker, start, end int) {
	for g := start; g < end; g++ {
		(*sorted)(j).sortGroup(w, g)
	}
}

// groupSize is the number of boxes a group of the sort holds on average;
// bucketsPerGroup buckets of boxesPerBucket boxes each.
const (
	boxesPerBucket     = 4
	bucketsPerGroup    = 1 << bucketsPerGroupLog
	bucketsPerGroupLog = 7
	groupSize          = boxesPerBucket * bucketsPerGroup
)

// A box's bucket within its group, at most groupBuckets in the last
// group, must fit the uint16 that partBucket keeps it in, and so must one
// more: sortGroup counts bucket b at b+1 in uint16 arithmetic.
const _ uint16 = 2*maxGroupBoxes/boxesPerBucket + 1

// A set cut into bands gets at most about maxBandedGroups groups, each of
// at most maxGroupBoxes boxes on average, with as many buckets as it needs
// (a power of two). The scatter writes each group's records in a place of
// its own, and a band of 40,000 boxes cut into groups of groupSize makes 78
// of them: at 4,000,000 boxes in 100 bands, 7,800 places, which made the
// scatter over a quarter of the pass, where a group of a few thousand boxes
// still gathers from the L2 cache. With 256, a band of 4,000,000 boxes' 100
// gets two groups of 20,000 boxes, not one of 40,000 whose records, keys and
// sorted columns outgrow a 2 MiB L2 cache, and 1,000,000 boxes' 25 bands get
// groups of 4,000 boxes, not 8,000. The pass then takes less time than with
// 128 at both sizes, with one worker and two, and at 500,000 boxes with
// one; at 1,000,000 boxes less than with 192, 384 or 512 and about as long
// as with 320, and at 4,000,000 as long as with 320 to 512
// (BenchmarkAllPairsScaling, n=1000000 and n=4000000; BenchmarkBandThreshold,
// bands=cut, n=500000). TestBandsAgreeWithOneSweep lowers it, so that its
// sets, too small to reach 256, are also cut into groups as large as those
// of a set of millions.
const maxGroupBoxes = 1 << 16

var maxBandedGroups = 256

// rangesPerWorker is how many index ranges the partition makes per worker
// when there is more than one.
const rangesPerWorker = 4

// indexRange returns range r of the partition's ranges of box indices.
func (s *sorted) indexRange(r int) (start, end int) {
	n := len(s.keys)
	return r * n / s.ranges, (r + 1) * n / s.ranges
}

// countRange notes the bucket of each valid box of index range r and
// counts the range's boxes per group, into the range's row of fill: a box
// counts once in each band it reaches. A set in one band (every set below
// minBandedBoxes, and Between's) has a loop of its own here and in
// scatterRange: one loop for both, the band range 0..0 when there is one
// band, is slower (BenchmarkBuild, workers=1).
func (s *sorted) countRange(r int) {
	count := s.fill[r*s.groups : (r+1)*s.groups]
	clear(count)
	first, end := s.indexRange(r)
	keys, buckets := s.keys[first:end], s.keyBucket[first:end]
	bucketMap, groupMap := s.bucketMap, s.groupMap()
	if s.bands == 1 {
		for i, k := range keys {
			if start := uint32(k >> 32); start < nanKey {
				b := int32(bucketMap.of(float64(unsortable(start))))
				buckets[i] = b
				count[groupMap.of(b)]++
			}
		}
		return
	}
	gb, bandMap := s.bandGroups, s.bandMap
	cross := s.cross[first:end]
	for i, k := range keys {
		if start := uint32(k >> 32); start < nanKey {
			b := int32(bucketMap.of(float64(unsortable(start))))
			buckets[i] = b
			g := int(groupMap.of(b))
			// The first and the last band the box reaches: every band
			// when its bounds across the sweep are not finite.
			t0, t1 := 0, bandMap.last
			if lo, hi, ok := crossBounds(cross[i]); ok {
				t0, t1 = bandMap.of(lo), bandMap.of(hi)
			}
			cross[i] = uint64(t0)<<32 | uint64(t1)
			for t := t0; t <= t1; t++ {
				count[t*gb+g]++
			}
		}
	}
}

// scatterRange places each valid box of index range r in part, at the next
// position of the range's row of fill for its group, with its start and
// position in partKeys and its bucket within the group in partBucket: in
// each band it reaches, its index complemented in every band but its
// first. Like countRange, it reads the sorted set's fields into local
// variables once (see binMap).
//
// It makes each record here, from the set's columns and ends: an array
// of records by index, made by the intervals' pass, would cross the
// memory bus three more times a box in a set larger than the caches (32
// bytes written, read for the write's sake, and read again). And it
// writes a record field by field: made as a value, a record is eight
// 4-byte stores to the stack and two 16-byte loads, and a load that spans
// several stores waits for them to reach the cache, as the processor
// forwards a store to a load only whole (BenchmarkAllPairsScaling, one
// worker, most at 10,000 boxes).
func (s *sorted) scatterRange(r int) {
	fill := s.fill[r*s.groups : (r+1)*s.groups]
	part, partKeys, partBucket := s.part, s.partKeys, s.partBucket
	first, end := s.indexRange(r)
	keys, buckets, ends := s.keys[first:end], s.keyBucket[first:end], s.ends[first:end]
	b := s.src
	cx, cy, ux, uy := b.CX[first:end], b.CY[first:end], b.UX[first:end], b.UY[first:end]
	if s.useY {
		cx, cy, ux, uy = cy, cx, uy, ux
	}
	hx, hy := b.HX[first:end], b.HY[first:end]
	groupMap := s.groupMap()
	ahead := int(s.groupStart[s.groups]) >= scatterAheadRecords
	if s.bands == 1 {
		for i, k := range keys {
			start := uint32(k >> 32)
			if start >= nanKey {
				continue
			}
			b := buckets[i]
			g := groupMap.of(b)
			p := fill[g]
			fill[g]++
			if ahead && p&(scatterStep-1) == 0 {
				s.askAhead(int(p))
			}
			r := &part[p]
			r.cx, r.cy, r.ux, r.uy, r.hx, r.hy, r.hi, r.index = cx[i], cy[i], ux[i], uy[i], hx[i], hy[i], ends[i], int32(first+i)
			partKeys[p] = uint64(start)<<32 | uint64(p)
			partBucket[p] = uint16(b - g<<groupMap.shift)
		}
		return
	}
	gb := s.bandGroups
	cross := s.cross[first:end]
	for i, k := range keys {
		start := uint32(k >> 32)
		if start >= nanKey {
			continue
		}
		b := buckets[i]
		g := groupMap.of(b)
		local := uint16(b - g<<groupMap.shift)
		c := cross[i]
		t0, t1 := int(c>>32), int(uint32(c))
		index := int32(first + i)
		for t := t0; t <= t1; t++ {
			at := t*gb + int(g)
			p := fill[at]
			fill[at]++
			if ahead && p&(scatterStep-1) == 0 {
				s.askAhead(int(p))
			}
			r := &part[p]
			r.cx, r.cy, r.ux, r.uy, r.hx, r.hy, r.hi, r.index = cx[i], cy[i], ux[i], uy[i], hx[i], hy[i], ends[i], index
			partKeys[p] = uint64(start)<<32 | uint64(p)
			partBucket[p] = local
			index = ^int32(first + i)
		}
	}
}

// The scatter writes each group's records, keys and buckets in order, each
// group from a place of its own: 200 to 250 streams of writes, more than the
// processor's prefetchers follow, so in a set whose records outgrow the L2
// cache each new line of each stream is a miss that the writes wait for.
// askAhead asks for a stream's lines scatterAhead places ahead each time
// the stream reaches a multiple of scatterStep, the lines of scatterStep
// places. BenchmarkAllPairsScaling (uniform, avx512) then takes less time
// from 100,000 boxes on with one worker and from 1,000,000 with two, most at
// 1,000,000 and 4,000,000; asked 64 places ahead, longer than 32 there. A
// set of fewer than scatterAheadRecords boxes, whose records an L2 cache of
// 1 MiB holds, is not asked for: at 10,000 boxes the asking made the
// generic kernel's pass over the uniform scene take longer
// (BenchmarkAllPairs, workers=1).
const (
	scatterStep         = 16
	scatterAhead        = 2 * scatterStep
	scatterAheadRecords = 1 << 20 / int(unsafe.Sizeof(record{}))
)

// askAhead asks for the lines of part, partKeys and partBucket at the
// scatterStep places from p + scatterAhead on, where they exist: build
// makes the three together, of one length.
func (s *sorted) askAhead(p int) {
	q := p + scatterAhead
	if q+scatterStep > len(s.part) {
		return
	}
	batch.Prefetch(unsafe.Pointer(&s.part[q]), scatterStep*unsafe.Sizeof(record{}))
	batch.Prefetch(unsafe.Pointer(&s.partKeys[q]), scatterStep*8)
	batch.Prefetch(unsafe.Pointer(&s.partBucket[q]), scatterStep*2)
}

// sortGroup sorts group g by start and copies it from part into the sorted
// columns at the same positions. It counts the group's boxes per bucket
// (the scatter noted each box's bucket within the group), which gives the
// group's bucket index entries, places the keys bucket by bucket, and
// sorts each bucket's few keys by insertion (a bucket holding many equal
// or clustered starts by slices.Sort), with withLo only the buckets of
// more than unsortedMax keys. A key ends in the box's position in part,
// which follows index order within the group, so boxes with equal starts,
// and with withLo the boxes of a bucket, stay in index order. The copy
// goes a chunk at a time, and each chunk's reaches come from its columns
// while they are in the L1 cache (crossReaches).
//
// All's sweep (withLo) needs no order within a bucket. batch.Sweep runs a
// query box over the later positions while their lo is at most its
// interval's end, and lo here is the least start from the position to the
// group's end: it never decreases along a band (a later group's buckets
// hold no lower start, as bucketMap never decreases) and is at most the
// position's own start. So for two boxes whose intervals overlap, at
// positions p < q, lo[q] <= start[q] <= hi[p] and every position between
// has lo <= lo[q]: q is in p's run, whichever of the two starts first,
// and only there, as a run holds later positions only. A run then passes
// its end by at most the boxes of the bucket where it ends, unsortedMax at
// most: a crowded bucket (all the boxes but a far one, whose start
// stretches the buckets' range, can fall in one) is still sorted, so that
// its runs stay as long as they are in sorted order. Leaving the small
// buckets unsorted makes the pass take less time at every size, most at
// 10,000 boxes, and by more than the insertion sorts' share of its CPU
// profile (BenchmarkAllPairsScaling; BenchmarkAllPairs, which shows it
// with the AVX-512 kernel and hardly with the generic one).
func (s *sorted) sortGroup(w *worker, g int) {
	start, end := int(s.groupStart[g]), int(s.groupStart[g+1])
	band, within := g/s.bandGroups, g%s.bandGroups
	k0, kEnd := within*s.groupBuckets, (within+1)*s.groupBuckets
	if within == s.bandGroups-1 {
		kEnd = s.buckets + 1
	}
	bucketIndex := s.bucket[band*(s.buckets+1):]
	// First load one word of every cache line of the group's records, in
	// order: the copy at the end reads them in sorted order, which no
	// hardware prefetcher follows, and the scatter wrote them long enough
	// ago that they have left the core's caches. These loads do not depend
	// on each other, so their misses overlap, and the counting below runs
	// while they arrive (BenchmarkBuild; BenchmarkAllPairs, scene=uniform).
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
		bucketIndex[k0+b] = int32(start) + c
	}
	placed := grow(&w.tmp, len(keys))
	for i, k := range keys {
		b := local[i]
		placed[count[b]] = k
		count[b]++
	}
	lo := 0
	for _, hi := range count[:kEnd-k0] {
		if bucket := placed[lo:hi]; !s.withLo || len(bucket) > unsortedMax {
			sortKeys(bucket)
		}
		lo = int(hi)
	}

	d, part := &s.boxes, s.part
	cx, cy, ux, uy, hx, hy := d.CX[start:end], d.CY[start:end], d.UX[start:end], d.UY[start:end], d.HX[start:end], d.HY[start:end]
	starts, his, reach, index := s.start[start:end], s.hi[start:end], s.reach[start:end], s.index[start:end]
	for at := 0; at < len(placed); at += chunk {
		stop := min(at+chunk, len(placed))
		for p := at; p < stop; p++ {
			k := placed[p]
			r := &part[uint32(k)]
			cx[p], cy[p], ux[p], uy[p], hx[p], hy[p] = r.cx, r.cy, r.ux, r.uy, r.hx, r.hy
			starts[p], his[p], index[p] = uint32(k>>32), r.hi, r.index
		}
		crossReaches(ux[at:stop], uy[at:stop], hx[at:stop], hy[at:stop], reach[at:stop])
	}
	if s.withLo {
		least := uint32(math.MaxUint32)
		for p := len(starts) - 1; p >= 0; p-- {
			least = min(least, starts[p])
			s.lo[start+p] = unsortable(least)
		}
	}
}

// unsortedMax is the most keys sortGroup leaves unsorted in a bucket of a
// set for All's sweep, and the most sortMany sorts by insertion.
const unsortedMax = 16

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
	if len(keys) > unsortedMax {
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
// returns, because later jobs read some buffers' lengths (the merge's cuts
// give its jobs the number of ranges).
func grow[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// resize sets the sorted columns' length to m. The columns the gather
// writes in step (ten, eleven with lo) are staggered a cache line apart
// within the page (see package stagger): allocated one by one they all
// start page aligned, and the gather then runs several times slower
// (BenchmarkAllPairs).
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
