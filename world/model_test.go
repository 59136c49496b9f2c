package world_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

// model is the reference the World is checked against: the live boxes in a
// plain slice, every question answered by brute force with obb.Box.Overlaps.
type model struct {
	h      []world.Handle
	box    []obb.Box
	kind   []world.Kind
	filter []world.Filter
	last   []world.Pair   // the pairs at the last Pairs call
	gone   []world.Handle // the handles of removed boxes, stale unless issued again

	// The events of the last Pairs call, which check asks for at once or
	// at its next call, after the calls in between, or both.
	began, ended []world.Pair
	pending      bool
}

func (m *model) insert(h world.Handle, b obb.Box, k world.Kind, f world.Filter) {
	m.h, m.box, m.kind, m.filter = append(m.h, h), append(m.box, b), append(m.kind, k), append(m.filter, f)
	if i := slices.Index(m.gone, h); i >= 0 {
		m.gone = slices.Delete(m.gone, i, i+1)
	}
}

func (m *model) remove(i int) {
	m.gone = append(m.gone, m.h[i])
	m.h = slices.Delete(m.h, i, i+1)
	m.box = slices.Delete(m.box, i, i+1)
	m.kind = slices.Delete(m.kind, i, i+1)
	m.filter = slices.Delete(m.filter, i, i+1)
}

// clear is World.Clear: every handle stale, no pairs before the next
// Pairs, so that all of its pairs begin, and no events until then.
func (m *model) clear() {
	m.gone = append(m.gone, m.h...)
	m.h, m.box, m.kind, m.filter = nil, nil, nil, nil
	m.last, m.began, m.ended = nil, nil, nil
}

// boxes returns, ascending, the handles of the boxes in mask's categories
// that hit says yes to.
func (m *model) boxes(mask uint32, hit func(obb.Box) bool) []world.Handle {
	var out []world.Handle
	for i, b := range m.box {
		if m.filter[i].Category&mask != 0 && hit(b) {
			out = append(out, m.h[i])
		}
	}
	slices.Sort(out)
	return out
}

func (m *model) query(q obb.Box, mask uint32) []world.Handle { return m.boxes(mask, q.Overlaps) }

func (m *model) point(p obb.Vec2, mask uint32) []world.Handle {
	return m.boxes(mask, func(b obb.Box) bool { return b.ContainsPoint(p) })
}

func (m *model) rays(origin, delta obb.Vec2, mask uint32) []world.RayHit {
	var out []world.RayHit
	for i, b := range m.box {
		if t, n, hit := b.RayCast(origin, delta); hit && m.filter[i].Category&mask != 0 {
			out = append(out, world.RayHit{Handle: m.h[i], T: t, Normal: n})
		}
	}
	slices.SortFunc(out, func(a, b world.RayHit) int {
		if a.T != b.T {
			if a.T < b.T {
				return -1
			}
			return 1
		}
		return int(int64(a.Handle) - int64(b.Handle))
	})
	return out
}

func (m *model) pairs() []world.Pair {
	var out []world.Pair
	for i := range m.box {
		for j := range m.box {
			a, b := m.h[i], m.h[j]
			if a >= b || (m.kind[i] == world.Static && m.kind[j] == world.Static) {
				continue
			}
			fi, fj := m.filter[i], m.filter[j]
			if fi.Category&fj.Mask == 0 || fj.Category&fi.Mask == 0 || !m.box[i].Overlaps(m.box[j]) {
				continue
			}
			out = append(out, world.Pair{A: a, B: b})
		}
	}
	slices.SortFunc(out, func(x, y world.Pair) int {
		if x.A != y.A {
			return int(int64(x.A) - int64(y.A))
		}
		return int(int64(x.B) - int64(y.B))
	})
	return out
}

// diff returns the pairs of a not in b; both sorted.
func diff(a, b []world.Pair) []world.Pair {
	var out []world.Pair
	for _, p := range a {
		for len(b) > 0 && comparePairs(b[0], p) < 0 {
			b = b[1:]
		}
		if len(b) == 0 || b[0] != p {
			out = append(out, p)
		}
	}
	return out
}

