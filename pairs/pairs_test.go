package pairs_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/kernel"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/pairs"
	"github.com/obb2d/obb2d/soa"
)

func box(b *soa.Boxes, i int) obb.Box {
	return obb.Box{Center: obb.Vec2{X: b.CX[i], Y: b.CY[i]}, Axis: obb.Vec2{X: b.UX[i], Y: b.UY[i]}, Half: obb.Vec2{X: b.HX[i], Y: b.HY[i]}}
}

func bruteAll(b *soa.Boxes) []pairs.Pair {
	var out []pairs.Pair
	for i := 0; i < b.Len(); i++ {
		bi := box(b, i)
		for j := i + 1; j < b.Len(); j++ {
			if bi.Overlaps(box(b, j)) {
				out = append(out, pairs.Pair{I: int32(i), J: int32(j)})
			}
		}
	}
	return out
}

func bruteBetween(a, b *soa.Boxes) []pairs.Pair {
	var out []pairs.Pair
	for i := 0; i < a.Len(); i++ {
		ai := box(a, i)
		for j := 0; j < b.Len(); j++ {
			if ai.Overlaps(box(b, j)) {
				out = append(out, pairs.Pair{I: int32(i), J: int32(j)})
			}
		}
	}
	return out
}

type sceneFunc func(r *rand.Rand, n int) *soa.Boxes

func scenes() map[string]sceneFunc {
	return map[string]sceneFunc{
		"random": func(r *rand.Rand, n int) *soa.Boxes {
			var b soa.Boxes
			side := math.Sqrt(float64(n)*30) + 1
			for i := 0; i < n; i++ {
				b.Append(obb.New(obb.Vec2{X: float32(r.Float64() * side), Y: float32(r.Float64() * side)},
					float32(0.2+r.Float64()*5), float32(0.2+r.Float64()*5), r.Float64()*7))
			}
			return &b
		},
		"clustered": func(r *rand.Rand, n int) *soa.Boxes {
			var b soa.Boxes
			for i := 0; i < n; i++ {
				cx, cy := float64(r.IntN(5))*100, float64(r.IntN(5))*100
				b.Append(obb.New(obb.Vec2{X: float32(cx + r.NormFloat64()*8), Y: float32(cy + r.NormFloat64()*8)},
					float32(0.5+r.Float64()*3), float32(0.5+r.Float64()*3), r.Float64()*7))
			}
			return &b
		},
		"all-overlapping": func(r *rand.Rand, n int) *soa.Boxes {
			var b soa.Boxes
			for i := 0; i < n; i++ {
				b.Append(obb.New(obb.Vec2{X: float32(r.Float64()), Y: float32(r.Float64())}, 10, 10, r.Float64()*7))
			}
			return &b
		},
		"all-disjoint": func(r *rand.Rand, n int) *soa.Boxes {
			var b soa.Boxes
			for i := 0; i < n; i++ {
				b.Append(obb.New(obb.Vec2{X: float32(i%50) * 10, Y: float32(i/50) * 10}, 4, 4, r.Float64()*7))
			}
			return &b
		},
		"identical": func(r *rand.Rand, n int) *soa.Boxes {
			var b soa.Boxes
			box := obb.New(obb.Vec2{X: 3, Y: 4}, 2, 1, 0.5)
			for i := 0; i < n; i++ {
				b.Append(box)
			}
			return &b
		},
		"vertical-line": func(r *rand.Rand, n int) *soa.Boxes {
			var b soa.Boxes
			for i := 0; i < n; i++ {
				b.Append(obb.New(obb.Vec2{X: 7, Y: float32(r.Float64() * float64(n))}, 1, 1, r.Float64()*7))
			}
			return &b
		},
		// Pairs whose y extents touch to within rounding, laid out along x
		// (and the same transposed): see touchingAcross.
		"touching-across-x": func(r *rand.Rand, n int) *soa.Boxes { return touchingAcross(r, n, false) },
		"touching-across-y": func(r *rand.Rand, n int) *soa.Boxes { return touchingAcross(r, n, true) },
		// Touching and nearly touching pairs from the oracle's generators,
		// with hostile boxes mixed in.
		"near-touching-and-hostile": func(r *rand.Rand, n int) *soa.Boxes {
			var b soa.Boxes
			for b.Len() < n {
				p := scene.Generators[r.IntN(len(scene.Generators))].Make(r)
				b.Append(p.A, p.B)
			}
			b = b.Slice(0, n)
			for i := 0; i < n/20; i++ {
				cols := [6][]float32{b.CX, b.CY, b.UX, b.UY, b.HX, b.HY}
				cols[r.IntN(6)][r.IntN(n)] = scene.Hostile[r.IntN(len(scene.Hostile))]
			}
			return &b
		},
	}
}

