package world_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/pairs"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

func unitBox(x, y float32) obb.Box {
	return obb.FromHalf(obb.Vec2{X: x, Y: y}, obb.Vec2{X: 1, Y: 1}, 0)
}

// TestHandles checks the documented allocation of handles and the panics
// of stale and never-issued ones, each before anything changes.
func TestHandles(t *testing.T) {
	w := world.New()
	var hs []world.Handle
	for i := range 4 {
		hs = append(hs, w.Insert(unitBox(float32(3*i), 0), world.Dynamic, world.DefaultFilter))
	}
	if want := []world.Handle{0x001, 0x101, 0x201, 0x301}; !slices.Equal(hs, want) {
		t.Fatalf("first handles %#x, want %#x", hs, want)
	}
	w.Remove(hs[2])
	w.Remove(hs[0])
	// Freed slots come back first in, first out, one generation on.
	if a, b, c := w.Insert(unitBox(0, 0), world.Static, world.DefaultFilter), w.Insert(unitBox(0, 0), world.Dynamic, world.DefaultFilter),
		w.Insert(unitBox(0, 0), world.Dynamic, world.DefaultFilter); a != 0x202 || b != 0x002 || c != 0x401 {
		t.Fatalf("reused handles %#x %#x %#x, want 0x202 0x2 0x401", a, b, c)
	}
	before := w.Len()
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"Move", func() { w.Move(hs[0], unitBox(1, 1)) }},
		{"Remove", func() { w.Remove(hs[2]) }},
		{"Box", func() { w.Box(hs[0]) }},
		{"SetFilter", func() { w.SetFilter(hs[2], world.Filter{}) }},
		{"SetKind", func() { w.SetKind(hs[2], world.Static) }},
		{"Kind", func() { w.Kind(hs[0]) }},
		{"Filter", func() { w.Filter(hs[0]) }},
	} {
		testkit.MustPanic(t, "world: "+c.name+" with stale handle", c.f)
	}
	// MoveBoxes checks every handle and the lengths before it moves any.
	var two soa.Boxes
	two.Append(unitBox(50, 50))
	two.Append(unitBox(60, 60))
	testkit.MustPanic(t, "world: MoveBoxes with stale handle", func() { w.MoveBoxes([]world.Handle{hs[1], hs[0]}, &two) })
	testkit.MustPanic(t, "world: MoveBoxes with 1 handles and 2 boxes", func() { w.MoveBoxes(hs[1:2], &two) })
	if w.Box(hs[1]) != unitBox(3, 0) {
		t.Fatalf("a MoveBoxes that panicked moved box %#x to %v", hs[1], w.Box(hs[1]))
	}
	testkit.MustPanic(t, "never issued", func() { w.Move(0, unitBox(0, 0)) })
	testkit.MustPanic(t, "never issued", func() { w.Remove(0x7fff01) })
	testkit.MustPanic(t, "neither Dynamic nor Static", func() { w.Insert(unitBox(0, 0), 2, world.DefaultFilter) })
	testkit.MustPanic(t, "world: SetKind with kind 2, which is neither Dynamic nor Static", func() { w.SetKind(hs[1], 2) })
	if w.Len() != before || w.Contains(hs[0]) || !w.Contains(hs[1]) {
		t.Fatalf("the panics changed the world: Len %d, want %d", w.Len(), before)
	}
	// 255 reuses of a slot bring its generation back around, skipping 0;
	// a handle of generation 0, never issued, is not contained, the slot
	// free or not.
	w.Clear()
	if w.Contains(hs[1]) {
		t.Fatalf("Contains(%#x) after Clear", hs[1])
	}
	for range 300 {
		h2 := w.Insert(unitBox(0, 0), world.Dynamic, world.DefaultFilter)
		if uint8(h2) == 0 || !w.Contains(h2) || w.Contains(h2&^0xff) {
			t.Fatalf("handle %#x: generation 0, or Contains of it or of its slot's generation 0 wrong", h2)
		}
		w.Remove(h2)
		if w.Contains(h2) || w.Contains(h2&^0xff) {
			t.Fatalf("Contains(%#x) or of its slot's generation 0 after Remove", h2)
		}
	}
}