// check compares every answer of w with m's, and fails t naming what.
// Moves can leave the World's blocks behind their boxes until the next
// question or Pairs (lag.go), so the questions go before Pairs or after
// it, and the first to be asked is a different kind each time. Events
// compares the last two lists of pairs when first asked, so check asks
// for them after Pairs, or at its next call after the calls between, or
// both.
func check(t *testing.T, w *world.World, m *model, r *rand.Rand, queries []obb.Box, what string) {
	t.Helper()
	if m.pending {
		checkEvents(t, w, m, what+", the last Pairs' events")
	}
	if w.Len() != len(m.h) {
		t.Fatalf("%s: Len %d, model %d", what, w.Len(), len(m.h))
	}
	for i, h := range m.h {
		if got := w.Box(h); math.Float32bits(got.Center.X) != math.Float32bits(m.box[i].Center.X) || !w.Contains(h) {
			t.Fatalf("%s: Box(%#x) = %v, model %v", what, h, got, m.box[i])
		}
	}
	for _, h := range m.gone {
		if w.Contains(h) {
			t.Fatalf("%s: Contains(%#x) of a removed box", what, h)
		}
	}
	before := r.IntN(2) == 0
	if before {
		checkQueries(t, w, m, r, queries, what)
	}
	want := m.pairs()
	dst := pairsDst(r, len(want))
	got := w.Pairs(dst)
	if !slices.Equal(got[:len(dst)], dst) {
		t.Fatalf("%s: Pairs changed the %d pairs before its own", what, len(dst))
	}
	if err := world.FatRules(w); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if got = got[len(dst):]; !slices.Equal(got, want) {
		t.Fatalf("%s: Pairs: %d pairs, model %d; missing %v, extra %v", what, len(got), len(want), diff(want, got), diff(got, want))
	}
	m.began, m.ended, m.last = diff(want, m.last), diff(m.last, want), want
	m.pending = r.IntN(2) == 0
	if ask := r.IntN(3) > 0; ask || !m.pending {
		checkEvents(t, w, m, what)
	}
	if !before {
		checkQueries(t, w, m, r, queries, what)
	}
	if err := world.Invariants(w); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// pairsDst returns a slice for Pairs to append to: nil, or a few pairs
// already there with spare room of garbage for none, some, all or more
// than all of the n pairs it will append, which a step writes as it keeps
// them.
func pairsDst(r *rand.Rand, n int) []world.Pair {
	if r.IntN(4) == 0 {
		return nil
	}
	pre := r.IntN(3)
	room := [...]int{0, r.IntN(n + 1), n, n + 1 + r.IntN(8)}[r.IntN(4)]
	dst := make([]world.Pair, pre+room)
	for i := range dst {
		dst[i] = world.Pair{A: world.Handle(r.Uint32()), B: world.Handle(r.Uint32())}
	}
	return dst[:pre]
}

// checkEvents compares w's Events with the model's.
func checkEvents(t *testing.T, w *world.World, m *model, what string) {
	t.Helper()
	if began, ended := w.Events(nil, nil); !slices.Equal(began, m.began) || !slices.Equal(ended, m.ended) {
		t.Fatalf("%s: Events began %v ended %v, model %v and %v", what, began, ended, m.began, m.ended)
	}
}

// checkQueries compares w's answers to queries with m's: Query, Any,
// QueryPoint at the query's center, and RayCastAll and RayCast from it,
// starting at a kind picked at random.
func checkQueries(t *testing.T, w *world.World, m *model, r *rand.Rand, queries []obb.Box, what string) {
	t.Helper()
	kinds := []func(q obb.Box, mask uint32){
		func(q obb.Box, mask uint32) {
			if got, want := w.Query(nil, q, mask), m.query(q, mask); !slices.Equal(got, want) {
				t.Fatalf("%s: Query(%v, %#x) = %v, model %v", what, q, mask, got, want)
			}
		},
		func(q obb.Box, mask uint32) {
			if any, want := w.Any(q, mask), len(m.query(q, mask)) > 0; any != want {
				t.Fatalf("%s: Any(%v, %#x) = %v, model %v", what, q, mask, any, want)
			}
		},
		func(q obb.Box, mask uint32) {
			p := q.Center
			if got, want := w.QueryPoint(nil, p, mask), m.point(p, mask); !slices.Equal(got, want) {
				t.Fatalf("%s: QueryPoint(%v, %#x) = %v, model %v", what, p, mask, got, want)
			}
		},
		func(q obb.Box, mask uint32) {
			// A segment from the query's center: short, long, or from far away.
			p := q.Center
			d := obb.Vec2{X: float32(r.NormFloat64()), Y: float32(r.NormFloat64())}.Scale([]float32{3, 300, 1e5}[r.IntN(3)])
			if r.IntN(4) == 0 {
				p, d = p.Sub(d.Scale(1e3)), d.Scale(2e3)
			}
			gotRays, wantRays := w.RayCastAll(nil, p, d, mask), m.rays(p, d, mask)
			if !slices.Equal(gotRays, wantRays) {
				t.Fatalf("%s: RayCastAll(%v, %v, %#x) = %v, model %v", what, p, d, mask, gotRays, wantRays)
			}
			first, ok := w.RayCast(p, d, mask)
			if ok != (len(wantRays) > 0) || ok && first != wantRays[0] {
				t.Fatalf("%s: RayCast(%v, %v, %#x) = %v, %v; model %v", what, p, d, mask, first, ok, wantRays)
			}
		},
	}
	start := r.IntN(len(kinds))
	for _, q := range queries {
		mask := []uint32{^uint32(0), 1, 2, 6}[r.IntN(4)]
		for k := range kinds {
			kinds[(start+k)%len(kinds)](q, mask)
		}
	}
}

// sceneSet is a named set of boxes the tests fill worlds with.
type sceneSet struct {
	name string
	make func(r *rand.Rand, n int) []obb.Box
}

func boxesOf(b *soa.Boxes) []obb.Box {
	out := make([]obb.Box, b.Len())
	for i := range out {
		out[i] = b.At(i)
	}
	return out
}

func fromScene(f func(*rand.Rand, int, *soa.Boxes)) func(*rand.Rand, int) []obb.Box {
	return func(r *rand.Rand, n int) []obb.Box {
		var b soa.Boxes
		f(r, n, &b)
		return boxesOf(&b)
	}
}

// sceneSets are the scenes of package scene and the shapes issue 20 names:
// mixed sizes, clustered piles, a line, huge coordinates, hostile boxes,
// and axes short enough for the test's products to underflow or long
// enough for its radii to overflow.
var sceneSets = []sceneSet{
	{"uniform", fromScene(scene.Uniform)},
	{"rts", fromScene(scene.RTS)},
	{"pile", fromScene(scene.Pile)},
	{"map", func(r *rand.Rand, n int) []obb.Box {
		var b soa.Boxes
		scene.Map(r, n, scene.MapSide(n), &b)
		return boxesOf(&b)
	}},
	{"mixed", func(r *rand.Rand, n int) []obb.Box {
		out := fromScene(scene.Uniform)(r, n)
		for i := range out {
			if r.IntN(100) == 0 {
				out[i].Half = out[i].Half.Scale(100)
			}
		}
		return out
	}},
	{"clusters", func(r *rand.Rand, n int) []obb.Box {
		out := fromScene(scene.Pile)(r, n)
		for i := range out {
			c := float32(r.IntN(5)) * 40
			out[i].Center = out[i].Center.Add(obb.Vec2{X: c, Y: -c})
		}
		return out
	}},
	// A crowd of small boxes in a few cells, each cell many blocks whose
	// rectangles (block_rects.go) differ: boxes that move a little stay in
	// their blocks, others leave their cells and hand their lanes on.
	{"crowd", func(r *rand.Rand, n int) []obb.Box {
		out := make([]obb.Box, n)
		for i := range out {
			c := obb.Vec2{X: float32(r.Float64() * 3), Y: float32(r.Float64() * 3)}
			out[i] = obb.FromHalf(c, obb.Vec2{X: float32(0.1 + 0.3*r.Float64()), Y: 0.2}, r.Float64()*3)
		}
		return out
	}},
	{"line", func(r *rand.Rand, n int) []obb.Box {
		out := fromScene(scene.Uniform)(r, n)
		for i := range out {
			out[i].Center.Y = 0
		}
		return out
	}},
	{"huge", func(r *rand.Rand, n int) []obb.Box {
		out := fromScene(scene.Uniform)(r, n)
		for i := range out {
			out[i].Center = out[i].Center.Add(obb.Vec2{X: 1e6, Y: -1e6})
		}
		return out
	}},
	{"random", func(r *rand.Rand, n int) []obb.Box { return boxesOf(testkit.RandomSet(r, n)) }},
	{"hostile", func(r *rand.Rand, n int) []obb.Box { return boxesOf(testkit.HostileSet(r, n)) }},
	{"short-axes", func(r *rand.Rand, n int) []obb.Box { return boxesOf(testkit.ShortAxisSet(r, n)) }},
	{"long-axes", func(r *rand.Rand, n int) []obb.Box { return boxesOf(testkit.LongAxisSet(r, n)) }},
	{"degenerate", func(r *rand.Rand, n int) []obb.Box {
		out := boxesOf(testkit.RandomSet(r, n))
		for i := range out {
			switch r.IntN(6) {
			case 0:
				out[i].Half = obb.Vec2{}
			case 1:
				out[i].Half.X = -out[i].Half.X
			case 2:
				out[i].Axis = out[i].Axis.Scale(1.5)
			case 3:
				out[i].Axis = obb.Vec2{}
			case 4:
				out[i].Half.Y = 3e38
			}
		}
		return out
	}},
}

// queriesFor returns boxes to query a scene with: boxes of the scene
// itself, moved a little, and a few from the hostile set.
func queriesFor(r *rand.Rand, boxes []obb.Box, n int) []obb.Box {
	out := make([]obb.Box, 0, n)
	for range n {
		q := boxes[r.IntN(len(boxes))]
		q.Center = q.Center.Add(obb.Vec2{X: float32(r.NormFloat64()), Y: float32(r.NormFloat64())})
		out = append(out, q)
	}
	return append(out, boxesOf(testkit.HostileSet(r, 4))...)
}

func randomFilter(r *rand.Rand) world.Filter {
	if r.IntN(2) == 0 {
		return world.DefaultFilter
	}
	return world.Filter{Category: 1 << r.IntN(3), Mask: uint32(r.IntN(8))}
}

func randomKind(r *rand.Rand) world.Kind { return world.Kind(r.IntN(2)) }

// TestScenes fills a world with each scene and compares every answer with
// brute force, with each kernel implementation.
func TestScenes(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		for _, set := range sceneSets {
			t.Run(set.name, func(t *testing.T) {
				r := rand.New(rand.NewPCG(7, uint64(len(set.name))))
				n := 600
				if testing.Short() {
					n = 200
				}
				boxes := set.make(r, n)
				w, m := world.New(), &model{}
				for _, b := range boxes {
					k, f := randomKind(r), randomFilter(r)
					m.insert(w.Insert(b, k, f), b, k, f)
				}
				check(t, w, m, r, queriesFor(r, boxes, 40), "filled")
				// Move every box a little, then a few far.
				for i, h := range m.h {
					b := m.box[i]
					b.Center = b.Center.Add(obb.Vec2{X: float32(r.NormFloat64() * 0.3), Y: float32(r.NormFloat64() * 0.3)})
					w.Move(h, b)
					m.box[i] = b
				}
				check(t, w, m, r, queriesFor(r, boxes, 40), "moved slightly")
				for range 50 {
					i := r.IntN(len(m.h))
					b := boxes[r.IntN(len(boxes))]
					w.Move(m.h[i], b)
					m.box[i] = b
				}
				check(t, w, m, r, queriesFor(r, boxes, 40), "moved far")
			})
		}
	})
}

