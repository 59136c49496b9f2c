package world

import (
	mathbits "math/bits"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/internal/room"
	"github.com/obb2d/obb2d/soa"
)

// A step where many boxes moved recomputes every pair cell by cell instead
// of querying each moved box. It first copies the Dynamic grid's boxes,
// cell after cell in the order of the list of cells, into one set of
// columns (packed), then tests each box of a cell, with one kernel call for
// the whole cell, against the boxes after it in its cell and those of the
// cells that can hold a partner. Each pair is met once: within a cell, by
// the earlier box; across cells of a level, from the cell that has the
// other in one of its four forward neighbours (a box's bounds reach at most
// R = S/4 from a point of its cell, its center or nearShift's, so two
// boxes of a level that overlap sit in cells at most one apart, and
// clamping coordinates keeps that); across levels, from the lower level's
// cell; Dynamic with Static, from the Dynamic cell. Querying each box
// visits its cells' neighbourhood once per box; this visits it once per
// cell (BenchmarkWorldStep, moved=100% against moved=1%, ns per moved box).
//
// compact lays the cells out row after row, so a cell's right neighbour
// usually follows it in the packed columns and the three cells above it
// follow each other, and a box's candidates there are one or two runs of
// the kernel, not one a cell. And a box far from a neighbour cannot pair
// with its boxes: see cellPairs.

// fullStepShare: a step recomputes every pair when at least one Dynamic box
// in fullStepShare was marked dirty.
const fullStepShare = 8

// packed is the Dynamic grid's boxes as one set of columns for a full
// step: cell c's boxes at [start[c], start[c+1]), each with its handle, its
// filter and its level's R, rounded up to float32, as the reach that
// batch.RunsPruned tests first. A box of level k reaches at most R = 2ᵏ
// from its center, so two boxes whose bounds meet, as those of any two the
// overlap test reports do, have centers at most Rₐ + R_b apart in y; the
// kernel's float32 |cy_b - cy_a| <= rₐ + r_b rounds both sides of that
// exact inequality monotonically, so it holds too and drops no pair.
//
// The columns go on 16 lanes past the boxes: the kernel reads a run's last
// group whole when the columns extend past it, and copies it lane by lane
// when they do not. Packing copies each box once a step, where gathering
// each cell's neighbourhood into columns copies it five times
// (BenchmarkWorldStep, moved=100%).
type packed struct {
	b       soa.Boxes
	bounds  []rect // the bounds of the boxes of the far levels (cells_far.go)
	far     []bool // which of the Dynamic grid's levels, in its order, are far levels
	perLvl  []int  // the Dynamic grid's boxes by level, in its order
	reach   []float32
	h       []Handle
	f       []Filter
	start   []int32
	blocks  []int32 // how many blocks the cells before each hold (packCells)
	workers int     // how many share pack's copying
}

// pack fills the step's packed boxes from the Dynamic grid on n workers:
// it finds where each cell's boxes go, then each worker copies the boxes
// of a range of cells with a share of the blocks (packCells).
func (w *World) pack(n int) {
	p, g := &w.step.packed, &w.grids[Dynamic]
	size := g.boxes + blockLanes
	if cap(p.h) < size {
		size = max(size, 2*cap(p.h))
		p.b = soa.Boxes{CX: make([]float32, size), CY: make([]float32, size), UX: make([]float32, size), UY: make([]float32, size), HX: make([]float32, size), HY: make([]float32, size)}
		p.reach, p.h, p.f = make([]float32, size), make([]Handle, size), make([]Filter, size)
	}
	p.start, p.blocks = p.start[:0], p.blocks[:0]
	at, blocks := int32(0), int32(0)
	for c := range g.cells {
		p.start, p.blocks = append(p.start, at), append(p.blocks, blocks)
		at += g.cells[c].boxes
		blocks += (g.cells[c].boxes + blockLanes - 1) / blockLanes
	}
	p.start, p.blocks = append(p.start, at), append(p.blocks, blocks)
	end := int(at) + blockLanes
	p.b = soa.Boxes{CX: p.b.CX[:end], CY: p.b.CY[:end], UX: p.b.UX[:end], UY: p.b.UY[:end], HX: p.b.HX[:end], HY: p.b.HY[:end]}
	p.reach, p.h, p.f = p.reach[:end], p.h[:end], p.f[:end]
	p.workers = n
	if p.farLevels(g) {
		if cap(p.bounds) < end {
			p.bounds = make([]rect, cap(p.h))
		}
		p.bounds = p.bounds[:end]
	}
	for i := range w.step.cols {
		w.step.cols[i].far.ok = false // gathered from the last step's packed boxes
	}
	w.fanOut(n, (*World).packCells)
}