// TestClearForgetsEvents checks that Events reports nothing after Clear,
// which ends the pairs along with the boxes.
func TestClearForgetsEvents(t *testing.T) {
	w := world.New()
	w.Insert(unitBox(0, 0), world.Dynamic, world.DefaultFilter)
	w.Insert(unitBox(0.5, 0), world.Dynamic, world.DefaultFilter)
	w.Pairs(nil)
	if began, _ := w.Events(nil, nil); len(began) != 1 {
		t.Fatalf("Events began %v, want one pair", began)
	}
	w.Clear()
	if began, ended := w.Events(nil, nil); len(began)+len(ended) != 0 {
		t.Fatalf("Events after Clear: began %v, ended %v", began, ended)
	}
}

// TestDeterminism runs the same steps with every kernel and several worker
// counts, on enough boxes that the step runs in parallel, and checks that
// the handles and pairs are the same every time and equal the stateless
// pass of package pairs.
func TestDeterminism(t *testing.T) {
	splitMoves(t)
	n := 12000
	if testing.Short() {
		n = 5000
	}
	var boxes soa.Boxes
	scene.Uniform(rand.New(rand.NewPCG(1, 1)), n, &boxes)
	var first [][]world.Pair
	var firstHandles []world.Handle
	defer world.SortAll(false)
	defer world.Writes("")
	testkit.EachImpl(func(impl string) {
		for _, c := range []struct {
			workers int
			sorted  bool   // the passes in block order, as in a large world
			writes  string // how MoveBoxes writes (world.Writes)
		}{{1, false, ""}, {2, false, "direct"}, {2, true, "sorted"}, {3, true, "settle"}} {
			workers := c.workers
			world.SortAll(c.sorted)
			world.Writes(c.writes)
			w := world.New()
			w.Workers = workers
			hs := w.InsertBoxes(nil, &boxes, world.Dynamic, world.DefaultFilter)
			if workers > 1 {
				mustSplit(t, w, len(hs))
			}
			r := rand.New(rand.NewPCG(2, 2))
			var steps [][]world.Pair
			moved := boxes
			moved.CX, moved.CY = slices.Clone(boxes.CX), slices.Clone(boxes.CY)
			for step := range 3 {
				got := w.Pairs(nil)
				var f pairs.Finder
				var want []world.Pair
				for _, p := range f.All(nil, &moved) {
					want = append(want, world.Pair{A: hs[p.I], B: hs[p.J]})
				}
				if !slices.Equal(got, want) {
					t.Fatalf("impl=%s workers=%d step %d: %d pairs, pairs.Finder %d", impl, workers, step, len(got), len(want))
				}
				steps = append(steps, got)
				for i := range hs {
					moved.CX[i] += float32(r.NormFloat64() * 0.2)
					moved.CY[i] += float32(r.NormFloat64() * 0.2)
				}
				// Odd steps move the boxes one by one, even ones all at
				// once, on the workers.
				if step%2 == 0 {
					w.MoveBoxes(hs, &moved)
					continue
				}
				for i, h := range hs {
					w.Move(h, moved.At(i))
				}
			}
			if first == nil {
				first, firstHandles = steps, hs
				continue
			}
			if !slices.Equal(hs, firstHandles) {
				t.Fatalf("impl=%s workers=%d: handles differ", impl, workers)
			}
			for i := range steps {
				if !slices.Equal(steps[i], first[i]) {
					t.Fatalf("impl=%s workers=%d: step %d differs", impl, workers, i)
				}
			}
		}
	})
}

