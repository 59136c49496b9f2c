package pairs

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// TestParallelMerge checks the merge that sorts ranges of I on several
// workers: on a pile of boxes that all overlap (more than
// mergeParallelPairs pairs, most of them on the low indices), All and
// Between must take the parallel path, cut I into ranges of about equal
// numbers of pairs, return what one worker returns (checked against brute
// force), and allocate nothing once warm.
func TestParallelMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var pile, other soa.Boxes
	for i := 0; i < 400; i++ {
		c := obb.Vec2{X: float32(r.Float64()), Y: float32(r.Float64())}
		pile.Append(obb.New(c, 10, 10, r.Float64()*7))
		if i%2 == 0 {
			other.Append(obb.New(c, 5, 5, r.Float64()*7))
		}
	}
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
			if len(f.mergeCut) != workers+1 {
				t.Errorf("%s, %d workers: merge used %d ranges", what, workers, len(f.mergeCut)-1)
				return
			}
			total := len(got)
			for k := range workers {
				// The cuts come from 1024 sampled pairs: each range holds
				// its share give or take far less than half of it.
				if n := f.mergeStart[k+1] - f.mergeStart[k]; 2*n*workers < total || 2*n*workers > 3*total {
					t.Errorf("%s, %d workers: range %d holds %d of %d pairs", what, workers, k, n, total)
				}
			}
		}
		got := f.All(nil, &pile)
		check("All", got, want)
		between := f.Between(nil, &other, &pile)
		check("Between", between, wantBetween)

		for range 100 {
			got = f.All(got[:0], &pile)
			between = f.Between(between[:0], &other, &pile)
		}
		if a := testing.AllocsPerRun(20, func() { got = f.All(got[:0], &pile) }); a != 0 {
			t.Errorf("All, %d workers: %v allocations a warm pass", workers, a)
		}
		if a := testing.AllocsPerRun(20, func() { between = f.Between(between[:0], &other, &pile) }); a != 0 {
			t.Errorf("Between, %d workers: %v allocations a warm pass", workers, a)
		}
	}
	if len(wantBetween) < 2*mergeParallelPairs {
		t.Errorf("Between found %d pairs: too few for the parallel merge", len(wantBetween))
	}
}
