package pairs_test

import (
	"fmt"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/pairs"
	"github.com/obb2d/obb2d/soa"
)

// One physics step: every overlapping pair among the bodies.
func ExampleFinder_All() {
	var bodies soa.Boxes
	bodies.Append(
		obb.New(obb.Vec2{X: 0, Y: 0}, 4, 2, 0),
		obb.New(obb.Vec2{X: 3, Y: 1}, 2, 2, 0.8),
		obb.New(obb.Vec2{X: 10, Y: 0}, 2, 2, 0),
		obb.New(obb.Vec2{X: 11, Y: 1}, 1, 1, 0.3),
	)
	var f pairs.Finder // keep it between steps: it reuses its memory
	fmt.Println(f.All(nil, &bodies))
	// Output: [{0 1} {2 3}]
}

// The narrow phase over candidate pairs from another broad phase.
func ExampleFinder_Filter() {
	var bodies soa.Boxes
	bodies.Append(
		obb.New(obb.Vec2{X: 0, Y: 0}, 2, 2, 0),
		obb.New(obb.Vec2{X: 1.9, Y: 0}, 2, 2, 0.1),
		obb.New(obb.Vec2{X: 5, Y: 0}, 2, 2, 0),
	)
	var f pairs.Finder
	hits, err := f.Filter(nil, &bodies, &bodies, []pairs.Pair{{0, 1}, {0, 2}, {1, 2}})
	fmt.Println(hits, err)
	// Output: [{0 1}] <nil>
}

// A physics step loop: one Finder kept from step to step, on all cores.
// The bodies drift together, and the pairs appear.
func Example_step() {
	var bodies soa.Boxes
	for i := 0; i < 4; i++ {
		bodies.Append(obb.New(obb.Vec2{X: float32(3 * i)}, 2, 2, 0))
	}
	f := pairs.Finder{Workers: -1} // keep it: it reuses its memory
	var overlapping []pairs.Pair
	for step := 0; step < 3; step++ {
		for i := range bodies.CX {
			bodies.CX[i] *= 0.75 // move the bodies
		}
		overlapping = f.All(overlapping[:0], &bodies) // (I, J), I < J, sorted
		fmt.Println(step, overlapping)
	}
	// Output:
	// 0 []
	// 1 [{0 1} {1 2} {2 3}]
	// 2 [{0 1} {1 2} {2 3}]
}
