package world_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
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

// splitMoves gives a worker of MoveBoxes and of the catch-up of Moves
// 4,096 boxes for the rest of test t, so that its world of 10,000 to
// 40,000 boxes runs those passes on several workers, as a larger world
// does by default.
func splitMoves(t *testing.T) {
	old := world.MoveChunk(4096)
	t.Cleanup(func() { world.MoveChunk(old) })
}

// splitKeeps gives a worker of keepAll 64 pair keys for the rest of test
// t, so that its steps that moved few boxes keep their pairs on several
// workers.
func splitKeeps(t *testing.T) {
	old := world.KeepChunk(64)
	t.Cleanup(func() { world.KeepChunk(old) })
}

// mustSplit fails test t unless w's MoveBoxes of m boxes runs on two
// workers or more, as the test means it to.
func mustSplit(t *testing.T, w *world.World, m int) {
	t.Helper()
	if n := world.MoveWorkers(w, m); n < 2 {
		t.Fatalf("MoveBoxes of %d boxes runs on %d worker: the test would not test its workers", m, n)
	}
}

// TestMoveBoxesChecksOnWorkers gives MoveBoxes enough boxes for two workers
// to check the handles, with a stale one and then a never-issued one in the
// second worker's range: it must panic on the calling goroutine with
// slot's message before it moves anything, and the World must still work.
func TestMoveBoxesChecksOnWorkers(t *testing.T) {
	splitMoves(t)
	var boxes soa.Boxes
	scene.Uniform(rand.New(rand.NewPCG(4, 4)), 20000, &boxes)
	w := world.New()
	w.Workers = 2
	hs := w.InsertBoxes(nil, &boxes, world.Dynamic, world.DefaultFilter)
	w.Remove(hs[19000])
	var moved soa.Boxes
	for i := range boxes.Len() {
		moved.Append(boxes.At(i).Translated(obb.Vec2{X: 0.5}))
	}
	mustSplit(t, w, len(hs))
	testkit.MustPanic(t, fmt.Sprintf("world: MoveBoxes with stale handle %#x", uint32(hs[19000])), func() { w.MoveBoxes(hs, &moved) })
	bad := slices.Clone(hs)
	bad[19000] = 0x7fffff01
	testkit.MustPanic(t, "world: MoveBoxes with handle 0x7fffff01, which this World never issued", func() { w.MoveBoxes(bad, &moved) })
	if w.Box(hs[0]) != boxes.At(0) || w.Box(hs[18999]) != boxes.At(18999) {
		t.Fatal("a MoveBoxes that panicked moved boxes")
	}
	live := slices.Delete(slices.Clone(hs), 19000, 19001)
	var rest soa.Boxes
	for i := range boxes.Len() {
		if i != 19000 {
			rest.Append(moved.At(i))
		}
	}
	w.MoveBoxes(live, &rest)
	for j, h := range live {
		if w.Box(h) != rest.At(j) {
			t.Fatalf("box %#x at %v after MoveBoxes, want %v", h, w.Box(h), rest.At(j))
		}
	}
}

// TestMoveBoxesRepeatsOnWorkers gives two workers a MoveBoxes with a handle
// in each one's half, and checks the boxes and the next Pairs against the
// Moves that it stands for, on one worker.
func TestMoveBoxesRepeatsOnWorkers(t *testing.T) {
	splitMoves(t)
	var boxes soa.Boxes
	scene.Uniform(rand.New(rand.NewPCG(4, 5)), 40000, &boxes)
	w, ref, hs := twoWorlds(&boxes)
	twice := slices.Clone(hs[:4200])
	twice[4100] = twice[50]
	var moved soa.Boxes
	for i := range twice {
		moved.Append(boxes.At(i).Translated(obb.Vec2{X: float32(i%5) * 0.5, Y: float32(i%7) * 0.25}))
	}
	// Both poses of the repeated box a hair from where it is, so that both
	// keep it in its cell and would be written in place, each by its
	// worker.
	moved.CX[50], moved.CY[50] = boxes.CX[50]+0.001, boxes.CY[50]
	moved.CX[4100], moved.CY[4100] = boxes.CX[50]+0.002, boxes.CY[50]
	moved.UX[4100], moved.UY[4100], moved.HX[4100], moved.HY[4100] = boxes.UX[50], boxes.UY[50], boxes.HX[50], boxes.HY[50]
	checkMoveBoxes(t, "a handle twice", w, ref, hs, twice, &moved)
}

