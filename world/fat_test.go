package world_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/pairs"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

// TestFatSteps checks the steps that most Dynamic boxes moved in, which
// Pairs serves from the candidates of fat bounds (fat.go), against the
// model, on every scene: boxes that jitter between two poses (they stop
// escaping once their margins cover it), boxes that travel (they escape
// every few steps), turn, grow past their level, jump across the world or
// out of the grid (a NaN, an infinity), or rest; now and then a step that
// moves a few boxes, resting or Static ones among them (Pairs then queries
// them, and the next step that uses the candidates checks them), inserts
// (by Insert or InsertBoxes), removes, refilters, turns boxes Static or
// Dynamic, or moves a Static box; a box that travels by Move is moved first
// to where it is, so that its second Move must find it escaped after the
// first found it inside (fat_unsure.go). It fails if the candidates served
// too few steps or no box escaped, which would leave the test checking the
// cell-by-cell step instead.
func TestFatSteps(t *testing.T) {
	steps := 60
	if testing.Short() {
		steps = 30
	}
	total, escapes, extras, merges := 0, 0, 0, 0
	for si, set := range sceneSets {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("scene=%s/workers=%d", set.name, workers), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(si), uint64(workers)))
				world.SortAll(workers == 2)
				defer world.SortAll(false)
				splitKeeps(t)
				pool := set.make(r, 500)
				w, m := world.New(), &model{}
				w.Workers = workers
				type motion struct {
					home, step obb.Vec2
					kind       int
				}
				var moves []motion // by index in m
				// add inserts boxes of kind k, by Insert, or by one
				// InsertBoxes while the candidates may be in use.
				add := func(k world.Kind, bulk bool, bs ...obb.Box) {
					f := world.DefaultFilter
					if r.IntN(4) == 0 {
						f = randomFilter(r)
					}
					var hs []world.Handle
					if bulk {
						var b soa.Boxes
						for _, x := range bs {
							b.Append(x)
						}
						hs = w.InsertBoxes(nil, &b, k, f)
					} else {
						for _, b := range bs {
							hs = append(hs, w.Insert(b, k, f))
						}
					}
					for i, b := range bs {
						m.insert(hs[i], b, k, f)
						d := obb.Vec2{X: float32(r.NormFloat64() * 0.05), Y: float32(r.NormFloat64() * 0.05)}
						moves = append(moves, motion{home: b.Center, step: d, kind: r.IntN(20)})
					}
				}
				for _, b := range pool {
					k := world.Dynamic
					if r.IntN(5) == 0 {
						k = world.Static
					}
					add(k, false, b)
				}
				for step := range steps {
					switch op := r.IntN(8); {
					case op == 0: // a few boxes, some resting ones: an incremental step
						for range 1 + r.IntN(4) {
							i := r.IntN(len(m.h))
							if r.IntN(2) == 0 {
								for j := range m.h {
									if moves[j].kind >= 18 || m.kind[j] == world.Static {
										i = j
										break
									}
								}
							}
							b := m.box[i]
							b.Center = b.Center.Add(obb.Vec2{X: 3, Y: -2})
							w.Move(m.h[i], b)
							m.box[i] = b
						}
					case op == 1: // inserts, removes, a filter and a Static box
						for range 3 {
							i := r.IntN(len(m.h))
							w.Remove(m.h[i])
							m.remove(i)
							moves = append(moves[:i], moves[i+1:]...)
						}
						add(randomKind(r), r.IntN(2) == 0, pool[r.IntN(len(pool))], pool[r.IntN(len(pool))], pool[r.IntN(len(pool))])
						i := r.IntN(len(m.h))
						f := randomFilter(r)
						w.SetFilter(m.h[i], f)
						m.filter[i] = f
						for range 2 {
							i := r.IntN(len(m.h))
							k := world.Static - m.kind[i]
							w.SetKind(m.h[i], k)
							m.kind[i] = k
						}
						for i := range m.h {
							if m.kind[i] == world.Static {
								b := m.box[i]
								b.Center.X += 0.5
								w.Move(m.h[i], b)
								m.box[i] = b
								break
							}
						}
						fallthrough
					default: // every Dynamic box
						var hs []world.Handle
						var bs soa.Boxes
						bulk := r.IntN(2) == 0
						for i := range m.h {
							if m.kind[i] != world.Dynamic {
								continue
							}
							b, mv := m.box[i], &moves[i]
							switch {
							case mv.kind < 16: // jitter between two poses
								b.Center = mv.home
								if step&1 == 1 {
									b.Center = mv.home.Add(mv.step)
								}
							case mv.kind == 16: // travel
								b.Center = b.Center.Add(mv.step.Scale(0.5))
							case mv.kind == 17: // turn, and now and then grow or shrink
								a := float64(step) * 0.02
								b.Axis = obb.Vec2{X: float32(math.Cos(a)), Y: float32(math.Sin(a))}
								if r.IntN(100) == 0 {
									b.Half = b.Half.Scale([]float32{8, 0.125}[r.IntN(2)])
								}
							case mv.kind >= 18 && i%2 == 0: // rest
								continue
							default: // jump, sometimes out of the grid
								if r.IntN(50) == 0 {
									b = pool[r.IntN(len(pool))]
									switch r.IntN(6) {
									case 0:
										b.Center.X = float32(math.NaN())
									case 1:
										b.Half.Y = float32(math.Inf(1))
									}
								}
							}
							if bulk {
								hs = append(hs, m.h[i])
								bs.Append(b)
							} else {
								if mv.kind == 16 {
									// A Move that keeps the box inside its fat
									// bounds, then one that may not.
									w.Move(m.h[i], m.box[i])
								}
								w.Move(m.h[i], b)
							}
							m.box[i] = b
						}
						if bulk {
							w.MoveBoxes(hs, &bs)
						}
					}
					check(t, w, m, r, queriesFor(r, pool, 1), fmt.Sprint("step ", step))
				}
				used, esc := world.FatStats(w)
				ex, mg := world.FatExtra(w)
				t.Logf("%d of %d steps from the candidates, %d escapes, %d steps with extra candidates, %d merges", used, steps, esc, ex, mg)
				total, escapes = total+used, escapes+esc
				extras, merges = extras+ex, merges+mg
			})
		}
	}
	if runs := 2 * len(sceneSets); total < runs*steps/5 || escapes == 0 {
		t.Fatalf("the candidates served %d of %d steps, with %d escapes", total, runs*steps, escapes)
	}
	// Steps that test the candidates found since the last merge, and
	// merges, or the test has not tested them: about half of the steps
	// served from the candidates test some (93 of 176 with -short).
	if 4*extras < total || merges == 0 {
		t.Fatalf("%d of %d steps from the candidates tested extra ones, with %d merges", extras, total, merges)
	}
}

