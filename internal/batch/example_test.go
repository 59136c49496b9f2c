package batch_test

import (
	"fmt"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// Unit squares on a line, each of boxes 0 and 3 tested against the three
// boxes after it, with a reach test first: boxes 2 and 5 sit higher up, so
// their centers are further apart in y than the two half heights (the reach
// of an unrotated unit square) together, and they skip the overlap test.
func ExampleRunsPruned() {
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
	runs := []int32{
		0, 1, 4, // box 0 against boxes 1, 2, 3
		3, 4, 7, // box 3 against boxes 4, 5, 6
	}
	out := make([]uint64, 2)
	words := batch.RunsPruned(&boxes, &boxes, reach, reach, runs, out)
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
	var hits []batch.Hit
	out := make([]batch.Hit, batch.SweepMinOut)
	for st := (batch.SweepState{Q: 0, C: 1}); st.Q < boxes.Len(); {
		n := batch.Sweep(&boxes, lo, hi, reach, &st, boxes.Len(), out)
		hits = append(hits, out[:n]...)
	}
	fmt.Println(hits)
	// Output: [{0 1} {1 2} {2 3} {3 4}]
}
