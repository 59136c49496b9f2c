package bench

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/bench/internal/aabbtree"
	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/kernel"
	"github.com/obb2d/obb2d/pairs"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

// pairScenes are the all-pairs scenes with their sizes. The pile stops at
// 4,000 boxes: every pair overlaps, so its output grows as n².
var pairScenes = []struct {
	name  string
	make  func(r *rand.Rand, n int, b *soa.Boxes)
	sizes []int
}{
	{"uniform", scene.Uniform, []int{1000, 10000, 100000}},
	{"rts", scene.RTS, []int{1000, 10000, 100000}},
	{"pile", scene.Pile, []int{1000, 4000}},
}

// BenchmarkAllPairs runs the all-pairs pass per scene, kernel and worker
// count, and the AABB-tree baseline (impl=aabbtree) on the same boxes. It
// reports the pairs found, ns per box and ns per candidate pair handed to
// the kernel.
func BenchmarkAllPairs(b *testing.B) {
	saved := kernel.Impl()
	defer batch.Use(saved)
	for _, sc := range pairScenes {
		for _, n := range sc.sizes {
			if testing.Short() && n > 1000 {
				continue
			}
			var boxes soa.Boxes
			sc.make(rand.New(rand.NewPCG(uint64(n), 3)), n, &boxes)
			for _, impl := range kernel.Impls() {
				for _, workers := range []int{1, 2} {
					name := fmt.Sprintf("scene=%s/impl=%s/workers=%d/n=%d", sc.name, impl, workers, n)
					b.Run(name, func(b *testing.B) {
						batch.Use(impl)
						f := pairs.Finder{Workers: workers}
						found := f.All(nil, &boxes)
						b.ReportAllocs()
						b.ResetTimer()
						for i := 0; i < b.N; i++ {
							found = f.All(found[:0], &boxes)
						}
						report(b, n, len(found), f.Candidates())
					})
				}
			}
			b.Run(fmt.Sprintf("scene=%s/impl=aabbtree/workers=1/n=%d", sc.name, n), func(b *testing.B) {
				rects := make([]aabbtree.Rect, n)
				for i := range rects {
					x := boxes.At(i)
					rects[i] = aabbtree.Rect{CX: float64(x.Center.X), CY: float64(x.Center.Y),
						UX: float64(x.Axis.X), UY: float64(x.Axis.Y), HX: float64(x.Half.X), HY: float64(x.Half.Y)}
				}
				var tree aabbtree.Tree
				var found []pairs.Pair
				candidates := 0
				pass := func() {
					tree.Reset()
					found, candidates = found[:0], 0
					for i := range rects {
						bi := rects[i].Bounds()
						tree.Query(bi, func(j int32) {
							candidates++
							if aabbtree.SAT(rects[i], rects[j]) {
								found = append(found, pairs.Pair{I: j, J: int32(i)})
							}
						})
						tree.Insert(int32(i), bi)
					}
				}
				pass()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					pass()
				}
				report(b, n, len(found), candidates)
			})
		}
	}
}

// BenchmarkSweep times batch.Sweep alone over every box of the uniform
// and RTS scenes of 100,000 boxes, sorted along x by their bounds, with
// each box's half height across the sweep as its reach: the part of an
// all-pairs pass the kernel choice changes, so the ratio of its
// implementations bounds the ratio of theirs in BenchmarkAllPairs, where
// the sort and the merge cost every kernel the same.
func BenchmarkSweep(b *testing.B) {
	saved := kernel.Impl()
	defer batch.Use(saved)
	n := 100000
	if testing.Short() {
		n = 1000
	}
	for _, sc := range pairScenes[:2] {
		var boxes soa.Boxes
		sc.make(rand.New(rand.NewPCG(uint64(n), 3)), n, &boxes)
		sorted, lo, hi, reach := sortedAlongX(&boxes)
		out := make([]batch.Hit, 1024)
		for _, impl := range kernel.Impls() {
			b.Run(fmt.Sprintf("scene=%s/impl=%s/n=%d", sc.name, impl, n), func(b *testing.B) {
				batch.Use(impl)
				hits, candidates := 0, 0
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					hits = 0
					st := batch.SweepState{Q: 0, C: 1}
					for st.Q < n {
						hits += batch.Sweep(sorted, lo, hi, reach, &st, n, out)
					}
					candidates = st.Candidates
				}
				report(b, n, hits, candidates)
			})
		}
	}
}

