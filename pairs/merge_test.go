package pairs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// pileScene returns 400 boxes that all overlap, and 200 smaller ones on
// every other one's center.
func pileScene() (pile, other soa.Boxes) {
	r := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 400; i++ {
		c := obb.Vec2{X: float32(r.Float64()), Y: float32(r.Float64())}
		pile.Append(obb.New(c, 10, 10, r.Float64()*7))
		if i%2 == 0 {
			other.Append(obb.New(c, 5, 5, r.Float64()*7))
		}
	}
	return pile, other
}

// TestParallelMerge checks the merge that sorts ranges of I on several
// workers: on a pile of boxes that all overlap (more than
// mergeParallelPairs pairs, most of them on the low indices), All and
// Between must take the parallel path, cut I into ranges of about equal
// numbers of pairs, return what one worker returns (checked against brute
// force), and allocate nothing after their first pass.
func TestParallelMerge(t *testing.T) {
	pile, other := pileScene()
	var want []Pair
	for i := 0; i < pile.Len(); i++ {
		for j := i + 1; j < pile.Len(); j++ {
			if pile.At(i).Overlaps(pile.At(j)) {
				want = append(want, Pair{int32(i), int32(j)})
			}
		}
	}
	if len(want) < 2*mergeParallelPairs {
		t.Fatalf("the pile has %d pairs: too few for the parallel merge", len(want))
	}
	var one Finder
	wantBetween := one.Between(nil, &other, &pile)

	for _, workers := range []int{2, 3} {
		f := Finder{Workers: workers}
		check := func(what string, got, want []Pair) {
			t.Helper()
			if !slices.Equal(got, want) {
				t.Errorf("%s, %d workers: %d pairs, want %d", what, workers, len(got), len(want))
			}
			if len(f.merger.cut) != workers+1 {
				t.Errorf("%s, %d workers: merge used %d ranges", what, workers, len(f.merger.cut)-1)
				return
			}
			total := len(got)
			for k := range workers {
				// The cuts come from 1024 sampled pairs: each range holds
				// its share give or take far less than half of it.
				if n := f.merger.start[k+1] - f.merger.start[k]; 2*n*workers < total || 2*n*workers > 3*total {
					t.Errorf("%s, %d workers: range %d holds %d of %d pairs", what, workers, k, n, total)
				}
			}
		}
		got := f.All(nil, &pile)
		check("All", got, want)
		between := f.Between(nil, &other, &pile)
		check("Between", between, wantBetween)

		// One pass of each has run (and Mallocs runs one more before it
		// counts): from here on nothing may allocate, however the work is
		// split.
		if n := Mallocs(20, func() { got = f.All(got[:0], &pile) }); n != 0 {
			t.Errorf("All, %d workers: %d allocations in 20 warm passes", workers, n)
		}
		if n := Mallocs(20, func() { between = f.Between(between[:0], &other, &pile) }); n != 0 {
			t.Errorf("Between, %d workers: %d allocations in 20 warm passes", workers, n)
		}
	}
	if len(wantBetween) < 2*mergeParallelPairs {
		t.Errorf("Between found %d pairs: too few for the parallel merge", len(wantBetween))
	}
}

// TestScratchStaysPut checks that the Finder's memory does not grow in a
// pass over the same boxes as the pass before, whichever worker takes
// which chunk of the sweep, group of the sort and range of the merge: with
// at least two Ps running, over 30 passes of All and Between on a
// clustered map (many chunks) and on the pile (the parallel merge), the
// capacity of every slice the Finder holds, its workers' and sorted sets'
// included, stays what it was after the first pass. The split of the work
// must have varied for the test to count; the test runs up to 1,000
// passes for that.
func TestScratchStaysPut(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: the workers cannot run at once, so the split of the work cannot vary as the test needs")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	r := rand.New(rand.NewPCG(3, 4))
	var clustered, scattered soa.Boxes
	for i := 0; i < 4000; i++ {
		c := obb.Vec2{X: float32(r.IntN(6)*100) + float32(r.NormFloat64()*10), Y: float32(r.IntN(6)*100) + float32(r.NormFloat64()*10)}
		clustered.Append(obb.New(c, float32(0.5+r.Float64()*3), float32(0.5+r.Float64()*3), r.Float64()*7))
		if i%4 == 0 {
			c := obb.Vec2{X: float32(r.Float64() * 600), Y: float32(r.Float64() * 600)}
			scattered.Append(obb.New(c, float32(1+r.Float64()*5), float32(1+r.Float64()*5), r.Float64()*7))
		}
	}
	pile, other := pileScene()
	for _, workers := range []int{2, 3} {
		f := Finder{Workers: workers}
		var all, between, pileAll, pileBetween []Pair
		pass := func() {
			all = f.All(all[:0], &clustered)
			between = f.Between(between[:0], &scattered, &clustered)
			pileAll = f.All(pileAll[:0], &pile)
			pileBetween = f.Between(pileBetween[:0], &other, &pile)
		}
		pass()
		if len(all) == 0 || len(between) == 0 {
			t.Fatalf("the clustered map has %d and %d pairs: the test would not exercise the pass", len(all), len(between))
		}
		want := capacities(&f)
		shares := map[int]bool{} // worker 0's candidates in the clustered All
		// At least 30 passes, and more while the split has not varied: when
		// the other core is busy (go test runs packages side by side), the
		// calling goroutine may do every chunk of many passes before a
		// helper gets a core.
		for k := 0; k < 30 || (len(shares) < 2 && k < 1000); k++ {
			pass()
			got := capacities(&f)
			for name, c := range got {
				if c != want[name] {
					t.Errorf("%d workers, pass %d: %s's capacity went from %d to %d", workers, k+2, name, want[name], c)
				}
			}
			if t.Failed() {
				return
			}
			all = f.All(all[:0], &clustered)
			shares[f.team.wk[0].candidates] = true
		}
		if len(shares) < 2 {
			t.Errorf("%d workers: worker 0 tested %d candidates in every pass: the split of the work never varied", workers, f.team.wk[0].candidates)
		}
	}
}