// twoWorlds returns a World with two workers and one with one, each of
// boxes as Dynamic boxes, after a first Pairs, and their handles, which
// are the same.
func twoWorlds(boxes *soa.Boxes) (w, ref *world.World, hs []world.Handle) {
	w, ref = world.New(), world.New()
	w.Workers = 2
	hs = w.InsertBoxes(nil, boxes, world.Dynamic, world.DefaultFilter)
	ref.InsertBoxes(nil, boxes, world.Dynamic, world.DefaultFilter)
	w.Pairs(nil)
	ref.Pairs(nil)
	return w, ref, hs
}

// checkMoveBoxes makes w.MoveBoxes(list, moved) and the Moves it stands
// for in ref, and checks that the boxes of hs and the next Pairs are the
// same in both.
func checkMoveBoxes(t *testing.T, what string, w, ref *world.World, hs, list []world.Handle, moved *soa.Boxes) {
	t.Helper()
	mustSplit(t, w, len(list))
	w.MoveBoxes(list, moved)
	for i, h := range list {
		ref.Move(h, moved.At(i))
	}
	for _, h := range hs {
		if w.Box(h) != ref.Box(h) {
			t.Fatalf("%s: box %#x at %v after MoveBoxes, want %v", what, h, w.Box(h), ref.Box(h))
		}
	}
	if got, want := w.Pairs(nil), ref.Pairs(nil); !slices.Equal(got, want) {
		t.Fatalf("%s: Pairs after MoveBoxes: %d pairs, want %d", what, len(got), len(want))
	}
}