// sortedAlongX returns the boxes of b sorted by the start of their bounds
// on x, with those bounds and each box's half extent on y.
func sortedAlongX(b *soa.Boxes) (sorted *soa.Boxes, lo, hi, reach []float32) {
	n := b.Len()
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	x := func(i int) (lo, hi float32) { min, max := b.At(i).Bounds(); return min.X, max.X }
	slices.SortFunc(order, func(i, j int) int { a, _ := x(i); c, _ := x(j); return cmp.Compare(a, c) })
	sorted = new(soa.Boxes)
	lo, hi, reach = make([]float32, n), make([]float32, n), make([]float32, n)
	for p, i := range order {
		box := b.At(i)
		sorted.Append(box)
		lo[p], hi[p] = x(i)
		min, max := box.Bounds()
		reach[p] = (max.Y - min.Y) / 2
	}
	return sorted, lo, hi, reach
}

func report(b *testing.B, boxes, found, candidates int) {
	ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(float64(found), "pairs")
	b.ReportMetric(ns/float64(boxes), "ns/box")
	b.ReportMetric(1e9*float64(boxes)/ns, "boxes/s")
	if candidates > 0 {
		b.ReportMetric(ns/float64(candidates), "ns/candidate")
	}
}

// BenchmarkFilter is the narrow phase over a candidate list: every pair
// whose bounds overlap on x in a uniform scene, as a sweep broad phase would
// emit them, through pairs.Finder.Filter (batch.Pairs plus
// collecting the survivors). order=grouped lists each first box's candidates
// together; order=shuffled mixes them, so neighbouring pairs name unrelated
// boxes. impl=scalar is obb.Box.Overlaps in a loop over the list.
func BenchmarkFilter(b *testing.B) {
	saved := kernel.Impl()
	defer batch.Use(saved)
	boxes, orders := filterScene(b)
	for _, order := range orders {
		for _, impl := range append([]string{"scalar"}, kernel.Impls()...) {
			b.Run(fmt.Sprintf("order=%s/impl=%s/n=%d", order.name, impl, len(order.list)), func(b *testing.B) {
				var f pairs.Finder
				var hits []pairs.Pair
				run := func() { hits, _ = f.Filter(hits[:0], boxes, boxes, order.list) }
				if impl == "scalar" {
					run = func() {
						hits = hits[:0]
						for _, p := range order.list {
							if boxes.At(int(p.I)).Overlaps(boxes.At(int(p.J))) {
								hits = append(hits, p)
							}
						}
					}
				} else {
					batch.Use(impl)
				}
				run()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					run()
				}
				reportPerPair(b, len(order.list))
				b.ReportMetric(float64(len(hits)), "pairs")
			})
		}
	}
}

// BenchmarkPairKernel is batch.Pairs on the same candidate lists as
// BenchmarkFilter: every pair's two boxes gathered from the columns
// (VGATHERDPS with avx2 and avx512; the lane test in Go with generic),
// whatever the order.
func BenchmarkPairKernel(b *testing.B) {
	saved := kernel.Impl()
	defer batch.Use(saved)
	boxes, orders := filterScene(b)
	for _, order := range orders {
		ij := make([]int32, 0, 2*len(order.list))
		for _, p := range order.list {
			ij = append(ij, p.I, p.J)
		}
		out := make([]uint64, kernel.Words(len(order.list)))
		for _, impl := range kernel.Impls() {
			b.Run(fmt.Sprintf("order=%s/impl=%s/n=%d", order.name, impl, len(order.list)), func(b *testing.B) {
				batch.Use(impl)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					batch.Pairs(boxes, boxes, ij, out)
				}
				reportPerPair(b, len(order.list))
			})
		}
	}
}

// BenchmarkPairKeys is batch.PairKeys, the narrow phase of package world's
// steps, on the same candidate lists as BenchmarkPairKernel: each pair a
// key of two handles (index << 8, generation 0) and every box one 32-byte
// record, loaded whole (avx2 and avx512; the lane test in Go with
// generic).
func BenchmarkPairKeys(b *testing.B) {
	saved := kernel.Impl()
	defer batch.Use(saved)
	boxes, orders := filterScene(b)
	recs := make([]batch.Record, boxes.Len())
	for i := range recs {
		recs[i].Set(boxes.At(i))
	}
	for _, order := range orders {
		keys := make([]uint64, 0, len(order.list))
		for _, p := range order.list {
			keys = append(keys, uint64(p.I)<<40|uint64(p.J)<<8)
		}
		out := make([]uint64, kernel.Words(len(keys)))
		for _, impl := range kernel.Impls() {
			b.Run(fmt.Sprintf("order=%s/impl=%s/n=%d", order.name, impl, len(keys)), func(b *testing.B) {
				batch.Use(impl)
				b.ReportAllocs()
				for b.Loop() {
					batch.PairKeys(recs, keys, out)
				}
				reportPerPair(b, len(keys))
			})
		}
	}
}

// reportPerPair reports ns and pairs/s per candidate pair of a list of n.
func reportPerPair(b *testing.B, n int) {
	perPair := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(n)
	b.ReportMetric(perPair, "ns/pair")
	b.ReportMetric(1e9/perPair, "pairs/s")
}

