package world

import (
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit"
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
