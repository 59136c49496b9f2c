// Package bench holds obb2d's benchmarks, written for benchstat:
//
//	go test ./bench -run '^$' -bench . -count 10 > new.txt
//	benchstat -col /impl new.txt
//
// Sub-benchmarks are named impl=<name>/n=<boxes> so that benchstat puts the
// implementations side by side. Besides the kernels (generic, avx2, avx512)
// two baselines run in the same process: impl=scalar, obb.Box.Overlaps in a
// loop, and impl=floor, a plain read of the same six columns with nothing
// computed (the memory floor). BenchmarkSeedPorts times re-implementations
// of the articles obb2d started from (impl=flipcode, xna, as3; package
// bench/internal/seeds) beside them, and TestSeedPortAnswers counts their
// wrong answers against the exact oracle. The box counts are chosen from
// this machine's cache sizes, which the run prints as configuration lines.
// Published Go engines are compared in the separate module bench/peers.
package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/klauspost/cpuid/v2"

	"github.com/obb2d/obb2d/bench/internal/memfloor"
	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/kernel"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

func TestMain(m *testing.M) {
	// benchstat reads "key: value" lines before the results as configuration.
	c := cpuid.CPU
	fmt.Printf("cpu-brand: %s\n", c.BrandName)
	fmt.Printf("cache-l1d: %d\ncache-l2: %d\ncache-l3: %d\n", c.Cache.L1D, c.Cache.L2, c.Cache.L3)
	fmt.Printf("cores: %d physical, %d logical\n", c.PhysicalCores, c.LogicalCores)
	fmt.Printf("vm: %v\n", c.VM())
	fmt.Printf("kernel-default: %s\nkernels: %s\nmemfloor: %s\n", kernel.Impl(), strings.Join(kernel.Impls(), ","), memfloor.Impl())
	os.Exit(m.Run())
}

// cacheSize returns a cache level's size in bytes, or fallback when the CPU
// does not report it.
func cacheSize(v, fallback int) int {
	if v <= 0 {
		return fallback
	}
	return v
}

// sizes returns box counts whose columns fill about half of L1D, L2 and L3,
// one four times L3, and 4096 (the size the README's ratio is quoted at).
func sizes() []int {
	c := cpuid.CPU.Cache
	round := func(bytes int) int { return max(64, bytes/soa.BytesPerBox/64*64) }
	l1 := round(cacheSize(c.L1D, 32<<10) / 2)
	l2 := round(cacheSize(c.L2, 1<<20) / 2)
	l3 := round(cacheSize(c.L3, 32<<20) / 2)
	far := round(4 * cacheSize(c.L3, 32<<20))
	if testing.Short() {
		far = l3
	}
	set := map[int]bool{}
	var ns []int
	for _, n := range []int{l1, 4096, l2, l3, far} {
		if !set[n] {
			set[n] = true
			ns = append(ns, n)
		}
	}
	return ns
}

// Scenes are made once per size and shared by every implementation.
var sceneCache = map[string]*soa.Boxes{}

// mapScene is the building-placement scene: footprints spread over a world
// about 15% covered, queried with one planned building; most boxes are far
// away, so many groups are settled on the query's first two axes.
func mapScene(n int) (*soa.Boxes, obb.Box) {
	p := placements[n]
	if p == nil {
		p = new(placement)
		p.query = scene.Placement(n, &p.boxes)
		placements[n] = p
	}
	return &p.boxes, p.query
}

// placement is one size of the map scene, made once.
type placement struct {
	boxes soa.Boxes
	query obb.Box
}

var placements = map[int]*placement{}

// denseScene puts every box within a few box sizes of the query, so about
// half overlap and no group is settled early: the kernels' worst case.
func denseScene(n int) (*soa.Boxes, obb.Box) {
	key := fmt.Sprint("dense", n)
	if sceneCache[key] == nil {
		r := rand.New(rand.NewPCG(uint64(n), 2))
		var b soa.Boxes
		b.Grow(n)
		for i := 0; i < n; i++ {
			c := obb.Vec2{X: float32(r.NormFloat64() * 6), Y: float32(r.NormFloat64() * 6)}
			b.Append(obb.New(c, float32(1+r.Float64()*4), float32(1+r.Float64()*4), r.Float64()*math.Pi))
		}
		sceneCache[key] = &b
	}
	return sceneCache[key], obb.New(obb.Vec2{}, 5, 3, 0.4)
}

func BenchmarkOverlaps(b *testing.B)      { benchScene(b, mapScene, sizes()) }
func BenchmarkOverlapsDense(b *testing.B) { benchScene(b, denseScene, sizes()) }