// TestMoveBoxesOrders gives two workers MoveBoxes of the same moves with
// the handles in several orders, against the Moves they stand for on one
// worker: ascending (markMoves' shortcut), two ascending runs the second
// of which starts lower, descending, and ascending but for a handle
// repeated, next to itself or far from it, whose first pose leaves its
// cell and whose second does not.
func TestMoveBoxesOrders(t *testing.T) {
	splitMoves(t)
	var boxes soa.Boxes
	scene.Uniform(rand.New(rand.NewPCG(4, 6)), 20000, &boxes)
	n := boxes.Len()
	up := make([]int, n)
	for i := range up {
		up[i] = i
	}
	var runs, down []int
	for i := 0; i < n; i += 2 {
		runs = append(runs, i)
	}
	for i := 1; i < n; i += 2 {
		runs = append(runs, i)
	}
	for i := range n {
		down = append(down, n-1-i)
	}
	for _, c := range []struct {
		name  string
		order []int
	}{
		{"ascending", up},
		{"two runs", runs},
		{"descending", down},
		{"repeat beside", slices.Insert(slices.Clone(up), 7001, 7000)},
		{"repeat far", slices.Insert(slices.Clone(up), 15000, 3000)},
		{"repeat at edge", slices.Insert(slices.Clone(up), n/2, n/2-1)},
	} {
		name, order := c.name, c.order
		w, ref, hs := twoWorlds(&boxes)
		var moved soa.Boxes
		count := map[int]int{}
		for _, i := range order {
			count[i]++
		}
		var list []world.Handle
		for _, i := range order {
			b := boxes.At(i).Translated(obb.Vec2{X: float32(i%5) * 0.05, Y: float32(i%7) * 0.03})
			if count[i]--; count[i] > 0 {
				b = b.Translated(obb.Vec2{X: 40, Y: -40}) // leaves its cell
			}
			moved.Append(b)
			list = append(list, hs[i])
		}
		checkMoveBoxes(t, name, w, ref, hs, list, &moved)
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
	}{{"uniform", 1, false}, {"uniform", 2, false}, {"uniform", 2, true}, {"rts", 1, false}, {"rts", 2, false}, {"mixed", 1, false}, {"mixed", 2, false}} {
		workers := c.workers
		world.SortAll(c.sorted)
		boxes, jump := uniform, 0.05
		switch c.scene {
		case "rts":
			boxes = rts
		case "mixed":
			boxes, jump = mixed, 5
		}
		t.Run(fmt.Sprintf("scene=%s/workers=%d/sorted=%v", c.scene, workers, c.sorted), func(t *testing.T) {
			w := world.New()
			w.Workers = workers
			hs := w.InsertBoxes(nil, &boxes, world.Dynamic, world.DefaultFilter)
			if workers > 1 {
				mustSplit(t, w, len(hs))
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
			// and it escaped little for two windows in a row. After four
			// steps, the 20 steps measured allocated 8 to 47 times.
			for range 16 {
				step()
			}
			served, _ := world.FatStats(w)
			if n := testkit.Mallocs(20, "github.com/obb2d/obb2d/world.(*World).", step); n != 0 {
				t.Fatalf("20 steps allocate %d times", n)
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

// TestReadersCatchUp moves the boxes of a large world (as the tests make
// it) one by one, which leaves their blocks behind their poses (lag.go),
// then asks questions of one kind from several goroutines at once: every
// answer must be the brute force one on the new poses, and the race
// detector must find no race between the reader that writes the blocks
// and the others. The cases write the blocks from the list of moved slots,
// and by the pass over every block when a quarter of the boxes moved, or
// when repeated Moves of fewer boxes come to as many.
func TestReadersCatchUp(t *testing.T) {
	var boxes soa.Boxes
	scene.Uniform(rand.New(rand.NewPCG(6, 6)), 3000, &boxes)
	world.SortAll(true) // a large world's Moves, whatever its size
	defer world.SortAll(false)
	for _, c := range []struct {
		name          string
		moved, repeat int
	}{{"list", 100, 1}, {"pass", 2000, 1}, {"repeats", 100, 40}} {
		for _, kind := range []string{"query", "point", "ray"} {
			t.Run(c.name+"/"+kind, func(t *testing.T) {
				w := world.New()
				w.Workers = 2
				hs := w.InsertBoxes(nil, &boxes, world.Dynamic, world.DefaultFilter)
				w.Pairs(nil)
				m := &model{h: hs, box: make([]obb.Box, len(hs)), filter: make([]world.Filter, len(hs))}
				for i := range hs {
					m.box[i], m.filter[i] = boxes.At(i), world.DefaultFilter
				}
				r := rand.New(rand.NewPCG(7, 7))
				for i := range c.moved {
					j := (i * 7919) % len(hs)
					for range c.repeat {
						m.box[j].Center = m.box[j].Center.Add(obb.Vec2{X: float32(r.NormFloat64() * 0.5), Y: float32(r.NormFloat64() * 0.5)})
						w.Move(hs[j], m.box[j])
					}
				}
				// The questions: at the moved boxes, where they are and
				// where they were, and at others.
				ask := func(q int) error {
					qb := m.box[(q/2*7919)%len(hs)]
					if q%2 == 1 {
						qb = boxes.At((q / 2 * 7919) % len(hs))
					}
					switch kind {
					case "query":
						if got, want := w.Query(nil, qb, ^uint32(0)), m.query(qb, ^uint32(0)); !slices.Equal(got, want) {
							return fmt.Errorf("query %d: %d hits, brute force %d", q, len(got), len(want))
						}
					case "point":
						if got, want := w.QueryPoint(nil, qb.Center, ^uint32(0)), m.point(qb.Center, ^uint32(0)); !slices.Equal(got, want) {
							return fmt.Errorf("point %d: %d hits, brute force %d", q, len(got), len(want))
						}
					case "ray":
						d := obb.Vec2{X: 5, Y: 3}
						if got, want := w.RayCastAll(nil, qb.Center, d, ^uint32(0)), m.rays(qb.Center, d, ^uint32(0)); !slices.Equal(got, want) {
							return fmt.Errorf("ray %d: %d hits, brute force %d", q, len(got), len(want))
						}
					}
					return nil
				}
				const readers, questions = 4, 400
				errs := make([]error, readers)
				var wg sync.WaitGroup
				for g := range readers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for q := g; q < questions && errs[g] == nil; q += readers {
							errs[g] = ask(q)
						}
					}()
				}
				wg.Wait()
				for _, err := range errs {
					if err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	}
}

// TestMovesWriteLater checks Move in a world between the L2 cache and a
// large world at the default sizes (lag.go's writesLater): 40,000 boxes of
// the uniform scene, about 4 MiB of blocks, each moved by Move, so that the
// first sixteenth writes its blocks at once and the rest leave them to the
// catch-up, with one and two workers; queries at the moved boxes, then
// Pairs, must be brute force's.
func TestMovesWriteLater(t *testing.T) {
	var boxes soa.Boxes
	scene.Uniform(rand.New(rand.NewPCG(8, 8)), 40000, &boxes)
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			w := world.New()
			w.Workers = workers
			hs := w.InsertBoxes(nil, &boxes, world.Dynamic, world.DefaultFilter)
			w.Pairs(nil)
			now := boxes
			now.CX, now.CY = slices.Clone(boxes.CX), slices.Clone(boxes.CY)
			r := rand.New(rand.NewPCG(9, uint64(workers)))
			for i, h := range hs {
				now.CX[i] += float32(r.NormFloat64() * 0.3)
				now.CY[i] += float32(r.NormFloat64() * 0.3)
				w.Move(h, now.At(i))
			}
			var f pairs.Finder
			for i := 0; i < len(hs); i += 997 {
				q := now.At(i)
				var want []world.Handle
				for _, j := range f.Between(nil, &soa.Boxes{CX: []float32{q.Center.X}, CY: []float32{q.Center.Y}, UX: []float32{q.Axis.X}, UY: []float32{q.Axis.Y}, HX: []float32{q.Half.X}, HY: []float32{q.Half.Y}}, &now) {
					want = append(want, hs[j.J])
				}
				slices.Sort(want)
				if got := w.Query(nil, q, ^uint32(0)); !slices.Equal(got, want) {
					t.Fatalf("query at box %d: %d hits, brute force %d", i, len(got), len(want))
				}
			}
			var want []world.Pair
			for _, p := range f.All(nil, &now) {
				want = append(want, world.Pair{A: hs[p.I], B: hs[p.J]})
			}
			if got := w.Pairs(nil); !slices.Equal(got, want) {
				t.Fatalf("%d pairs, brute force %d", len(got), len(want))
			}
		})
	}
}

// TestMovesLeaveCellsOnWorkers moves boxes of a large world (world.SortAll)
// with two workers one by one to the places of boxes half the world away,
// out of their cells, which Move leaves to the next reader; with 10,000
// boxes that reader finds the cells on both workers (lag.go). A tenth of
// the boxes moves (the list of moved slots), then all of them (the dirty
// list); Pairs and a Query at each moved box must then be brute force's.
func TestMovesLeaveCellsOnWorkers(t *testing.T) {
	const n = 10000
	var boxes soa.Boxes
	scene.Uniform(rand.New(rand.NewPCG(8, 8)), n, &boxes)
	world.SortAll(true)
	defer world.SortAll(false)
	for _, moved := range []int{n / 10, n} {
		t.Run(fmt.Sprint("moved=", moved), func(t *testing.T) {
			w := world.New()
			w.Workers = 2
			hs := w.InsertBoxes(nil, &boxes, world.Dynamic, world.DefaultFilter)
			w.Pairs(nil)
			now := boxes
			now.CX, now.CY = slices.Clone(boxes.CX), slices.Clone(boxes.CY)
			var at []int
			for i := range moved {
				j := i * 7919 % n // 7919 is prime: every box once
				now.CX[j], now.CY[j] = boxes.CX[(j+n/2)%n], boxes.CY[(j+n/2)%n]
				w.Move(hs[j], now.At(j))
				at = append(at, j)
			}
			var f pairs.Finder
			var want []world.Pair
			for _, p := range f.All(nil, &now) {
				want = append(want, world.Pair{A: hs[p.I], B: hs[p.J]})
			}
			if got := w.Pairs(nil); !slices.Equal(got, want) {
				t.Fatalf("%d pairs, brute force %d", len(got), len(want))
			}
			m := &model{h: hs, box: make([]obb.Box, n), filter: make([]world.Filter, n)}
			for i := range hs {
				m.box[i], m.filter[i] = now.At(i), world.DefaultFilter
			}
			for _, j := range at[:min(len(at), 300)] {
				if got, want := w.Query(nil, now.At(j), ^uint32(0)), m.query(now.At(j), ^uint32(0)); !slices.Equal(got, want) {
					t.Fatalf("query at box %d: %d hits, brute force %d", j, len(got), len(want))
				}
			}
		})
	}
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
				// one, or a corner; each coordinate it crosses by a
				// distance within 2⁻⁹ of the most that overlaps, 2h.
				d := func() float32 { return 2 * h * (1 - rng.Float32()*0x1p-9) }
				var dx, dy float32
				switch rng.IntN(4) {
				case 0:
					dx = d()
				case 1:
					dy = d()
				case 2:
					dx, dy = d(), d()
				case 3:
					dx, dy = -d(), d()
				}
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
