package bench

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/kernel"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/pairs"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

// worldScenes are the persistent world's scenes: uniform and RTS from
// package scene, and mixed, the uniform scene with one box in a hundred a
// hundred times larger.
var worldScenes = []struct {
	name string
	make func(r *rand.Rand, n int, b *soa.Boxes)
}{
	{"uniform", scene.Uniform},
	{"rts", scene.RTS},
	{"mixed", func(r *rand.Rand, n int, b *soa.Boxes) {
		scene.Uniform(r, n, b)
		for i := range b.Len() {
			if r.IntN(100) == 0 {
				b.HX[i], b.HY[i] = 100*b.HX[i], 100*b.HY[i]
			}
		}
	}},
}

// worldSizes are the world benchmarks' box counts; -short stops at 100,000.
func worldSizes() []int {
	if testing.Short() {
		return []int{10000, 100000}
	}
	return []int{10000, 100000, 1000000, 4000000}
}

// worldScene returns scene sc with n boxes, made once.
func worldScene(name string, make func(*rand.Rand, int, *soa.Boxes), n int) *soa.Boxes {
	key := fmt.Sprint("world/", name, n)
	if sceneCache[key] == nil {
		var b soa.Boxes
		make(rand.New(rand.NewPCG(uint64(n), 5)), n, &b)
		sceneCache[key] = &b
	}
	return sceneCache[key]
}

// footprints are planned buildings at random places of a scene's world.
func footprints(boxes *soa.Boxes, k int) []obb.Box {
	lo, hi := boxes.CX[0], boxes.CX[0]
	for _, x := range boxes.CX {
		lo, hi = min(lo, x), max(hi, x)
	}
	r := rand.New(rand.NewPCG(9, 9))
	out := make([]obb.Box, k)
	for i := range out {
		out[i] = scene.Footprint(r, float64(hi-lo))
		out[i].Center = out[i].Center.Add(obb.Vec2{X: lo, Y: lo})
	}
	return out
}

// BenchmarkWorldQuery asks one planned building's footprint, at a
// different place each time, against a world: all hits (op=query) or the
// first (op=any); op=ray casts a 30-unit segment from the footprint's
// center along its axis for the first box it enters (World.RayCast), and
// op=sight a 3,000-unit one, a line of sight across the map.
// impl=world is the World with the default kernel;
// impl=scan-avx2 (or scan-generic where AVX2 is missing) is the linear
// scan of kernel.AppendOverlapping over the same boxes.
func BenchmarkWorldQuery(b *testing.B) {
	saved := kernel.Impl()
	defer batch.Use(saved)
	scan := "generic"
	for _, impl := range kernel.Impls() {
		if impl == "avx2" {
			scan = impl
		}
	}
	for _, sc := range worldScenes {
		for _, n := range worldSizes() {
			boxes := worldScene(sc.name, sc.make, n)
			qs := footprints(boxes, 1024)
			var w *world.World
			for _, op := range []string{"query", "any", "ray", "sight"} {
				b.Run(fmt.Sprintf("world=%s/op=%s/impl=world/n=%d", sc.name, op, n), func(b *testing.B) {
					if w == nil {
						w = world.New()
						w.InsertBoxes(nil, boxes, world.Static, world.DefaultFilter)
					}
					var dst []world.Handle
					hits := 0
					b.ReportAllocs()
					for i := 0; b.Loop(); i++ {
						q := qs[i&1023]
						switch op {
						case "any":
							if w.Any(q, ^uint32(0)) {
								hits++
							}
							continue
						case "ray", "sight":
							l := float32(30)
							if op == "sight" {
								l = 3000
							}
							if _, ok := w.RayCast(q.Center, q.Axis.Scale(l), ^uint32(0)); ok {
								hits++
							}
							continue
						}
						dst = w.Query(dst[:0], q, ^uint32(0))
						hits += len(dst)
					}
					b.ReportMetric(float64(hits)/float64(b.N), "hits/op")
				})
			}
			if n > 1000000 && testing.Short() {
				continue
			}
			b.Run(fmt.Sprintf("world=%s/op=query/impl=scan-%s/n=%d", sc.name, scan, n), func(b *testing.B) {
				batch.Use(scan)
				defer batch.Use(saved)
				var dst []int32
				hits := 0
				for i := 0; b.Loop(); i++ {
					q := kernel.NewQuery(qs[i&1023])
					dst = kernel.AppendOverlapping(dst[:0], &q, boxes)
					hits += len(dst)
				}
				b.ReportMetric(float64(hits)/float64(b.N), "hits/op")
			})
		}
	}
}