// TestFatStepsOnWorkers runs the steps of TestFatSteps's kind on the RTS
// scene at 10,000 boxes, about 130,000 candidates, with two workers, so that
// the check for escaped boxes and the test of the candidates are split
// between them, and compares Pairs with pairs.Finder.All's answers.
func TestFatStepsOnWorkers(t *testing.T) {
	splitMoves(t)
	const n = 10000
	var boxes soa.Boxes
	scene.RTS(rand.New(rand.NewPCG(9, 9)), n, &boxes)
	r := rand.New(rand.NewPCG(10, 10))
	w, hs, now, dx, dy := jitterWorld(&boxes, r)
	mustSplit(t, w, n)
	var f pairs.Finder
	for step := range 12 {
		for i := range n {
			switch {
			case i%200 == 0: // jump onto another box
				j := (i*7 + step*13) % n
				now.CX[i], now.CY[i] = boxes.CX[j], boxes.CY[j]
			case i%200 == 100: // travel
				now.CX[i] += dx[i] * 10
			case step%2 == 1: // jitter between two poses
				now.CX[i], now.CY[i] = boxes.CX[i]+dx[i], boxes.CY[i]+dy[i]
			default:
				now.CX[i], now.CY[i] = boxes.CX[i], boxes.CY[i]
			}
		}
		w.MoveBoxes(hs, &now)
		var want []world.Pair
		for _, p := range f.All(nil, &now) {
			want = append(want, world.Pair{A: hs[p.I], B: hs[p.J]})
		}
		if got := w.Pairs(nil); !slices.Equal(got, want) {
			t.Fatalf("step %d: %d pairs, brute force %d; missing %v", step, len(got), len(want), diff(want, got))
		}
	}
	if used, esc := world.FatStats(w); used < 6 || esc == 0 {
		t.Fatalf("the candidates served %d of 12 steps, with %d escapes", used, esc)
	}
	if k := world.FatWorkers(w); k != 2 {
		t.Fatalf("the candidates were tested on %d workers, not 2", k)
	}
}

