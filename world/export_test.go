package world

import (
	"math"
	mathbits "math/bits"
	"math/rand/v2"
	"slices"
	"unsafe"

	"github.com/obb2d/obb2d/internal/bound"
	"github.com/obb2d/obb2d/obb"
)

// SortAll makes MoveBoxes sort its writes, and Pairs its dirty boxes, by
// block, and Move leave its writes to the catch-up (lag.go), in worlds of
// every size when on, so that small worlds test those paths too, and
// restores the size limits when off.
func SortAll(on bool) {
	largeBytes, laterBytes = defaultLargeBytes, defaultLaterBytes
	if on {
		largeBytes, laterBytes = -1, -1
	}
}

// MoveChunk sets the fewest boxes MoveBoxes gives a worker in a world that
// is not large (the catch-up of Moves runs there on the caller:
// slotWorkers), and returns the value it replaces: the tests' worlds of
// 10,000 to 40,000 boxes set 4,096, so that those passes run on several
// workers.
func MoveChunk(n int) int {
	old := smallMoveChunk
	smallMoveChunk = n
	return old
}

// RecordBytes sets the records' size up to which the kernel tests the
// candidates on the caller alone (ownRecordBytes), and returns the value
// it replaces: the tests' worlds of 10,000 to 40,000 boxes set -1, so that
// the kernel's test runs on several workers.
func RecordBytes(n int) int {
	old := ownRecordBytes
	ownRecordBytes = n
	return old
}

// KeepChunk sets the fewest pair keys keepAll gives a worker and returns
// the value it replaces: tests with a few thousand pairs set a few
// hundred, so that a step that moved few boxes keeps its pairs on several
// workers, as one with millions of pairs does by default.
func KeepChunk(n int) int {
	old := keepChunk
	keepChunk = n
	return old
}

// MoveWorkers returns how many workers w's MoveBoxes of m boxes runs on.
func MoveWorkers(w *World, m int) int { return w.moveWorkers(m) }

// SortNone makes those passes go in the callers' order, and Move write at
// once, in worlds of every size, until SortAll is called
// (BenchmarkSortedPasses).
func SortNone() { largeBytes, laterBytes = math.MaxInt, math.MaxInt }

// Writes makes MoveBoxes write the boxes that stay in their cells as it
// does when it calls them direct (as it finds their cells), sorted (by
// region of blocks) or settle (a pass over every block), whatever the
// world's size and the number of boxes moved; "" gives it back the choice.
func Writes(mode string) {
	forcedWrites = map[string]int{"": -1, "direct": int(writeDirect), "sorted": int(writeSorted), "settle": int(writeSettle)}[mode]
}

// Stays returns the counts of w's MoveBoxes and catch-ups of Moves that
// left the lanes of their boxes behind (lag_stays.go): those that did,
// the lists written because they would have grown too long, the lists
// readers wrote, and those that marked their boxes for the pass over every
// block.
func Stays(w *World) (deferred, overflows, written, marked int) {
	s := &w.lag.stays
	return s.deferred, s.overflows, s.written, s.marked
}

// StaysWriteNow sets how many MoveBoxes and catch-ups write their lanes
// at once after the list of lanes left behind is first written
// (writeNowSteps), until the returned function is called.
func StaysWriteNow(n int) (restore func()) {
	old := writeNowSteps
	writeNowSteps = n
	return func() { writeNowSteps = old }
}

// FatStats returns how many steps of w were served from the candidates of
// fat bounds (fat.go), and how many boxes escaped in them.
func FatStats(w *World) (steps, escapes int) { return w.fat.used, w.fat.escapes }

// FatWorkers returns how many workers w's last step served from the
// candidates tested them on.
func FatWorkers(w *World) int { return w.fat.workers }

// FatSplit returns how many workers w's candidates are enough for, before
// testCandidates limits them.
func FatSplit(w *World) int { return w.workers(len(w.fat.cand), candChunk) }

// RecordsKept reports whether w's last step tested the candidates with the
// kernel, whose records the moves since have written (moveRecord).
func RecordsKept(w *World) bool { return w.fat.kernel && w.fat.copied }