// TestEventsOnWorkers steps a world of the RTS scene, nine pairs a box,
// on one worker and on three, moving every box or one in a hundred, and
// checks that both report the same pairs and that Events gives the
// differences of consecutive Pairs: with hundreds of thousands of pairs,
// the three workers share the comparison of the pairs and their copy.
func TestEventsOnWorkers(t *testing.T) {
	splitMoves(t)
	n := 20000
	if testing.Short() {
		n = 8000
	}
	var boxes soa.Boxes
	scene.RTS(rand.New(rand.NewPCG(6, 6)), n, &boxes)
	one, three := world.New(), world.New()
	three.Workers = 3
	hs := one.InsertBoxes(nil, &boxes, world.Dynamic, world.DefaultFilter)
	three.InsertBoxes(nil, &boxes, world.Dynamic, world.DefaultFilter)
	mustSplit(t, three, len(hs))
	r := rand.New(rand.NewPCG(6, 7))
	var last []world.Pair
	for step := range 6 {
		var moved soa.Boxes
		var which []world.Handle
		for i, h := range hs {
			if step%2 == 0 || r.IntN(100) == 0 {
				b := boxes.At(i)
				b.Center = b.Center.Add(obb.Vec2{X: float32(r.NormFloat64() * 0.5), Y: float32(r.NormFloat64() * 0.5)})
				moved.Append(b)
				which = append(which, h)
			}
		}
		one.MoveBoxes(which, &moved)
		three.MoveBoxes(which, &moved)
		got, want := three.Pairs(nil), one.Pairs(nil)
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: %d pairs on three workers, %d on one", step, len(got), len(want))
		}
		began, ended := three.Events(nil, nil)
		var wantBegan, wantEnded []world.Pair
		for _, p := range want {
			if _, found := slices.BinarySearchFunc(last, p, comparePairs); !found {
				wantBegan = append(wantBegan, p)
			}
		}
		for _, p := range last {
			if _, found := slices.BinarySearchFunc(want, p, comparePairs); !found {
				wantEnded = append(wantEnded, p)
			}
		}
		if !slices.Equal(began, wantBegan) || !slices.Equal(ended, wantEnded) {
			t.Fatalf("step %d: %d began and %d ended, want %d and %d", step, len(began), len(ended), len(wantBegan), len(wantEnded))
		}
		last = want
	}
}

func comparePairs(a, b world.Pair) int {
	if a.A != b.A {
		return cmp.Compare(a.A, b.A)
	}
	return cmp.Compare(a.B, b.B)
}