// jitterWorld loads boxes into a new World with two workers as Dynamic
// boxes and returns it, their handles, a copy of the boxes for the steps
// to move, and each box's jitter, a normal deviate of 0.05 a coordinate
// drawn from r.
func jitterWorld(boxes *soa.Boxes, r *rand.Rand) (w *world.World, hs []world.Handle, now soa.Boxes, dx, dy []float32) {
	w = world.New()
	w.Workers = 2
	hs = w.InsertBoxes(nil, boxes, world.Dynamic, world.DefaultFilter)
	now = *boxes
	now.CX, now.CY = slices.Clone(boxes.CX), slices.Clone(boxes.CY)
	n := boxes.Len()
	dx, dy = make([]float32, n), make([]float32, n)
	for i := range dx {
		dx[i], dy[i] = float32(r.NormFloat64()*0.05), float32(r.NormFloat64()*0.05)
	}
	return w, hs, now, dx, dy
}

// TestCandidatesOnCaller checks that a world the caches hold, with two
// workers and candidates enough for both, tests them on the caller alone,
// whose next Moves write the records the test reads, where a rule says so,
// and that its pairs are right: the uniform scene at 80,000 boxes has
// fewer than fewCandidates candidates a Dynamic box (half a candidate),
// and the RTS scene at 10,000 boxes a dozen a box but records within
// ownRecordBytes.
func TestCandidatesOnCaller(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(*rand.Rand, int, *soa.Boxes)
		n    int
	}{{"uniform", scene.Uniform, 80000}, {"rts", scene.RTS, 10000}} {
		t.Run(c.name, func(t *testing.T) {
			var boxes soa.Boxes
			c.make(rand.New(rand.NewPCG(11, 11)), c.n, &boxes)
			r := rand.New(rand.NewPCG(12, 12))
			w, hs, now, dx, dy := jitterWorld(&boxes, r)
			var f pairs.Finder
			for step := range 16 {
				for i := range c.n {
					now.CX[i], now.CY[i] = boxes.CX[i], boxes.CY[i]
					if step%2 == 1 { // jitter between two poses
						now.CX[i], now.CY[i] = boxes.CX[i]+dx[i], boxes.CY[i]+dy[i]
					}
				}
				for i, h := range hs {
					w.Move(h, now.At(i))
				}
				var want []world.Pair
				for _, p := range f.All(nil, &now) {
					want = append(want, world.Pair{A: hs[p.I], B: hs[p.J]})
				}
				before, _ := world.FatStats(w)
				if got := w.Pairs(nil); !slices.Equal(got, want) {
					t.Fatalf("step %d: %d pairs, brute force %d; missing %v", step, len(got), len(want), diff(want, got))
				}
				if used, _ := world.FatStats(w); step == 15 && used == before {
					t.Fatal("the last step was not served from the candidates: the test would not test their workers")
				}
			}
			if !world.RecordsKept(w) || world.FatSplit(w) < 2 {
				t.Fatalf("records kept %v, candidates enough for %d workers: the test would not test the kernel's workers", world.RecordsKept(w), world.FatSplit(w))
			}
			if k := world.FatWorkers(w); k != 1 {
				t.Fatalf("%d workers tested the candidates, not the caller alone", k)
			}
		})
	}
}

