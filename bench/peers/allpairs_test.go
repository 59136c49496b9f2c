package peers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ByteArena/box2d"
	"github.com/jakecoffman/cp/v2"
	"github.com/solarlune/resolv"

	"github.com/obb2d/obb2d/internal/testkit/exact"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/pairs"
	"github.com/obb2d/obb2d/soa"
)

// allPairs is one library's whole pass: it calls emit once per overlapping
// pair (i < j). setup builds the library's structures from the boxes once,
// outside the timed loop, as a game keeps them between steps; only the
// queries are timed, which favours the peers: obb2d's pass sorts from
// scratch every time.
type allPairs struct {
	name  string
	setup func(boxes *soa.Boxes) func(emit func(i, j int32))
}

var allPairsImpls = []allPairs{
	{"obb2d", setupObb2d},
	{"box2d-tree", setupBox2DTree},
	{"cp-space", setupChipmunkSpace},
	{"resolv-space", setupResolvSpace},
}

func setupObb2d(boxes *soa.Boxes) func(emit func(i, j int32)) {
	var f pairs.Finder
	var found []pairs.Pair
	return func(emit func(i, j int32)) {
		found = f.All(found[:0], boxes)
		for _, p := range found {
			emit(p.I, p.J)
		}
	}
}

// setupBox2DTree puts every box's bounds in Box2D's dynamic tree, then asks
// the tree for each box's neighbours and tests them with B2TestOverlapShapes,
// as Box2D's broad phase and contact manager do.
func setupBox2DTree(boxes *soa.Boxes) func(emit func(i, j int32)) {
	n := boxes.Len()
	all := make([]obb.Box, n)
	for i := range all {
		all[i] = boxes.At(i)
	}
	shapes, xfs := box2dShapes(all)
	tree := box2d.MakeB2DynamicTree()
	bounds := make([]box2d.B2AABB, n)
	for i := range all {
		var b box2d.B2AABB
		shapes[i].ComputeAABB(&b, xfs[i], 0)
		bounds[i] = b
		tree.CreateProxy(b, int32(i))
	}
	return func(emit func(i, j int32)) {
		for i := range bounds {
			tree.Query(func(id int) bool {
				j := tree.GetUserData(id).(int32)
				if j > int32(i) && box2d.B2TestOverlapShapes(&shapes[i], 0, &shapes[j], 0, xfs[i], xfs[j]) {
					emit(int32(i), j)
				}
				return true
			}, bounds[i])
		}
	}
}

// setupChipmunkSpace adds every box to a Chipmunk space as a static polygon
// and runs one shape query per box.
func setupChipmunkSpace(boxes *soa.Boxes) func(emit func(i, j int32)) {
	space := cp.NewSpace()
	shapes := make([]*cp.Shape, boxes.Len())
	for i := range shapes {
		shapes[i] = chipmunkShape(boxes.At(i), space.StaticBody)
		shapes[i].UserData = int32(i)
		space.AddShape(shapes[i])
	}
	return func(emit func(i, j int32)) {
		for i, s := range shapes {
			space.ShapeQuery(s, func(other *cp.Shape, _ *cp.ContactPointSet) {
				if j := other.UserData.(int32); j > int32(i) {
					emit(int32(i), j)
				}
			})
		}
	}
}

// setupResolvSpace adds every box to a resolv space of 8-unit cells (the
// largest box in the scenes is 8 units wide) and tests each box against the
// shapes in the cells it touches.
func setupResolvSpace(boxes *soa.Boxes) func(emit func(i, j int32)) {
	n := boxes.Len()
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for i := 0; i < n; i++ {
		min, max := boxes.At(i).Bounds()
		lo = [2]float64{math.Min(lo[0], float64(min.X)), math.Min(lo[1], float64(min.Y))}
		hi = [2]float64{math.Max(hi[0], float64(max.X)), math.Max(hi[1], float64(max.Y))}
	}
	const cell = 8
	dx, dy := cell-lo[0], cell-lo[1] // resolv's space starts at the origin
	space := resolv.NewSpace(int(hi[0]+dx)+2*cell, int(hi[1]+dy)+2*cell, cell, cell)
	shapes := make([]*resolv.ConvexPolygon, n)
	for i := range shapes {
		shapes[i] = resolvShape(boxes.At(i), dx, dy)
		shapes[i].SetData(int32(i))
		space.Add(shapes[i])
	}
	return func(emit func(i, j int32)) {
		for i, s := range shapes {
			s.SelectTouchingCells(0).FilterShapes().ForEach(func(other resolv.IShape) bool {
				if j := other.Data().(int32); j > int32(i) && !s.Intersection(other).IsEmpty() {
					emit(int32(i), j)
				}
				return true
			})
		}
	}
}

// BenchmarkPeerAllPairs finds every overlapping pair of the uniform and RTS
// scenes with obb2d's pairs.Finder and with each peer's broad phase plus
// narrow phase. It reports the pairs found, ns per box, and in "wrong" the
// pairs on which a peer's answer differs from the exact oracle's (pairs
// both obb2d and the peer report alike are taken as right: obb2d differs
// from the exact answer only within its rounding band).
func BenchmarkPeerAllPairs(b *testing.B) {
	for _, sc := range []struct {
		name string
		make func(r *rand.Rand, n int, b *soa.Boxes)
	}{{"uniform", scene.Uniform}, {"rts", scene.RTS}} {
		for _, n := range []int{1000, 10000} {
			if testing.Short() && n > 1000 {
				continue
			}
			var boxes soa.Boxes
			sc.make(rand.New(rand.NewPCG(uint64(n), 3)), n, &boxes)
			reference := map[pairs.Pair]bool{}
			setupObb2d(&boxes)(func(i, j int32) { reference[pairs.Pair{I: i, J: j}] = true })
			for _, im := range allPairsImpls {
				b.Run(fmt.Sprintf("scene=%s/impl=%s/n=%d", sc.name, im.name, n), func(b *testing.B) {
					pass := im.setup(&boxes)
					got := map[pairs.Pair]bool{}
					pass(func(i, j int32) { got[pairs.Pair{I: i, J: j}] = true })
					wrong := 0
					check := func(p pairs.Pair, peerSays bool) {
						if exact.Decide(boxes.At(int(p.I)), boxes.At(int(p.J))).Overlap != peerSays {
							wrong++
						}
					}
					for p := range got {
						if !reference[p] {
							check(p, true)
						}
					}
					for p := range reference {
						if !got[p] {
							check(p, false)
						}
					}
					found := 0
					count := func(i, j int32) { found++ }
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						found = 0
						pass(count)
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/box")
					b.ReportMetric(float64(found), "pairs")
					b.ReportMetric(float64(wrong), "wrong")
				})
			}
		}
	}
}
