package world

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestJoinFound checks joinFound against a sort of all the keys: lists of
// found keys from one to five workers, some empty, merged with extra keys
// below, between, inside and above the lists, joined on one worker and on
// one a list.
func TestJoinFound(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	defer func() { joinChunk = pairChunk }()
	for trial := range 400 {
		n := 1 + trial%5
		var all []uint64
		for range r.IntN(60) {
			all = append(all, r.Uint64N(1000)<<32|r.Uint64N(1000))
		}
		slices.Sort(all)
		all = slices.Compact(all)
		// Every key goes to the extra ones or to a list, the lists
		// cutting the keys that are not extra into n runs.
		var ex, rest []uint64
		for _, k := range all {
			if r.IntN(6) == 0 {
				ex = append(ex, k)
			} else {
				rest = append(rest, k)
			}
		}
		w := &World{Workers: n}
		st := &w.step
		st.wk = make([][]uint64, n)
		cuts := []int{0, len(rest)}
		for range n - 1 {
			cuts = append(cuts, r.IntN(len(rest)+1))
		}
		slices.Sort(cuts)
		for k := range n {
			st.wk[k] = rest[cuts[k]:cuts[k+1]]
		}
		joinChunk = []int{1, pairChunk}[trial%2] // a worker a list, or one worker
		what := fmt.Sprintf("trial %d: lists %v, extra %v", trial, st.wk, ex)
		if got := w.joinFound(n, ex); !slices.Equal(got, all) {
			t.Fatalf("%s: found %v, want %v", what, got, all)
		}
	}
}
