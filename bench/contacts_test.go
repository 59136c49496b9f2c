package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/pairs"
	"github.com/obb2d/obb2d/soa"
)

// contactLists are the pair lists the manifold benchmarks run on: every
// pair of a pile (deep overlaps), the overlapping pairs of the RTS scene,
// and those of resting stacks (scene.Stacks).
var contactLists = []struct {
	name string
	n    int
	make func(r *rand.Rand, n int, b *soa.Boxes)
}{
	{"pile", 1000, scene.Pile},
	{"rts", 10000, scene.RTS},
	{"stacks", 10000, scene.Stacks},
}

// contactList returns list l's boxes and overlapping pairs, made once.
func contactList(name string, n int, make func(*rand.Rand, int, *soa.Boxes)) (*soa.Boxes, []pairs.Pair) {
	key := fmt.Sprint("contacts/", name, n)
	if sceneCache[key] == nil {
		var b soa.Boxes
		make(rand.New(rand.NewPCG(uint64(n), 7)), n, &b)
		sceneCache[key] = &b
	}
	b := sceneCache[key]
	var f pairs.Finder
	return b, f.All(nil, b)
}

// BenchmarkCollide computes the contact manifolds of each pair list with
// every implementation (op=collide: pairs.Finder.Collide, one obb.Manifold
// per pair), and, for scale, decides the same list's overlaps (op=filter:
// pairs.Finder.Filter). It reports ns per pair.
func BenchmarkCollide(b *testing.B) {
	for _, l := range contactLists {
		boxes, list := contactList(l.name, l.n, l.make)
		testkit.EachImpl(func(impl string) {
			b.Run(fmt.Sprintf("list=%s/op=collide/impl=%s/n=%d", l.name, impl, len(list)), func(b *testing.B) {
				var f pairs.Finder
				ms := make([]obb.Manifold, 0, len(list))
				b.ReportAllocs()
				for b.Loop() {
					ms, _ = f.Collide(ms[:0], boxes, boxes, list, 0)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(list)), "ns/pair")
			})
			b.Run(fmt.Sprintf("list=%s/op=filter/impl=%s/n=%d", l.name, impl, len(list)), func(b *testing.B) {
				var f pairs.Finder
				hits := make([]pairs.Pair, 0, len(list))
				b.ReportAllocs()
				for b.Loop() {
					hits, _ = f.Filter(hits[:0], boxes, boxes, list)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(list)), "ns/pair")
			})
		})
	}
}