// touchingAcross returns n boxes in pairs spread out along x: an
// axis-aligned box, and above it a rotated box whose lowest corner is on the
// first box's top edge, give or take a few units in the last place. The
// float32 test then often calls a pair overlapping whose exact y extents
// are apart by a rounding error, or whose float32 centers are further apart
// than the float32 sum of their half heights: the pairs the reach test of
// the sweep, across the sweep axis, must keep. With transpose, x and y are
// swapped, so that the sweep runs along y.
func touchingAcross(r *rand.Rand, n int, transpose bool) *soa.Boxes {
	var b soa.Boxes
	for i := 0; b.Len() < n; i++ {
		hx, hy := float32(1+r.Float64()*9), float32(1+r.Float64()*9)
		a := obb.Box{Center: obb.Vec2{X: float32(100 * i)}, Axis: obb.Vec2{X: 1}, Half: obb.Vec2{X: hx, Y: hy}}
		c := obb.New(obb.Vec2{}, float32(2+r.Float64()*18), float32(2+r.Float64()*18), r.Float64()*7)
		// c's half height, the float32 spacing of the top edge's height, and
		// c's center so that its lowest corner lies on that edge.
		e := float64(c.Half.X)*math.Abs(float64(c.Axis.Y)) + float64(c.Half.Y)*math.Abs(float64(c.Axis.X))
		ulp := float64(math.Nextafter32(hy, 100) - hy)
		c.Center = obb.Vec2{
			X: a.Center.X + float32((r.Float64()-0.5)*float64(hx)),
			Y: float32(float64(hy) + e + float64(r.IntN(7)-3)*ulp),
		}
		for _, x := range []obb.Box{a, c} {
			if transpose {
				x.Center.X, x.Center.Y = x.Center.Y, x.Center.X
				x.Axis.X, x.Axis.Y = x.Axis.Y, x.Axis.X
			}
			b.Append(x)
		}
	}
	b = b.Slice(0, n)
	return &b
}

// TestTouchingAcrossIsHard checks that touchingAcross makes the pairs it is
// for: pairs the float32 test calls overlapping although their float32
// centers are further apart across the sweep than the float32 sum of their
// exact half extents rounded to float32, which a reach test without the
// rounding band's padding would drop.
func TestTouchingAcrossIsHard(t *testing.T) {
	for _, transpose := range []bool{false, true} {
		b := touchingAcross(rand.New(rand.NewPCG(2000, 99)), 2000, transpose)
		hard := 0
		for i := 0; i+1 < b.Len(); i += 2 {
			a, c := box(b, i), box(b, i+1)
			across := func(x obb.Box) (center, half float32) {
				ux, uy, cy := float64(x.Axis.X), float64(x.Axis.Y), x.Center.Y
				if transpose {
					ux, uy, cy = uy, ux, x.Center.X
				}
				return cy, float32(float64(x.Half.X)*math.Abs(uy) + float64(x.Half.Y)*math.Abs(ux))
			}
			ca, ea := across(a)
			cc, ec := across(c)
			if d := cc - ca; a.Overlaps(c) && !(max(d, -d) <= ea+ec) {
				hard++
			}
		}
		t.Logf("transpose %v: %d of 1000 pairs need the reach's padding", transpose, hard)
		if hard < 10 {
			t.Errorf("transpose %v: only %d of 1000 pairs need the reach's padding", transpose, hard)
		}
	}
}

