// Command collide runs the library's main jobs on a generated scene. It
// builds a map (100,000 boxes by default: buildings, which are Static, and
// units, which are Dynamic) in a world.World, then
//
//   - the building-placement loop: queries the world with a batch of
//     planned buildings and prints how many placements are blocked and the
//     time per query;
//   - physics steps: moves every unit a little, asks the world for the
//     overlapping pairs and the contacts that began and ended, and prints
//     them per step, then the contact manifolds of the last step's pairs;
//
// checks both against the stateless kernels (kernel and pairs) and says
// which kernel did the work.
//
// Usage:
//
//	go run ./bench/cmd/collide [-boxes 100000] [-plans 1000] [-steps 5] [-workers 0] [-seed 1] [-kernel avx2] [-svg scene.svg]
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"time"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/kernel"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/pairs"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

func main() {
	boxes := flag.Int("boxes", 100_000, "existing footprints on the map")
	plans := flag.Int("plans", 1000, "planned buildings to check")
	seed := flag.Uint64("seed", 1, "scene seed")
	impl := flag.String("kernel", "", "kernel to use (default: the one chosen at start; see -list)")
	list := flag.Bool("list", false, "list the kernels this CPU can run and exit")
	workers := flag.Int("workers", 0, "goroutines for the physics steps (0: all cores)")
	steps := flag.Int("steps", 5, "physics steps to run")
	svg := flag.String("svg", "", "also draw a window of the scene, around the first planned building, to this SVG file")
	view := flag.Float64("view", 60, "width in world units of the -svg window")
	flag.Parse()

	if *list {
		fmt.Println(kernel.Impls())
		return
	}
	if *impl != "" {
		if err := batch.Use(*impl); err != nil {
			fmt.Fprintln(os.Stderr, "collide:", err)
			os.Exit(2)
		}
	}
	if *boxes < 0 || *plans < 0 || *steps < 0 {
		fmt.Fprintln(os.Stderr, "collide: -boxes, -plans and -steps must not be negative")
		os.Exit(2)
	}

	r := rand.New(rand.NewPCG(*seed, 0x0bb2d))
	side := scene.MapSide(*boxes)
	var boxesSoA soa.Boxes
	scene.Map(r, *boxes, side, &boxesSoA)
	if err := boxesSoA.Validate(); err != nil {
		fmt.Fprintln(os.Stderr, "collide:", "generated map is invalid:", err)
		os.Exit(1)
	}
	w := world.New()
	w.Workers = *workers
	if *workers == 0 {
		w.Workers = runtime.GOMAXPROCS(0)
	}
	// Buildings are axis-aligned (Axis.Y == 0) and Static; units are Dynamic.
	handles := make([]world.Handle, boxesSoA.Len())
	var units []int
	for i := range handles {
		kind := world.Static
		if boxesSoA.UY[i] != 0 {
			kind = world.Dynamic
			units = append(units, i)
		}
		handles[i] = w.Insert(boxesSoA.At(i), kind, world.DefaultFilter)
	}
	plansAt := make([]obb.Box, *plans)
	for i := range plansAt {
		plansAt[i] = scene.Footprint(r, side)
	}

	// The placement loop.
	var hits []world.Handle
	blocked, total := 0, 0
	start := time.Now()
	for _, p := range plansAt {
		hits = w.Query(hits[:0], p, ^uint32(0))
		total += len(hits)
		if len(hits) > 0 {
			blocked++
		}
	}
	placing := time.Since(start)
	if len(plansAt) > 0 {
		// Spot-check against the linear kernel scan, so the demo never
		// prints a wrong answer quickly.
		q := kernel.NewQuery(plansAt[0])
		if got, want := len(w.Query(nil, plansAt[0], ^uint32(0))), len(kernel.AppendOverlapping(nil, &q, &boxesSoA)); got != want {
			fmt.Fprintf(os.Stderr, "collide: the world found %d overlaps for plan 0, the kernel scan %d\n", got, want)
			os.Exit(1)
		}
	}

	fmt.Printf("kernel:        %s (available: %v)\n", kernel.Impl(), kernel.Impls())
	fmt.Printf("map:           %d boxes (%d units) on a %.0f x %.0f world (seed %d)\n", *boxes, len(units), side, side, *seed)
	fmt.Printf("placements:    %d planned, %d blocked, %d overlapping boxes in all, %.0f ns per query\n",
		*plans, blocked, total, float64(placing.Nanoseconds())/math.Max(float64(*plans), 1))

	// Physics steps: every unit moves a little, then Pairs and Events.
	var found, began, ended []world.Pair
	found = w.Pairs(found)
	for step := range *steps {
		for _, i := range units {
			boxesSoA.CX[i] += float32(r.NormFloat64() * 0.1)
			boxesSoA.CY[i] += float32(r.NormFloat64() * 0.1)
		}
		start = time.Now()
		for _, i := range units {
			w.Move(handles[i], boxesSoA.At(i))
		}
		found = w.Pairs(found[:0])
		began, ended = w.Events(began[:0], ended[:0])
		took := time.Since(start)
		fmt.Printf("step %d:        %d pairs, %d began, %d ended, in %v (%.1f ns per moved unit, %d workers)\n",
			step, len(found), len(began), len(ended), took.Round(time.Microsecond),
			float64(took.Nanoseconds())/math.Max(float64(len(units)), 1), w.Workers)
	}

	// The last step's pairs against the stateless all-pairs pass, with the
	// pairs of two buildings dropped as the world drops them.
	var finder pairs.Finder
	all := finder.All(nil, &boxesSoA)
	var want []pairs.Pair
	for _, p := range all {
		if boxesSoA.UY[p.I] != 0 || boxesSoA.UY[p.J] != 0 {
			want = append(want, p)
		}
	}
	if len(want) != len(found) {
		fmt.Fprintf(os.Stderr, "collide: the world found %d pairs, pairs.Finder %d\n", len(found), len(want))
		os.Exit(1)
	}
	if err := spotCheckPairs(&boxesSoA, all); err != nil {
		fmt.Fprintln(os.Stderr, "collide:", err)
		os.Exit(1)
	}

	// The manifolds of the last step's pairs, as a physics engine's solver
	// would take them.
	start = time.Now()
	contacts := w.Contacts(nil, found, 0)
	tookContacts := time.Since(start)
	points := 0
	for _, c := range contacts {
		points += c.Manifold.Count
	}
	fmt.Printf("contacts:      %d touching pairs, %d points, in %v (%.1f ns per pair)\n", len(contacts), points,
		tookContacts.Round(time.Microsecond), float64(tookContacts.Nanoseconds())/math.Max(float64(len(found)), 1))

	if *svg != "" && len(plansAt) > 0 {
		queries := make([]kernel.Query, len(plansAt))
		for i, p := range plansAt {
			queries[i] = kernel.NewQuery(p)
		}
		touching, _ := finder.Contacts(nil, &boxesSoA, &boxesSoA, all, 0)
		if err := writeSVG(*svg, &boxesSoA, all, touching, queries, plansAt[0].Center, float32(*view/2)); err != nil {
			fmt.Fprintln(os.Stderr, "collide:", err)
			os.Exit(1)
		}
	}
}

// spotCheckPairs compares the pairs of the first 300 boxes with brute force.
func spotCheckPairs(world *soa.Boxes, found []pairs.Pair) error {
	const k = 300
	want := 0
	for i := 0; i < min(k, world.Len()); i++ {
		for j := i + 1; j < world.Len(); j++ {
			if world.At(i).Overlaps(world.At(j)) {
				want++
			}
		}
	}
	got := 0
	for _, p := range found {
		if p.I < k {
			got++
		}
	}
	if got != want {
		return fmt.Errorf("all-pairs pass found %d pairs involving the first %d boxes, brute force %d", got, k, want)
	}
	return nil
}