// packCells is worker k's share of pack, of n workers: the cells from the
// first whose blocks start at or after k/n of all the blocks to the first
// at or after (k+1)/n. A block costs a copy of whole columns however few
// boxes it holds, and the cells of the RTS scene's units hold two or three
// boxes where its buildings' hold sixteen: with half of the cells each,
// one worker took half as long again as the other (BenchmarkWorldStep,
// world=rts, workers=2). The cells' counts give the blocks of each range
// before the copy, so each worker can take one stretch of memory; runs of
// cells handed out in turn, as settle's blocks are, are slower on the
// uniform scene (workers=2).
func (w *World) packCells(k int) {
	p, g := &w.step.packed, &w.grids[Dynamic]
	c0, c1 := shareStart(p.blocks, k, p.workers), shareStart(p.blocks, k+1, p.workers)
	at, limit := int(p.start[c0]), int(p.start[c1])
	if c1 == len(g.cells) {
		limit = len(p.h) // the padding
	}
	for c := c0; c < c1; c++ {
		r, _ := sizes(int(g.cells[c].key.level))
		reach := f32.Up(r)
		for b := g.cells[c].head; b >= 0; b = g.blocks[b].next {
			// Whole groups are copied, the lanes past n overwritten by the
			// next block or left in the padding, except where they would
			// land on the next worker's share. A block of at most 8 boxes
			// is read in its first group.
			blk := &g.blocks[b]
			n := int(blk.n)
			for i := 0; i < n; i += groupLanes {
				x, m, to := &blk.cols[i/groupLanes], min(n-i, groupLanes), at+i
				put(p.b.CX[to:limit], &x.CX, m)
				put(p.b.CY[to:limit], &x.CY, m)
				put(p.b.UX[to:limit], &x.UX, m)
				put(p.b.UY[to:limit], &x.UY, m)
				put(p.b.HX[to:limit], &x.HX, m)
				put(p.b.HY[to:limit], &x.HY, m)
				put(p.h[to:limit], (*[groupLanes]Handle)(blk.h[i:]), m)
				put(p.f[to:limit], (*[groupLanes]Filter)(blk.f[i:]), m)
				for j := range p.reach[to:min(to+groupLanes, limit)] {
					p.reach[to+j] = reach
				}
			}
			at += n
		}
		if p.isFar(g, g.cells[c].key.level) {
			p.boundsOf(int(p.start[c]), int(p.start[c+1]))
		}
	}
}

// put writes the first n lanes of src, or all 8 when dst has room for
// them, at the start of dst. A fixed-size copy is a few vector moves, where
// a copy of n lanes is a call of memmove; it goes through a local, as a
// copy from one pointer to another, which may overlap as far as the
// compiler knows, is a call of memmove too.
func put[T any](dst []T, src *[groupLanes]T, n int) {
	if len(dst) < groupLanes {
		copy(dst[:n], src[:n])
		return
	}
	v := *src
	*(*[groupLanes]T)(dst) = v
}

// columns is a worker's scratch for one cell: the runs and bitsets of its
// kernel calls, the packed ranges of the higher levels' cells its boxes
// reach, the boxes of the Static grid that can pair with them, gathered,
// and the far levels' boxes that can pair with the boxes of its square
// (farSet).
type columns struct {
	runs   []int32
	bits   []uint64
	ranges []packedRange // crossPairs' ranges of the packed columns
	gathered
	r     float32 // the reach of the boxes add is given: their level's R, rounded up
	above int32   // where neighbours looks first for the next cell's row above
	far   farSet
}

// gathered is boxes copied into columns of their own for the kernel, with
// their reaches, handles and filters.
type gathered struct {
	b   soa.Boxes
	rch []float32
	h   []Handle
	f   []Filter
}

// reset empties g.
func (g *gathered) reset() {
	g.b.CX, g.b.CY, g.b.UX, g.b.UY, g.b.HX, g.b.HY = g.b.CX[:0], g.b.CY[:0], g.b.UX[:0], g.b.UY[:0], g.b.HX[:0], g.b.HY[:0]
	g.rch, g.h, g.f = g.rch[:0], g.h[:0], g.f[:0]
}

