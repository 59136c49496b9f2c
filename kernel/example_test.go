package kernel_test

import (
	"fmt"
	"math"

	"github.com/obb2d/obb2d/kernel"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// Test a planned building against every existing footprint at once.
func ExampleAppendOverlapping() {
	var buildings soa.Boxes
	for i := 0; i < 10; i++ {
		buildings.Append(obb.New(obb.Vec2{X: float32(5 * i), Y: 0}, 4, 4, 0))
	}
	plan := kernel.NewQuery(obb.New(obb.Vec2{X: 12, Y: 1}, 6, 2, 0.2))
	fmt.Println(kernel.AppendOverlapping(nil, &plan, &buildings))
	// Output: [2 3]
}

// The bitset form: bit i of the result is box i.
func ExampleOverlaps() {
	var boxes soa.Boxes
	for i := 0; i < 70; i++ {
		boxes.Append(obb.New(obb.Vec2{X: float32(i), Y: 0}, 0.5, 0.5, 0))
	}
	q := kernel.NewQuery(obb.FromMinMax(obb.Vec2{X: 62.9, Y: -1}, obb.Vec2{X: 65, Y: 1}))
	out := make([]uint64, kernel.Words(boxes.Len()))
	kernel.Overlaps(&q, &boxes, out)
	fmt.Printf("%#x %#x\n", out[0], out[1])
	// Output: 0x8000000000000000 0x3
}

// Several one-against-many tests in one call: unit squares on a line, each
// of boxes 0 and 3 tested against the three boxes after it.
func ExampleOverlapsRuns() {
	var boxes soa.Boxes
	for i := 0; i < 7; i++ {
		boxes.Append(obb.New(obb.Vec2{X: 0.9 * float32(i), Y: 0}, 1, 1, 0))
	}
	runs := []int32{
		0, 1, 4, // box 0 against boxes 1, 2, 3
		3, 4, 7, // box 3 against boxes 4, 5, 6
	}
	out := make([]uint64, 2)
	words := kernel.OverlapsRuns(&boxes, &boxes, runs, out)
	fmt.Printf("%d words: %03b %03b\n", words, out[0], out[1])
	// Output: 2 words: 001 001
}

// The same runs with a reach test first: boxes 2 and 5 sit higher up, so
// their centers are further apart in y than the two half heights (the reach
// of an unrotated unit square) together, and they skip the overlap test.
func ExampleOverlapsRunsPruned() {
	var boxes soa.Boxes
	reach := make([]float32, 7)
	for i := 0; i < 7; i++ {
		y := float32(0)
		if i%3 == 2 {
			y = 5
		}
		boxes.Append(obb.New(obb.Vec2{X: 0.9 * float32(i), Y: y}, 1, 1, 0))
		reach[i] = 0.5
	}
	runs := []int32{0, 1, 4, 3, 4, 7}
	out := make([]uint64, 2)
	words := kernel.OverlapsRunsPruned(&boxes, &boxes, reach, reach, runs, out)
	fmt.Printf("%d words: %03b %03b\n", words, out[0], out[1])
	// Output: 2 words: 001 001
}

// A whole sweep over boxes sorted along x: each box against the later
// boxes whose x interval starts before its own ends. Unit squares 0.9
// apart overlap their neighbours only; the reach is each square's half
// height. Sweep returns early when out is nearly full; calling it again
// with the same state goes on.
func ExampleSweep() {
	var boxes soa.Boxes
	var lo, hi, reach []float32
	for i := 0; i < 5; i++ {
		x := 0.9 * float32(i)
		boxes.Append(obb.New(obb.Vec2{X: x, Y: 0}, 1, 1, 0))
		lo, hi, reach = append(lo, x-0.5), append(hi, x+0.5), append(reach, 0.5)
	}
	var hits []kernel.Hit
	out := make([]kernel.Hit, kernel.SweepMinOut)
	for st := (kernel.SweepState{Q: 0, C: 1}); st.Q < boxes.Len(); {
		n := kernel.Sweep(&boxes, lo, hi, reach, &st, boxes.Len(), out)
		hits = append(hits, out[:n]...)
	}
	fmt.Println(hits)
	// Output: [{0 1} {1 2} {2 3} {3 4}]
}

// The README's example, kept here so that it is compiled and checked.
func Example() {
	var buildings soa.Boxes
	buildings.Append(obb.New(obb.Vec2{X: 0, Y: 0}, 8, 4, 0)) // width 8, height 4, angle 0 rad
	buildings.Append(obb.New(obb.Vec2{X: 20, Y: 3}, 6, 6, math.Pi/6))
	plan := kernel.NewQuery(obb.New(obb.Vec2{X: 5, Y: 1}, 4, 4, 0.3))
	blocked := kernel.AppendOverlapping(nil, &plan, &buildings)
	fmt.Println(blocked)
	// Output: [0]
}
