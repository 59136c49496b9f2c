package world

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestEventsInShares cuts the comparison of two ascending lists of keys,
// most of them in both, into 1 to 7 workers' shares of two lanes, and checks that the shares'
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
		var want struct{ began, ended []Pair }
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
			st.ev = make([]eventShare, 2*n)
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

// TestCompareLanes compares two lanes of ascending lists of keys at once,
// each lane's lists with runs of keys in both between keys in one, from
// none to several times mergeRun long (in one trial of four the second lane
// holds the first's lists swapped), and checks each lane's began and
// ended, appended to what the lists held, against the sets' differences.
func TestCompareLanes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	lane := func() (old, cur []uint64) {
		n := []int{0, 1, 7, 8, 9, 100, 3000}[r.IntN(7)]
		stand := []int{1, 8, 40}[r.IntN(3)] // how long a run of keys in both can be
		k := uint64(r.IntN(1000))
		for len(old)+len(cur) < 2*n {
			for range r.IntN(stand + 1) {
				old, cur = append(old, k), append(cur, k)
				k += 1 + uint64(r.IntN(3))
			}
			if r.IntN(2) == 0 {
				old = append(old, k)
			} else {
				cur = append(cur, k)
			}
			k += 1 + uint64(r.IntN(3))
		}
		return old, cur
	}
	diff := func(a, b []uint64) (d []uint64) {
		for _, k := range a {
			if _, found := slices.BinarySearch(b, k); !found {
				d = append(d, k)
			}
		}
		return d
	}
	for trial := range 400 {
		o0, c0 := lane()
		o1, c1 := lane()
		if trial%4 == 0 {
			// The other lane's lists swapped: each lane's keys then
			// match the other's at the same places, so a lane that
			// read the other's keys would go wrong.
			o1, c1 = c0, o0
		}
		pre := []uint64{1, 2, 3}[:r.IntN(4)]
		b0, e0, b1, e1 := compareLanes(o0, c0, slices.Clone(pre), slices.Clone(pre), o1, c1, slices.Clone(pre), slices.Clone(pre))
		for _, c := range []struct {
			name      string
			got, want []uint64
		}{
			{"lane 0 began", b0, diff(c0, o0)}, {"lane 0 ended", e0, diff(o0, c0)},
			{"lane 1 began", b1, diff(c1, o1)}, {"lane 1 ended", e1, diff(o1, c1)},
		} {
			if want := append(slices.Clone(pre), c.want...); !slices.Equal(c.got, want) {
				t.Fatalf("trial %d (lanes of %d and %d, %d and %d keys): %s %v, want %v", trial, len(o0), len(c0), len(o1), len(c1), c.name, c.got, want)
			}
		}
	}
}