// TestFatMovedTwice checks the Moves that vouch for their boxes
// (fat_unsure.go) when a box moves twice in a step: first where it is,
// inside its fat bounds, then, in the same cell, onto a neighbour whose
// fat bounds its own do not meet, so no candidate holds the pair. Boxes of
// half side 0.5 stand 3 apart in rows, and each step jitters all of them
// until the candidates serve the steps; then every box of every fourth
// column is moved in place and then 2.2 along its row, by Move or in two
// MoveBoxes calls, and Pairs must report it with its neighbour. The boxes
// stay in their cells of side 4 (their centers go from 0.1 + 12k to
// 2.3 + 12k), so that both Moves keep them in place; a second Move not
// checked against the fat bounds after a first that was leaves the new
// pairs out.
func TestFatMovedTwice(t *testing.T) {
	for _, bulk := range []bool{false, true} {
		t.Run(fmt.Sprintf("bulk=%v", bulk), func(t *testing.T) {
			w, m := world.New(), &model{}
			const side = 40
			for i := range side * side {
				b := obb.Box{Center: obb.Vec2{X: 0.1 + 3*float32(i%side), Y: 0.1 + 3*float32(i/side)}, Axis: obb.Vec2{X: 1}, Half: obb.Vec2{X: 0.5, Y: 0.5}}
				m.insert(w.Insert(b, world.Dynamic, world.DefaultFilter), b, world.Dynamic, world.DefaultFilter)
			}
			move := func(hs []world.Handle, bs []obb.Box) {
				if !bulk {
					for i, h := range hs {
						w.Move(h, bs[i])
					}
					return
				}
				var b soa.Boxes
				for _, x := range bs {
					b.Append(x)
				}
				w.MoveBoxes(hs, &b)
			}
			home := slices.Clone(m.box)
			for step := range 12 {
				for i := range m.box {
					m.box[i] = home[i]
					if step%2 == 1 {
						m.box[i].Center.X += 0.01
					}
				}
				move(m.h, m.box)
				if got, want := w.Pairs(nil), m.pairs(); !slices.Equal(got, want) {
					t.Fatalf("step %d: %d pairs, want %d", step, len(got), len(want))
				}
			}
			if used, _ := world.FatStats(w); used == 0 {
				t.Fatal("the candidates served no step")
			}
			var hs []world.Handle
			var first, second []obb.Box
			for i := range m.box {
				if i%side%4 != 0 {
					continue
				}
				hs = append(hs, m.h[i])
				first = append(first, m.box[i])
				m.box[i].Center.X += 2.2
				second = append(second, m.box[i])
			}
			move(hs, first)
			move(hs, second)
			got, want := w.Pairs(nil), m.pairs()
			if len(want) < len(hs) {
				t.Fatalf("the moved boxes overlap %d neighbours, want at least %d", len(want), len(hs))
			}
			if !slices.Equal(got, want) {
				miss := diff(want, got)
				t.Fatalf("%d pairs, want %d; %d missing, the first %v", len(got), len(want), len(miss), miss[:min(len(miss), 4)])
			}
		})
	}
}

