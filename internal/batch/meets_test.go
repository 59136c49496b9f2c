package batch_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/testkit"
)

// randomBounds returns a rectangle, bounds and handles drawn from a few
// values, NaN and the infinities among them, so that every comparison
// goes both ways and ties are common; the handles straddle the sign bit.
func randomBounds(r *rand.Rand) (batch.Rect, batch.Bounds, [batch.BlockLanes]uint32, uint32) {
	vals := []float32{float32(math.NaN()), float32(math.Inf(-1)), -2, -1, 0, 1, 2, float32(math.Inf(1))}
	pick := func() float32 { return vals[r.IntN(len(vals))] }
	hs := []uint32{0, 1, 2, 0x7fffffff, 0x80000000, 0x80000001, 0xffffffff}
	handle := func() uint32 { return hs[r.IntN(len(hs))] }
	var b batch.Bounds
	var h [batch.BlockLanes]uint32
	for i := range batch.BlockLanes {
		for c := range b {
			b[c][i] = pick()
		}
		h[i] = handle()
	}
	return batch.Rect{X0: pick(), Y0: pick(), X1: pick(), Y1: pick()}, b, h, handle()
}

// meetsWant is Meets' and MeetsBelow's answer lane by lane with Go's
// operators; below false ignores h and limit.
func meetsWant(q *batch.Rect, b *batch.Bounds, h *[batch.BlockLanes]uint32, limit uint32, n int, below bool) uint32 {
	var want uint32
	for i := range n {
		miss := b[0][i] > q.X1 || q.X0 > b[2][i] || b[1][i] > q.Y1 || q.Y0 > b[3][i]
		if !miss && (!below || h[i] < limit) {
			want |= 1 << i
		}
	}
	return want
}

// TestMeets checks Meets and MeetsBelow against Go's comparisons for every
// lane count, with every implementation.
func TestMeets(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	testkit.ForEachImpl(t, func(t *testing.T) {
		var seen [2][2]int
		for i := range 40000 {
			q, b, h, limit := randomBounds(r)
			n := i % (batch.BlockLanes + 1)
			for k, below := range []bool{false, true} {
				got, want := batch.Meets(&q, &b, n), meetsWant(&q, &b, &h, limit, n, below)
				if below {
					got = batch.MeetsBelow(&q, &b, &h, limit, n)
				}
				if got != want {
					t.Fatalf("%d lanes, below %v, %+v against %v, handles %x below %x: got %016b, want %016b", n, below, q, b, h, limit, got, want)
				}
				if n == batch.BlockLanes {
					seen[k][0] += batch.BlockLanes - bitsOn(uint64(want))
					seen[k][1] += bitsOn(uint64(want))
				}
			}
		}
		for k, s := range seen {
			if s[0] < 1000 || s[1] < 1000 {
				t.Fatalf("kernel %d: lanes met %d times, missed %d: the draw no longer tests both answers", k, s[1], s[0])
			}
		}
	})
}

// TestMeetsPanics checks that a lane count outside 0 to 16 panics.
func TestMeetsPanics(t *testing.T) {
	var q batch.Rect
	var b batch.Bounds
	var h [batch.BlockLanes]uint32
	testkit.ForEachImpl(t, func(t *testing.T) {
		for _, n := range []int{-1, batch.BlockLanes + 1} {
			testkit.MustPanic(t, fmt.Sprintf("Meets of %d bounds", n), func() { batch.Meets(&q, &b, n) })
			testkit.MustPanic(t, fmt.Sprintf("Meets of %d bounds", n), func() { batch.MeetsBelow(&q, &b, &h, 0, n) })
		}
	})
}