// sizes returns the scene sizes; scenes where every pair overlaps stop at
// 2,000 boxes, since their output grows as n².
func sizes(scene string) []int {
	ns := []int{0, 1, 2, 3, 17, 200, 1000, 2000, 5000}
	if testing.Short() {
		ns = ns[:7]
	}
	if scene == "all-overlapping" || scene == "identical" {
		ns = slices.DeleteFunc(ns, func(n int) bool { return n > 2000 })
	}
	return ns
}

func TestAllMatchesBruteForce(t *testing.T) {
	for name, make := range scenes() {
		for _, n := range sizes(name) {
			b := make(rand.New(rand.NewPCG(uint64(n), 99)), n)
			want := bruteAll(b)
			testkit.EachImpl(func(impl string) {
				for _, workers := range []int{1, 2, 3} {
					f := pairs.Finder{Workers: workers}
					if got := f.All(nil, b); !slices.Equal(got, want) {
						t.Errorf("%s n=%d impl=%s workers=%d: %d pairs, brute force %d; first difference %s",
							name, n, impl, workers, len(got), len(want), firstDiff(got, want))
					}
				}
			})
		}
	}
}

func TestBetweenMatchesBruteForce(t *testing.T) {
	for name, make := range scenes() {
		for _, n := range sizes(name) {
			r := rand.New(rand.NewPCG(uint64(n), 98))
			moving := make(r, n/3+1)
			static := make(r, n)
			want := bruteBetween(moving, static)
			testkit.EachImpl(func(impl string) {
				for _, workers := range []int{1, 2} {
					f := pairs.Finder{Workers: workers}
					if got := f.Between(nil, moving, static); !slices.Equal(got, want) {
						t.Errorf("%s n=%d impl=%s workers=%d: %d pairs, brute force %d; first difference %s",
							name, n, impl, workers, len(got), len(want), firstDiff(got, want))
					}
				}
			})
		}
	}
}

func firstDiff(got, want []pairs.Pair) string {
	for i := 0; i < min(len(got), len(want)); i++ {
		if got[i] != want[i] {
			return fmt.Sprintf("at %d: got %v, want %v", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(got), len(want))
}

func TestCheckAndFilter(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 5))
		b := scenes()["near-touching-and-hostile"](r, 300)
		var list []pairs.Pair
		for len(list) < 2000 {
			i := int32(r.IntN(300))
			// Runs of one first box of up to 20 pairs,
			// with repeats and I == J.
			for k := r.IntN(20); k >= 0; k-- {
				j := int32(r.IntN(300))
				if r.IntN(10) == 0 {
					j = i
				}
				list = append(list, pairs.Pair{I: i, J: j})
				if r.IntN(8) == 0 {
					list = append(list, pairs.Pair{I: i, J: j})
				}
			}
		}
		var f pairs.Finder
		out := make([]uint64, kernel.Words(len(list)))
		if err := f.Check(out, b, b, list); err != nil {
			t.Fatal(err)
		}
		var want []pairs.Pair
		for k, p := range list {
			overlap := b.At(int(p.I)).Overlaps(b.At(int(p.J)))
			if got := out[k/64]>>(k%64)&1 == 1; got != overlap {
				t.Fatalf("pair %d %v: bit %v, Overlaps %v", k, p, got, overlap)
			}
			if overlap {
				want = append(want, p)
			}
		}
		got, err := f.Filter([]pairs.Pair{{-1, -1}}, b, b, list)
		if err != nil || !slices.Equal(got[1:], want) || got[0] != (pairs.Pair{I: -1, J: -1}) {
			t.Fatalf("Filter: %v, %d pairs, want %d", err, len(got)-1, len(want))
		}
		// Empty list.
		if got, err := f.Filter(nil, b, b, nil); err != nil || len(got) != 0 {
			t.Fatalf("empty list: %v %v", got, err)
		}
		// Two sets of different sizes: I indexes moving, J static.
		moving := scenes()["near-touching-and-hostile"](r, 37)
		var cross []pairs.Pair
		for k := 0; k < 500; k++ {
			cross = append(cross, pairs.Pair{I: int32(r.IntN(37)), J: int32(r.IntN(300))})
		}
		out = make([]uint64, kernel.Words(len(cross)))
		if err := f.Check(out, moving, b, cross); err != nil {
			t.Fatal(err)
		}
		ones := 0
		for k, p := range cross {
			overlap := moving.At(int(p.I)).Overlaps(b.At(int(p.J)))
			if got := out[k/64]>>(k%64)&1 == 1; got != overlap {
				t.Fatalf("two sets, pair %d %v: bit %v, Overlaps %v", k, p, got, overlap)
			}
			if overlap {
				ones++
			}
		}
		if ones == 0 || ones == len(cross) {
			t.Fatalf("two sets: %d of %d pairs overlap: the test does not see both answers", ones, len(cross))
		}
	})
}