// TestFatEscapeAcross checks that a box is checked against its fat bounds
// with its own reach on each coordinate: boxes twenty times taller than
// wide, all moved every step so that the candidates serve the steps,
// creep up under Static lids until they meet them. A check that took a
// box's reach across for its reach up would find it inside its fat bounds
// long after its top left them, and miss its pair with the lid. It runs
// Move, MoveBoxes, and Move with two workers in large-world mode, whose
// catch-up checks the moved boxes (lag.go).
func TestFatEscapeAcross(t *testing.T) {
	for _, c := range []struct {
		name    string
		bulk    bool
		workers int
	}{{"move", false, 1}, {"bulk", true, 1}, {"move-later", false, 2}} {
		t.Run(c.name, func(t *testing.T) {
			world.SortAll(c.workers == 2)
			defer world.SortAll(false)
			w, m := world.New(), &model{}
			w.Workers = c.workers
			var hs []world.Handle
			var rise []int // the tall boxes' indices in m
			for i := range 100 {
				x := 4 * float32(i)
				tall := obb.Box{Center: obb.Vec2{X: x}, Axis: obb.Vec2{X: 1}, Half: obb.Vec2{X: 0.1, Y: 2}}
				lid := obb.Box{Center: obb.Vec2{X: x, Y: 3.5 + 0.01*float32(i)}, Axis: obb.Vec2{X: 1}, Half: obb.Vec2{X: 1, Y: 0.5}}
				h := w.Insert(tall, world.Dynamic, world.DefaultFilter)
				m.insert(h, tall, world.Dynamic, world.DefaultFilter)
				hs, rise = append(hs, h), append(rise, len(m.h)-1)
				m.insert(w.Insert(lid, world.Static, world.DefaultFilter), lid, world.Static, world.DefaultFilter)
			}
			met := 0
			for step := range 400 {
				var b soa.Boxes
				for _, i := range rise {
					m.box[i].Center.Y += 0.005
					b.Append(m.box[i])
				}
				if c.bulk {
					w.MoveBoxes(hs, &b)
				} else {
					for k, h := range hs {
						w.Move(h, b.At(k))
					}
				}
				got, want := w.Pairs(nil), m.pairs()
				if !slices.Equal(got, want) {
					miss := diff(want, got)
					t.Fatalf("step %d: %d pairs, want %d; missing %v", step, len(got), len(want), miss[:min(len(miss), 4)])
				}
				met = len(want)
			}
			if used, _ := world.FatStats(w); used < 100 || met != len(hs) {
				t.Fatalf("the candidates served %d steps and %d of %d boxes met their lids: the test tests nothing", used, met, len(hs))
			}
		})
	}
}

// TestFatFarSlots checks that a large world uses the candidates whether
// its boxes were inserted in spatial order or shuffled, which puts the
// two slots of most candidates far apart: the RTS scene at 40,000 boxes,
// in its own order and shuffled, in large-world mode. Pairs must be brute
// force's either way.
func TestFatFarSlots(t *testing.T) {
	ordered, shuffled := rtsOrders(40000)
	world.SortAll(true)
	defer world.SortAll(false)
	for _, boxes := range []*soa.Boxes{ordered, shuffled} {
		if used := jitterSteps(t, world.New(), boxes); used == 0 {
			t.Fatalf("%d boxes, shuffled %v: the candidates served no step", boxes.Len(), boxes == shuffled)
		}
	}
}

// TestFatClear checks that Clear forgets the state of the candidates: a
// World held from sampling for many full steps and then from building
// for many windows (FatHold) serves no step from the candidates, and after
// Clear, refilled, must use them within a few steps, with Pairs brute
// force's throughout.
func TestFatClear(t *testing.T) {
	ordered, _ := rtsOrders(40000)
	world.SortAll(true)
	defer world.SortAll(false)
	w := world.New()
	hs := w.InsertBoxes(nil, ordered, world.Dynamic, world.DefaultFilter)
	world.FatHold(w)
	if used := jitter(t, w, hs, ordered); used != 0 {
		t.Fatalf("held: the candidates served %d steps", used)
	}
	w.Clear()
	if used := jitterSteps(t, w, ordered); used == 0 {
		t.Fatal("after Clear: the candidates served no step")
	}
}