// TestSteadyStateAllocatesNothing runs steps and questions on a world that
// has seen them before and counts heap allocations.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	splitMoves(t)
	// With -short, as under qemu, a quarter of the boxes: the test's RTS
	// and mixed cases took over a minute each there (ppc64le).
	n := 20000
	if testing.Short() {
		n = 5000
	}
	var uniform, rts soa.Boxes
	scene.Uniform(rand.New(rand.NewPCG(3, 3)), n, &uniform)
	// The RTS scene's two poses differ by half in pairs, so Pairs' buffers
	// hold different numbers of pairs from step to step.
	scene.RTS(rand.New(rand.NewPCG(3, 3)), n, &rts)
	// The mixed scene's boxes jump far from pose to pose, so that every
	// box leaves its fat bounds, the candidates are dropped, and every
	// step goes cell by cell, gathering the large boxes (cells_far.go).
	var mixed soa.Boxes
	scene.Uniform(rand.New(rand.NewPCG(3, 3)), n, &mixed)
	for i := 0; i < mixed.Len(); i += 100 {
		mixed.HX[i], mixed.HY[i] = 100*mixed.HX[i], 100*mixed.HY[i]
	}
	defer world.SortAll(false)
	for _, c := range []struct {
		scene   string
		workers int
		sorted  bool
		few     bool // every hundredth box moves, not every box
	}{{"uniform", 1, false, false}, {"uniform", 2, false, false}, {"uniform", 2, true, false}, {"rts", 1, false, false}, {"rts", 2, false, false}, {"mixed", 1, false, false}, {"mixed", 2, false, false},
		{"uniform", 1, false, true}, {"uniform", 2, false, true}} {
		workers := c.workers
		world.SortAll(c.sorted)
		boxes, jump := uniform, 0.05
		switch c.scene {
		case "rts":
			boxes = rts
		case "mixed":
			boxes, jump = mixed, 5
		}
		t.Run(fmt.Sprintf("scene=%s/workers=%d/sorted=%v/few=%v", c.scene, workers, c.sorted, c.few), func(t *testing.T) {
			w := world.New()
			w.Workers = workers
			hs := w.InsertBoxes(nil, &boxes, world.Dynamic, world.DefaultFilter)
			if workers > 1 && !c.few {
				mustSplit(t, w, len(hs))
			}
			if c.few {
				var some soa.Boxes
				for i := 0; i < len(hs); i += 100 {
					hs[i/100] = hs[i]
					some.Append(boxes.At(i))
				}
				hs, boxes = hs[:(len(hs)+99)/100], some
			}
			r := rand.New(rand.NewPCG(4, 4))
			poses := [2][]obb.Box{make([]obb.Box, len(hs)), make([]obb.Box, len(hs))}
			var columns [2]soa.Boxes
			for i := range hs {
				b := boxes.At(i)
				poses[0][i] = b
				b.Center = b.Center.Add(obb.Vec2{X: float32(r.NormFloat64() * jump), Y: float32(r.NormFloat64() * jump)})
				poses[1][i] = b
				columns[0].Append(poses[0][i])
				columns[1].Append(b)
			}
			// The questions' results go to slices with room for every
			// box, so that a question at a new place that hits more boxes
			// than any before does not grow the caller's slice, which
			// would count as the World's (a ray across the mixed scene's
			// large boxes did, at 5,000 boxes).
			var (
				ps         []world.Pair
				began, end []world.Pair
				found      = make([]world.Handle, 0, len(hs))
				rays       = make([]world.RayHit, 0, len(hs))
				contacts   []world.Contact
				k          int
			)
			step := func() {
				k++
				if k%4 < 2 {
					w.MoveBoxes(hs, &columns[k&1])
				} else {
					for i, h := range hs {
						w.Move(h, poses[k&1][i])
					}
				}
				ps = w.Pairs(ps[:0])
				began, end = w.Events(began[:0], end[:0])
				q := poses[0][k%len(hs)]
				found = w.Query(found[:0], q, ^uint32(0))
				w.Any(q, 1)
				found = w.QueryPoint(found[:0], q.Center, 1)
				rays = w.RayCastAll(rays[:0], q.Center, obb.Vec2{X: 30, Y: 7}, 1)
				w.RayCast(q.Center, obb.Vec2{X: -30, Y: 7}, 1)
				contacts = w.Contacts(contacts[:0], ps, 0.01)
			}
			// Four cycles of step's moves (MoveBoxes, then Move, each with
			// both poses), so that each kind of move has been made with each
			// pose, and the candidates of fat bounds (fat.go) have been
			// built, after their sample's margins grew to cover the poses
			// and it escaped little for two windows in a row. After only
			// four, the steps measured still allocate.
			// With few boxes moved, the sample takes some twenty steps a
			// window at 5,000 boxes, and the candidates are built after
			// two (fat_few.go).
			warm := 16
			if c.few {
				warm = 80
			}
			for range warm {
				step()
			}
			served, _ := world.FatStats(w)
			few := world.FatFew(w).Steps
			if n := testkit.Mallocs(20, "github.com/obb2d/obb2d/world.(*World).", step); n != 0 {
				t.Fatalf("20 steps allocate %d times", n)
			}
			if now := world.FatFew(w).Steps; c.few && now-few < 20 {
				t.Fatalf("%d of the measured steps were served from the candidates with few moves", now-few)
			}
			if now, _ := world.FatStats(w); c.scene == "mixed" && now != served {
				t.Fatalf("the measured steps were served from the candidates of fat bounds %d times, not cell by cell", now-served)
			}
		})
	}
}

// TestContacts checks World.Contacts against obb.Box.Collide and its stale
// handle panic.
func TestContacts(t *testing.T) {
	var boxes soa.Boxes
	scene.RTS(rand.New(rand.NewPCG(6, 6)), 2000, &boxes)
	w := world.New()
	w.InsertBoxes(nil, &boxes, world.Dynamic, world.DefaultFilter)
	ps := w.Pairs(nil)
	testkit.ForEachImpl(t, func(t *testing.T) {
		cs := w.Contacts(nil, ps, 0)
		k := 0
		for _, p := range ps {
			want := w.Box(p.A).Collide(w.Box(p.B), 0)
			if want.Count == 0 {
				continue
			}
			if k >= len(cs) || cs[k].Pair != p || cs[k].Manifold != want {
				t.Fatalf("Contacts[%d] is not pair %v with its manifold", k, p)
			}
			k++
		}
		if k != len(cs) || k < len(ps)/2 || len(ps) < 3*64 {
			t.Fatalf("%d contacts of %d pairs, %d expected", len(cs), len(ps), k)
		}
	})
	w.Remove(ps[0].B)
	testkit.MustPanic(t, "world: Contacts with stale handle", func() { w.Contacts(nil, ps[:1], 0) })
}

