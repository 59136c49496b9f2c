package peers

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ByteArena/box2d"
	"github.com/jakecoffman/cp/v2"

	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

// query is one library's persistent structure answering "which boxes
// overlap this footprint": setup builds it once from the boxes, and the
// returned function counts the boxes overlapping q.
type query struct {
	name  string
	setup func(boxes []obb.Box) func(q obb.Box) int
}

var queryImpls = []query{
	{"obb2d-world", func(boxes []obb.Box) func(obb.Box) int {
		w := world.New()
		for _, b := range boxes {
			w.Insert(b, world.Static, world.DefaultFilter)
		}
		var dst []world.Handle
		return func(q obb.Box) int {
			dst = w.Query(dst[:0], q, ^uint32(0))
			return len(dst)
		}
	}},
	{"box2d-tree", func(boxes []obb.Box) func(obb.Box) int {
		shapes, xfs := box2dShapes(boxes)
		tree := box2d.MakeB2DynamicTree()
		for i := range boxes {
			var b box2d.B2AABB
			shapes[i].ComputeAABB(&b, xfs[i], 0)
			tree.CreateProxy(b, int32(i))
		}
		return func(q obb.Box) int {
			qs, qx := box2dShapes([]obb.Box{q})
			var bounds box2d.B2AABB
			qs[0].ComputeAABB(&bounds, qx[0], 0)
			n := 0
			tree.Query(func(id int) bool {
				j := tree.GetUserData(id).(int32)
				if box2d.B2TestOverlapShapes(&qs[0], 0, &shapes[j], 0, qx[0], xfs[j]) {
					n++
				}
				return true
			}, bounds)
			return n
		}
	}},
	{"cp-space", func(boxes []obb.Box) func(obb.Box) int {
		space := cp.NewSpace()
		for _, b := range boxes {
			space.AddShape(chipmunkShape(b, space.StaticBody))
		}
		body := cp.NewKinematicBody()
		return func(q obb.Box) int {
			n := 0
			space.ShapeQuery(chipmunkShape(q, body), func(*cp.Shape, *cp.ContactPointSet) { n++ })
			return n
		}
	}},
}

// uniformBoxes returns the uniform scene of n boxes drawn with seed.
func uniformBoxes(n int, seed uint64) []obb.Box {
	var boxes soa.Boxes
	scene.Uniform(rand.New(rand.NewPCG(seed, 5)), n, &boxes)
	all := make([]obb.Box, n)
	for i := range all {
		all[i] = boxes.At(i)
	}
	return all
}

// BenchmarkPeerQuery asks each library's persistent structure which boxes
// of the uniform scene overlap a planned building's footprint, at a
// different place each time; the structure is built once, outside the
// timed loop. It reports the hits per query, which must agree.
func BenchmarkPeerQuery(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		if testing.Short() && n > 10000 {
			continue
		}
		all := uniformBoxes(n, uint64(n))
		side := scene.MapSide(n)
		r := rand.New(rand.NewPCG(9, 9))
		qs := make([]obb.Box, 1024)
		for i := range qs {
			qs[i] = scene.Footprint(r, side)
		}
		for _, im := range queryImpls {
			b.Run(fmt.Sprintf("world=uniform/impl=%s/n=%d", im.name, n), func(b *testing.B) {
				ask := im.setup(all)
				hits := 0
				for i := 0; b.Loop(); i++ {
					hits += ask(qs[i&1023])
				}
				b.ReportMetric(float64(hits)/float64(b.N), "hits/op")
			})
		}
	}
}