// shareRoom gives every worker's scratch columns the room of the roomiest
// worker's, slice by slice. Which worker takes which cell changes from
// step to step, so without it a worker handed a cell with more runs or
// gathered boxes than any it had taken grows its scratch in a step like
// the ones before (TestSteadyStateAllocatesNothing, scene=rts, workers=2:
// an allocation in about one run of five). Their contents are rebuilt for
// every cell, so none is kept.
func shareRoom(cols []columns) {
	room.EvenOut(cols, func(c *columns) *[]int32 { return &c.runs })
	room.EvenOut(cols, func(c *columns) *[]uint64 { return &c.bits })
	room.EvenOut(cols, func(c *columns) *[]packedRange { return &c.ranges })
	shareGathered(cols, func(c *columns) *gathered { return &c.gathered })
	shareGathered(cols, func(c *columns) *gathered { return &c.far.gathered })
}

// shareGathered is shareRoom for the gathered boxes that g selects.
func shareGathered(cols []columns, g func(*columns) *gathered) {
	room.EvenOut(cols, func(c *columns) *[]float32 { return &g(c).rch })
	room.EvenOut(cols, func(c *columns) *[]Handle { return &g(c).h })
	room.EvenOut(cols, func(c *columns) *[]Filter { return &g(c).f })
	for _, col := range []func(b *soa.Boxes) *[]float32{
		func(b *soa.Boxes) *[]float32 { return &b.CX }, func(b *soa.Boxes) *[]float32 { return &b.CY },
		func(b *soa.Boxes) *[]float32 { return &b.UX }, func(b *soa.Boxes) *[]float32 { return &b.UY },
		func(b *soa.Boxes) *[]float32 { return &b.HX }, func(b *soa.Boxes) *[]float32 { return &b.HY },
	} {
		room.EvenOut(cols, func(c *columns) *[]float32 { return col(&g(c).b) })
	}
}

// level sets the reach of the boxes added next to level k's R.
func (c *columns) level(k int16) {
	r, _ := sizes(int(k))
	c.r = f32.Up(r)
}

// add appends the boxes of b, each with the reach c.r.
func (c *columns) add(b *block) bool {
	n := b.n
	for i := int32(0); i < n; i += groupLanes {
		x, m := &b.cols[i/groupLanes], min(n-i, groupLanes)
		c.b.CX, c.b.CY = append(c.b.CX, x.CX[:m]...), append(c.b.CY, x.CY[:m]...)
		c.b.UX, c.b.UY = append(c.b.UX, x.UX[:m]...), append(c.b.UY, x.UY[:m]...)
		c.b.HX, c.b.HY = append(c.b.HX, x.HX[:m]...), append(c.b.HY, x.HY[:m]...)
	}
	for range n {
		c.rch = append(c.rch, c.r)
	}
	c.h = append(c.h, b.h[:n]...)
	c.f = append(c.f, b.f[:n]...)
	return false
}

// packedRange is a range of the packed boxes.
type packedRange struct{ lo, hi int32 }

// neighbours returns the packed ranges of cell c's right neighbour and of
// the three cells above it, left to right; a missing cell's range is
// empty.
//
// compact lays the cells out in key order (level, row, column), so a
// cell's right neighbour is usually the next cell, and its row above
// usually lies, left to right, where the row above of the cell before it
// continued: cols.above keeps that place from cell to cell. A cell is
// taken where it is expected when its key is there, and looked up in the
// tiles' hash table otherwise (it was made or moved since the last
// compact, starts a row, or does not exist): the key decides, so the
// order only saves lookups. Four lookups a cell would be a visible share of
// the uniform scene's full step (BenchmarkWorldStep, moved=100%, n=100000).
func (w *World) neighbours(p *packed, cols *columns, c int32, ck cellKey) (right packedRange, above [3]packedRange) {
	g := &w.grids[Dynamic]
	cells := g.cells
	at := func(guess int32, k cellKey) int32 {
		if uint(guess) < uint(len(cells)) && cells[guess].key == k {
			return guess
		}
		return g.find(k)
	}
	if r := at(c+1, cellKey{ck.x + 1, ck.y, ck.level}); r >= 0 {
		right = packedRange{p.start[r], p.start[r+1]}
	}
	guess := cols.above
	for i := range above {
		if a := at(guess, cellKey{ck.x - 1 + int32(i), ck.y + 1, ck.level}); a >= 0 {
			above[i] = packedRange{p.start[a], p.start[a+1]}
			guess = a + 1
		}
		if i == 0 {
			cols.above = guess // the next cell's row above starts one to the right
		}
	}
	return right, above
}