// capacities returns the capacity of every slice f holds, by its path
// from f, going into structs and into the elements of slices of structs
// that hold slices (the workers).
func capacities(f *Finder) map[string]int {
	caps := map[string]int{}
	var walk func(path string, v reflect.Value)
	walk = func(path string, v reflect.Value) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				walk(path+"."+v.Type().Field(i).Name, v.Field(i))
			}
		case reflect.Slice:
			caps[path] = v.Cap()
			if holdsSlices(v.Type().Elem()) {
				for i := range v.Len() {
					walk(fmt.Sprintf("%s[%d]", path, i), v.Index(i))
				}
			}
		}
	}
	walk("f", reflect.ValueOf(f).Elem())
	return caps
}

// holdsSlices reports whether t is a struct with a slice among its fields
// or theirs.
func holdsSlices(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	for i := range t.NumField() {
		if k := t.Field(i).Type; k.Kind() == reflect.Slice || holdsSlices(k) {
			return true
		}
	}
	return false
}

// TestSmallPassesRunOnOneWorker checks that with the package's threshold a
// pass over fewer than parallelMinBoxes boxes starts no helper goroutine,
// whatever Workers says, unless the Finder's last pass found many pairs,
// that a pass over more boxes does start them, and that the pairs are one
// worker's.
func TestSmallPassesRunOnOneWorker(t *testing.T) {
	defer func(n int) { parallelMinBoxes = n }(parallelMinBoxes)
	parallelMinBoxes = defaultParallelMinBoxes
	r := rand.New(rand.NewPCG(17, 17))
	spread := func(n int) *soa.Boxes {
		var b soa.Boxes
		for i := 0; i < n; i++ {
			center := obb.Vec2{X: float32(r.Float64() * 800), Y: float32(r.Float64() * 800)}
			b.Append(obb.New(center, float32(0.5+r.Float64()*3), float32(0.5+r.Float64()*3), r.Float64()*7))
		}
		return &b
	}
	pile, _ := pileScene()
	for _, c := range []struct {
		name    string
		b       *soa.Boxes
		helpers [2]bool // in the first pass of a Finder, in the second
	}{
		{"one box fewer than the threshold", spread(parallelMinBoxes - 1), [2]bool{false, false}},
		{"the threshold", spread(parallelMinBoxes), [2]bool{true, true}},
		{"a pile of 400 boxes", &pile, [2]bool{false, true}},
	} {
		var one Finder
		want := one.All(nil, c.b)
		f := Finder{Workers: 2}
		for pass, helpers := range c.helpers {
			starts := f.team.crew.Starts()
			if got := f.All(nil, c.b); !slices.Equal(got, want) {
				t.Fatalf("%s, pass %d: two workers found %d pairs, one %d", c.name, pass+1, len(got), len(want))
			}
			if started := f.team.crew.Starts() > starts; started != helpers {
				t.Errorf("%s, pass %d: helpers started %v, want %v", c.name, pass+1, started, helpers)
			}
		}
	}
}

// TestMergeByRadix checks the merge's two sorts against a plain sort of
// the same pairs: distinct pairs in random order, spread over up to 2²⁰
// indices or clustered on a few values of I (so that the radix sort skips
// digits), from none to enough for the merge to cut I into ranges, on one
// to three workers, once with the radix sort wherever it may run and once
// with counting sorts only.
func TestMergeByRadix(t *testing.T) {
	defer func(saved int) { radixMinIndices = saved }(radixMinIndices)
	r := rand.New(rand.NewPCG(8, 8))
	type shape struct{ nI, nJ, pairs, spreadI int }
	shapes := []shape{
		{1, 1, 1, 1}, {100000, 100000, 100, 100000},
		{1 << 20, 1 << 20, 5000, 1 << 20}, {1 << 20, 1 << 20, 5000, 4},
		{1 << 20, 3000, 40000, 1 << 20}, {70000, 1 << 20, 40000, 70000}, {5, 7, 0, 5},
	}
	for range 20 { // a few pairs, often with a digit all but one share
		shapes = append(shapes, shape{3, 3, 2, 3}, shape{5000, 5000, 1, 5000}, shape{5000, 5000, 3, 2})
	}
	for _, tc := range shapes {
		seen := map[Pair]bool{}
		var pairs []Pair
		for len(pairs) < tc.pairs {
			p := Pair{int32(r.IntN(tc.spreadI)), int32(r.IntN(tc.nJ))}
			if !seen[p] {
				seen[p] = true
				pairs = append(pairs, p)
			}
		}
		want := slices.Clone(pairs)
		slices.SortFunc(want, func(p, q Pair) int {
			if p.I != q.I {
				return int(p.I - q.I)
			}
			return int(p.J - q.J)
		})
		for _, workers := range []int{1, 2, 3} {
			for _, by := range []struct {
				name string
				min  int
			}{{"radix", 0}, {"counting", math.MaxInt}} {
				radixMinIndices = by.min
				var f Finder
				f.team.begin(workers, &f.out)
				copy(f.out.room(&f.team.wk[0], len(pairs)), pairs)
				got := f.merge([]Pair{{-1, -1}}, tc.nI, tc.nJ)
				f.team.stop()
				if got[0] != (Pair{-1, -1}) || !slices.Equal(got[1:], want) {
					t.Fatalf("%+v, %d workers, by %s: the merge's pairs differ from the sorted ones", tc, workers, by.name)
				}
			}
		}
	}
}
