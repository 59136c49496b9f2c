package pairs

import (
	"os"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/soa"
)

// defaultParallelMinBoxes is parallelMinBoxes as the package sets it.
var defaultParallelMinBoxes = parallelMinBoxes

// TestMain lets every pass of the tests use as many workers as it asks
// for, however few its boxes, so that the tests' small scenes exercise the
// parallel jobs; TestSmallPassesRunOnOneWorker checks the real threshold.
func TestMain(m *testing.M) {
	parallelMinBoxes = 0
	minBandedBoxes = 0
	os.Exit(m.Run())
}

// SetMaxBandedGroups sets the sort's cap on a banded set's groups and
// returns the value before.
func SetMaxBandedGroups(n int) int {
	old := maxBandedGroups
	maxBandedGroups = n
	return old
}

// Mallocs returns how many heap allocations runs calls of fn make from a
// Finder's code (testkit.Mallocs). TestScratchStaysPut checks the Finder's
// own memory with every P running.
func Mallocs(runs int, fn func()) int64 {
	return testkit.Mallocs(runs, "github.com/obb2d/obb2d/pairs.(*Finder).", fn)
}

// sortSet sorts b into f.a as a pass would, in one band, on the workers a
// pass over b gets, and ends the pass.
func (f *Finder) sortSet(b *soa.Boxes, useY, withLo bool) { f.sortBands(b, useY, withLo, 1) }

// sortBands is sortSet asking the sort for k bands.
func (f *Finder) sortBands(b *soa.Boxes, useY, withLo bool, k int) {
	f.team.begin(f.workers(b.Len()), &f.out)
	defer f.team.stop()
	f.a.build(&f.team, b, useY, withLo, k)
}

// ScalarTested returns how many boxes f's last pass tested against every
// box with the scalar test; between says the pass was Between, which has
// two sets.
func ScalarTested(f *Finder, between bool) int {
	if between {
		return len(f.a.invalid) + len(f.b.invalid)
	}
	return len(f.a.invalid)
}

// SweepAll is All in one band, whatever the set's size: the reference the
// banded pass is compared with.
func (f *Finder) SweepAll(dst []Pair, b *soa.Boxes) []Pair {
	checkSize(b)
	return f.all(dst, b, 1)
}

// AllBands is All asking the sort for k bands, whatever the set's size.
func (f *Finder) AllBands(dst []Pair, b *soa.Boxes, k int) []Pair {
	checkSize(b)
	return f.all(dst, b, k)
}

// Bands returns how many bands f's last pass cut its set into.
func (f *Finder) Bands() int { return f.a.bands }

// BandCount is how many bands All cuts n boxes into.
func BandCount(n int) int { return bandCount(n) }