// cellPairs appends the pairs the Dynamic cell c is responsible for.
//
// A box reaches at most R from its center along each axis, and at most R
// from a point of its cell (its center, or see nearShift), so a box at
// (x, y) in cell (i, j) pairs with a box of the row above, within R of a
// point at or above (j+1)·S, only if y >= (j+1)·S - 2R; with the right
// column's boxes only if x >= (i+1)·S - 2R; and with the left column's,
// within R of points below i·S, only if x < i·S + 2R. Those bounds are
// multiples of R by integers below 2³³, exact in float64, as are the
// float32 coordinates, so the comparisons are exact and drop no pair. With
// S = 4R, half the boxes of a cell need the right neighbour, half the row
// above, and those two of its three cells: a box tests one and a half of
// the four neighbours on average, not four.
func (w *World) cellPairs(dst []uint64, cols *columns, p *packed, c int32) []uint64 {
	g := &w.grids[Dynamic]
	ck := g.cells[c].key
	first, end := p.start[c], p.start[c+1]
	right, above := w.neighbours(p, cols, c, ck)
	r, s := sizes(int(ck.level))
	top := float64(float64(ck.y+1)*s) - float64(2*r)
	rightX := float64(float64(ck.x+1)*s) - float64(2*r)
	leftX := float64(float64(ck.x)*s) + float64(2*r)

	// The runs of the row above, merged where they follow each other in
	// the packed columns, for each part of it a box can reach, indexed by
	// bit 0 for x >= leftX and bit 1 for x >= rightX: the left and middle
	// cells, the middle alone, all three (which no box reaches when
	// leftX = rightX, as with S = 4R), the middle and right.
	var ups [4][3]packedRange
	var upN [4]int
	for k := range ups {
		from, to := k&1, 2+k>>1
		lo, hi := int32(0), int32(0)
		for _, a := range above[from:to] {
			if a.lo == a.hi {
				continue
			}
			if a.lo != hi {
				if lo < hi {
					ups[k][upN[k]] = packedRange{lo, hi}
					upN[k]++
				}
				lo = a.lo
			}
			hi = a.hi
		}
		if lo < hi {
			ups[k][upN[k]] = packedRange{lo, hi}
			upN[k]++
		}
	}
	// The right neighbour's boxes extend a box's run when they follow the
	// cell's in the packed columns (joined), and are a run of their own
	// otherwise (apart).
	nonempty := b2i(right.lo < right.hi)
	joined := (right.hi - end) * nonempty * b2i(right.lo == end)
	apart := nonempty * b2i(right.lo != end)
	apartWords := batch.Words(int(right.hi - right.lo))

	// Each box's runs, at most five: its cell's boxes after it, the right
	// neighbour's, and up to three of the row above. Which it needs depends
	// on where it lies, at random from box to box, so each run is written
	// whether needed or not and kept by advancing n by 0 or 3 (the compiler
	// makes the tests conditional moves). With a branch on each test,
	// each going either way at random, this loop took longer in a CPU
	// profile of the step (BenchmarkWorldStep,
	// world=uniform/moved=100%/move=bulk/workers=1, n=100000).
	size := 15 * int(end-first)
	runs := cols.runs[:0]
	if cap(runs) < size {
		runs = make([]int32, size, 2*size)
	}
	runs = runs[:size]
	n, words := 0, 0
	for i := first; i < end; i++ {
		x, y := float64(p.b.CX[i]), float64(p.b.CY[i])
		toRight, past := b2i(x >= rightX), b2i(x >= leftX)
		hi := end + joined*toRight
		runs[n], runs[n+1], runs[n+2] = i, i+1, hi
		keep := b2i(i+1 < hi)
		words += int(keep) * batch.Words(int(hi-i-1))
		n += 3 * int(keep)
		runs[n], runs[n+1], runs[n+2] = i, right.lo, right.hi
		keep = toRight * apart
		words += int(keep) * apartWords
		n += 3 * int(keep)
		up := b2i(y >= top)
		k := past | toRight<<1
		for _, a := range ups[k][:upN[k]] {
			runs[n], runs[n+1], runs[n+2] = i, a.lo, a.hi
			words += int(up) * batch.Words(int(a.hi-a.lo))
			n += 3 * int(up)
		}
	}
	runs = runs[:n]
	cols.runs = runs
	dst = cols.test(dst, p, &p.b, p.reach, p.h, p.f, words)
	return w.crossPairs(dst, cols, p, ck, first, end)
}

