package batch_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
)

// randomBlock returns a query and a block of boxes around it, with hostile
// values in some fields when hostile is set.
func randomBlock(r *rand.Rand, hostile bool) (batch.Query, batch.Block) {
	field := func(v float32) float32 {
		if hostile && r.IntN(8) == 0 {
			return scene.Hostile[r.IntN(len(scene.Hostile))]
		}
		return v
	}
	box := func() obb.Box {
		return obb.New(obb.Vec2{X: float32(r.NormFloat64() * 4), Y: float32(r.NormFloat64() * 4)},
			float32(0.1+4*r.Float64()), float32(0.1+4*r.Float64()), r.Float64()*7)
	}
	a := box()
	q := batch.Query{CX: field(a.Center.X), CY: field(a.Center.Y), UX: field(a.Axis.X), UY: field(a.Axis.Y), HX: field(a.Half.X), HY: field(a.Half.Y)}
	var b batch.Block
	for i := range batch.BlockLanes {
		x := box()
		b.Put(i, obb.Box{Center: obb.Vec2{X: field(x.Center.X), Y: field(x.Center.Y)}, Axis: obb.Vec2{X: field(x.Axis.X), Y: field(x.Axis.Y)}, Half: obb.Vec2{X: field(x.Half.X), Y: field(x.Half.Y)}})
	}
	return q, b
}

// blockWant is OverlapsBlock's answer by obb.Box.Overlaps, lane by lane.
func blockWant(q *batch.Query, b *batch.Block, n int) uint64 {
	a := obb.Box{Center: obb.Vec2{X: q.CX, Y: q.CY}, Axis: obb.Vec2{X: q.UX, Y: q.UY}, Half: obb.Vec2{X: q.HX, Y: q.HY}}
	var want uint64
	for i := range n {
		if a.Overlaps(b.Box(i)) {
			want |= 1 << i
		}
	}
	return want
}

// TestOverlapsBlock checks OverlapsBlock against obb.Box.Overlaps for every
// lane count, on random and hostile blocks, with every implementation.
func TestOverlapsBlock(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	testkit.ForEachImpl(t, func(t *testing.T) {
		hits := 0
		for i := range 20000 {
			q, b := randomBlock(r, i%2 == 1)
			n := i % (batch.BlockLanes + 1)
			got, want := batch.OverlapsBlock(&q, &b, n), blockWant(&q, &b, n)
			if got != want {
				t.Fatalf("block %d, %d lanes: got %016b, want %016b", i, n, got, want)
			}
			if n == batch.BlockLanes {
				hits += bitsOn(want)
			}
		}
		if hits == 0 {
			t.Fatal("no lane overlapped: the test checks nothing")
		}
	})
}

func bitsOn(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// TestOverlapsBlockPanics checks that a lane count outside 0 to 16 panics.
func TestOverlapsBlockPanics(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		var q batch.Query
		var b batch.Block
		for _, n := range []int{-1, batch.BlockLanes + 1} {
			testkit.MustPanic(t, fmt.Sprintf("OverlapsBlock of %d boxes", n), func() { batch.OverlapsBlock(&q, &b, n) })
		}
	})
}