// BenchmarkWorldQueryPlaces asks the uniform world's query at 16 to 16,384
// places in turn: how much of BenchmarkWorldQuery's time (1,024 places) is
// the caches and the TLB no longer holding what the places' queries read.
func BenchmarkWorldQueryPlaces(b *testing.B) {
	n := worldSizes()[len(worldSizes())-1]
	boxes := worldScene("uniform", scene.Uniform, n)
	w := world.New()
	w.InsertBoxes(nil, boxes, world.Static, world.DefaultFilter)
	for _, places := range []int{16, 256, 1024, 16384} {
		qs := footprints(boxes, places)
		b.Run(fmt.Sprintf("world=uniform/places=%d/n=%d", places, n), func(b *testing.B) {
			var dst []world.Handle
			for i := 0; b.Loop(); i++ {
				dst = w.Query(dst[:0], qs[i%places], ^uint32(0))
			}
		})
	}
}

// BenchmarkWorldStep runs physics steps on a world of Dynamic boxes: move
// some of them (moved=100% or moved=1%) by a small random step, one Move
// each (move=each) or one MoveBoxes (move=bulk), then Pairs. It reports ns
// per box of the world and per moved box, and the part of the ns per box
// spent in the moves (move-ns/box): Pairs took the rest, including the
// block writes a large world's Moves leave to it.
func BenchmarkWorldStep(b *testing.B) {
	for _, sc := range worldScenes {
		for _, n := range worldSizes() {
			boxes := worldScene(sc.name, sc.make, n)
			for _, moved := range []int{100, 1} {
				for _, move := range []string{"each", "bulk"} {
					for _, workers := range []int{1, 2} {
						name := fmt.Sprintf("world=%s/moved=%d%%/move=%s/workers=%d/n=%d", sc.name, moved, move, workers, n)
						b.Run(name, func(b *testing.B) { benchStep(b, boxes, moved, move == "bulk", workers, nil, false) })
					}
				}
			}
		}
	}
}

// BenchmarkWorldMapStep is BenchmarkWorldStep's all-moved MoveBoxes step
// on the RTS scene as a game holds it: the buildings Static, the units
// (a third of the boxes) Dynamic and moving. ns/moved is per unit.
func BenchmarkWorldMapStep(b *testing.B) {
	for _, n := range worldSizes() {
		boxes := worldScene("rts", scene.RTS, n)
		building := func(i int) bool { return boxes.HX[i] >= 2 } // units are under 1 wide
		for _, workers := range []int{1, 2} {
			name := fmt.Sprintf("world=rts-map/moved=100%%/move=bulk/workers=%d/n=%d", workers, n)
			b.Run(name, func(b *testing.B) { benchStep(b, boxes, 100, true, workers, building, false) })
		}
	}
}

// BenchmarkWorldEvents is BenchmarkWorldStep's steps, every box moved by
// one MoveBoxes or 1% of them, with a call of Events after each Pairs, as
// a physics engine that reacts to contacts beginning and ending does: the
// difference from BenchmarkWorldStep's rows is the comparison of the two
// steps' pairs, which Pairs leaves to Events.
func BenchmarkWorldEvents(b *testing.B) {
	for _, sc := range worldScenes {
		for _, n := range worldSizes() {
			boxes := worldScene(sc.name, sc.make, n)
			for _, moved := range []int{100, 1} {
				for _, workers := range []int{1, 2} {
					name := fmt.Sprintf("world=%s/moved=%d%%/move=bulk/workers=%d/n=%d", sc.name, moved, workers, n)
					b.Run(name, func(b *testing.B) { benchStep(b, boxes, moved, true, workers, nil, true) })
				}
			}
		}
	}
}