// rtsOrders returns the RTS scene of n boxes in its own order, which
// places neighbours at near indices, and shuffled.
func rtsOrders(n int) (ordered, shuffled *soa.Boxes) {
	ordered, shuffled = new(soa.Boxes), new(soa.Boxes)
	scene.RTS(rand.New(rand.NewPCG(11, 11)), n, ordered)
	for _, i := range rand.New(rand.NewPCG(12, 12)).Perm(n) {
		shuffled.Append(ordered.At(i))
	}
	return ordered, shuffled
}

// jitterSteps inserts boxes into w as Dynamic boxes and runs eight steps
// that move every box between two poses, comparing Pairs with
// pairs.Finder.All's answers, and returns how many of the steps the
// candidates served.
func jitterSteps(t *testing.T, w *world.World, boxes *soa.Boxes) int {
	t.Helper()
	return jitter(t, w, w.InsertBoxes(nil, boxes, world.Dynamic, world.DefaultFilter), boxes)
}

// jitter is jitterSteps' eight steps for boxes w holds by handles hs.
func jitter(t *testing.T, w *world.World, hs []world.Handle, boxes *soa.Boxes) int {
	t.Helper()
	before, _ := world.FatStats(w)
	now := *boxes
	now.CX = slices.Clone(boxes.CX)
	var f pairs.Finder
	for step := range 8 {
		for i := range now.CX {
			now.CX[i] = boxes.CX[i] + float32(step%2)*0.01
		}
		w.MoveBoxes(hs, &now)
		var want []world.Pair
		for _, p := range f.All(nil, &now) {
			want = append(want, world.Pair{A: hs[p.I], B: hs[p.J]})
		}
		if got := w.Pairs(nil); !slices.Equal(got, want) {
			t.Fatalf("step %d: %d pairs, brute force %d", step, len(got), len(want))
		}
	}
	used, _ := world.FatStats(w)
	return used - before
}

// TestFatEscapeRate checks when the candidates are built and dropped for
// boxes that escape at a steady rate: 4,800 boxes in a grid, every one
// moved each step. First every box travels 0.4 a step, more than its
// largest margin, for 16 steps, so that the sample finds every box
// escaping and rests (sampleRest). Then the boxes hop by 1.1 in 20 groups,
// one group a step: 5% of the boxes escape a step, fewer than one in
// escapeShare, so the candidates must be built and then serve the steps.
// The sample must not count the hops of the steps it rested for, four
// groups in its first window, which would find it noisy and rest again.
// Then, with the candidates in use, after 8 steps without hops, one step
// where every box hops must still be served from them (a burst counts at
// most a quarter of the boxes), and, after 8 more steps without hops, of
// six steps where one in 4 hops, not all may be (the moving average of
// the escapes drops them), and the candidates dropped take the kernel's
// records with them, which moves then need not write (moveRecord).
// Every step's pairs are checked against pairs.Finder.All.
func TestFatEscapeRate(t *testing.T) {
	const side, groups = 80, 20
	n := side * 60
	var now soa.Boxes
	for i := range n {
		now.Append(obb.New(obb.Vec2{X: float32(i%side) * 1.5, Y: float32(i/side) * 1.5}, 1, 1, 0))
	}
	w := world.New()
	hs := w.InsertBoxes(nil, &now, world.Dynamic, world.DefaultFilter)
	var f pairs.Finder
	step := func(dx func(i int) float32) bool {
		for i := range n {
			now.CX[i] += dx(i)
		}
		before, _ := world.FatStats(w)
		w.MoveBoxes(hs, &now)
		got := w.Pairs(nil)
		var want []world.Pair
		for _, p := range f.All(nil, &now) {
			want = append(want, world.Pair{A: hs[p.I], B: hs[p.J]})
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%d pairs, brute force %d; missing %v", len(got), len(want), diff(want, got))
		}
		after, _ := world.FatStats(w)
		return after > before
	}
	// hop moves by 1.1 the boxes i with i%k == r.
	hop := func(k, r int) func(int) float32 {
		return func(i int) float32 {
			if i%k == r {
				return 1.1
			}
			return 0
		}
	}
	for range 16 {
		step(func(int) float32 { return 0.4 })
	}
	served := 0
	for s := range 200 {
		if step(hop(groups, s%groups)) && s >= 100 {
			served++
		}
	}
	if served < 95 {
		t.Fatalf("with one box in %d escaping a step, the candidates served %d of the last 100 steps", groups, served)
	}
	for range 8 {
		step(func(int) float32 { return 0 })
	}
	if !step(hop(1, 0)) {
		t.Fatal("one step where every box escaped dropped the candidates")
	}
	if !world.RecordsKept(w) {
		t.Fatal("the steps served from the candidates did not test them with the kernel")
	}
	for range 8 {
		step(func(int) float32 { return 0 })
	}
	served = 0
	for range 6 {
		if step(hop(4, 0)) {
			served++
		} else if world.RecordsKept(w) {
			t.Fatal("a step not served from the candidates left the kernel's records kept, for moves to write until the next build")
		}
	}
	if served == 6 {
		t.Fatal("six steps where a box in 4 escaped were all served from the candidates")
	}
}