// modelModes are the ways a World writes its moved boxes, each of which
// TestModel runs on every scene: at once (a small world), as in a large
// world (world.SortAll: sorted passes, and Moves that leave their blocks to
// the next reader), the same with two workers (whose Moves leave their
// cells to the next reader too: lag.go), and MoveBoxes writing by a pass
// over every block (settle) on three workers.
var modelModes = []struct {
	name    string
	large   bool
	writes  string
	workers int
}{
	{"now", false, "", 1},
	{"later", true, "", 1},
	{"later-cells", true, "", 2},
	{"settle", true, "settle", 3},
}

// TestModel drives a World and the model with the same random sequences of
// Insert, InsertBoxes, Move, MoveBoxes, Remove, SetFilter, SetKind, Clear,
// Query and Pairs, on every scene in every mode of modelModes. Each check
// compares every answer with the model's and checks the World's layout
// (world.Invariants), which finds a box a question would miss whether or not
// a question meets it.
//
// With -model.seeds N it runs every scene and mode N times more, with the
// random sequences of seeds -model.from to -model.from+N-1: a soak, of which
// CI runs 24 seeds, each as long as the test's own. A failure names its seed
// in the subtest's name, so -run reruns it alone.
func TestModel(t *testing.T) {
	for _, seed := range append([]uint64{99}, modelSeeds()...) {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) { modelSeed(t, seed) })
	}
}