// FatExtra returns how many steps of w tested candidates found since the
// last merge (extra, fat_refresh.go), and how many times those were merged
// into the others.
func FatExtra(w *World) (steps, merges int) { return w.fat.extras, w.fat.merges }

// FatFew returns the counts of w's steps with few changed boxes
// (fat_few.go).
func FatFew(w *World) FewCounts {
	v := &w.fat
	return FewCounts{Steps: v.fewUsed, Escaped: v.fewEscaped, Extras: v.fewExtras, Indexes: v.fewIndexes, Builds: v.fewBuilds}
}

// FewCounts counts a world's steps with few changed boxes: those served
// from the candidates, the boxes that escaped in them, those that took
// keys of extra, the indexes of cand made for them, and the builds of the
// candidates in such steps.
type FewCounts struct{ Steps, Escaped, Extras, Indexes, Builds int }

// FatHold makes w's full steps go without the sample's checks for a
// million steps (skip, as after windows with many escapes) and then wait
// the longest for a build (need).
func FatHold(w *World) { w.fat.skip, w.fat.need = 1<<20, maxQuiet }

// FewAlways makes the steps with few changed boxes test their
// candidates however many they have (fewUse) and however many of their
// boxes escape (fewEscapes), until the returned function is called.
func FewAlways() (restore func()) {
	limit, escapes := fewLimit, fewEscapes
	fewLimit, fewEscapes = math.MaxInt32, 0
	return func() { fewLimit, fewEscapes = limit, escapes }
}

// FatDrop drops w's candidates, as a step where too many boxes escape
// does.
func FatDrop(w *World) {
	w.useFat(false)
	v := &w.fat
	v.checked, v.escaped, v.quiet, v.noisy = 0, 0, 0, 0
}

// FatBounds returns the fat bounds of box h, and false when it has none.
func FatBounds(w *World, h Handle) (lo, hi obb.Vec2, ok bool) {
	f := &w.fat.box[h>>8]
	return f.lo, f.hi, f.h == h
}

// BuildFat gives every box fat bounds and builds the candidates, as a
// step does when the sample calls for it.
func BuildFat(w *World) { w.build() }

// Compact lays out the grid of kind k as the compaction that runs once
// per as many boxes entering cells as the grid holds does, now.
func Compact(w *World, k Kind) {
	g := &w.grids[k]
	g.churn = max(g.boxes, 1024)
	w.compact()
}

// Scatter puts the blocks of w's grid of kind k in a random order, keeping
// every cell's list, as boxes entering cells in random order leave them
// before a compaction.
func Scatter(w *World, k Kind, r *rand.Rand) {
	g := &w.grids[k]
	to := make([]int32, len(g.blocks))
	for i, j := range r.Perm(len(to)) {
		to[i] = int32(j)
	}
	for b := range g.blocks {
		if blk := &g.blocks[b]; blk.next >= 0 {
			blk.next = to[blk.next]
		}
	}
	for c := range g.cells {
		g.cells[c].head = to[g.cells[c].head]
	}
	for i, b := range g.free {
		g.free[i] = to[b]
	}
	// Moved by a copy, not by grid.permute, which the compaction uses.
	blocks, fat := slices.Clone(g.blocks), slices.Clone(g.fat)
	for b := range blocks {
		g.blocks[to[b]], g.fat[to[b]] = blocks[b], fat[b]
	}
	g.relinkAll()
	w.relocate(g)
}

// Invariants catches w up (lag.go), as its next question would, and
// returns an error naming the first broken rule of its layout, or nil
// (invariants_test.go).
func Invariants(w *World) error {
	w.catchUp()
	return w.invariants()
}

// OffCell returns how many of w's boxes lie in a cell other than their
// center's (nearShift).
func OffCell(w *World) int {
	w.catchUp()
	n := 0
	for k := range w.grids {
		g := &w.grids[k]
		for c := range g.cells {
			for b := g.cells[c].head; b >= 0; b = g.blocks[b].next {
				for _, h := range g.blocks[b].h[:g.blocks[b].n] {
					s := &w.slots[h>>8]
					if offFrom(s.cell, s.box.Center) > 0 {
						n++
					}
				}
			}
		}
	}
	return n
}