// TestCellBoundaries fills worlds with pairs of squares that overlap
// across a cell's right or upper edge or corner, each square reaching
// almost its level's R (half sides R·(1 - 2⁻¹²), so that R = 2ᵏ and cells
// have side 4R) and the two of a pair almost as far apart as they can be
// and still overlap, and compares Pairs with brute force. A full step
// tests a box against the row above and the column to the right only when
// it lies within 2R of them (cellPairs); these pairs sit right at that
// limit, where the random scenes rarely put any. The boxes then move, by
// Move and by MoveBoxes, to new such places.
func TestCellBoundaries(t *testing.T) {
	for _, r := range []float32{0.25, 1, 16} {
		t.Run(fmt.Sprint("R=", r), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(8, uint64(r*4)))
			s, h := 4*r, r*(1-0x1p-12)
			var b soa.Boxes
			place := func(i int) {
				// The pair's offset: across the right edge, the upper
				// one, or a corner.
				dx, dy := edgeOffset(rng, h, 4)
				// The first box lies below or left of the edge it crosses,
				// by up to the whole offset.
				x := float32(rng.IntN(8)-4)*s - rng.Float32()*max(dx, 0) - rng.Float32()*min(dx, 0)
				y := float32(rng.IntN(8)-4)*s - rng.Float32()*dy
				if dx == 0 {
					x = float32(rng.IntN(32)-16) * r
				}
				if dy == 0 {
					y = float32(rng.IntN(32)-16) * r
				}
				a, c := obb.FromHalf(obb.Vec2{X: x, Y: y}, obb.Vec2{X: h, Y: h}, 0), obb.FromHalf(obb.Vec2{X: x + dx, Y: y + dy}, obb.Vec2{X: h, Y: h}, 0)
				if i < b.Len() {
					b.CX[i], b.CY[i], b.CX[i+1], b.CY[i+1] = a.Center.X, a.Center.Y, c.Center.X, c.Center.Y
					return
				}
				b.Append(a)
				b.Append(c)
			}
			for i := 0; i < 1000; i += 2 {
				place(i)
			}
			w := world.New()
			hs := w.InsertBoxes(nil, &b, world.Dynamic, world.DefaultFilter)
			for step := range 3 {
				got, want := w.Pairs(nil), brutePairs(hs, &b)
				if !slices.Equal(got, want) {
					t.Fatalf("step %d: %d pairs, brute force %d", step, len(got), len(want))
				}
				for i := 0; i < len(hs); i += 2 {
					place(i)
				}
				if step == 0 {
					for i, h := range hs {
						w.Move(h, b.At(i))
					}
				} else {
					w.MoveBoxes(hs, &b)
				}
			}
		})
	}
}

// edgeOffset returns the offset between two boxes of half side h that
// overlap by a hair, drawn from the first n of these: along x, along y,
// along both, and left and up. Each coordinate it crosses by a distance
// within 2⁻⁹ of the most that overlaps, 2h.
func edgeOffset(rng *rand.Rand, h float32, n int) (dx, dy float32) {
	d := func() float32 { return 2 * h * (1 - rng.Float32()*0x1p-9) }
	switch rng.IntN(n) {
	case 0:
		dx = d()
	case 1:
		dy = d()
	case 2:
		dx, dy = d(), d()
	case 3:
		dx, dy = -d(), d()
	}
	return dx, dy
}

// brutePairs returns the pairs of the boxes of b, handle hs[i] for box i
// in ascending handles, that obb.Box.Overlaps reports, by testing every
// pair: the pairs a World of those boxes, all Dynamic with the default
// filter, reports.
func brutePairs(hs []world.Handle, b *soa.Boxes) []world.Pair {
	var out []world.Pair
	for i := range hs {
		for j := i + 1; j < len(hs); j++ {
			if b.At(i).Overlaps(b.At(j)) {
				out = append(out, world.Pair{A: min(hs[i], hs[j]), B: max(hs[i], hs[j])})
			}
		}
	}
	slices.SortFunc(out, func(x, y world.Pair) int { return cmp.Or(cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B)) })
	return out
}

