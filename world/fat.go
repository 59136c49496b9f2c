package world

import (
	"math"
	"slices"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/bound"
	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/internal/hugepage"
	"github.com/obb2d/obb2d/obb"
)

// A step where many boxes moved a little can reuse the last step's
// candidates instead of finding them again cell by cell: the fat bounds of
// Box2D's dynamic tree (Catto, b2_dynamic_tree.c) and the skin of a Verlet
// neighbour list. Each box in a grid gets fat bounds, its bound.Box grown
// by a margin and rounded outward to float32, and the World keeps the
// candidates: every pair of boxes, not both Static, whose fat bounds meet.
// While a box's bounds stay inside its fat bounds, its candidates stay
// complete: two boxes the overlap test reports have bounds that meet, so
// fat bounds that meet, so they are a candidate. A step then tests the
// candidates, half a box on the uniform scene, where the cell-by-cell
// pass tests thirteen, and 12 and 15 on the RTS and mixed scenes, with 9
// and 8 pairs a box (BenchmarkWorldStep, moved=100%, n=100000), and finds
// candidates anew only for the boxes that left their fat bounds
// (escaped), were inserted, removed, or moved out of the grid: their old
// candidates go, and a query with their new fat bounds finds their new
// ones. A step where few boxes changed tests only their candidates, where
// a box has few (fat_few.go).
//
// A query must find every box whose fat bounds meet the escaped box's.
// Each level of a grid keeps at least the width of the fat bounds of every
// box that entered it (fatWidth). A box's center lies in its bounds
// (bound.Interval's are c ± (e + w), e and w not negative), so in its fat
// bounds, and every point of those lies within that width of its center,
// and so within fatFar of a point of its cell (nearShift): the cells whose
// range [lo - fatFar, hi + fatFar] touches hold them all. The fat bounds
// are copied to the box's block's lane (fatBlock), so a query reads them
// in columns as it walks the blocks.
//
// The margin starts at a sixteenth of the box's own half width (the
// larger half side of its bounds) and doubles, up to a half, each time the
// box escapes, so a box that jitters stops escaping and one that travels
// escapes every few steps. When more than one Dynamic box in escapeShare
// escapes a step, on a moving average, the candidates are dropped and full
// steps go cell by cell (cells.go). A sample of the boxes then keeps fat
// bounds, and the candidates are built again when few of it escape for a
// while.

// fatBox is a box's fat bounds, with the handle they were made
// for and the margin they were grown by: half the box's width times 2ᵏ/16
// for k = grow, 0 to maxGrow.
type fatBox struct {
	lo, hi obb.Vec2
	grow   uint8
	h      Handle // 0: none
}

