package world

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// TestTileWindows checks each grid's windows (tiles_window.go) entry by
// entry against the tiles' hash table, and Query and Any against brute
// force: after a bulk load of Static or Dynamic boxes, and after rounds of
// changes between layouts that empty whole tiles inside the window (their
// tiles dropped, the last tile taking an emptied one's index), fill them
// again (tiles made inside the window), add boxes beyond the map (tiles
// outside it) and move boxes across it, and after Clear and a load. Every
// kernel.
func TestTileWindows(t *testing.T) {
	for _, kind := range []Kind{Static, Dynamic} {
		testkit.ForEachImpl(t, func(t *testing.T) {
			testTileWindows(t, kind)
		})
	}
}

func testTileWindows(t *testing.T, kind Kind) {
	r := rand.New(rand.NewPCG(5, 6))
	var b soa.Boxes
	scene.Uniform(r, 20000, &b)
	w := New()
	live := map[Handle]obb.Box{}
	var hs []Handle // live's handles, ascending
	for i, h := range w.InsertBoxes(nil, &b, kind, DefaultFilter) {
		live[h] = b.At(i)
		hs = append(hs, h)
	}
	g := &w.grids[kind]
	windows := 0
	for l := range g.windows {
		windows += int(b2i(g.windows[l].w > 0))
	}
	if windows == 0 {
		t.Fatalf("kind %d: no window after a bulk load of a uniform scene", kind)
	}
	_, side := sizes(int(g.levels[0]))
	tileSide := float32(side) * (1 << tileShift)
	ask := func(what string) {
		t.Helper()
		what = fmt.Sprintf("kind %d, %s", kind, what)
		checkWindows(t, g, what)
		for range 200 {
			q := obb.New(obb.Vec2{X: float32(r.Float64()*1100 - 100), Y: float32(r.Float64()*1100 - 100)},
				float32(1+r.Float64()*20), float32(1+r.Float64()*20), r.Float64()*3)
			checkQuery(t, what, w, live, q)
		}
	}
	ask("loaded")
	for round := range 3 {
		// Empty a square of 2 × 2 tiles: every box whose center lies in it
		// goes.
		x0 := float32(1+r.IntN(4)) * tileSide
		y0 := float32(1+r.IntN(4)) * tileSide
		in := func(x obb.Box) bool {
			return x.Center.X >= x0 && x.Center.X < x0+2*tileSide && x.Center.Y >= y0 && x.Center.Y < y0+2*tileSide
		}
		hs = slices.DeleteFunc(hs, func(h Handle) bool {
			if !in(live[h]) {
				return false
			}
			w.Remove(h)
			delete(live, h)
			return true
		})
		ask(fmt.Sprint("round ", round, ", emptied"))
		// Fill half of it again, add boxes beyond the map, and move boxes
		// anywhere.
		add := func(x obb.Box) {
			h := w.Insert(x, kind, DefaultFilter)
			live[h] = x
			hs = append(hs, h)
		}
		for range 50 {
			add(obb.New(obb.Vec2{X: x0 + float32(r.Float64())*tileSide, Y: y0 + float32(r.Float64())*tileSide}, 1, 2, 0.5))
			add(obb.New(obb.Vec2{X: float32(-50 - r.Float64()*500), Y: float32(r.Float64() * 900)}, 2, 1, 0.3))
		}
		for range 100 {
			h := hs[r.IntN(len(hs))]
			x := live[h]
			x.Center = obb.Vec2{X: float32(r.Float64() * 900), Y: float32(r.Float64() * 900)}
			w.Move(h, x)
			live[h] = x
		}
		slices.Sort(hs)
		if g.churn == 0 {
			t.Fatalf("kind %d, round %d: the grid was laid out again, so the changes were not tested between layouts", kind, round)
		}
		ask(fmt.Sprint("round ", round, ", changed"))
	}
	// Cleared, the grid has no tiles, and its windows must name none; a
	// smaller scene loaded after has tiles of other indices.
	w.Clear()
	clear(live)
	checkWindows(t, g, "cleared")
	scene.Uniform(r, 5000, &b)
	hs = w.InsertBoxes(hs[:0], &b, kind, DefaultFilter)
	for i, h := range hs {
		live[h] = b.At(i)
	}
	ask("cleared and loaded")
}

// checkWindows fails t unless every entry of g's windows holds what the
// hash table holds for its tile: the same mask of cells and index, or
// zeros where the table has no tile.
func checkWindows(t *testing.T, g *grid, what string) {
	t.Helper()
	for l := range g.windows {
		d := &g.windows[l]
		for y := range d.h {
			for x := range d.w {
				k := cellKey{d.x0 + x, d.y0 + y, int16(l + minLevel)}
				var want windowEntry
				if i := g.findEntry(k); i >= 0 {
					want = windowEntry{occ: g.table[i].occ, tile: g.table[i].tile}
				}
				if got := d.at[y*d.w+x]; got != want {
					t.Fatalf("%s: window of level %d at tile (%d, %d): %+v, the table's %+v", what, l+minLevel, k.x, k.y, got, want)
				}
			}
		}
	}
}