// TestBoxesNearCells moves pairs of boxes that overlap by a hair, as
// TestCellBoundaries places them, back and forth across their cells' edges
// by up to R/16 a coordinate, so that the boxes small enough for it stay
// in their cells with their centers just outside (nearShift in grid.go),
// and compares every step's pairs, and the queries of some of the boxes,
// with brute force, and the World's layout with its rules. Half the pairs are of
// large boxes: boxes that reach almost R, which may not stay outside
// their cells, whose bounds would pass R, the most a level's reach may
// be; or boxes that reach 0.8 R, the level's reach, which stay by
// raising it (widenNear).
func TestBoxesNearCells(t *testing.T) {
	for _, c := range []struct{ r, big float32 }{{0.25, 1 - 0x1p-12}, {1, 1 - 0x1p-12}, {16, 1 - 0x1p-12}, {1, 0.8}} {
		r := c.r
		t.Run(fmt.Sprintf("R=%g/big=%g", r, c.big), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(9, uint64(r*4)))
			s := 4 * r
			var b, home soa.Boxes
			for i := 0; i < 2000; i += 2 {
				h := r * c.big
				if i%4 == 2 {
					h = r / 2
				}
				dx, dy := edgeOffset(rng, h, 3)
				// The first box lies within R/16 of a corner of a cell,
				// the second left of it, below it or both, as far as
				// overlaps: where a full step tests it against the first's
				// cell only if the first lies in that cell (cellPairs).
				x := float32(rng.IntN(8)-4)*s + (rng.Float32()-0.5)*r/8
				y := float32(rng.IntN(8)-4)*s + (rng.Float32()-0.5)*r/8
				b.Append(obb.FromHalf(obb.Vec2{X: x, Y: y}, obb.Vec2{X: h, Y: h}, 0))
				b.Append(obb.FromHalf(obb.Vec2{X: x - dx, Y: y - dy}, obb.Vec2{X: h, Y: h}, 0))
			}
			home.Grow(b.Len())
			for i := range b.Len() {
				home.Append(b.At(i))
			}
			w := world.New()
			hs := w.InsertBoxes(nil, &b, world.Dynamic, world.DefaultFilter)
			off := 0
			for step := range 24 {
				got, want := w.Pairs(nil), brutePairs(hs, &b)
				if !slices.Equal(got, want) {
					t.Fatalf("step %d: %d pairs, brute force %d", step, len(got), len(want))
				}
				if err := world.Invariants(w); err != nil {
					t.Fatalf("step %d: %v", step, err)
				}
				for i := 0; i < b.Len(); i += 97 {
					q := b.At(i)
					var want []world.Handle
					for j := range b.Len() {
						if q.Overlaps(b.At(j)) {
							want = append(want, hs[j])
						}
					}
					slices.Sort(want)
					if got := w.Query(nil, q, ^uint32(0)); !slices.Equal(got, want) {
						t.Fatalf("step %d: box %d's query: %d boxes, brute force %d", step, i, len(got), len(want))
					}
				}
				off = max(off, world.OffCell(w))
				// Each pair moves together, by up to R/16 a coordinate
				// from its place, so its boxes keep their overlap.
				for i := 0; i < b.Len(); i += 2 {
					mx, my := (rng.Float32()-0.5)*r/8, (rng.Float32()-0.5)*r/8
					for j := i; j < i+2; j++ {
						b.CX[j], b.CY[j] = home.CX[j]+mx, home.CY[j]+my
					}
				}
				if step%3 == 0 {
					for i, h := range hs {
						w.Move(h, b.At(i))
					}
				} else {
					w.MoveBoxes(hs, &b)
				}
			}
			if off == 0 {
				t.Fatal("no box stayed outside its center's cell")
			}
			t.Logf("up to %d of %d boxes outside their centers' cells", off, b.Len())
		})
	}
}
