package pairs_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/pairs"
	"github.com/obb2d/obb2d/soa"
)

// TestCollideAndContacts checks the pair-list manifolds against
// obb.Box.Collide, bit for bit, on the pairs the all-pairs pass finds
// plus candidates that do not touch, with every implementation, and the
// index check.
func TestCollideAndContacts(t *testing.T) {
	var b soa.Boxes
	scene.RTS(rand.New(rand.NewPCG(4, 4)), 3000, &b)
	var f pairs.Finder
	cands := f.All(nil, &b)
	cands = append(cands, pairs.Pair{I: 0, J: 2999}, pairs.Pair{I: 5, J: 1700})
	testkit.ForEachImpl(t, func(t *testing.T) {
		for _, margin := range []float32{0, 0.25} {
			ms, err := f.Collide(nil, &b, &b, cands, margin)
			if err != nil || len(ms) != len(cands) {
				t.Fatalf("Collide: %d manifolds for %d pairs, %v", len(ms), len(cands), err)
			}
			cs, err := f.Contacts(nil, &b, &b, cands, margin)
			if err != nil {
				t.Fatal(err)
			}
			k := 0
			for i, p := range cands {
				want := b.At(int(p.I)).Collide(b.At(int(p.J)), margin)
				if ms[i] != want {
					t.Fatalf("pair %v: Collide %+v, obb %+v", p, ms[i], want)
				}
				if want.Count == 0 {
					continue
				}
				if k >= len(cs) || cs[k].Pair != p || cs[k].Manifold != want {
					t.Fatalf("Contacts[%d] is not pair %v with its manifold", k, p)
				}
				k++
			}
			if k != len(cs) {
				t.Fatalf("Contacts has %d entries, %d pairs touch", len(cs), k)
			}
		}
	})
	var ie *pairs.IndexError
	if out, err := f.Contacts(nil, &b, &b, []pairs.Pair{{I: 0, J: 3000}}, 0); !errors.As(err, &ie) || len(out) != 0 {
		t.Fatalf("pair out of range: %v, %v", out, err)
	}
}
