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