// BenchmarkOverlapsShort measures calls on a few boxes, as a sweep-and-prune
// broad phase makes them. With fewer boxes than one vector group the
// assembly runs only its masked-load tail, so impl=avx2/n=7 against
// impl=generic/n=7 says whether the masked tail beats handing the tail to Go.
func BenchmarkOverlapsShort(b *testing.B) { benchScene(b, denseScene, []int{1, 7, 15, 33, 63}) }

// impls are the kernels plus the three baselines.
func impls() []string {
	return append([]string{"scalar", "scalar-columns", "floor"}, kernel.Impls()...)
}

func benchScene(b *testing.B, make func(n int) (*soa.Boxes, obb.Box), ns []int) {
	saved := kernel.Impl()
	defer batch.Use(saved)
	for _, n := range ns {
		boxes, query := make(n)
		for _, impl := range impls() {
			b.Run(fmt.Sprintf("impl=%s/n=%d", impl, n), func(b *testing.B) {
				b.SetBytes(int64(n * soa.BytesPerBox))
				measure(b, n, runner(b, impl, boxes, query))
			})
		}
	}
}

// measure times run, one pass over n boxes, and reports ns and boxes/s per box.
func measure(b *testing.B, n int, run func()) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run()
	}
	perBox := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(n)
	b.ReportMetric(perBox, "ns/box")
	b.ReportMetric(1e9/perBox, "boxes/s")
}

var sink uint64

// runner returns one pass of impl over boxes.
func runner(b *testing.B, impl string, boxes *soa.Boxes, query obb.Box) func() {
	out := make([]uint64, kernel.Words(boxes.Len()))
	q := kernel.NewQuery(query)
	switch impl {
	case "floor":
		return func() { sink += uint64(memfloor.Read(boxes)) }
	case "scalar":
		return func() {
			n := boxes.Len()
			cx, cy, ux, uy, hx, hy := boxes.CX[:n], boxes.CY[:n], boxes.UX[:n], boxes.UY[:n], boxes.HX[:n], boxes.HY[:n]
			for i := 0; i < n; i++ {
				if query.Overlaps(obb.Box{Center: obb.Vec2{X: cx[i], Y: cy[i]}, Axis: obb.Vec2{X: ux[i], Y: uy[i]}, Half: obb.Vec2{X: hx[i], Y: hy[i]}}) {
					out[i>>6] |= 1 << (i & 63)
				}
			}
		}
	case "scalar-columns":
		return func() { scalarColumns(query, boxes, out) }
	}
	if err := batch.Use(impl); err != nil {
		b.Fatal(err)
	}
	return func() { kernel.Overlaps(&q, boxes, out) }
}

// scalarColumns is the plain loop a user would write over the columns: the
// query's fields in locals, the separating-axis test of package obb written
// out with an early return after each axis, and the bitset built a word at
// a time. The generic kernel must be at least as fast.
func scalarColumns(q obb.Box, boxes *soa.Boxes, out []uint64) {
	n := boxes.Len()
	cx, cy, ux, uy, hx, hy := boxes.CX[:n], boxes.CY[:n], boxes.UX[:n], boxes.UY[:n], boxes.HX[:n], boxes.HY[:n]
	qcx, qcy, qux, quy, qhx, qhy := q.Center.X, q.Center.Y, q.Axis.X, q.Axis.Y, q.Half.X, q.Half.Y
	abs := func(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }
	var word uint64
	for i := 0; i < n; i++ {
		dx, dy := cx[i]-qcx, cy[i]-qcy
		ac := abs(float32(qux*ux[i]) + float32(quy*uy[i]))
		as := abs(float32(qux*uy[i]) - float32(quy*ux[i]))
		hit := abs(float32(dx*qux)+float32(dy*quy)) <= qhx+(float32(hx[i]*ac)+float32(hy[i]*as)) &&
			abs(float32(dy*qux)-float32(dx*quy)) <= qhy+(float32(hx[i]*as)+float32(hy[i]*ac)) &&
			abs(float32(dx*ux[i])+float32(dy*uy[i])) <= hx[i]+(float32(qhx*ac)+float32(qhy*as)) &&
			abs(float32(dy*ux[i])-float32(dx*uy[i])) <= hy[i]+(float32(qhx*as)+float32(qhy*ac))
		if hit {
			word |= 1 << (i & 63)
		}
		if i&63 == 63 {
			out[i>>6] = word
			word = 0
		}
	}
	if n&63 != 0 {
		out[n>>6] = word
	}
}
