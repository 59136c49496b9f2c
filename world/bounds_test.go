package world

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// TestStaticCellBounds checks the Static grid's cell rectangles
// (cellBounds) through the questions that skip cells by them: Query and Any
// against brute force over a map of Static boxes built one by one across a
// layout (the rectangles recomputed by relinkAll, then widened by add), after
// removals (left wide), after every box moved a little (each taken out and
// added again), and after a bulk load, with every kernel.
func TestStaticCellBounds(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		var b soa.Boxes
		scene.RTS(r, 1500, &b)
		w := New()
		live := map[Handle]obb.Box{}
		var hs []Handle // live's handles, ascending: a map's order would change the run each time
		for i := range b.Len() {
			h := w.Insert(b.At(i), Static, DefaultFilter)
			live[h] = b.At(i)
			hs = append(hs, h)
		}
		if g := &w.grids[Static]; g.churn >= g.boxes {
			t.Fatalf("no layout since the first 1,024 boxes: churn %d, boxes %d", g.churn, g.boxes)
		}
		ask := func(what string) {
			t.Helper()
			for range 300 {
				q := b.At(r.IntN(b.Len()))
				q.Center = q.Center.Add(obb.Vec2{X: float32(r.NormFloat64() * 4), Y: float32(r.NormFloat64() * 4)})
				checkQuery(t, what, w, live, q)
			}
		}
		ask("inserted")
		hs = slices.DeleteFunc(hs, func(h Handle) bool {
			if r.IntN(3) != 0 {
				return false
			}
			w.Remove(h)
			delete(live, h)
			return true
		})
		ask("removed")
		for _, h := range hs {
			x := live[h]
			x.Center = x.Center.Add(obb.Vec2{X: float32(r.NormFloat64() * 0.3), Y: float32(r.NormFloat64() * 0.3)})
			w.Move(h, x)
			live[h] = x
		}
		ask("moved")
		loaded := w.InsertBoxes(nil, &b, Static, DefaultFilter)
		for i, h := range loaded {
			live[h] = b.At(i)
		}
		ask("loaded")
	})
}

// TestTileHeadsNearIsClosed checks that tileHeadsNear keeps a cell whose
// rectangle touches the question's bounds on one coordinate, as bound's
// intervals are closed, and drops one that stops a float32 step short.
func TestTileHeadsNearIsClosed(t *testing.T) {
	w := New()
	w.Insert(unitBoxAt(0.5, 0.5), Static, DefaultFilter)
	g := &w.grids[Static]
	k := g.cells[0].key
	r := g.rect(k)
	*r = cellBounds{0, 0, 1, 1}
	var heads [64]int32
	all := ^uint64(0)
	above1, below0 := math.Nextafter32(1, 2), math.Nextafter32(0, -1)
	for _, c := range []struct {
		lo, hi obb.Vec2
		keep   bool
	}{
		{obb.Vec2{X: 1, Y: 0}, obb.Vec2{X: 2, Y: 1}, true},  // touches hi.X
		{obb.Vec2{X: 0, Y: 1}, obb.Vec2{X: 1, Y: 2}, true},  // hi.Y
		{obb.Vec2{X: -1, Y: 0}, obb.Vec2{X: 0, Y: 1}, true}, // lo.X
		{obb.Vec2{X: 0, Y: -1}, obb.Vec2{X: 1, Y: 0}, true}, // lo.Y
		{obb.Vec2{X: above1, Y: 0}, obb.Vec2{X: 2, Y: 1}, false},
		{obb.Vec2{X: 0, Y: above1}, obb.Vec2{X: 1, Y: 2}, false},
		{obb.Vec2{X: -1, Y: 0}, obb.Vec2{X: below0, Y: 1}, false},
		{obb.Vec2{X: 0, Y: -1}, obb.Vec2{X: 1, Y: below0}, false},
	} {
		if got := g.tileHeadsNear(&heads, tileKey(k), all, c.lo, c.hi) == 1; got != c.keep {
			t.Errorf("rectangle [0, 1]², question [%v, %v]: kept %v, want %v", c.lo, c.hi, got, c.keep)
		}
	}
}

// checkQuery fails t unless w's Query and Any of q agree with brute force
// over live, the boxes w holds.
func checkQuery(t *testing.T, what string, w *World, live map[Handle]obb.Box, q obb.Box) {
	t.Helper()
	var want []Handle
	for h, x := range live {
		if q.Overlaps(x) {
			want = append(want, h)
		}
	}
	slices.Sort(want)
	if got := w.Query(nil, q, ^uint32(0)); !slices.Equal(got, want) {
		t.Fatalf("%s: Query(%v) = %v, brute force %v", what, q, got, want)
	}
	if got := w.Any(q, ^uint32(0)); got != (len(want) > 0) {
		t.Fatalf("%s: Any(%v) = %v, brute force %d hits", what, q, got, len(want))
	}
}

func unitBoxAt(x, y float32) obb.Box {
	return obb.FromHalf(obb.Vec2{X: x, Y: y}, obb.Vec2{X: 0.25, Y: 0.25}, 0)
}
