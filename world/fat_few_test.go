package world_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

// TestFatFewSteps checks against the model the steps where few boxes
// changed while the candidates of fat bounds are in use (fat_few.go), on
// every scene set, with one worker and two: after twelve steps where every
// Dynamic box jitters, which build the candidates, a few boxes
// a step jitter inside their fat bounds or travel out of them, jump across
// the world, leave the grid (a NaN, an infinity) and come back; boxes are
// inserted, removed, refiltered and turned Static or Dynamic, Static
// boxes moved; now and then every Dynamic box moves, a step that tests
// every candidate. It fails if, summed over the runs, the few-moves steps
// that the candidates served are fewer than a third of the steps, the
// boxes that escaped in them or the steps that tested the candidates found
// since the last merge fewer than a quarter of them, or the indexes of the
// candidates made for them fewer than two a run. Every scene's steps test
// their candidates here, however many a box has (world.FewAlways).
func TestFatFewSteps(t *testing.T) {
	steps := 400
	if testing.Short() {
		steps = 100
	}
	defer world.FewAlways()()
	var all world.FewCounts
	runs := 0
	for si, set := range sceneSets {
		if testing.Short() && !shortFewSets[set.name] {
			continue
		}
		for _, workers := range []int{1, 2} {
			runs++
			t.Run(fmt.Sprintf("scene=%s/workers=%d", set.name, workers), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(si), uint64(workers)+10))
				world.SortAll(workers == 2)
				defer world.SortAll(false)
				splitKeeps(t)
				pool := set.make(r, 400)
				w, m := world.New(), &model{}
				w.Workers = workers
				home := map[world.Handle]obb.Vec2{}
				var away world.Handle // the box sent out of the grid, 0 for none
				insert := func(b obb.Box, k world.Kind) {
					f := world.DefaultFilter
					if r.IntN(4) == 0 {
						f = randomFilter(r)
					}
					h := w.Insert(b, k, f)
					m.insert(h, b, k, f)
					home[h] = b.Center
				}
				for _, b := range pool {
					k := world.Dynamic
					if r.IntN(5) == 0 {
						k = world.Static
					}
					insert(b, k)
				}
				check(t, w, m, r, nil, "the first step")
				// jitter moves box i to its home or a small step from it.
				jitter := func(i int) {
					b := m.box[i]
					b.Center = home[m.h[i]]
					if r.IntN(2) == 0 {
						b.Center = b.Center.Add(obb.Vec2{X: float32(r.NormFloat64() * 0.02), Y: float32(r.NormFloat64() * 0.02)})
					}
					w.Move(m.h[i], b)
					m.box[i] = b
				}
				for step := range steps {
					var hs []world.Handle
					var bs soa.Boxes
					bulk := r.IntN(3) == 0
					move := func(i int, b obb.Box) {
						if bulk {
							for j, h := range hs {
								if h == m.h[i] {
									hs, bs = append(hs[:j:j], hs[j+1:]...), pick(&bs, j)
									break
								}
							}
							hs = append(hs, m.h[i])
							bs.Append(b)
						} else {
							w.Move(m.h[i], b)
						}
						m.box[i] = b
					}
					switch op := r.IntN(40); {
					case step < 12 || op == 0: // every Dynamic box: a full step
						for i := range m.h {
							if m.kind[i] == world.Dynamic {
								jitter(i)
							}
						}
					case op < 4: // inserts and removes
						for range 1 + r.IntN(3) {
							i := r.IntN(len(m.h))
							w.Remove(m.h[i])
							delete(home, m.h[i])
							m.remove(i)
						}
						for range 1 + r.IntN(3) {
							insert(pool[r.IntN(len(pool))], randomKind(r))
						}
					case op < 6: // a filter, a kind
						i := r.IntN(len(m.h))
						f := randomFilter(r)
						w.SetFilter(m.h[i], f)
						m.filter[i] = f
						i = r.IntN(len(m.h))
						k := world.Static - m.kind[i]
						w.SetKind(m.h[i], k)
						m.kind[i] = k
					case op < 7 && away == 0: // out of the grid, for a step or two
						i := r.IntN(len(m.h))
						away = m.h[i]
						b := m.box[i]
						if r.IntN(2) == 0 {
							b.Center.X = float32(math.NaN())
						} else {
							b.Half.Y = float32(math.Inf(1))
						}
						move(i, b)
					case away != 0 && op < 25: // and back
						for i, h := range m.h {
							if h == away {
								b := pool[r.IntN(len(pool))]
								b.Center = home[h]
								move(i, b)
							}
						}
						away = 0
					default: // a few boxes: most jitter, some travel or jump
						for range 1 + r.IntN(6) {
							i := r.IntN(len(m.h))
							b := m.box[i]
							switch k := r.IntN(10); {
							case k == 0:
								b = pool[r.IntN(len(pool))]
								home[m.h[i]] = b.Center
							case k < 3:
								b.Center = b.Center.Add(obb.Vec2{X: float32(r.NormFloat64() * 0.5), Y: float32(r.NormFloat64() * 0.5)})
								home[m.h[i]] = b.Center
							default:
								b.Center = home[m.h[i]]
								if r.IntN(2) == 0 {
									b.Center = b.Center.Add(obb.Vec2{X: float32(r.NormFloat64() * 0.02), Y: float32(r.NormFloat64() * 0.02)})
								}
							}
							move(i, b)
						}
					}
					if len(hs) > 0 {
						w.MoveBoxes(hs, &bs)
					}
					check(t, w, m, r, queriesFor(r, pool, 1), fmt.Sprint("step ", step))
				}
				c := world.FatFew(w)
				t.Logf("%d of %d steps from the candidates with few moves, %d escapes in them, %d of them with extra candidates, %d indexes", c.Steps, steps, c.Escaped, c.Extras, c.Indexes)
				all.Steps, all.Escaped, all.Extras, all.Indexes = all.Steps+c.Steps, all.Escaped+c.Escaped, all.Extras+c.Extras, all.Indexes+c.Indexes
			})
		}
	}
	if all.Steps < runs*steps/3 || all.Escaped < all.Steps/4 || all.Extras < all.Steps/4 || all.Indexes < 2*runs {
		t.Fatalf("the candidates served %d of %d steps with few moves, with %d escapes, %d of them with extra candidates, %d indexes", all.Steps, runs*steps, all.Escaped, all.Extras, all.Indexes)
	}
}

