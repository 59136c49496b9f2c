package world_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/world"
)

// shapeWorlds calls fn with worlds whose boxes all have one shape, each
// with its model and its boxes, so that its level's reach is theirs and a
// question that grazes a box is at the edge of what the level's filters
// let through: sizes 10⁻³ to 10³, squares and not, axis-aligned and
// turned, with axes of length ½ to 300 and negative or zero half extents.
// Half of the boxes are Static, whose blocks a question skips by their
// rectangles (block_rects.go), which hold the boxes' bounds.
func shapeWorlds(r *rand.Rand, fn func(w *world.World, m *model, boxes []obb.Box, size float32)) {
	for _, size := range []float32{1e-3, 1, 1e3} {
		for _, aspect := range []float32{1, 2} {
			for _, odd := range []string{"", "short axis", "long axis", "far axis", "negative", "zero"} {
				w, m := world.New(), &model{}
				var boxes []obb.Box
				for i := range 24 {
					c := obb.Vec2{X: float32(r.NormFloat64()) * 20 * size, Y: float32(r.NormFloat64()) * 20 * size}
					angle := 0.0
					if i%2 == 1 {
						angle = r.Float64() * 7
					}
					b := obb.FromHalf(c, obb.Vec2{X: size, Y: size * aspect}, angle)
					switch odd {
					case "short axis":
						b.Axis = b.Axis.Scale(0.5)
					case "long axis":
						b.Axis = b.Axis.Scale(2)
					case "far axis":
						b.Axis = b.Axis.Scale(300)
					case "negative":
						b.Half.X = -b.Half.X
					case "zero":
						b.Half = obb.Vec2{}
					}
					boxes = append(boxes, b)
					k := world.Kind(i / 2 % 2) // Static blocks are skipped by their rectangles
					m.insert(w.Insert(b, k, world.DefaultFilter), b, k, world.DefaultFilter)
				}
				fn(w, m, boxes, size)
			}
		}
	}
}

// TestRayCastGrazing checks RayCastAll and RayCast against obb.Box.RayCast
// on every box with segments that graze boxes of shapeWorlds: through a
// corner, at angles of a multiple of 45° to the box's axis or at random,
// moved off it by a few float32 steps either way; segments that end at a
// corner or start there; and segments of length 0 at a corner. A segment
// across the diagonal of an axis-aligned square through its corner passes
// its center at √2 times its reach, and one that ends at the corner
// reaches no further along itself: the cases that bound the pad and the
// lanes' filter of the cells along a segment (visitSegment, near).
func TestRayCastGrazing(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 21))
	shapeWorlds(r, func(w *world.World, m *model, boxes []obb.Box, size float32) {
		for _, b := range boxes {
			corners := b.Corners()
			u := math.Atan2(float64(b.Axis.Y), float64(b.Axis.X))
			for range 16 {
				k := corners[r.IntN(4)]
				a := u + float64(r.IntN(8))*math.Pi/4
				if r.IntN(4) == 0 {
					a = r.Float64() * 2 * math.Pi
				}
				l := float64(size) * []float64{0, 0.5, 4, 30}[r.IntN(4)]
				d := obb.Vec2{X: float32(l * math.Cos(a)), Y: float32(l * math.Sin(a))}
				var p obb.Vec2
				switch r.IntN(3) {
				case 0: // through the corner
					p = obb.Vec2{X: k.X - d.X/2, Y: k.Y - d.Y/2}
				case 1: // ending at it
					p = obb.Vec2{X: k.X - d.X, Y: k.Y - d.Y}
				case 2: // starting at it
					p = k
				}
				p = obb.Vec2{X: scene.Nudge(r, p.X, 4), Y: scene.Nudge(r, p.Y, 4)}
				checkRays(t, w, m, p, d)
			}
		}
	})
}

// TestQueryPointCorners checks QueryPoint against obb.Box.ContainsPoint on
// every box at the corners of the boxes of shapeWorlds, moved off them by
// a few float32 steps either way: the corner of an axis-aligned box is as
// far from its center, on both coordinates, as the level's filter lets a
// point be (nearPoint).
func TestQueryPointCorners(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 23))
	shapeWorlds(r, func(w *world.World, m *model, boxes []obb.Box, _ float32) {
		for _, b := range boxes {
			for _, k := range b.Corners() {
				for range 4 {
					p := obb.Vec2{X: scene.Nudge(r, k.X, 4), Y: scene.Nudge(r, k.Y, 4)}
					if got, want := w.QueryPoint(nil, p, ^uint32(0)), m.point(p, ^uint32(0)); !slices.Equal(got, want) {
						t.Fatalf("QueryPoint(%v) by a corner of %v = %v, brute force %v", p, b, got, want)
					}
				}
			}
		}
	})
}
