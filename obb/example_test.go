package obb_test

import (
	"fmt"
	"math"

	"github.com/obb2d/obb2d/obb"
)

// A new building's footprint, rotated 30°, checked against an existing one.
func ExampleBox_Overlaps() {
	barracks := obb.New(obb.Vec2{X: 10, Y: 10}, 8, 4, 0)
	tower := obb.New(obb.Vec2{X: 15, Y: 11}, 3, 3, 30*math.Pi/180)
	farm := obb.New(obb.Vec2{X: 30, Y: 10}, 6, 6, 0)
	fmt.Println(barracks.Overlaps(tower), barracks.Overlaps(farm))
	// Output: true false
}

// Boxes that only touch overlap: the sets are closed.
func ExampleBox_Overlaps_touching() {
	a := obb.FromMinMax(obb.Vec2{X: 0, Y: 0}, obb.Vec2{X: 2, Y: 2})
	b := obb.FromMinMax(obb.Vec2{X: 2, Y: 0}, obb.Vec2{X: 4, Y: 2})
	fmt.Println(a.Overlaps(b))
	// Output: true
}

// A rotated unit against an axis-aligned map tile.
func ExampleBox_OverlapsAABB() {
	unit := obb.New(obb.Vec2{}, 10, 2, 30*math.Pi/180)
	fmt.Println(unit.OverlapsAABB(obb.Vec2{X: 4, Y: 3}, obb.Vec2{X: 5, Y: 4}))
	// Output: true
}

func ExampleFromCorners() {
	b, err := obb.FromCorners([4]obb.Vec2{{X: 0, Y: 0}, {X: 4, Y: 0}, {X: 4, Y: 2}, {X: 0, Y: 2}})
	fmt.Printf("%+v %v\n", b, err)
	_, err = obb.FromCorners([4]obb.Vec2{{X: 0, Y: 0}, {X: 4, Y: 0}, {X: 5, Y: 2}, {X: 1, Y: 2}})
	fmt.Println(err)
	// Output:
	// {Center:{X:2 Y:1} Axis:{X:1 Y:0} Half:{X:2 Y:1}} <nil>
	// obb: corners do not form a rectangle: edges are not perpendicular (skew 1)
}

func ExampleBox_Validate() {
	b := obb.New(obb.Vec2{}, 2, 2, 0)
	b.Half.Y = -1
	fmt.Println(b.Validate())
	// Output: obb: Half.Y is negative (-1)
}
