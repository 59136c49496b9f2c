package pairs

import (
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"

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

// Mallocs returns how many heap allocations runs calls of fn make from a
// Finder's code: allocations with a method of Finder (its goroutines'
// closures included) on the stack, as the heap profile records them with
// every allocation sampled. Unlike testing.AllocsPerRun, which averages
// and rounds down, it lets a test see one allocation in many runs, and it
// does not count what the runtime's own goroutines allocate meanwhile (a
// run beside a CPU-heavy test saw the scavenger grow its timer heap).
//
// Like AllocsPerRun it measures with GOMAXPROCS set to 1, because the
// runtime keeps free goroutines and wait records in caches per P: a pass's
// goroutines, started on one P and ending on another, move them between
// caches, and a WaitGroup.Wait then allocates a new record now and then
// (TestScratchStaysPut checks the Finder's own memory with every P
// running). Changing GOMAXPROCS drops the caches of the Ps it removes, so
// before measuring, Mallocs has the one P's cache hold a wait record by
// blocking once in a WaitGroup, and calls fn once, as AllocsPerRun does.
func Mallocs(runs int, fn func()) int64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	runtime.MemProfileRate = 1
	var wg sync.WaitGroup
	wg.Add(1)
	go wg.Done()
	wg.Wait()
	fn()
	before := finderAllocs()
	for range runs {
		fn()
	}
	return finderAllocs() - before
}

// finderAllocs returns how many allocations the heap profile holds with a
// method of Finder on the stack. The runtime.GC publishes the profile up to
// the present.
func finderAllocs() int64 {
	runtime.GC()
	var recs []runtime.MemProfileRecord
	for {
		n, ok := runtime.MemProfile(recs, true)
		if ok {
			recs = recs[:n]
			break
		}
		recs = make([]runtime.MemProfileRecord, n+n/4+16)
	}
	var total int64
	for _, r := range recs {
		frames := runtime.CallersFrames(r.Stack())
		for {
			f, more := frames.Next()
			if strings.HasPrefix(f.Function, "github.com/obb2d/obb2d/pairs.(*Finder).") {
				total += r.AllocObjects
				break
			}
			if !more {
				break
			}
		}
	}
	return total
}

// sortSet sorts b into f.a as a pass would, on the workers a pass over b
// gets, and ends the pass.
func (f *Finder) sortSet(b *soa.Boxes, useY, withLo bool) {
	f.crew.begin(f.workers(b.Len()), &f.out)
	defer f.crew.stop()
	f.a.build(&f.crew, b, useY, withLo)
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
func (f *Finder) SweepAll(dst []Pair, b *soa.Boxes) []Pair { return f.sweepAll(dst, b) }

// BandCount is how many bands All cuts n boxes into.
func BandCount(n int) int { return bandCount(n) }