// pick returns bs without its box j.
func pick(bs *soa.Boxes, j int) soa.Boxes {
	var out soa.Boxes
	for i := range bs.Len() {
		if i != j {
			out.Append(bs.At(i))
		}
	}
	return out
}

// shortFewSets are the scene sets TestFatFewSteps runs with -short, as
// under the race detector, where all of them took three minutes: the
// hostile set's boxes outside the grids have its steps query.
var shortFewSets = map[string]bool{"uniform": true, "rts": true, "map": true, "mixed": true, "clusters": true, "huge": true, "short-axes": true, "hostile": true}

// TestFatFewBuild checks against the model the steps of a world where
// only a tenth of the boxes move a step, too few for a full step, from
// the first step on: those steps feed the sample, build the candidates
// when it calls for it, and are then served from them (fat_few.go). After
// twenty such steps the candidates are dropped and two boxes with an
// infinite extent inserted, and the steps build the candidates again,
// now with boxes outside the grids, which the step that builds queries.
// It fails if the steps did not build the candidates twice in each world.
func TestFatFewBuild(t *testing.T) {
	defer world.FewAlways()()
	n := 3000
	if testing.Short() {
		n = 800
	}
	for si, set := range sceneSets {
		if set.name != "uniform" && set.name != "rts" && set.name != "map" && set.name != "mixed" {
			continue // the pile's pairs make the model's steps slow
		}
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("scene=%s/workers=%d", set.name, workers), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(si), uint64(workers)+20))
				pool := set.make(r, n)
				w, m := world.New(), &model{}
				w.Workers = workers
				for _, b := range pool {
					k := world.Dynamic
					if r.IntN(5) == 0 {
						k = world.Static
					}
					m.insert(w.Insert(b, k, world.DefaultFilter), b, k, world.DefaultFilter)
				}
				check(t, w, m, r, nil, "the first step")
				builds, served, after := 0, 0, 0
				for step := 0; step < 400 && after < 5; step++ {
					for i := range m.h {
						if r.IntN(10) > 0 || m.kind[i] == world.Static || i >= len(pool) {
							continue
						}
						b := pool[i]
						if step&1 == 1 {
							b.Center = b.Center.Add(obb.Vec2{X: 0.01, Y: -0.01})
						}
						w.Move(m.h[i], b)
						m.box[i] = b
					}
					check(t, w, m, r, nil, fmt.Sprint("step ", step))
					c := world.FatFew(w)
					switch {
					case c.Builds > builds:
						builds = c.Builds
					case builds == 1 && c.Steps > 0:
						served++
					case builds == 2:
						after++
					}
					if builds == 1 && served == 20 {
						// Dropped, and built again with boxes outside the
						// grids, whose pairs the build's step queries.
						world.FatDrop(w)
						for _, b := range []obb.Box{{Axis: obb.Vec2{X: 1}, Half: obb.Vec2{X: float32(math.Inf(1)), Y: 1}}, {Center: pool[0].Center, Axis: obb.Vec2{X: 0, Y: 1}, Half: obb.Vec2{X: 1, Y: float32(math.Inf(1))}}} {
							m.insert(w.Insert(b, world.Dynamic, world.DefaultFilter), b, world.Dynamic, world.DefaultFilter)
						}
						served++
					}
				}
				if builds < 2 || after < 5 {
					t.Fatalf("the steps with few moves built the candidates %d times, served %d steps from the first", builds, served)
				}
			})
		}
	}
}

