package world

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/obb"
)

// TestOverlapsAll checks the candidates' branchless test against
// obb.Box.Overlaps on every ordered pair of a set with hostile values
// (NaN, infinities, signed zeros, subnormals, huge and negative values)
// and touching and nearly touching pairs.
func TestOverlapsAll(t *testing.T) {
	b := testkit.HostileSet(rand.New(rand.NewPCG(3, 9)), 1500)
	hits := 0
	for i := range b.Len() {
		x := b.At(i)
		for j := range b.Len() {
			y := b.At(j)
			want := x.Overlaps(y)
			if got := overlapsAll(&x, &y) == 1; got != want {
				t.Fatalf("overlapsAll(%v, %v) = %v, Overlaps %v", x, y, got, want)
			}
			hits += int(b2i(want))
		}
	}
	if pairs := b.Len() * b.Len(); hits < pairs/20 || hits > pairs-pairs/20 {
		t.Fatalf("%d of %d pairs overlap: the set no longer tests both answers", hits, pairs)
	}
}

// TestMeets checks the escaped boxes' lane test against the comparisons
// it stands for, lane by lane, on fat bounds drawn from a few values
// (NaN and infinities among them) so that every comparison is met equal,
// above and below, for every count of lanes in use.
func TestMeets(t *testing.T) {
	vals := []float32{float32(math.NaN()), float32(math.Inf(-1)), -2, -1, 0, 1, 2, float32(math.Inf(1))}
	r := rand.New(rand.NewPCG(5, 7))
	pick := func() float32 { return vals[r.IntN(len(vals))] }
	seen := [2]int{}
	for range 20000 {
		var fb fatBlock
		for c := range fb {
			for lane := range fb[c] {
				fb[c][lane] = pick()
			}
		}
		lo, hi := obb.Vec2{X: pick(), Y: pick()}, obb.Vec2{X: pick(), Y: pick()}
		n := int32(r.IntN(blockLanes + 1))
		got := meets(&fb, n, lo, hi)
		for lane := range int32(blockLanes) {
			want := lane < n && !(fb[0][lane] > hi.X || lo.X > fb[2][lane] || fb[1][lane] > hi.Y || lo.Y > fb[3][lane])
			if got>>lane&1 == 1 != want {
				t.Fatalf("meets(%v, %d, %v, %v) = %016b: lane %d should be %v", fb, n, lo, hi, got, lane, want)
			}
			if lane < n {
				seen[b2i(want)]++
			}
		}
	}
	if seen[0] < 1000 || seen[1] < 1000 {
		t.Fatalf("lanes met %d times, missed %d: the draw no longer tests both answers", seen[1], seen[0])
	}
}
