package world

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestEventsInShares cuts the comparison of two ascending lists of keys,
// most of them in both, into 1 to 7 shares, and checks that the shares'
// events, joined in order, are those of one comparison: a cut that parted
// a key from its copy in the other list would report it as begun in one
// share and ended in the other.
func TestEventsInShares(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		var old, cur []uint64
		for k := range uint64(r.IntN(60)) {
			switch r.IntN(4) {
			case 0:
				old = append(old, k)
			case 1:
				cur = append(cur, k)
			default:
				old, cur = append(old, k), append(cur, k)
			}
		}
		var want eventShare
		for _, k := range cur {
			if _, found := slices.BinarySearch(old, k); !found {
				want.began = append(want.began, pairOf(k))
			}
		}
		for _, k := range old {
			if _, found := slices.BinarySearch(cur, k); !found {
				want.ended = append(want.ended, pairOf(k))
			}
		}
		for n := 1; n <= 7; n++ {
			var w World
			st := &w.step
			st.ev = make([]eventShare, n)
			st.evOld, st.evCur, st.evWorkers = old, cur, n
			for k := range n {
				w.compareKeys(k)
			}
			began, ended := w.Events(nil, nil)
			if !slices.Equal(began, want.began) || !slices.Equal(ended, want.ended) {
				t.Fatalf("trial %d, %d shares: began %v ended %v, want %v and %v", trial, n, began, ended, want.began, want.ended)
			}
		}
	}
}