// fatState is the fat bounds and candidates, kept between steps.
type fatState struct {
	box      []fatBox       // by slot
	cand     []uint64       // the candidates' keys, ascending, those with a dead box stale
	extra    []uint64       // the candidates found since cand was last merged, ascending (fat_refresh.go)
	extraBuf []uint64       // extra's other buffer
	exFound  []uint64       // the keys of extra the candidates' test found
	dead     slotSet        // the boxes escaped since then, whose keys in cand are stale
	fresh    []uint64       // the escaped boxes' new candidates
	gat      gathering      // gather's workers' lists
	spare    []uint64       // cand's other buffer
	sortBuf  []uint64       // sortKeys' other buffer for fresh
	esc      []int32        // the slots that escaped this step
	escBits  []uint64       // the same as a bitset
	pending  slotSet        // slots marked dirty in steps that did not use the candidates
	valid    bool           // the candidates are complete for every box not pending
	workers  int            // how many share the escapes' check, or testCandidates
	escParts [][]int32      // each worker's escaped boxes
	unsure   slotSet        // the dirty slots no Move vouched for (fat_unsure.go); bits grow with the dirty ones
	recs     []batch.Record // by slot: the boxes as of the last step that used the kernel, or as moved since (moveRecord)
	filters  []Filter       // and their filters
	odd      int            // how many of filters are not DefaultFilter
	oddParts []int          // each copyDirty worker's change to odd
	copied   bool           // the records are kept: the last step used the kernel, and every change since wrote its record or set behind
	behind   bool           // a box changed since then other than by a move that wrote its record (moveRecord)
	kernel   bool           // this step tests the candidates with batch.PairKeys
	tests    []pairTest     // each worker's buffer for batch.PairKeys
	candGen  int            // how many times cand was replaced (setCand)
	few      fewState       // the few-moves step's state (fat_few.go)
	margins  []float64      // build's buffer for the sampled boxes' margins

	// While the candidates are dropped, one slot in 16 (sampled) keeps its
	// fat bounds: how many of those the full steps checked and found
	// escaped.
	checked, escaped int
	quiet            int  // windows of the sample in a row with few escapes
	noisy            int  // and with many
	need             int  // how many build calls for, less minQuiet
	age              int  // steps the candidates served since they were built
	rate             int  // rateSteps times the escapes a step, a moving average (escapeShare)
	skip             int  // full steps to go without sampling (sampleRest)
	rested           bool // the sample's boxes moved in steps that did not check them

	used       int // steps served from the candidates (tests)
	escapes    int // boxes that escaped in them (tests)
	extras     int // steps whose test read extra (tests)
	merges     int // extra's merges into cand (tests)
	fewUsed    int // few-moves steps served from the candidates (tests)
	fewExtras  int // and of those, steps that took keys of extra (tests)
	fewEscaped int // and the boxes that escaped in them (tests)
	fewIndexes int // indexes of cand made for them (tests)
	fewBuilds  int // builds of the candidates in steps with few changed boxes (tests)
}

// escapeShare: a step drops the candidates when more than one Dynamic box
// in escapeShare escapes a step on average (rate). The sample calls for a
// build when no more than one of its boxes in escapeShare escaped
// (sample). A step served from the candidates costs about a + b·e a box
// for e escapes a box, the escaped boxes' queries and the merges they
// bring; fitted on boxes that travel (BenchmarkWorldDrift, each kind of step
// forced), it breaks even with the cell-by-cell step at one escape a box in
// 6 to 13, by scene and number of workers. One in 16 stays below every
// scene's break-even, at the price of some steps cell by cell that the
// candidates would serve for less, as for the RTS scene's boxes at 0.05 a
// step.
//
// The average weighs each step's count 1/rateSteps, and counts at most
// one box in burstShare a step, so that a burst does not drop the
// candidates alone: boxes that travel escape in waves, most of them in one
// step of BenchmarkWorldDrift where a twentieth escape on average, and a
// wave costs its queries, where a drop costs two or three steps cell by cell
// and a build, which takes about as long as a cell-by-cell step or longer
// (BenchmarkBuildFat), and longer with the grown margins of boxes that
// travel. Steps where a quarter of the boxes or more escape drop them from
// the fifth such step on, sooner when the average was already high.
const escapeShare = 16

// rateSteps and burstShare: see escapeShare.
const (
	rateSteps  = 16
	burstShare = 4
)

// sampleRest: after more windows of the sample in a row with many escapes
// than its margins take to grow to their largest, that many full steps go
// without the sample's checks, which are a cost to a world of boxes that
// travel (BenchmarkWorldDrift). The first check after them counts nothing
// (rested): the sampled boxes moved in the steps without checks, and a box
// that travels would then escape for four steps' motion at once; counted,
// those escapes found the sample noisy after every rest, and the RTS scene's
// boxes at 0.01 a step never had their candidates built again.
const sampleRest = 3

// sampleMin: while the candidates are dropped, the sampled slots keep fat
// bounds, at the cost of a check a sixteenth of the boxes a full step, and
// the candidates are built again when at least sampleMin of them were
// checked since the last decision and at most one in escapeShare escaped.
const sampleMin = 64

