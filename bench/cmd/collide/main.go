// Command collide runs the library's main jobs on a generated scene. It
// builds a map of existing footprints (100,000 by default), then
//
//   - the building-placement pass: checks a batch of planned buildings
//     against every footprint and prints how many placements are blocked and
//     how many boxes were tested per second;
//   - the all-pairs pass of a physics step: every overlapping pair of
//     footprints, by sort-and-sweep feeding the batch kernel, with the number
//     of pairs and the time;
//
// and says which kernel did the work.
//
// Usage:
//
//	go run ./bench/cmd/collide [-boxes 100000] [-plans 1000] [-workers 0] [-seed 1] [-kernel avx2] [-svg scene.svg]
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
	"github.com/obb2d/obb2d/pairs"
	"github.com/obb2d/obb2d/soa"
)

func main() {
	boxes := flag.Int("boxes", 100_000, "existing footprints on the map")
	plans := flag.Int("plans", 1000, "planned buildings to check")
	seed := flag.Uint64("seed", 1, "scene seed")
	impl := flag.String("kernel", "", "kernel to use (default: the one chosen at start; see -list)")
	list := flag.Bool("list", false, "list the kernels this CPU can run and exit")
	workers := flag.Int("workers", 0, "goroutines for the all-pairs pass (0: all cores)")
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
	if *boxes < 0 || *plans < 0 {
		fmt.Fprintln(os.Stderr, "collide: -boxes and -plans must not be negative")
		os.Exit(2)
	}

	r := rand.New(rand.NewPCG(*seed, 0x0bb2d))
	side := scene.MapSide(*boxes)
	var world soa.Boxes
	scene.Map(r, *boxes, side, &world)
	if err := world.Validate(); err != nil {
		fmt.Fprintln(os.Stderr, "collide: generated map is invalid:", err)
		os.Exit(1)
	}
	queries := make([]kernel.Query, *plans)
	for i := range queries {
		queries[i] = kernel.NewQuery(scene.Footprint(r, side))
	}

	hits := make([]int32, 0, 1024)
	blocked, total := 0, 0
	start := time.Now()
	for i := range queries {
		hits = kernel.AppendOverlapping(hits[:0], &queries[i], &world)
		total += len(hits)
		if len(hits) > 0 {
			blocked++
		}
	}
	elapsed := time.Since(start)

	// Spot-check the pass against the scalar test so the demo never prints a
	// wrong answer quickly.
	check := queries[0].Box()
	want := 0
	for i := 0; i < world.Len(); i++ {
		if check.Overlaps(world.At(i)) {
			want++
		}
	}
	if got := len(kernel.AppendOverlapping(nil, &queries[0], &world)); got != want {
		fmt.Fprintf(os.Stderr, "collide: kernel found %d overlaps for plan 0, obb.Box.Overlaps %d\n", got, want)
		os.Exit(1)
	}

	// The all-pairs pass, checked against brute force on a sample of boxes.
	finder := pairs.Finder{Workers: *workers}
	if *workers == 0 {
		finder.Workers = runtime.GOMAXPROCS(0)
	}
	found := finder.All(nil, &world) // warm the scratch
	start = time.Now()
	found = finder.All(found[:0], &world)
	allPairs := time.Since(start)
	if err := spotCheckPairs(&world, found); err != nil {
		fmt.Fprintln(os.Stderr, "collide:", err)
		os.Exit(1)
	}

	if *svg != "" && len(queries) > 0 {
		if err := writeSVG(*svg, &world, found, queries, queries[0].Box().Center, float32(*view/2)); err != nil {
			fmt.Fprintln(os.Stderr, "collide:", err)
			os.Exit(1)
		}
	}

	tested := float64(*boxes) * float64(*plans)
	fmt.Printf("kernel:        %s (available: %v)\n", kernel.Impl(), kernel.Impls())
	fmt.Printf("map:           %d footprints on a %.0f x %.0f world (seed %d)\n", *boxes, side, side, *seed)
	fmt.Printf("placements:    %d planned, %d blocked, %d overlapping footprints in all\n", *plans, blocked, total)
	fmt.Printf("boxes tested:  %.0f in %v: %.3g boxes/s, %.2f ns/box\n",
		tested, elapsed.Round(time.Microsecond), tested/elapsed.Seconds(), float64(elapsed.Nanoseconds())/math.Max(tested, 1))
	fmt.Printf("all pairs:     %d overlapping pairs among %d footprints in %v (%d workers, %d candidates): %.1f ns/box\n",
		len(found), world.Len(), allPairs.Round(time.Microsecond), finder.Workers, finder.Candidates(),
		float64(allPairs.Nanoseconds())/math.Max(float64(world.Len()), 1))
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
