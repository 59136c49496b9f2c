package world

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// TestInsertBoxesAsInserts checks that InsertBoxes, which puts the boxes in
// their cells cell by cell, leaves a World as inserting them one by one in
// b's order, then laying the grid out, does: the same handles, kinds and
// places (cell, or the NaN or infinite list), the same levels with the
// same counts and reaches, the same Query answers and the same pairs, on a
// world already holding boxes and free slots, for both kinds, with hostile
// boxes (NaN, infinities) among them, and then after a load of a few
// boxes.
func TestInsertBoxesAsInserts(t *testing.T) {
	for _, k := range []Kind{Dynamic, Static} {
		r := rand.New(rand.NewPCG(5, uint64(k)))
		var first, load soa.Boxes
		scene.RTS(r, 300, &first)
		scene.Uniform(r, 1500, &load)
		hostile := testkit.HostileSet(r, 200)
		for i := range hostile.Len() {
			load.Append(hostile.At(i))
		}
		for i := range 40 { // a few boxes in a size class of their own, placed first
			load.Append(obb.New(obb.Vec2{X: float32(i), Y: 3}, 0.01, 0.01, 0))
		}
		var extra soa.Boxes
		scene.Uniform(r, 20, &extra)
		build := func(bulk bool) (*World, []Handle) {
			w := New()
			hs := w.InsertBoxes(nil, &first, Static, DefaultFilter)
			for _, h := range hs[:100] {
				w.Remove(h)
			}
			// The load, then 20 boxes more: fewer than an eighth of
			// the cells, which putLoads puts in b's order.
			var out []Handle
			for _, b := range []*soa.Boxes{&load, &extra} {
				if bulk {
					out = w.InsertBoxes(out, b, k, Filter{Category: 2, Mask: 3})
					continue
				}
				for i := range b.Len() {
					out = append(out, w.insert(b.At(i), k, Filter{Category: 2, Mask: 3}))
				}
				w.compact()
			}
			return w, out
		}
		w, hs := build(true)
		ref, want := build(false)
		if !slices.Equal(hs, want) {
			t.Fatalf("kind %d: handles differ", k)
		}
		for i, h := range hs {
			a, b := &w.slots[h>>8], &ref.slots[h>>8]
			if a.where != b.where || a.cell != b.cell || a.kind != b.kind {
				t.Fatalf("kind %d, box %d: placed %d in %v, Insert's %d in %v", k, i, a.where, a.cell, b.where, b.cell)
			}
		}
		for g := range w.grids {
			a, b := &w.grids[g], &ref.grids[g]
			if !slices.Equal(a.levels, b.levels) || a.count != b.count || a.reach != b.reach || a.boxes != b.boxes {
				t.Fatalf("kind %d, grid %d: levels %v, Insert's %v", k, g, a.levels, b.levels)
			}
		}
		if !slices.Equal(w.infinite, ref.infinite) {
			t.Fatalf("kind %d: infinite list %v, Insert's %v", k, w.infinite, ref.infinite)
		}
		for i := range 200 {
			q := load.At(i)
			if got, want := w.Query(nil, q, ^uint32(0)), ref.Query(nil, q, ^uint32(0)); !slices.Equal(got, want) {
				t.Fatalf("kind %d: Query(%v) = %v, Insert's %v", k, q, got, want)
			}
		}
		if got, want := w.Pairs(nil), ref.Pairs(nil); !slices.Equal(got, want) {
			t.Fatalf("kind %d: %d pairs, Insert's %d", k, len(got), len(want))
		}
	}
}

// TestLoadSizesBlocks checks that a load into an empty World reserves the
// blocks its cells need and no more. The compaction that follows a load
// lays the blocks out within the array the load filled, which the grid
// keeps, so room reserved past the blocks stays taken until boxes fill
// it; and a reservation short of them makes the array grow, by a quarter,
// during the load. Either leaves room for more than an eighth of the
// blocks again; the allocator's rounding alone leaves far less.
func TestLoadSizesBlocks(t *testing.T) {
	for _, k := range []Kind{Dynamic, Static} {
		for _, sc := range []struct {
			name string
			make func(*rand.Rand, int, *soa.Boxes)
		}{{"uniform", scene.Uniform}, {"rts", scene.RTS}} {
			var b soa.Boxes
			sc.make(rand.New(rand.NewPCG(3, uint64(k))), 20000, &b)
			w := New()
			w.loadBoxes(nil, &b, k, DefaultFilter)
			g := &w.grids[k]
			if n := len(g.blocks); cap(g.blocks)-n >= n/8 || cap(g.fat)-n >= n/8 || len(g.fat) != n {
				t.Errorf("%s, kind %d: %d blocks, room for %d blocks and %d fat bounds", sc.name, k, n, cap(g.blocks), cap(g.fat))
			}
		}
	}
}

// TestLoadBuffers checks that InsertBoxes keeps its buffers after a load
// of few boxes, for the next, and lets them go after a load of more than
// keptLoads.
func TestLoadBuffers(t *testing.T) {
	var small, large soa.Boxes
	r := rand.New(rand.NewPCG(4, 4))
	scene.Uniform(r, 200, &small)
	scene.Uniform(r, keptLoads+1, &large)
	w := New()
	w.InsertBoxes(nil, &small, Dynamic, DefaultFilter)
	if l := &w.loading; cap(l.loads) < small.Len() || cap(l.sorted) < small.Len() {
		t.Errorf("after a load of %d boxes, room for %d loads and %d sorted: not kept", small.Len(), cap(l.loads), cap(l.sorted))
	}
	w.InsertBoxes(nil, &large, Static, DefaultFilter)
	if l := &w.loading; cap(l.loads)+cap(l.sorted)+cap(l.count) != 0 {
		t.Errorf("after a load of %d boxes, room for %d loads, %d sorted and %d counts: kept", large.Len(), cap(l.loads), cap(l.sorted), cap(l.count))
	}
}