// A build takes as long as a few full steps (BenchmarkWorldDrift), so it
// waits for minQuiet windows of the sample in a row with few escapes: one
// quiet window can be the steps where boxes that travel turn back. When
// the candidates are dropped before serving keepAge steps, the next build
// waits for twice as many windows more, up to maxQuiet; candidates that
// serve keepAge steps clear that.
const (
	minQuiet = 2
	maxQuiet = 1 << 10
	keepAge  = 64
)

// sampled reports whether slot i is one of the sixteenth whose fat bounds
// are kept while the candidates are dropped. The slots are picked by a
// multiplicative hash (Knuth's, with the golden ratio), not as every
// sixteenth, which would pick every box or none of a set that a caller
// numbers in steps of 16.
func sampled(i int32) bool { return uint32(i)*0x9e3779b9 < 1<<28 }

// fatPairs puts every pair in w.step.found, sorted, from the candidates,
// and reports whether it could: not when the candidates are dropped and
// the sample does not call for building them, or when too many boxes
// escaped.
func (w *World) fatPairs() bool {
	v := &w.fat
	v.size(len(w.slots))
	v.esc = v.esc[:0]
	if !v.valid {
		if !w.buildDue() {
			return false
		}
		w.build()
		v.used++
		w.testCandidates()
		return true
	}
	if !w.fatEscapes() {
		return false
	}
	w.testCandidates()
	return true
}

// buildDue reports whether the sample calls for building the candidates
// now, while they are dropped: not while the sample rests (sampleRest).
func (w *World) buildDue() bool {
	v := &w.fat
	if v.skip > 0 {
		v.skip--
		v.rested = true
		return false
	}
	return w.sample()
}

// fatEscapes checks the unsure dirty boxes and those marked in steps that
// did not use the candidates against their fat bounds, and gives those
// that escaped new fat bounds and candidates (refreshFat), or drops the
// candidates and reports false when too many escape.
func (w *World) fatEscapes() bool {
	v := &w.fat
	n := w.slotWorkers(w.workers(len(v.unsure.list), moveChunk))
	for len(v.escParts) < n {
		v.escParts = append(v.escParts, nil)
	}
	v.workers = n
	w.fanOut(n, (*World).escapes)
	for _, part := range v.escParts[:n] {
		v.esc = append(v.esc, part...)
	}
	for _, i := range v.pending.list {
		if !w.isDirty(i) && w.escaped(i) {
			v.esc = append(v.esc, i)
		}
	}
	w.chooseTest()
	v.pending.clear()
	for _, i := range v.esc {
		if f := &v.box[i]; f.h == makeHandle(i, w.slots[i].gen) {
			f.grow = min(f.grow+1, maxGrow)
		}
	}
	if v.rate = v.rate - v.rate/rateSteps + min(len(v.esc), max(w.dynamic/burstShare, 1)); v.rate*escapeShare > rateSteps*w.dynamic {
		w.dropCandidates()
		return false
	}
	v.used++
	if v.age++; v.age == keepAge {
		v.need = 0
	}
	v.escapes += len(v.esc)
	w.refreshFat()
	return true
}

// dropCandidates stops using the candidates, and has the sample wait
// longer for the next build when they served fewer than keepAge steps.
func (w *World) dropCandidates() {
	v := &w.fat
	w.useFat(false)
	v.checked, v.escaped, v.quiet, v.noisy = 0, 0, 0, 0
	v.few.escaped, v.few.moved = 0, 0
	if v.age < keepAge {
		v.need = min(2*v.need+1, maxQuiet)
	}
}

// escapes is worker k's share of the check of the unsure dirty boxes
// (fat_unsure.go) for those that escaped.
func (w *World) escapes(k int) {
	v := &w.fat
	n := v.workers
	esc := v.escParts[k][:0]
	un := v.unsure.list
	for _, i := range un[k*len(un)/n : (k+1)*len(un)/n] {
		if w.escaped(i) {
			esc = append(esc, i)
		}
	}
	v.escParts[k] = esc
}

