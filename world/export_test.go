package world

import (
	"math"
	"math/rand/v2"
	"slices"

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

// FatStats returns how many steps of w were served from the candidates of
// fat bounds (fat.go), and how many boxes escaped in them.
func FatStats(w *World) (steps, escapes int) { return w.fat.used, w.fat.escapes }

// FatExtra returns how many steps of w tested candidates found since the
// last merge (extra, fat_refresh.go), and how many times those were merged
// into the others.
func FatExtra(w *World) (steps, merges int) { return w.fat.extras, w.fat.merges }

// FatHold makes w's full steps go without the sample's checks for a
// million steps (skip, as after windows with many escapes) and then wait
// the longest for a build (need).
func FatHold(w *World) { w.fat.skip, w.fat.need = 1<<20, maxQuiet }

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

// FatRules returns an error naming the first box of w, whose last call was
// Pairs, that its candidates would lose, or nil (invariants_test.go).
func FatRules(w *World) error { return w.fatRules() }