var (
	modelSeedCount = flag.Int("model.seeds", 0, "TestModel: how many seeds to run besides its own")
	modelSeedFrom  = flag.Uint64("model.from", 100, "TestModel: the first of -model.seeds seeds")
)

// modelSeeds returns the seeds -model.seeds and -model.from ask for.
func modelSeeds() []uint64 {
	var seeds []uint64
	for i := range max(*modelSeedCount, 0) {
		seeds = append(seeds, *modelSeedFrom+uint64(i))
	}
	return seeds
}

// modelSeed is TestModel with one seed.
func modelSeed(t *testing.T, seed uint64) {
	for s, set := range sceneSets {
		for md, mode := range modelModes {
			t.Run(set.name+"/"+mode.name, func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(s*len(modelModes)+md), seed))
				pool := append(set.make(r, 300), sceneSets[len(sceneSets)-1].make(r, 30)...)
				steps := 1500
				if testing.Short() {
					steps = 300
				}
				world.SortAll(mode.large)
				world.Writes(mode.writes)
				defer world.SortAll(false)
				defer world.Writes("")
				runModel(t, r, pool, steps, mode.workers)
			})
		}
	}
}

func runModel(t *testing.T, r *rand.Rand, pool []obb.Box, steps, workers int) {
	t.Helper()
	w, m := world.New(), &model{}
	w.Workers = workers
	splitKeeps(t)
	for step := range steps {
		switch op := r.IntN(20); {
		case op < 6 || len(m.h) == 0:
			b, k, f := pool[r.IntN(len(pool))], randomKind(r), randomFilter(r)
			if r.IntN(8) > 0 {
				m.insert(w.Insert(b, k, f), b, k, f)
				break
			}
			// InsertBoxes of a few boxes or, one time in four while the
			// world is small, of as many as the pool holds.
			var bs soa.Boxes
			n := 4
			if r.IntN(4) == 0 && len(m.h) < 150 {
				n = len(pool)
			}
			for range 1 + r.IntN(n) {
				bs.Append(pool[r.IntN(len(pool))])
			}
			for i, h := range w.InsertBoxes(nil, &bs, k, f) {
				m.insert(h, bs.At(i), k, f)
			}
		case op < 10:
			i := r.IntN(len(m.h))
			b := pool[r.IntN(len(pool))]
			if r.IntN(2) == 0 {
				b = nudge(r, m.box[i])
			}
			w.Move(m.h[i], b)
			m.box[i] = b
		case op < 12:
			// MoveBoxes of a few boxes, a handle sometimes twice, or, one
			// time in four, of a quarter of the boxes or more, each once,
			// which MoveBoxes writes by a pass over every block.
			var hs []world.Handle
			var bs soa.Boxes
			picks := make([]int, 1+r.IntN(8))
			for j := range picks {
				picks[j] = r.IntN(len(m.h))
			}
			if r.IntN(4) == 0 {
				picks = r.Perm(len(m.h))[:(len(m.h)+3)/4+r.IntN(len(m.h)*3/4+1)]
			}
			for _, i := range picks {
				b := pool[r.IntN(len(pool))]
				if r.IntN(2) == 0 {
					b = nudge(r, m.box[i])
				}
				hs = append(hs, m.h[i])
				bs.Append(b)
				m.box[i] = b
			}
			w.MoveBoxes(hs, &bs)
		case op < 15:
			i := r.IntN(len(m.h))
			w.Remove(m.h[i])
			m.remove(i)
		case op < 18:
			i := r.IntN(len(m.h))
			f := randomFilter(r)
			w.SetFilter(m.h[i], f)
			m.filter[i] = f
		case op < 19:
			i := r.IntN(len(m.h))
			k := randomKind(r)
			w.SetKind(m.h[i], k)
			m.kind[i] = k
		case r.IntN(32) == 0:
			// Clear, about twice a run, with the candidates of fat
			// bounds, the pairs and the events in any state.
			w.Clear()
			m.clear()
		default:
			check(t, w, m, r, queriesFor(r, pool, 2), fmt.Sprint("step ", step))
		}
	}
	check(t, w, m, r, queriesFor(r, pool, 20), "end")
}

// nudge moves b by about a unit or, one time in two, by about a hundredth,
// which keeps most boxes in their cells and within their fat bounds.
func nudge(r *rand.Rand, b obb.Box) obb.Box {
	d := 1.0
	if r.IntN(2) == 0 {
		d = 0.01
	}
	b.Center = b.Center.Add(obb.Vec2{X: float32(r.NormFloat64() * d), Y: float32(r.NormFloat64() * d)})
	return b
}