// pairList is a named candidate list.
type pairList struct {
	name string
	list []pairs.Pair
}

// filterScene is the narrow-phase scene: a uniform set and every pair whose
// bounds overlap on x, as a sweep broad phase would emit them, grouped by
// first box and shuffled.
func filterScene(b *testing.B) (boxes *soa.Boxes, orders []pairList) {
	var grouped []pairs.Pair
	n := 10000
	if testing.Short() {
		n = 1000
	}
	boxes = new(soa.Boxes)
	scene.Uniform(rand.New(rand.NewPCG(uint64(n), 4)), n, boxes)
	lo, hi := make([]float32, n), make([]float32, n)
	for i := range lo {
		min, max := boxes.At(i).Bounds()
		lo[i], hi[i] = min.X, max.X
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if j != i && lo[i] <= hi[j] && lo[j] <= hi[i] {
				grouped = append(grouped, pairs.Pair{I: int32(i), J: int32(j)})
			}
		}
	}
	shuffled := append([]pairs.Pair(nil), grouped...)
	rand.New(rand.NewPCG(1, 1)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	return boxes, []pairList{{"grouped", grouped}, {"shuffled", shuffled}}
}

// BenchmarkKeepKeys is batch.KeepKeys as a World step with one box in a
// hundred moved runs it: over the pair keys of the RTS scene, in order,
// with the bits of every hundredth box's slot set; at each key it stops
// at, the benchmark drops that key, as the step does, and goes on. ns/pair
// is per key of the list.
func BenchmarkKeepKeys(b *testing.B) {
	saved := kernel.Impl()
	defer batch.Use(saved)
	for _, n := range []int{100000, 1000000} {
		if testing.Short() && n > 100000 {
			continue
		}
		boxes := worldScene("rts", scene.RTS, n)
		w := world.New()
		hs := w.InsertBoxes(nil, boxes, world.Dynamic, world.DefaultFilter)
		var keys []uint64
		for _, p := range w.Pairs(nil) {
			keys = append(keys, uint64(p.A)<<32|uint64(p.B))
		}
		touched := make([]uint64, (n+63)/64)
		for i := 0; i < n; i += 100 {
			s := hs[i] >> 8
			touched[s/64] |= 1 << (s % 64)
		}
		cur := make([]uint64, len(keys))
		for _, impl := range kernel.Impls() {
			b.Run(fmt.Sprintf("impl=%s/n=%d", impl, n), func(b *testing.B) {
				batch.Use(impl)
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					for i, c := 0, 0; i < len(keys); i++ { // i++: drop the key stopped at
						m := batch.KeepKeys(keys[i:], touched, cur[c:], nil, math.MaxUint64)
						i, c = i+m, c+m
					}
				}
				reportPerPair(b, len(keys))
			})
		}
	}
}

// BenchmarkMeets is batch.Meets (op=meets) and batch.MeetsBelow
// (op=below), the lane tests of a World's candidates, on 1,024 blocks of
// the bounds of boxes 1 wide placed at random in a square 8 on a side,
// each asked about the next block's first box: ns/op is per block of
// lanes=16 or lanes=6 (a cell of the uniform scene holds 6.4 boxes).
func BenchmarkMeets(b *testing.B) {
	saved := kernel.Impl()
	defer batch.Use(saved)
	r := rand.New(rand.NewPCG(3, 4))
	blocks := make([]batch.Bounds, 1024)
	handles := make([][batch.BlockLanes]uint32, len(blocks))
	for k := range blocks {
		for i := range batch.BlockLanes {
			x, y := 8*r.Float32(), 8*r.Float32()
			blocks[k][0][i], blocks[k][1][i], blocks[k][2][i], blocks[k][3][i] = x, y, x+1, y+1
			handles[k][i] = r.Uint32()
		}
	}
	for _, op := range []string{"meets", "below"} {
		for _, lanes := range []int{16, 6} {
			for _, impl := range kernel.Impls() {
				b.Run(fmt.Sprintf("op=%s/impl=%s/lanes=%d", op, impl, lanes), func(b *testing.B) {
					batch.Use(impl)
					met := 0
					for i := 0; b.Loop(); i++ {
						k := i & (len(blocks) - 1)
						q, next := &blocks[k], (k+1)&(len(blocks)-1)
						rect := batch.Rect{X0: q[0][0], Y0: q[1][0], X1: q[2][0], Y1: q[3][0]}
						var m uint32
						if op == "meets" {
							m = batch.Meets(&rect, &blocks[next], lanes)
						} else {
							m = batch.MeetsBelow(&rect, &blocks[next], &handles[next], handles[k][0], lanes)
						}
						met += bits.OnesCount32(m)
					}
					b.ReportMetric(float64(met)/float64(b.N), "met/op")
				})
			}
		}
	}
}
