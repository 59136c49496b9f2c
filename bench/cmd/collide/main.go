// Command collide runs the library's main job on a generated scene: an RTS
// building-placement pass. It builds a map of existing footprints (100,000 by
// default), then checks a batch of planned buildings against all of them and
// prints how many placements are blocked, how many boxes were tested per
// second, and which kernel did the work.
//
// Usage:
//
//	go run ./bench/cmd/collide [-boxes 100000] [-plans 1000] [-seed 1] [-kernel avx2]
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"time"

	"github.com/obb2d/obb2d/internal/scene"
	"github.com/obb2d/obb2d/kernel"
	"github.com/obb2d/obb2d/soa"
)

func main() {
	boxes := flag.Int("boxes", 100_000, "existing footprints on the map")
	plans := flag.Int("plans", 1000, "planned buildings to check")
	seed := flag.Uint64("seed", 1, "scene seed")
	impl := flag.String("kernel", "", "kernel to use (default: the one chosen at start; see -list)")
	list := flag.Bool("list", false, "list the kernels this CPU can run and exit")
	flag.Parse()

	if *list {
		fmt.Println(kernel.Impls())
		return
	}
	if *impl != "" {
		if err := kernel.SetImpl(*impl); err != nil {
			fmt.Fprintln(os.Stderr, "collide:", err)
			os.Exit(2)
		}
	}
	if *boxes < 0 || *plans < 0 {
		fmt.Fprintln(os.Stderr, "collide: -boxes and -plans must not be negative")
		os.Exit(2)
	}

	r := rand.New(rand.NewPCG(*seed, 0x0bb2d))
	// A world about 15% covered: side² ≈ 40 area units per box.
	side := math.Sqrt(40 * float64(*boxes))
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

	tested := float64(*boxes) * float64(*plans)
	fmt.Printf("kernel:        %s (available: %v)\n", kernel.Impl(), kernel.Impls())
	fmt.Printf("map:           %d footprints on a %.0f x %.0f world (seed %d)\n", *boxes, side, side, *seed)
	fmt.Printf("placements:    %d planned, %d blocked, %d overlapping footprints in all\n", *plans, blocked, total)
	fmt.Printf("boxes tested:  %.0f in %v: %.3g boxes/s, %.2f ns/box\n",
		tested, elapsed.Round(time.Microsecond), tested/elapsed.Seconds(), float64(elapsed.Nanoseconds())/math.Max(tested, 1))
}
