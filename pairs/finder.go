package pairs

import (
	"fmt"
	"math"
	"runtime"
	"slices"

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

	a, b      sorted     // the pass's sets, sorted along the sweep axis
	team      team       // the pass's workers and their scratch
	out       collector  // the pass's pairs, as the workers find them
	merger    merger     // the pairs' sort into the caller's slice
	between   betweenJob // Between's sweep over a and b
	filter    []uint64   // Filter's bitset
	lastPairs int        // how many pairs the last All or Between found
}

// All appends to dst every pair (I, J), I < J, of boxes of b that overlap, as
// obb.Box.Overlaps decides, sorted by I then J, and returns the extended
// slice. It panics if b's columns differ in length or b has more than
// math.MaxInt32 boxes.
func (f *Finder) All(dst []Pair, b *soa.Boxes) []Pair {
	checkSize(b)
	return f.all(dst, b, bandCount(b.Len()))
}

// all is All with at most k bands across the sweep (bands.go): one sort
// and one sweep.
func (f *Finder) all(dst []Pair, b *soa.Boxes, k int) []Pair {
	n := b.Len()
	f.team.begin(f.workers(n), &f.out)
	defer f.team.stop()
	f.a.build(&f.team, b, sweepAxis(b), true, k)
	f.team.run((*allJob)(&f.a), len(f.a.start), chunk)
	f.invalidAll(b, f.a.invalid)
	return f.merge(dst, n, n)
}

// Between appends to dst every pair (I, J) with box I of moving overlapping
// box J of static, sorted by I then J, and returns the extended slice. It
// panics if either set's columns differ in length or a set has more than
// math.MaxInt32 boxes.
func (f *Finder) Between(dst []Pair, moving, static *soa.Boxes) []Pair {
	checkSize(moving)
	checkSize(static)
	f.team.begin(f.workers(moving.Len()+static.Len()), &f.out)
	defer f.team.stop()
	useY := sweepAxis(moving, static)
	f.a.build(&f.team, moving, useY, false, 1)
	f.b.build(&f.team, static, useY, false, 1)
	f.between = betweenJob{&f.a, &f.b}
	f.team.run(&f.between, len(f.a.start)+len(f.b.start), chunk)
	f.invalidBetween(moving, static, f.a.invalid, f.b.invalid)
	return f.merge(dst, moving.Len(), static.Len())
}

// merge sorts the pass's pairs into dst (see merger.merge).
func (f *Finder) merge(dst []Pair, nI, nJ int) []Pair {
	pairs := f.out.gather(f.team.wk)
	f.lastPairs = len(pairs)
	return f.merger.merge(&f.team, dst, pairs, len(f.out.found), nI, nJ)
}

// invalidAll adds the pairs of b's invalid boxes (by index, ascending) to
// the pass's pairs: each against every box by the scalar test, a pair of
// two invalid boxes once.
func (f *Finder) invalidAll(b *soa.Boxes, invalid []int32) {
	n := b.Len()
	w := &f.team.wk[0]
	for _, x := range invalid {
		bx := b.At(int(x))
		for j := 0; j < n; j++ {
			if j == int(x) || (isInvalid(invalid, int32(j)) && int32(j) < x) {
				continue
			}
			if bx.Overlaps(b.At(j)) {
				f.out.room(w, 1)[0] = ordered(x, int32(j))
			}
		}
	}
}

// invalidBetween adds the pairs of the invalid moving and static boxes to
// the pass's pairs: each against every box of the other set by the scalar
// test, a pair of two invalid boxes once.
func (f *Finder) invalidBetween(moving, static *soa.Boxes, invalidMoving, invalidStatic []int32) {
	w := &f.team.wk[0]
	for _, x := range invalidMoving {
		bx := moving.At(int(x))
		for j := 0; j < static.Len(); j++ {
			if bx.Overlaps(static.At(j)) {
				f.out.room(w, 1)[0] = Pair{x, int32(j)}
			}
		}
	}
	for _, y := range invalidStatic {
		by := static.At(int(y))
		for i := 0; i < moving.Len(); i++ {
			if !isInvalid(invalidMoving, int32(i)) && by.Overlaps(moving.At(i)) {
				f.out.room(w, 1)[0] = Pair{int32(i), y}
			}
		}
	}
}

func isInvalid(invalid []int32, i int32) bool {
	_, ok := slices.BinarySearch(invalid, i)
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

// Candidates returns how many candidate pairs the last All or Between pass
// handed to the kernel: a measure of how much the sweep prunes.
func (f *Finder) Candidates() int {
	return f.team.candidates()
}

// workers returns how many workers a pass over n boxes (of both sets, for
// Between) runs on: one when n is below parallelMinBoxes and the last pass
// found fewer than mergeParallelPairs pairs. A few boxes that overlap a
// lot, as on bench/'s pile scene, are work enough for a second core
// (BenchmarkAllPairs, scene=pile); a simulation's steps are alike, so the
// last pass tells. The first pass of a Finder counts as having found none.
func (f *Finder) workers(n int) int {
	switch {
	case n < parallelMinBoxes && f.lastPairs < mergeParallelPairs:
		return 1
	case f.Workers < 0:
		return runtime.GOMAXPROCS(0)
	case f.Workers == 0:
		return 1
	}
	return f.Workers
}

// parallelMinBoxes is the fewest boxes (of both sets, for Between) a pass
// runs on more than one worker, unless the last pass found many pairs (see
// Finder.workers). Below it, waking another core and handing out the work
// cost more than the second worker saves: BenchmarkSmallPasses measures two
// workers slower than one at 5,000 boxes on both of bench/'s scenes, about
// even at 10,000 and faster at 20,000. The package's tests set it to 0, so
// that their small scenes run on several workers.
var parallelMinBoxes = 8192