// FatRules returns an error naming the first box of w, whose last call was
// Pairs, that its candidates would lose, or nil (invariants_test.go).
func FatRules(w *World) error { return w.fatRules() }

// StepLines returns what an incremental Pairs would read of the World's
// memory to find its dirty boxes' pairs; where it tests their candidates
// (fat_few.go), for each box the cache lines of its slot, of its run of
// the candidates' index and of each candidate's other box's slot;
// otherwise what its queries would read, in the order it queries its dirty
// boxes: for each box,
// a pointer into each cache line of its slot, of its tiles' entries and
// heads of cells, and of the head (blockHead) of each block it tests, on
// every level of the grids it walks (pairsOf), a line once a box; the
// step asks for those of the box's own level ahead (step_ahead.go). It
// catches the World up and lays it out as Pairs would first. The hits'
// handles and filters, the Static grid's rectangles and the boxes outside
// the grids are left out, and the Static grid's blocks that a query skips
// by their rectangles are counted.
func (w *World) StepLines() (lines []unsafe.Pointer) {
	w.catchUp()
	w.compact()
	w.queueDirty()
	first := 0 // where the box's lines begin
	add := func(p unsafe.Pointer, size uintptr) {
		for off := uintptr(0); off < size; off = (uintptr(p) + off) | 63 + 1 - uintptr(p) {
			q := unsafe.Add(p, off)
			if !slices.ContainsFunc(lines[first:], func(r unsafe.Pointer) bool { return uintptr(r)>>6 == uintptr(q)>>6 }) {
				lines = append(lines, q)
			}
		}
	}
	if v := &w.fat; v.valid && w.fewUse() {
		// The step tests the boxes' candidates (fat_few.go): the box's
		// slot, its run of the index, and the slot of each candidate's
		// other box.
		f := &v.few
		if f.gen != v.candGen {
			w.indexCandidates()
		}
		for _, i := range w.dirty.list {
			first = len(lines)
			s := &w.slots[i]
			add(unsafe.Pointer(s), unsafe.Sizeof(*s))
			if !s.live || s.where != inGrid || v.dead.has(i) {
				continue
			}
			add(unsafe.Pointer(&f.off[i]), 8)
			run := f.other[f.off[i]:f.off[i+1]]
			if len(run) > 0 {
				add(unsafe.Pointer(&run[0]), uintptr(len(run))*unsafe.Sizeof(run[0]))
			}
			for _, x := range run {
				add(unsafe.Pointer(&w.slots[x>>8]), unsafe.Sizeof(slot{}))
			}
		}
		return lines
	}
	for _, i := range w.step.queue {
		first = len(lines)
		s := &w.slots[i]
		add(unsafe.Pointer(s), unsafe.Sizeof(*s))
		if !s.live || s.where != inGrid {
			continue
		}
		lo, hi, _ := bound.Box(s.box)
		for k := range w.grids {
			g := &w.grids[k]
			if Kind(k) == Static && s.kind == Static {
				continue
			}
			for _, lv := range g.levels {
				x0, x1, y0, y1, few := g.cellsAround(lv, lo, hi, g.reach[int(lv)-minLevel])
				if !few {
					continue
				}
				for ty := y0 >> tileShift; ty <= y1>>tileShift; ty++ {
					for tx := x0 >> tileShift; tx <= x1>>tileShift; tx++ {
						t := cellKey{tx, ty, lv}
						if e := g.inWindow(t); e != nil {
							add(unsafe.Pointer(e), unsafe.Sizeof(*e))
						} else {
							add(unsafe.Pointer(&g.table[hash(t)&uint64(len(g.table)-1)]), unsafe.Sizeof(tileEntry{}))
						}
						occ, ti := g.entry(t)
						for bits := occ & tileRows(ty, y0, y1) & tileColumns(tx, x0, x1); bits != 0; bits &= bits - 1 {
							hd := &g.tiles[ti-1].head[mathbits.TrailingZeros64(bits)]
							add(unsafe.Pointer(hd), 4)
							for b := *hd; b >= 0; b = g.blocks[b].next {
								add(unsafe.Pointer(&g.blocks[b]), blockHead)
							}
						}
					}
				}
			}
		}
	}
	return lines
}
