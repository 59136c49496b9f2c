package world

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/soa"
)

// TestFatOddFilters steps a world of the RTS scene, whose candidates the
// kernel tests, while boxes change filters, are removed and are inserted,
// and checks after each step that the count of the filter column's
// entries other than DefaultFilter is right, that the kernel's test ran
// with every filter DefaultFilter (reading none) and with some not, and
// that Pairs then matches brute force over the live boxes. With two
// workers, MoveBoxes writes the moved boxes' records on both (sortRange),
// and a step after a change of filters or boxes copies the dirty boxes'
// records on both (copyDirty).
func TestFatOddFilters(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) { testFatOddFilters(t, workers) })
	}
}

func testFatOddFilters(t *testing.T, workers int) {
	old := smallMoveChunk
	smallMoveChunk = 256
	defer func() { smallMoveChunk = old }()
	r := rand.New(rand.NewPCG(5, 9))
	var b soa.Boxes
	scene.RTS(r, 1000, &b)
	w := New()
	w.Workers = workers
	hs := w.InsertBoxes(nil, &b, Dynamic, DefaultFilter)
	if n := w.moveWorkers(len(hs)); n != workers {
		t.Fatalf("the moved boxes' records are written on %d workers, want %d", n, workers)
	}
	poses := [2]soa.Boxes{b, {}}
	for i := range b.Len() {
		x := b.At(i)
		x.Center.X += 0.01
		poses[1].Append(x)
	}
	odd := map[Handle]bool{}
	fast, slow, used := 0, 0, 0
	for step := range 120 {
		// In the first and last thirds every filter is DefaultFilter.
		switch phase := step * 3 / 120; {
		case phase == 1 && step%4 == 0:
			h := hs[r.IntN(len(hs))]
			f := Filter{Category: 2, Mask: 2}
			if odd[h] {
				f = DefaultFilter
			}
			w.SetFilter(h, f)
			odd[h] = !odd[h]
		case phase == 2 && len(odd) > 0:
			for h := range odd {
				if odd[h] {
					w.SetFilter(h, DefaultFilter)
				}
			}
			clear(odd)
		}
		if step%10 == 9 {
			i := r.IntN(len(hs))
			w.Remove(hs[i])
			hs[i] = w.Insert(poses[step&1].At(i), Dynamic, DefaultFilter)
		}
		w.MoveBoxes(hs, &poses[step&1])
		got := w.Pairs(nil)
		v := &w.fat
		want := 0
		for _, f := range v.filters {
			if f != DefaultFilter {
				want++
			}
		}
		if v.odd != want {
			t.Fatalf("step %d: %d filters are not DefaultFilter, the count says %d", step, want, v.odd)
		}
		if v.used > used && v.kernel {
			if v.odd == 0 {
				fast++
			} else {
				slow++
			}
		}
		used = v.used
		var brute []Pair
		for i := range hs {
			for j := i + 1; j < len(hs); j++ {
				a, c := &w.slots[hs[i]>>8], &w.slots[hs[j]>>8]
				if a.box.Overlaps(c.box) && a.filter.allows(c.filter) {
					brute = append(brute, Pair{min(hs[i], hs[j]), max(hs[i], hs[j])})
				}
			}
		}
		slices.SortFunc(brute, func(x, y Pair) int { return cmp.Compare(key(x.A, x.B), key(y.A, y.B)) })
		if !slices.Equal(got, brute) {
			t.Fatalf("step %d: Pairs found %d pairs, brute force %d", step, len(got), len(brute))
		}
	}
	if fast == 0 || slow == 0 {
		t.Fatalf("the kernel tested the candidates in %d steps with every filter DefaultFilter and %d with some not; want both", fast, slow)
	}
	t.Log(fmt.Sprint(fast, " steps read no filter, ", slow, " read them"))
}