// test runs the kernel on cols.runs, whose queries are packed boxes and
// whose ranges index b, with reaches reach, handles h and filters f, words
// bitset words in all, and appends the pairs it reports that the filters
// allow.
func (cols *columns) test(dst []uint64, p *packed, b *soa.Boxes, reach []float32, h []Handle, f []Filter, words int) []uint64 {
	if words == 0 {
		return dst
	}
	if cap(cols.bits) < words {
		cols.bits = make([]uint64, 2*words)
	}
	out := cols.bits[:words]
	runs := cols.runs
	batch.RunsPruned(&p.b, b, p.reach, reach, runs, out)
	for k := 0; k < len(runs); k += 3 {
		q, lo, hi := runs[k], runs[k+1], runs[k+2]
		m := batch.Words(int(hi - lo))
		qh, qf := p.h[q], p.f[q]
		for wi, word := range out[:m] {
			for ; word != 0; word &= word - 1 {
				x := lo + int32(wi<<6+mathbits.TrailingZeros64(word))
				if qf.allows(f[x]) {
					dst = append(dst, key(qh, h[x]))
				}
			}
		}
		out = out[m:]
	}
	return dst
}

// crossPairs appends the pairs of cell ck's boxes, packed at [first, end),
// with the boxes of higher levels and of the Static grid that its bounds
// reach.
func (w *World) crossPairs(dst []uint64, cols *columns, p *packed, ck cellKey, first, end int32) []uint64 {
	g, st := &w.grids[Dynamic], &w.grids[Static]
	if len(st.levels) == 0 && g.levels[len(g.levels)-1] == ck.level {
		return dst
	}
	lo, hi := squareBounds(ck.level, ck.x, ck.y, ck.x, ck.y)
	// The boxes of the higher Dynamic levels that are not far from the
	// cell's are packed too: the cells in reach are ranges of the packed
	// columns, which the kernel reads in place. Gathering their boxes into
	// columns copied each once per lower cell that reaches it
	// (BenchmarkWorldStep, world=rts and world=mixed). The far levels'
	// boxes that can pair with the cell's are in the worker's farSet
	// (cells_far.go).
	ranges, farther := cols.ranges[:0], false
	for i, k := range g.levels {
		if k <= ck.level {
			continue
		}
		if p.far[i] && k-ck.level >= farGap {
			farther = true
			continue
		}
		last := int32(-1)
		g.visitLevel(k, lo, hi, func(b *block) bool {
			if b.cell != last { // a cell's blocks come one after the other
				last = b.cell
				ranges = appendRange(ranges, packedRange{p.start[last], p.start[last+1]})
			}
			return false
		})
	}
	cols.ranges = ranges
	runs, words := cols.runs[:0], 0
	for _, r := range ranges {
		words += int(end-first) * batch.Words(int(r.hi-r.lo))
		for i := first; i < end; i++ {
			runs = append(runs, i, r.lo, r.hi)
		}
	}
	cols.runs = runs
	dst = cols.test(dst, p, &p.b, p.reach, p.h, p.f, words)
	if farther {
		if fs := w.far(cols, p, ck); fs.n > 0 {
			runs := cols.runs[:0]
			for i := first; i < end; i++ {
				runs = append(runs, i, 0, fs.n)
			}
			cols.runs = runs
			dst = cols.test(dst, p, &fs.b, fs.rch, fs.h, fs.f, int(end-first)*batch.Words(int(fs.n)))
		}
	}
	// The Static grid's boxes are gathered.
	cols.reset()
	for _, k := range st.levels {
		cols.level(k)
		st.visitLevel(k, lo, hi, func(b *block) bool {
			if b.rect.meets(lo, hi) { // block_rects.go
				cols.add(b)
			}
			return false
		})
	}
	m := int32(len(cols.h))
	if m == 0 {
		return dst
	}
	// Past the gathered boxes, 16 lanes of room for the kernel's last
	// group, as in packed.
	var pad block
	pad.n = blockLanes
	cols.add(&pad)
	runs = cols.runs[:0]
	for i := first; i < end; i++ {
		runs = append(runs, i, 0, m)
	}
	cols.runs = runs
	return cols.test(dst, p, &cols.b, cols.rch, cols.h, cols.f, int(end-first)*batch.Words(int(m)))
}

// b2i is 1 for true and 0 for false, without a branch.
func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// appendRange appends r to rs, joined to the last range when it follows it
// in the packed columns: compact lays a row's cells one after the other.
func appendRange(rs []packedRange, r packedRange) []packedRange {
	if n := len(rs); n > 0 && rs[n-1].hi == r.lo {
		rs[n-1].hi = r.hi
		return rs
	}
	return append(rs, r)
}
