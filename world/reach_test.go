package world_test

import (
	"slices"
	"testing"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

// TestTurnedBoxStaysFound checks that a move that keeps a box in its cell
// but gives it a larger reach than its level's other boxes still lets a
// question find it from the next cell, on every path a move takes: Move
// writing at once, Move leaving the write to the catch-up, Move leaving
// the cell too (two workers), and MoveBoxes writing each way. The boxes
// have half extents 0.13, which puts them on the level of R = 1/4, cells
// of side 1, with reach 0.13; the moved box, centered at x = 5.99 in cell
// 5, becomes a needle of half length 0.245 reaching x = 6.235, and the
// question, a small box at x = 6.2 in cell 6, lies further than 0.13 from
// cell 5: a level reach left at 0.13 would leave cell 5 out.
func TestTurnedBoxStaysFound(t *testing.T) {
	cases := []struct {
		name    string
		workers int
		later   bool   // world.SortAll: Move writes (and with two workers finds cells) later
		bulk    string // MoveBoxes with this world.Writes mode, or "" for Move
	}{
		{"Move", 1, false, ""},
		{"Move/later", 1, true, ""},
		{"Move/cells-later", 2, true, ""},
		{"MoveBoxes/direct", 1, false, "direct"},
		{"MoveBoxes/sorted", 1, false, "sorted"},
		{"MoveBoxes/settle", 2, false, "settle"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			world.SortAll(c.later)
			defer world.SortAll(false)
			defer world.Writes("")
			w := world.New()
			w.Workers = c.workers
			var h world.Handle
			for i := range 5 {
				for j := range 5 {
					b := obb.New(obb.Vec2{X: float32(i)*2 + 1.99, Y: float32(j)*2 + 1.5}, 0.26, 0.26, 0)
					if x := w.Insert(b, world.Dynamic, world.DefaultFilter); i == 2 && j == 2 {
						h = x
					}
				}
			}
			w.Pairs(nil)
			needle := obb.New(obb.Vec2{X: 5.99, Y: 5.5}, 0.49, 0.002, 0)
			q := obb.New(obb.Vec2{X: 6.2, Y: 5.5}, 0.02, 0.02, 0)
			if !q.Overlaps(needle) || w.Box(h).Center != needle.Center {
				t.Fatal("the test's boxes are not as meant")
			}
			if c.bulk == "" {
				w.Move(h, needle)
			} else {
				world.Writes(c.bulk)
				var bs soa.Boxes
				bs.Append(needle)
				w.MoveBoxes([]world.Handle{h}, &bs)
			}
			if got := w.Query(nil, q, ^uint32(0)); !slices.Equal(got, []world.Handle{h}) {
				t.Fatalf("Query = %v, want [%#x]", got, h)
			}
			if !w.Any(q, ^uint32(0)) {
				t.Fatal("Any = false, want true")
			}
			if got := w.QueryPoint(nil, obb.Vec2{X: 6.2, Y: 5.5}, ^uint32(0)); !slices.Equal(got, []world.Handle{h}) {
				t.Fatalf("QueryPoint = %v, want [%#x]", got, h)
			}
			if got := w.Pairs(nil); len(got) != 0 {
				t.Fatalf("Pairs = %v, want none", got)
			}
		})
	}
}