// sample checks the fat bounds of the sampled dirty boxes of a step
// while the candidates are dropped, refits those that escaped, with their
// margins doubled, and those that had none, and reports whether to build
// the candidates.
func (w *World) sample() bool {
	v := &w.fat
	for _, i := range w.dirty.list {
		if !sampled(i) {
			continue
		}
		s, f := &w.slots[i], &v.box[i]
		had := s.live && f.h == makeHandle(i, s.gen) && !v.rested
		if had {
			v.checked++
		}
		if w.escaped(i) {
			if had {
				v.escaped++
				f.grow = min(f.grow+1, maxGrow)
			}
			w.refit(i)
		}
	}
	v.rested = false
	if v.checked < sampleMin {
		return false
	}
	v.quiet++
	if v.escaped*escapeShare > v.checked {
		v.quiet = 0
		if v.noisy++; v.noisy > maxGrow {
			v.skip = sampleRest
		}
	} else {
		v.noisy = 0
	}
	v.checked, v.escaped = 0, 0
	return v.quiet >= minQuiet+v.need
}

// growth returns a box's margin for growth g as a share of its bounds'
// width: 2ᵍ/32, exact in float64.
func growth(g uint8) float64 { return float64(int(1)<<g) / 32 }

// maxGrow: a box's margin is at most half its half width, so its fat
// bounds at most 3/2 of its width, at most 3R wide on its level.
const maxGrow = 3

// build gives every box in a grid fat bounds and finds every candidate.
// The sampled boxes' margins have grown to what their motion needs; a
// box whose own margin is less gets the least growth whose margin reaches
// the one that covers 99% of the sample's, so that the boxes that were
// not sampled do not all escape in the next steps and drop the candidates
// again. The largest would give every box the margin of the fastest few.
// A sampled box still at its first margin (growth 0) counts as needing
// none: its motion never asked for one.
//
// The margins compare in the world's units, not as growths: a growth is
// a share of the box's width, and where small boxes jitter by a fifth of
// their width and boxes eight times wider by as little, the large ones
// given the small ones' growth got fat bounds 1.5 times their width, each
// overlapping its neighbours'. Compared in world units, the margins leave a
// build of the RTS scene two candidates a box for every three that growths
// leave, and BenchmarkWorldStep's all-moved step takes less time on the RTS
// and mixed scenes, the uniform scene's no different.
//
// The candidates are used in a world of any size, however far apart in
// memory the two boxes of a candidate are: the kernel loads each box's
// record whole (batch.PairKeys), and where the boxes were inserted in no
// spatial order, so that each of those loads misses the caches, the step
// served from the candidates still takes less time than the cell-by-cell
// step (BenchmarkWorldStep, world=mixed/moved=100%/workers=1, n=1000000, and
// the RTS scene inserted in random order).
func (w *World) build() {
	v := &w.fat
	ms := v.margins[:0] // the sampled boxes' margins, 0 for one at growth 0
	for i := range w.slots {
		if s, f := &w.slots[i], &v.box[i]; sampled(int32(i)) && s.live && s.where == inGrid && f.h == makeHandle(int32(i), s.gen) {
			m := 0.0
			if f.grow > 0 {
				lo, hi, _ := bound.Box(s.box)
				m = fatWidth(lo, hi) * growth(f.grow)
			}
			ms = append(ms, m)
		}
	}
	need := 0.0 // the margin that covers 99% of the sample's
	if len(ms) > 0 {
		slices.Sort(ms)
		need = ms[(99*len(ms)+99)/100-1]
	}
	v.margins = ms
	for k := range w.grids {
		clear(w.grids[k].fatWidth[:])
	}
	for i := range w.slots {
		s, f := &w.slots[i], &v.box[i]
		if !s.live || s.where != inGrid {
			f.h = 0
			continue
		}
		if h := makeHandle(int32(i), s.gen); f.h != h {
			f.h, f.grow = h, 0
		}
		w.refitTo(int32(i), need)
	}
	w.buildCandidates()
	v.quiet = 0
	v.copied = false
	w.chooseTest()
	v.pending.clear()
	v.age, v.rate = 0, 0
	w.useFat(true)
}