func TestCheckRejectsBadIndicesWithoutWriting(t *testing.T) {
	var b soa.Boxes
	b.Append(obb.New(obb.Vec2{}, 1, 1, 0), obb.New(obb.Vec2{X: 0.5}, 1, 1, 0))
	var small soa.Boxes
	small.Append(obb.New(obb.Vec2{}, 1, 1, 0))
	for _, c := range []struct {
		list []pairs.Pair
		b    *soa.Boxes
		msg  string
	}{
		{[]pairs.Pair{{0, 1}, {2, 0}}, &b, "pairs: pair 1 (2, 0): I = 2 is outside [0, 2)"},
		{[]pairs.Pair{{0, 1}, {0, -1}}, &b, "pairs: pair 1 (0, -1): J = -1 is outside [0, 2)"},
		{[]pairs.Pair{{1, 1}}, &small, "pairs: pair 0 (1, 1): J = 1 is outside [0, 1)"},
	} {
		var f pairs.Finder
		out := []uint64{0xfeed}
		err := f.Check(out, &b, c.b, c.list)
		var ie *pairs.IndexError
		if !errors.As(err, &ie) || err.Error() != c.msg {
			t.Errorf("err = %v, want %q", err, c.msg)
		}
		if out[0] != 0xfeed {
			t.Error("Check wrote before reporting the bad index")
		}
	}
	defer func() {
		if r := recover(); r == nil || fmt.Sprint(r) != "pairs: out has 0 words, need 1 for 1 pairs" {
			t.Errorf("short out: panic %v", r)
		}
	}()
	var f pairs.Finder
	f.Check(nil, &b, &b, []pairs.Pair{{0, 0}})
}

// TestSteadyStateAllocatesNothing checks that a pass over the same boxes
// as the pass before allocates nothing, with one, two and three workers: a
// single allocation in all the passes measured fails it. Mallocs measures
// on one P, as testing.AllocsPerRun does; TestScratchStaysPut checks the
// Finder's memory with every P running.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	b := scenes()["clustered"](r, 3000)
	other := scenes()["random"](r, 1000)
	for _, c := range []struct{ workers, runs int }{{1, 5}, {2, 50}, {3, 50}} {
		f := pairs.Finder{Workers: c.workers}
		dst := f.All(nil, b)
		dst2 := f.Between(nil, other, b)
		if len(dst) == 0 || len(dst2) == 0 {
			t.Fatal("scene has no pairs: the test would not exercise the pass")
		}
		if n := pairs.Mallocs(c.runs, func() { dst = f.All(dst[:0], b) }); n != 0 {
			t.Errorf("All with %d workers: %d allocations in %d steady-state passes", c.workers, n, c.runs)
		}
		if n := pairs.Mallocs(c.runs, func() { dst2 = f.Between(dst2[:0], other, b) }); n != 0 {
			t.Errorf("Between with %d workers: %d allocations in %d steady-state passes", c.workers, n, c.runs)
		}
		list := append([]pairs.Pair(nil), dst...)
		if n := pairs.Mallocs(c.runs, func() { dst, _ = f.Filter(dst[:0], b, b, list) }); n != 0 {
			t.Errorf("Filter with %d workers: %d allocations in %d steady-state passes", c.workers, n, c.runs)
		}
		ms, _ := f.Collide(nil, b, b, list, 0)
		if n := pairs.Mallocs(c.runs, func() { ms, _ = f.Collide(ms[:0], b, b, list, 0) }); n != 0 {
			t.Errorf("Collide: %d allocations in %d steady-state passes", n, c.runs)
		}
		cs, _ := f.Contacts(nil, b, b, list, 0)
		if n := pairs.Mallocs(c.runs, func() { cs, _ = f.Contacts(cs[:0], b, b, list, 0) }); n != 0 {
			t.Errorf("Contacts: %d allocations in %d steady-state passes", n, c.runs)
		}
	}
}

