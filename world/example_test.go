package world_test

import (
	"fmt"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

// An RTS placement loop: the map's buildings are Static, the units
// Dynamic, and every frame the planned building under the cursor is
// checked against both; Any stops at the first box in the way.
func Example_placement() {
	const (
		buildings = 1 << iota // filter categories
		units
	)
	w := world.New()
	for x := range 10 {
		for y := range 10 {
			c := obb.Vec2{X: float32(12 * x), Y: float32(12 * y)}
			w.Insert(obb.New(c, 8, 8, 0), world.Static, world.Filter{Category: buildings, Mask: units})
		}
	}
	w.Insert(obb.New(obb.Vec2{X: 6, Y: 30}, 1, 1, 0.3), world.Dynamic, world.Filter{Category: units, Mask: ^uint32(0)})

	for _, cursor := range []obb.Vec2{{X: 6, Y: 6}, {X: 6, Y: 18}, {X: 6, Y: 30}} {
		plan := obb.New(cursor, 3, 3, 0)
		if w.Any(plan, buildings|units) {
			fmt.Println(cursor, "blocked by", len(w.Query(nil, plan, buildings|units)), "box(es)")
		} else {
			fmt.Println(cursor, "free")
		}
	}
	// Output:
	// {6 6} free
	// {6 18} free
	// {6 30} blocked by 1 box(es)
}

// A physics step loop: move the bodies, ask for the overlapping pairs, and
// read which contacts began and ended. Pairs costs in proportion to the
// bodies that moved.
func Example_step() {
	w := world.New()
	ground := w.Insert(obb.New(obb.Vec2{X: 0, Y: -1}, 40, 2, 0), world.Static, world.DefaultFilter)
	a := w.Insert(obb.New(obb.Vec2{X: 0, Y: 3}, 2, 2, 0), world.Dynamic, world.DefaultFilter)
	b := w.Insert(obb.New(obb.Vec2{X: 5, Y: 0.5}, 2, 2, 0.2), world.Dynamic, world.DefaultFilter)
	_ = ground

	var pairs, began, ended []world.Pair
	for step := range 3 {
		// Body a falls a unit a step.
		box := w.Box(a)
		w.Move(a, box.MovedTo(obb.Vec2{X: 0, Y: box.Center.Y - 1}))
		pairs = w.Pairs(pairs[:0])
		began, ended = w.Events(began[:0], ended[:0])
		fmt.Printf("step %d: %d pairs, %d began, %d ended\n", step, len(pairs), len(began), len(ended))
	}
	w.Remove(b)
	pairs = w.Pairs(pairs[:0])
	_, ended = w.Events(nil, ended[:0])
	fmt.Printf("b removed: %d pairs, %d ended\n", len(pairs), len(ended))
	// Output:
	// step 0: 1 pairs, 1 began, 0 ended
	// step 1: 2 pairs, 1 began, 0 ended
	// step 2: 2 pairs, 0 began, 0 ended
	// b removed: 1 pairs, 1 ended
}

// RayCast finds the first box along a segment, with the distance as a
// fraction of the segment and the normal of the face it enters.
func ExampleWorld_RayCast() {
	w := world.New()
	w.Insert(obb.New(obb.Vec2{X: 10, Y: 0}, 2, 2, 0), world.Static, world.DefaultFilter)
	w.Insert(obb.New(obb.Vec2{X: 20, Y: 0}, 2, 2, 0), world.Static, world.DefaultFilter)
	if hit, ok := w.RayCast(obb.Vec2{}, obb.Vec2{X: 30, Y: 0}, ^uint32(0)); ok {
		fmt.Printf("box %#x at t=%.2f, %.0f units away, normal %v\n", hit.Handle, hit.T, hit.T*30, hit.Normal)
	}
	// Output:
	// box 0x1 at t=0.30, 9 units away, normal {-1 0}
}

// Contacts gives each overlapping pair's manifold: the normal from A to B
// and the points with their separations, what a solver pushes the boxes
// apart with. Here each box moves half the penetration (plus a little)
// along the normal.
func Example_contacts() {
	w := world.New()
	w.Insert(obb.New(obb.Vec2{X: 0, Y: 0}, 2, 2, 0), world.Dynamic, world.DefaultFilter)
	w.Insert(obb.New(obb.Vec2{X: 1.5, Y: 0.5}, 2, 2, 0), world.Dynamic, world.DefaultFilter)
	var pairs []world.Pair
	var contacts []world.Contact
	for iteration := range 2 {
		pairs = w.Pairs(pairs[:0])
		contacts = w.Contacts(contacts[:0], pairs, 0)
		fmt.Printf("iteration %d: %d contact(s)\n", iteration, len(contacts))
		for _, c := range contacts {
			m := c.Manifold
			depth := -min(m.Points[0].Separation, m.Points[m.Count-1].Separation)
			fmt.Printf("  normal %v, %d points, depth %.2f\n", m.Normal, m.Count, depth)
			push := m.Normal.Scale(depth/2 + 0.01)
			w.Move(c.A, w.Box(c.A).Translated(push.Scale(-1)))
			w.Move(c.B, w.Box(c.B).Translated(push))
		}
	}
	// Output:
	// iteration 0: 1 contact(s)
	//   normal {1 0}, 2 points, depth 0.50
	// iteration 1: 0 contact(s)
}

// MoveBoxes moves many boxes in one call, the way a physics step hands
// over the poses it integrated in columns. Here body i slides left by 0.6·i
// a step, so the row closes up.
func ExampleWorld_MoveBoxes() {
	w := world.New()
	var bodies soa.Boxes
	for i := range 4 {
		bodies.Append(obb.New(obb.Vec2{X: float32(3 * i)}, 2, 2, 0))
	}
	hs := w.InsertBoxes(nil, &bodies, world.Dynamic, world.DefaultFilter)
	var pairs []world.Pair
	for step := range 3 {
		for i := range bodies.Len() {
			bodies.CX[i] -= 0.6 * float32(i)
		}
		w.MoveBoxes(hs, &bodies)
		pairs = w.Pairs(pairs[:0])
		fmt.Printf("step %d: %d pairs\n", step, len(pairs))
	}
	// Output:
	// step 0: 0 pairs
	// step 1: 3 pairs
	// step 2: 3 pairs
}

// SetKind turns a body Static when it comes to rest and Dynamic when it is
// woken, keeping its handle: two Static boxes never pair, so the resting
// body's contact with the ground ends, and begins again when it wakes.
func ExampleWorld_SetKind() {
	w := world.New()
	w.Insert(obb.New(obb.Vec2{X: 0, Y: -1}, 40, 2, 0), world.Static, world.DefaultFilter) // the ground
	crate := w.Insert(obb.New(obb.Vec2{X: 0, Y: 0.4}, 1, 1, 0), world.Dynamic, world.DefaultFilter)
	var pairs, began, ended []world.Pair
	for _, s := range []struct {
		what string
		kind world.Kind
	}{{"lands", world.Dynamic}, {"rests", world.Static}, {"wakes", world.Dynamic}} {
		w.SetKind(crate, s.kind)
		pairs = w.Pairs(pairs[:0])
		began, ended = w.Events(began[:0], ended[:0])
		fmt.Printf("crate %#x %s: %d pairs, %d began, %d ended\n", crate, s.what, len(pairs), len(began), len(ended))
	}
	// Output:
	// crate 0x101 lands: 1 pairs, 1 began, 0 ended
	// crate 0x101 rests: 0 pairs, 0 began, 1 ended
	// crate 0x101 wakes: 1 pairs, 1 began, 0 ended
}
