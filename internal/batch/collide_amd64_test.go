//go:build amd64 && gc && !purego

package batch_test

import (
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/obb"
)

// TestCollideKernelLeavesFewToGo checks that the assembly decides the pairs
// itself: on finite pairs it leaves to Go only those whose first clip
// fails, which Collide's near-tie rule makes rare (at most 5% of these
// generated pairs, built to touch corner to corner and nearly), and every pair it
// decides is Collide's manifold, bit for bit. A kernel that left every
// pair to Go would pass TestCollideColumns; it fails here.
func TestCollideKernelLeavesFewToGo(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 36))
	ps := contactPairs(r, 10000, false)
	cols := pairColumns(ps)
	testkit.EachImpl(func(impl string) {
		if impl == "generic" {
			return
		}
		for _, margin := range collideMargins[:3] {
			out := make([]obb.Manifold, len(ps))
			left := batch.CollideKernel(cols, len(ps), margin, out)
			marked := 0
			for k, p := range ps {
				if out[k].Count < 0 {
					marked++
					continue
				}
				want := p.A.Collide(p.B, margin)
				if manifoldBits(&out[k]) != manifoldBits(&want) {
					t.Fatalf("%s, margin %v, pair %d: kernel %+v, Collide %+v", impl, margin, k, out[k], want)
				}
			}
			if marked != left || left > len(ps)/20 {
				t.Fatalf("%s, margin %v: the kernel left %d of %d pairs to Go and marked %d", impl, margin, left, len(ps), marked)
			}
			t.Logf("%s, margin %v: %d of %d pairs left to Go", impl, margin, left, len(ps))
		}
	})
}