// TestFatMarginsInUnits checks that build gives a box the margin of the
// sample's motion in the world's units, not the growth of the sample's
// boxes: of 400 small boxes (1 by 1), every other one jitters by 0.2
// between two poses, so its margin grows to 0.25, a quarter of its width,
// and the others rest; 40 large ones (16 by 16) jitter by 0.01 inside
// their first margin of 0.5. After a build, a large box must keep fat
// bounds at most 17 wide (a margin of 0.5), not 24 (a quarter of its
// width, the small boxes' growth), and every small one, the resting ones
// too, must have a margin of 0.25 or more. Every step's pairs are checked
// against pairs.Finder.All.
func TestFatMarginsInUnits(t *testing.T) {
	var at [2]soa.Boxes
	for i := range 400 {
		c := obb.Vec2{X: float32(i%20) * 1.5, Y: float32(i/20) * 1.5}
		at[0].Append(obb.New(c, 1, 1, 0))
		at[1].Append(obb.New(c.Add(obb.Vec2{X: 0.2 * float32(i%2)}), 1, 1, 0))
	}
	for i := range 40 {
		c := obb.Vec2{X: float32(i) * 40, Y: 100}
		at[0].Append(obb.New(c, 16, 16, 0))
		at[1].Append(obb.New(c.Add(obb.Vec2{Y: 0.01}), 16, 16, 0))
	}
	w := world.New()
	hs := w.InsertBoxes(nil, &at[0], world.Dynamic, world.DefaultFilter)
	var f pairs.Finder
	for k := range 40 {
		w.MoveBoxes(hs, &at[k&1])
		got := w.Pairs(nil)
		var want []world.Pair
		for _, p := range f.All(nil, &at[k&1]) {
			want = append(want, world.Pair{A: hs[p.I], B: hs[p.J]})
		}
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: %d pairs, brute force %d; missing %v", k, len(got), len(want), diff(want, got))
		}
	}
	if steps, _ := world.FatStats(w); steps == 0 {
		t.Fatal("the candidates served no step")
	}
	world.BuildFat(w)
	for i, h := range hs {
		lo, hi, ok := world.FatBounds(w, h)
		if !ok {
			t.Fatalf("box %d has no fat bounds after a build", i)
		}
		width, side := hi.X-lo.X, float32(1)
		if i >= 400 {
			side = 16
		}
		if i >= 400 && width > side+1+0.01 {
			t.Fatalf("large box %d: fat bounds %v wide, more than its width %v and twice its first margin, 0.5", i, width, side)
		}
		if width < side+0.5 {
			t.Fatalf("box %d: fat bounds %v wide, less than its width %v and twice 0.25", i, width, side)
		}
	}
}