// benchStep times steps on a world of boxes, Dynamic but for those static
// says are Static (none when static is nil), which do not move, asking for
// the events after each step when events is set.
func benchStep(b *testing.B, boxes *soa.Boxes, moved int, bulk bool, workers int, static func(int) bool, events bool) {
	n := boxes.Len()
	w := world.New()
	w.Workers = workers
	hs := make([]world.Handle, n)
	for _, k := range []world.Kind{world.Static, world.Dynamic} {
		var these soa.Boxes
		var at []int
		for i := range n {
			if (static != nil && static(i)) == (k == world.Static) {
				these.Append(boxes.At(i))
				at = append(at, i)
			}
		}
		for j, h := range w.InsertBoxes(nil, &these, k, world.DefaultFilter) {
			hs[at[j]] = h
		}
	}
	// Two poses a box alternates between, a small step apart, for the
	// Dynamic boxes that move: every one, or every hundredth.
	var step []world.Handle
	var poses [2]soa.Boxes
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < n; i += 100 / moved {
		if static != nil && static(i) {
			continue
		}
		a := boxes.At(i)
		poses[0].Append(a)
		a.Center = a.Center.Add(obb.Vec2{X: float32(r.NormFloat64() * 0.05), Y: float32(r.NormFloat64() * 0.05)})
		poses[1].Append(a)
		step = append(step, hs[i])
	}
	move := func(k int) {
		if bulk {
			w.MoveBoxes(step, &poses[k&1])
			return
		}
		for j, h := range step {
			w.Move(h, poses[k&1].At(j))
		}
	}
	// Steps before the timer until the World's pair buffers and the
	// caller's have grown to size: at least two, and then until a step
	// allocates less than 4 KiB (the runtime's records of the workers'
	// goroutines are a few hundred bytes), at most sixteen more. Pairs passes
	// four buffers around (the found pairs, the sort's other buffer, the
	// current pairs and the last call's), and each must have held the pairs
	// of the pose with more: the two poses of the RTS scene's boxes differ
	// by half. When every box moves, at least twelve: the steps that
	// serve the pairs from the candidates of fat bounds begin after a few
	// (package world's fat.go), and allocate their candidates then. When
	// one box in a hundred moves, at least forty: the candidates are built
	// when the sample of the moved boxes calls for it, after two windows
	// of 64 sampled boxes checked, some twenty steps at 10,000 boxes.
	pairs := w.Pairs(nil)
	var began, ended []world.Pair
	var ms runtime.MemStats
	least := 40
	if moved == 100 {
		least = 11
	}
	for k := range least + 16 {
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		move(k)
		pairs = w.Pairs(pairs[:0])
		if events {
			began, ended = w.Events(began[:0], ended[:0])
		}
		runtime.ReadMemStats(&ms)
		if k >= least && ms.TotalAlloc-before < 4<<10 {
			break
		}
	}
	b.ReportAllocs()
	found := 0
	var moving time.Duration
	for k := 0; b.Loop(); k++ {
		start := time.Now()
		move(k)
		moving += time.Since(start)
		pairs = w.Pairs(pairs[:0])
		if events {
			began, ended = w.Events(began[:0], ended[:0])
		}
		found += len(pairs)
	}
	ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(ns/float64(n), "ns/box")
	b.ReportMetric(float64(moving.Nanoseconds())/float64(b.N)/float64(n), "move-ns/box")
	b.ReportMetric(ns/float64(len(step)), "ns/moved")
	// The two poses can have different numbers of pairs (the RTS scene's
	// packed units: 6.1 and 10.4 a box at 10,000), so the mean over the
	// steps, not the last step's.
	b.ReportMetric(float64(found)/float64(b.N)/float64(n), "pairs/box")
}

