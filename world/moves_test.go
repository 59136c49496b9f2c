package world_test

import (
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

// splitMoves gives a worker of MoveBoxes and of the catch-up of Moves
// 4,096 boxes, and lets the kernel test the candidates on several workers
// whatever the records' size, for the rest of test t, so that its world of
// 10,000 to 40,000 boxes runs those passes on several workers, as a larger
// world does by default.
func splitMoves(t *testing.T) {
	old, oldRecs := world.MoveChunk(4096), world.RecordBytes(-1)
	t.Cleanup(func() { world.MoveChunk(old); world.RecordBytes(oldRecs) })
}

// moveBy gives the boxes hs the poses of b, by one MoveBoxes when by is
// "MoveBoxes" and by a Move each otherwise.
func moveBy(w *world.World, by string, hs []world.Handle, b *soa.Boxes) {
	if by == "MoveBoxes" {
		w.MoveBoxes(hs, b)
		return
	}
	for i, h := range hs {
		w.Move(h, b.At(i))
	}
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

// TestLanesBehindPairs runs a physics loop in which each step moves half
// of the boxes, the other half each time, between two poses, by MoveBoxes
// or by Move, and takes the pairs, which the candidates of fat bounds soon
// serve: such a step leaves the moved boxes' lanes behind their slots
// (lag.go's deferLanes) until a question or a step that reads them. Every
// third step asks its questions before Pairs, two steps' lanes behind, and
// Invariants then checks every lane against its slot. It fails unless the
// candidates served most steps, which would leave the lanes caught up by
// each Pairs.
func TestLanesBehindPairs(t *testing.T) {
	const n, steps = 10000, 60
	var boxes soa.Boxes
	scene.Uniform(rand.New(rand.NewPCG(9, 9)), n, &boxes)
	world.SortAll(true) // Moves write later, whatever the world's size
	defer world.SortAll(false)
	world.Writes("settle")
	defer world.Writes("")
	splitMoves(t)
	for _, by := range []string{"MoveBoxes", "Move"} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("by=%s/workers=%d", by, workers), func(t *testing.T) {
				w := world.New()
				w.Workers = workers
				hs := w.InsertBoxes(nil, &boxes, world.Dynamic, world.DefaultFilter)
				m := &model{h: hs, box: make([]obb.Box, n), filter: make([]world.Filter, n)}
				now := boxes
				now.CX, now.CY = slices.Clone(boxes.CX), slices.Clone(boxes.CY)
				var f pairs.Finder
				r := rand.New(rand.NewPCG(10, uint64(workers)))
				away := make([]obb.Vec2, n)
				for i := range hs {
					m.box[i], m.filter[i] = boxes.At(i), world.DefaultFilter
					away[i] = obb.Vec2{X: float32(r.NormFloat64() * 0.05), Y: float32(r.NormFloat64() * 0.05)}
				}
				queries := queriesFor(r, m.box, 40)
				for step := range steps {
					var moved []world.Handle
					var poses soa.Boxes
					for i := step % 2; i < n; i += 2 {
						b := boxes.At(i)
						if step/2%2 == 0 {
							b.Center = b.Center.Add(away[i])
						}
						m.box[i], now.CX[i], now.CY[i] = b, b.Center.X, b.Center.Y
						moved = append(moved, hs[i])
						poses.Append(b)
					}
					moveBy(w, by, moved, &poses)
					what := fmt.Sprint("step ", step)
					if step%3 == 2 {
						checkQueries(t, w, m, r, queries, what)
					}
					var want []world.Pair
					for _, p := range f.All(nil, &now) {
						want = append(want, world.Pair{A: hs[p.I], B: hs[p.J]})
					}
					if got := w.Pairs(nil); !slices.Equal(got, want) {
						t.Fatalf("%s: Pairs: %d pairs, Finder.All %d; missing %v, extra %v", what, len(got), len(want), diff(want, got), diff(got, want))
					}
					if step%3 == 2 {
						if err := world.Invariants(w); err != nil {
							t.Fatalf("%s: %v", what, err)
						}
					}
				}
				if used, _ := world.FatStats(w); used < steps/2 {
					t.Fatalf("the candidates served %d of %d steps", used, steps)
				}
			})
		}
	}
}

// TestRecordsOfNewSlots moves boxes inserted since the last step, in slots
// past the kernel's records, while the records are kept: Move and
// MoveBoxes write a moved box's record only where it has one, and the
// next step copies the new boxes' records and finds their pairs.
func TestRecordsOfNewSlots(t *testing.T) {
	const n, added = 3000, 200
	var boxes soa.Boxes
	scene.RTS(rand.New(rand.NewPCG(11, 11)), n+added, &boxes)
	for _, by := range []string{"MoveBoxes", "Move"} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("by=%s/workers=%d", by, workers), func(t *testing.T) {
				w := world.New()
				w.Workers = workers
				first := boxes
				first.CX, first.CY, first.UX, first.UY, first.HX, first.HY = first.CX[:n], first.CY[:n], first.UX[:n], first.UY[:n], first.HX[:n], first.HY[:n]
				hs := w.InsertBoxes(nil, &first, world.Dynamic, world.DefaultFilter)
				now := soa.Boxes{}
				for i := range n {
					now.Append(boxes.At(i))
				}
				r := rand.New(rand.NewPCG(12, uint64(workers)))
				var f pairs.Finder
				step := func(what string, moved []world.Handle, at []int) {
					var poses soa.Boxes
					for _, i := range at {
						b := now.At(i)
						b.Center = b.Center.Add(obb.Vec2{X: float32(r.NormFloat64() * 0.05), Y: float32(r.NormFloat64() * 0.05)})
						now.CX[i], now.CY[i] = b.Center.X, b.Center.Y
						poses.Append(b)
					}
					moveBy(w, by, moved, &poses)
					var want []world.Pair
					for _, p := range f.All(nil, &now) {
						want = append(want, world.Pair{A: hs[p.I], B: hs[p.J]})
					}
					if got := w.Pairs(nil); !slices.Equal(got, want) {
						t.Fatalf("%s: Pairs: %d pairs, Finder.All %d; missing %v, extra %v", what, len(got), len(want), diff(want, got), diff(got, want))
					}
				}
				all := func() []int {
					at := make([]int, len(hs))
					for i := range at {
						at[i] = i
					}
					return at
				}
				step("the first step", hs, all())
				world.BuildFat(w)
				for k := range 2 {
					step(fmt.Sprint("step ", k), hs, all())
				}
				if !world.RecordsKept(w) {
					t.Fatal("the steps did not test the candidates with the kernel")
				}
				// New boxes, each in a slot of its own past the records.
				for i := n; i < n+added; i++ {
					hs = append(hs, w.Insert(boxes.At(i), world.Dynamic, world.DefaultFilter))
					now.Append(boxes.At(i))
				}
				var at []int
				for i := n - added; i < n+added; i++ {
					at = append(at, i)
				}
				step("the new boxes' first move", hs[n-added:], at)
				for k := range 4 {
					step(fmt.Sprint("step ", k, " after"), hs, all())
				}
				if !world.RecordsKept(w) {
					t.Fatal("the steps after did not test the candidates with the kernel")
				}
			})
		}
	}
}