// dropFat forgets the candidates and the sample, for Clear: the slots
// they name are free.
func (w *World) dropFat() {
	v := &w.fat
	w.useFat(false)
	v.cand, v.extra = v.cand[:0], v.extra[:0]
	v.dead.clear()
	v.pending.clear()
	v.checked, v.escaped, v.quiet, v.noisy, v.need, v.skip, v.rate = 0, 0, 0, 0, 0, 0, 0
	v.rested = false
}

// useFat records whether the candidates are in use, and so whether the
// grids keep the fat bounds with their boxes' lanes (placeFat, remove and
// compact); while they are not, the grids' churn does not pay for them.
// Dropped, they drop the kernel's records too: build copies every record
// again before the next step that tests candidates, so until then a move
// need write none (moveRecord).
func (w *World) useFat(on bool) {
	w.fat.valid = on
	if !on {
		w.fat.copied = false
	}
	for k := range w.grids {
		w.grids[k].keepFat = on
	}
}

// escaped reports whether slot i's box has left its fat bounds, or has
// none: removed, inserted or moved out of the grid since they were made.
func (w *World) escaped(i int32) bool {
	s, f := &w.slots[i], &w.fat.box[i]
	if !s.live || s.where != inGrid || f.h != makeHandle(i, s.gen) {
		return true
	}
	// A box closer to its fat bounds' edges than its reach (within) asks
	// bound.Box, whose answer decides; Reach skips Box's conversions to
	// float32 and back and its call to obb.Box.Valid (BenchmarkWorldStep,
	// moved=100%).
	if rx, ry, ok := bound.Reach(s.box); ok && w.fat.within(i, f.h, s.box.Center, slack(rx), slack(ry)) {
		return false
	}
	lo, hi, ok := bound.Box(s.box)
	return !ok || lo.X < f.lo.X || lo.Y < f.lo.Y || hi.X > f.hi.X || hi.Y > f.hi.Y
}

// fatWidth returns at least the width of fat bounds lo, hi on either
// coordinate: a float64 difference of float32 values rounds by at most
// 2⁻⁵³ of it, which the factor covers.
func fatWidth(lo, hi obb.Vec2) float64 {
	return max(float64(hi.X)-float64(lo.X), float64(hi.Y)-float64(lo.Y)) * (1 + 0x1p-50)
}

// noteWidth records on level k of g fat bounds lo, hi.
func (g *grid) noteWidth(k int16, lo, hi obb.Vec2) {
	i := int(k) - minLevel
	g.fatWidth[i] = max(g.fatWidth[i], fatWidth(lo, hi))
}

// noteFat records the dirty boxes of a step that did not use the
// candidates, for the next that does to check.
func (w *World) noteFat() {
	v := &w.fat
	if !v.valid {
		return
	}
	v.size(len(w.slots))
	for _, i := range w.dirty.list {
		v.pending.add(i)
	}
}

// size gives the fat state room for n slots. It grows each array once,
// to n, on huge pages where they are large, as the slots are (bulk.go):
// the first Pairs of a World loaded with InsertBoxes grew them one element
// at a time, a copy of every array at each of dozens of growths, which at
// 4,000,000 boxes was most of the step that BenchmarkWorldFirstStep times.
//
// These arrays and bitsets grow here only and never shrink, so what lies
// past their length was never written and is zero as make left it. Not
// cleared again, its pages stay unwritten until a step writes them: the
// first Pairs, which finds its pairs cell by cell, writes none of the
// records and filters.
func (v *fatState) size(n int) {
	if d := n - len(v.box); d > 0 {
		v.box = hugepage.Grow(v.box, d)[:n]
		v.recs = hugepage.Grow(v.recs, d)[:n]
		v.filters = hugepage.Grow(v.filters, d)[:n]
		v.odd += d
	}
	if words := (n + 63) / 64; words > len(v.escBits) {
		v.escBits = slices.Grow(v.escBits, words-len(v.escBits))[:words]
		v.pending.bits = slices.Grow(v.pending.bits, words-len(v.pending.bits))[:words]
		v.dead.bits = slices.Grow(v.dead.bits, words-len(v.dead.bits))[:words]
	}
}

