package world_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

// TestStaysBehind checks against the model a world whose MoveBoxes and
// Moves of a few boxes leave their lanes behind (lag_stays.go), with one
// worker and two: the uniform scene, sorted writes at every size
// (world.SortAll), every step's few moves served by the candidates
// (world.FewAlways), and questions only one step in twelve, so that lanes
// stay behind over several steps. Most steps jitter the same dozen boxes,
// by one MoveBoxes or a Move each, some of which travel out of their
// cells; between them, other boxes move in one MoveBoxes, more than the
// list may hold, or every Dynamic box moves, which leaves every lane to
// the pass over every block; boxes are removed and inserted, refiltered,
// turned Static or Dynamic, and now and then the world is cleared and
// filled again. Every step's Pairs is compared with the model's, and at
// each question Query, Any, QueryPoint and the ray casts, and the layout
// (world.Invariants). It fails unless, summed over the runs, lanes were
// left behind in half of the steps or more, and lists were written by
// readers and for their length, and boxes marked for the pass, each at
// least four times a run.
func TestStaysBehind(t *testing.T) {
	steps := 1000
	if testing.Short() {
		steps = 400
	}
	defer world.FewAlways()()
	defer world.StaysWriteNow(2)()
	var deferred, overflows, written, marked int
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			world.SortAll(true)
			defer world.SortAll(false)
			splitKeeps(t)
			r := rand.New(rand.NewPCG(uint64(workers), 31))
			pool := sceneSets[0].make(r, 400)
			w, m := world.New(), &model{}
			w.Workers = workers
			home := map[world.Handle]obb.Vec2{}
			fill := func() {
				for _, b := range pool {
					k := world.Dynamic
					if r.IntN(8) == 0 {
						k = world.Static
					}
					h := w.Insert(b, k, world.DefaultFilter)
					m.insert(h, b, k, world.DefaultFilter)
					home[h] = b.Center
				}
			}
			fill()
			// jittered returns box i a small step from its home; with
			// travel, one time in eight the home moves, which can take the
			// box out of its cell.
			jittered := func(i int, travel bool) obb.Box {
				b := m.box[i]
				if travel && r.IntN(8) == 0 {
					home[m.h[i]] = home[m.h[i]].Add(obb.Vec2{X: float32(r.NormFloat64()), Y: float32(r.NormFloat64())})
				}
				b.Center = home[m.h[i]].Add(obb.Vec2{X: float32(r.NormFloat64() * 0.02), Y: float32(r.NormFloat64() * 0.02)})
				return b
			}
			moveBoxes := func(picks []int, travel bool) {
				var hs []world.Handle
				var bs soa.Boxes
				for _, i := range picks {
					b := jittered(i, travel)
					hs = append(hs, m.h[i])
					bs.Append(b)
					m.box[i] = b
				}
				w.MoveBoxes(hs, &bs)
			}
			dynamic := func() []int {
				var out []int
				for i := range m.h {
					if m.kind[i] == world.Dynamic {
						out = append(out, i)
					}
				}
				return out
			}
			var movers []world.Handle
			// The movers are a dozen Dynamic boxes and one or two of either Kind.
			pickMovers := func() {
				movers = movers[:0]
				d := dynamic()
				for range 12 {
					movers = append(movers, m.h[d[r.IntN(len(d))]])
				}
				for range 1 + r.IntN(2) {
					movers = append(movers, m.h[r.IntN(len(m.h))])
				}
			}
			indices := func(hs []world.Handle) []int {
				var out []int
				for _, h := range hs {
					for i := range m.h {
						if m.h[i] == h && !contains(out, i) {
							out = append(out, i)
						}
					}
				}
				return out
			}
			pickMovers()
			full := 12 // steps that move every Dynamic box, which build the candidates
			for step := range steps {
				what := fmt.Sprint("step ", step)
				switch op := r.IntN(40); {
				case full > 0 || op == 0: // every Dynamic box
					full--
					moveBoxes(dynamic(), false)
				case op < 3: // others, more than the list holds for the movers
					d := dynamic()
					var picks []int
					for range 40 {
						if i := d[r.IntN(len(d))]; !contains(picks, i) {
							picks = append(picks, i)
						}
					}
					moveBoxes(picks, false)
				case op == 3: // a mover removed, a box inserted
					i := indices(movers[:1])
					if len(i) > 0 {
						w.Remove(m.h[i[0]])
						m.remove(i[0])
					}
					b := pool[r.IntN(len(pool))]
					h := w.Insert(b, world.Dynamic, world.DefaultFilter)
					m.insert(h, b, world.Dynamic, world.DefaultFilter)
					home[h] = b.Center
					pickMovers()
				case op == 4: // a filter, a kind
					i := r.IntN(len(m.h))
					f := randomFilter(r)
					w.SetFilter(m.h[i], f)
					m.filter[i] = f
					i = r.IntN(len(m.h))
					k := world.Static - m.kind[i]
					w.SetKind(m.h[i], k)
					m.kind[i] = k
				case op == 5: // a mover by Move
					if i := indices(movers); len(i) > 0 {
						b := jittered(i[0], true)
						w.Move(m.h[i[0]], b)
						m.box[i[0]] = b
					}
				case op == 6 && r.IntN(3) == 0: // cleared and filled again
					w.Clear()
					m.clear()
					clear(home)
					fill()
					pickMovers()
					full = 12
				default: // the movers, by one MoveBoxes or a Move each
					if r.IntN(2) == 0 {
						moveBoxes(indices(movers), true)
						break
					}
					for _, i := range indices(movers) {
						b := jittered(i, true)
						w.Move(m.h[i], b)
						m.box[i] = b
					}
				}
				want := m.pairs()
				if got := w.Pairs(nil); !slices.Equal(got, want) {
					t.Fatalf("%s: Pairs: %d pairs, model %d; missing %v, extra %v", what, len(got), len(want), diff(want, got), diff(got, want))
				}
				m.last = want
				if r.IntN(12) == 0 || step == steps-1 {
					checkQueries(t, w, m, r, queriesFor(r, pool, 3), what)
					if err := world.Invariants(w); err != nil {
						t.Fatalf("%s: %v", what, err)
					}
				}
			}
			d, o, wr, mk := world.Stays(w)
			t.Logf("%d of %d steps left lanes behind; %d lists written for length, %d by readers; %d marked for the pass", d, steps, o, wr, mk)
			deferred, overflows, written, marked = deferred+d, overflows+o, written+wr, marked+mk
		})
	}
	if deferred < steps || overflows < 8 || written < 8 || marked < 8 {
		t.Fatalf("lanes left behind %d times in %d steps, %d lists written for length, %d by readers; %d marked for the pass", deferred, 2*steps, overflows, written, marked)
	}
}

// contains reports whether s holds x.
func contains(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}
