package peers

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ByteArena/box2d"

	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/pairs"
	"github.com/obb2d/obb2d/soa"
)

// BenchmarkPeerCollide computes the contact manifolds of the pile, RTS and
// resting-stack pair lists (the overlapping pairs of each scene) with
// obb2d's pairs.Finder.Collide and with Box2D's B2CollidePolygons on the
// same boxes as B2PolygonShapes, ns per pair.
func BenchmarkPeerCollide(b *testing.B) {
	for _, l := range []struct {
		name string
		n    int
		make func(r *rand.Rand, n int, b *soa.Boxes)
	}{{"pile", 1000, scene.Pile}, {"rts", 10000, scene.RTS}, {"stacks", 10000, scene.Stacks}} {
		var boxes soa.Boxes
		l.make(rand.New(rand.NewPCG(uint64(l.n), 7)), l.n, &boxes)
		var f pairs.Finder
		list := f.All(nil, &boxes)
		all := make([]obb.Box, boxes.Len())
		for i := range all {
			all[i] = boxes.At(i)
		}
		b.Run(fmt.Sprintf("list=%s/impl=obb2d/n=%d", l.name, len(list)), func(b *testing.B) {
			ms := make([]obb.Manifold, 0, len(list))
			touching := 0
			for b.Loop() {
				ms, _ = f.Collide(ms[:0], &boxes, &boxes, list, 0)
			}
			for _, m := range ms {
				if m.Count > 0 {
					touching++
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(list)), "ns/pair")
			b.ReportMetric(float64(touching), "touching")
		})
		b.Run(fmt.Sprintf("list=%s/impl=box2d/n=%d", l.name, len(list)), func(b *testing.B) {
			shapes, xfs := box2dShapes(all)
			var m box2d.B2Manifold
			touching := 0
			for b.Loop() {
				touching = 0
				for _, p := range list {
					box2d.B2CollidePolygons(&m, &shapes[p.I], xfs[p.I], &shapes[p.J], xfs[p.J])
					if m.PointCount > 0 {
						touching++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(list)), "ns/pair")
			b.ReportMetric(float64(touching), "touching")
		})
	}
}