// nextCand returns cand's other buffer with room for n keys, and a
// quarter more when it must grow, for the margins' growth over the next
// steps.
func (v *fatState) nextCand(n int) []uint64 {
	if cap(v.spare) < n {
		v.spare = make([]uint64, 0, n+n/4)
	}
	return v.spare[:n]
}

// setCand makes next, from nextCand, the candidates, and the old ones the
// other buffer, with as much room, so that steps like the last allocate
// nothing whichever buffer holds them. extra's buffers, and the test's of
// its keys, get room for a share of cand's (extraShare).
func (v *fatState) setCand(next []uint64) {
	v.cand, v.spare = next, v.cand
	v.candGen++
	if cap(v.spare) < cap(v.cand) {
		v.spare = make([]uint64, 0, cap(v.cand))
	}
	if room := cap(v.cand) / extraShare; cap(v.extraBuf) < room {
		v.extra = slices.Grow(v.extra, max(room-len(v.extra), 0)) // extra, from the other buffer, may hold more
		v.extraBuf, v.exFound = make([]uint64, 0, room), make([]uint64, 0, room)
	}
}

// placeFat copies the fat bounds of slot s, whose handle is h, to its
// block's lane, as place files it: fat bounds for another box, or none,
// are copied as bounds that meet nothing, and the box is then one that
// escaped, whose bounds refreshFat makes before any query reads them.
func (w *World) placeFat(h Handle, s *slot) {
	g := &w.grids[s.kind]
	if !g.keepFat {
		return // build refits every box
	}
	if int(h>>8) < len(w.fat.box) {
		if f := &w.fat.box[h>>8]; f.h == h {
			g.setFat(s.block, s.lane, f.lo, f.hi)
			g.noteWidth(s.cell.level, f.lo, f.hi)
			return
		}
	}
	inf := float32(math.Inf(1))
	g.setFat(s.block, s.lane, obb.Vec2{X: inf, Y: inf}, obb.Vec2{X: -inf, Y: -inf})
}

// refit gives the box of slot i fat bounds, or none when it is not in a
// grid, and copies them to its block: its bounds grown by its margin, of
// growth grow if the bounds were its own and 0 if not. A box whose
// coordinates are so large that rounding them outward would widen its fat
// bounds past 3R gets its bounds alone, at most 2R wide, so that no
// level's width grows past 3R.
func (w *World) refit(i int32) { w.refitTo(i, 0) }

// refitTo is refit after raising the box's growth, as far as maxGrow, to
// the least whose margin is at least need.
func (w *World) refitTo(i int32, need float64) {
	s, f := &w.slots[i], &w.fat.box[i]
	h := makeHandle(i, s.gen)
	if !s.live || s.where != inGrid {
		f.h = 0
		return
	}
	if f.h != h {
		f.grow = 0
	}
	lo, hi, _ := bound.Box(s.box)
	width := fatWidth(lo, hi)
	for f.grow < maxGrow && width*growth(f.grow) < need {
		f.grow++
	}
	m := width * growth(f.grow)
	f.h = h
	f.lo = obb.Vec2{X: f32.Down(float64(lo.X) - m), Y: f32.Down(float64(lo.Y) - m)}
	f.hi = obb.Vec2{X: f32.Up(float64(hi.X) + m), Y: f32.Up(float64(hi.Y) + m)}
	if r, _ := sizes(int(s.cell.level)); fatWidth(f.lo, f.hi) > 3*r {
		f.lo, f.hi = lo, hi // coordinates so large that rounding would widen them past 3R
	}
	g := &w.grids[s.kind]
	g.setFat(s.block, s.lane, f.lo, f.hi)
	g.noteWidth(s.cell.level, f.lo, f.hi)
}