// TestFatFewDrop checks against the model a uniform world whose steps move
// a twentieth of the boxes, too few for a full step or for the full steps'
// rate of escapes, once the candidates are built: while the moved boxes
// jitter, the candidates serve the steps; once they jump far, out of their
// fat bounds, the steps drop the candidates when the moving average of the
// escapes passes half the moved boxes (fewEscapes), and query. It fails if
// the candidates served fewer than 15 of the 20 jittering steps, or more
// than 15 of the 20 after, a dozen of which the average takes to rise.
func TestFatFewDrop(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 30))
	pool := sceneSets[0].make(r, 1000)
	w, m := world.New(), &model{}
	for _, b := range pool {
		m.insert(w.Insert(b, world.Dynamic, world.DefaultFilter), b, world.Dynamic, world.DefaultFilter)
	}
	check(t, w, m, r, nil, "the first step")
	world.BuildFat(w)
	served := [2]int{}
	for step := range 40 {
		before := world.FatFew(w).Steps
		for i := range m.h {
			if r.IntN(20) > 0 {
				continue
			}
			b := pool[i]
			if step >= 20 {
				b = pool[r.IntN(len(pool))]
			} else if step&1 == 1 {
				b.Center = b.Center.Add(obb.Vec2{X: 0.01, Y: -0.01})
			}
			w.Move(m.h[i], b)
			m.box[i] = b
		}
		check(t, w, m, r, nil, fmt.Sprint("step ", step))
		after := world.FatFew(w).Steps
		served[step/20] += after - before
	}
	if served[0] < 15 || served[1] > 15 {
		t.Fatalf("the candidates served %d of the 20 steps that jitter and %d of the 20 after", served[0], served[1])
	}
}