// TestHelpersEndWithThePass checks that the goroutines a pass starts for
// its workers, which spin between the pass's phases, have all returned
// once All or Between has returned.
func TestHelpersEndWithThePass(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	b := scenes()["clustered"](r, 20000)
	other := scenes()["random"](r, 5000)
	for _, workers := range []int{2, 3} {
		f := pairs.Finder{Workers: workers}
		for _, pass := range []struct {
			name string
			run  func()
		}{
			{"All", func() { f.All(nil, b) }},
			{"Between", func() { f.Between(nil, other, b) }},
		} {
			pass.run()
			// A helper that has returned may still be leaving its last
			// frame when the pass returns: allow it a moment.
			deadline := time.Now().Add(2 * time.Second)
			for n := helpersRunning(); n != 0; n = helpersRunning() {
				if time.Now().After(deadline) {
					t.Fatalf("%s, %d workers: %d helper goroutines still running after the pass", pass.name, workers, n)
				}
				time.Sleep(time.Millisecond)
			}
		}
	}
}

// helpersRunning counts the goroutines inside a helper's loop: a Finder
// runs its passes on an internal/crew.Crew.
func helpersRunning() int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), "/internal/crew.(*Crew).help(")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// TestCandidatesCountsTheLastPass checks that Candidates reports the sweep
// pass alone: narrow-phase calls in between must not add to it.
func TestCandidatesCountsTheLastPass(t *testing.T) {
	b := scenes()["clustered"](rand.New(rand.NewPCG(3, 4)), 2000)
	var f pairs.Finder
	found := f.All(nil, b)
	c := f.Candidates()
	if c < len(found) || len(found) == 0 {
		t.Fatalf("%d candidates for %d pairs", c, len(found))
	}
	var list []pairs.Pair
	for j := 0; j < 100; j++ {
		list = append(list, pairs.Pair{I: 0, J: int32(j)}) // one long run: the kernel path
	}
	if _, err := f.Filter(nil, b, b, list); err != nil {
		t.Fatal(err)
	}
	if got := f.Candidates(); got != c {
		t.Errorf("Candidates() = %d after Filter, %d after All", got, c)
	}
	if f.All(found[:0], b); f.Candidates() != c {
		t.Errorf("a second identical pass counted %d candidates, the first %d", f.Candidates(), c)
	}
}

// TestWorkersMayChange checks that one Finder gives the pairs one worker
// gives when its worker count changes from pass to pass, down as well as
// up: with more than mergeParallelPairs pairs, a pass on fewer workers than
// the pass before used to read the earlier pass's cuts of the merge and
// panic.
func TestWorkersMayChange(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	b := scenes()["clustered"](r, 20000)
	other := scenes()["random"](r, 5000)
	var one pairs.Finder
	want, wantBetween := one.All(nil, b), one.Between(nil, other, b)
	if len(want) < 1<<15 { // mergeParallelPairs
		t.Fatalf("%d pairs: too few for the parallel merge", len(want))
	}
	var f pairs.Finder
	var got, gotBetween []pairs.Pair
	for pass, workers := range []int{2, 4, 3, 2, 1, 3} {
		f.Workers = workers
		got = f.All(got[:0], b)
		gotBetween = f.Between(gotBetween[:0], other, b)
		if !slices.Equal(got, want) || !slices.Equal(gotBetween, wantBetween) {
			t.Fatalf("pass %d, %d workers: the pairs differ from one worker's", pass, workers)
		}
	}
}