// BenchmarkWorldLoad fills an empty World with a scene's boxes by one
// InsertBoxes, as Static boxes (a map) or Dynamic ones (bodies), and
// reports ns per box: what a level load or a world's first frame costs.
func BenchmarkWorldLoad(b *testing.B) {
	for _, sc := range worldScenes[:2] {
		for _, n := range worldSizes() {
			boxes := worldScene(sc.name, sc.make, n)
			for _, kind := range []world.Kind{world.Static, world.Dynamic} {
				name := fmt.Sprintf("world=%s/kind=%s/n=%d", sc.name, []string{"dynamic", "static"}[kind], n)
				b.Run(name, func(b *testing.B) {
					var hs []world.Handle
					for b.Loop() {
						w := world.New()
						hs = w.InsertBoxes(hs[:0], boxes, kind, world.DefaultFilter)
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/box")
					reportKept(b, n, func() any {
						w := world.New()
						hs = w.InsertBoxes(hs[:0], boxes, kind, world.DefaultFilter)
						return w
					})
				})
			}
		}
	}
}

// BenchmarkWorldInsert fills an empty World with a scene's boxes by one
// Insert each, as a game adds its buildings or units as they appear, and
// reports ns per box: the layout the World keeps as it grows
// (world/layout.go, due) against BenchmarkWorldLoad's single InsertBoxes.
func BenchmarkWorldInsert(b *testing.B) {
	for _, n := range worldSizes() {
		boxes := worldScene("uniform", scene.Uniform, n)
		b.Run(fmt.Sprintf("world=uniform/kind=dynamic/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				w := world.New()
				for i := range n {
					w.Insert(boxes.At(i), world.Dynamic, world.DefaultFilter)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/box")
		})
	}
}

// BenchmarkWorldFirstStep times the first Pairs of a World just loaded
// with a scene's Dynamic boxes by one InsertBoxes (not timed), and
// reports ns per box: the rest of a physics world's first frame after
// BenchmarkWorldLoad's, when every pair is found cell by cell and the
// step's state by slot is made.
func BenchmarkWorldFirstStep(b *testing.B) {
	for _, sc := range worldScenes[:2] {
		for _, n := range worldSizes() {
			boxes := worldScene(sc.name, sc.make, n)
			b.Run(fmt.Sprintf("world=%s/n=%d", sc.name, n), func(b *testing.B) {
				var (
					hs    []world.Handle
					pairs []world.Pair
				)
				for b.Loop() {
					b.StopTimer()
					w := world.New()
					hs = w.InsertBoxes(hs[:0], boxes, world.Dynamic, world.DefaultFilter)
					b.StartTimer()
					pairs = w.Pairs(pairs[:0])
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/box")
				reportKept(b, n, func() any {
					w := world.New()
					hs = w.InsertBoxes(hs[:0], boxes, world.Dynamic, world.DefaultFilter)
					pairs = w.Pairs(pairs[:0])
					return w
				})
			})
		}
	}
}

// reportKept reports, as kept-B/box, the heap that the World newWorld
// returns holds, per box of n: the heap live after a collection with it,
// less the heap live before newWorld ran. The caller's slices that
// newWorld fills (the handles, the pairs) have their room from the timed
// loop, so they add nothing. It runs after the timed loop, untimed.
func reportKept(b *testing.B, n int, newWorld func() any) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	w := newWorld()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(w)
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/float64(n), "kept-B/box")
}

// BenchmarkWorldDrift is the all-moved step with boxes that travel
// instead of jittering: each box has a velocity, speed times a normal
// deviate on each coordinate, and turns back every 64 steps, each box at
// its own step, so the scene keeps its density and no step finds all the
// boxes just turned. The faster the boxes, the more of them leave their fat
// bounds each step (package world's fat.go), up to the point where the step
// drops the candidates and goes cell by cell.
func BenchmarkWorldDrift(b *testing.B) {
	for _, sc := range worldScenes {
		for _, n := range worldSizes()[:2] {
			boxes := worldScene(sc.name, sc.make, n)
			for _, speed := range []float64{0.01, 0.03, 0.1, 0.3} {
				for _, workers := range []int{1, 2} {
					name := fmt.Sprintf("world=%s/speed=%g/workers=%d/n=%d", sc.name, speed, workers, n)
					b.Run(name, func(b *testing.B) { benchDrift(b, boxes, float32(speed), workers, 1) })
				}
			}
		}
	}
}

// BenchmarkWorldDriftFew is BenchmarkWorldDrift with every hundredth box
// travelling and the others at rest: steps with few moved boxes, whose
// boxes leave their fat bounds as often as BenchmarkWorldDrift's. ns/moved
// is per moving box.
func BenchmarkWorldDriftFew(b *testing.B) {
	for _, sc := range worldScenes {
		for _, n := range worldSizes()[:min(3, len(worldSizes()))] {
			boxes := worldScene(sc.name, sc.make, n)
			for _, speed := range []float64{0.01, 0.1, 0.3} {
				name := fmt.Sprintf("world=%s/speed=%g/workers=1/n=%d", sc.name, speed, n)
				b.Run(name, func(b *testing.B) { benchDrift(b, boxes, float32(speed), 1, 100) })
			}
		}
	}
}

// benchDrift times BenchmarkWorldDrift's steps with every every-th box
// travelling: one Move a moving box, then Pairs.
func benchDrift(b *testing.B, boxes *soa.Boxes, speed float32, workers, every int) {
	n := boxes.Len()
	w := world.New()
	w.Workers = workers
	hs := w.InsertBoxes(nil, boxes, world.Dynamic, world.DefaultFilter)
	r := rand.New(rand.NewPCG(1, 2))
	at := *boxes
	at.CX, at.CY = append([]float32(nil), boxes.CX...), append([]float32(nil), boxes.CY...)
	vx, vy := make([]float32, n), make([]float32, n)
	for i := range vx {
		vx[i], vy[i] = speed*float32(r.NormFloat64()), speed*float32(r.NormFloat64())
	}
	step := func(k int) {
		for i := k % 64 * every; i < n; i += 64 * every {
			vx[i], vy[i] = -vx[i], -vy[i]
		}
		for i := 0; i < n; i += every {
			at.CX[i] += vx[i]
			at.CY[i] += vy[i]
			w.Move(hs[i], at.At(i))
		}
	}
	var pairs []world.Pair
	for k := range 64 { // the margins settle
		step(k)
		pairs = w.Pairs(pairs[:0])
	}
	b.ReportAllocs()
	found := 0
	for k := 64; b.Loop(); k++ {
		step(k)
		pairs = w.Pairs(pairs[:0])
		found += len(pairs)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/box")
	if every > 1 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64((n+every-1)/every), "ns/moved")
	}
	b.ReportMetric(float64(found)/float64(b.N)/float64(n), "pairs/box")
}

// BenchmarkAllPairsScaling runs the stateless all-pairs pass
// (pairs.Finder.All) on the uniform scene at constant density from 10,000
// to 4,000,000 boxes, with the default kernel and one or two workers: ns
// per box and candidates per box should not grow with n.
func BenchmarkAllPairsScaling(b *testing.B) {
	for _, n := range worldSizes() {
		boxes := worldScene("uniform", scene.Uniform, n)
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("world=uniform/impl=%s/workers=%d/n=%d", kernel.Impl(), workers, n), func(b *testing.B) {
				f := pairs.Finder{Workers: workers}
				found := f.All(nil, boxes)
				b.ReportAllocs()
				for b.Loop() {
					found = f.All(found[:0], boxes)
				}
				report(b, n, len(found), f.Candidates())
			})
		}
	}
}
