package batch_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/testkit"
)

// keepReference is KeepKeys as its documentation states it, one key at a
// time.
func keepReference(prev, touched, cur []uint64, next uint64) int {
	bit := func(s uint64) bool { return touched[s/64]>>(s%64)&1 == 1 }
	for i, k := range prev {
		if i == len(cur) || bit(k>>40) || bit(uint64(uint32(k)>>8)) || k > next {
			return i
		}
		cur[i] = k
	}
	return len(prev)
}

// keepCase makes n keys of slots below 64*words, sorted as package world
// keeps them, with generations in their low bytes, and a bitset of words
// words with about one slot in every spread set.
func keepCase(r *rand.Rand, n, words, spread int) (prev, touched []uint64) {
	touched = make([]uint64, words)
	for range 64 * words / spread {
		s := r.IntN(64 * words)
		touched[s/64] |= 1 << (s % 64)
	}
	for range n {
		a, b := r.IntN(64*words), r.IntN(64*words)
		prev = append(prev, uint64(a)<<40|uint64(r.IntN(256))<<32|uint64(b)<<8|uint64(r.IntN(256)))
	}
	slices.Sort(prev)
	return prev, touched
}

// sentinel32 fills the halves KeepKeys must not write.
const sentinel32 = 0xdeadbeef

// checkKeep runs KeepKeys and the reference on cur of room words, without
// pairs and with room for them, and fails unless both copy the same keys,
// KeepKeys writes their halves to pairs, and it writes nothing past them.
func checkKeep(t *testing.T, what string, prev, touched []uint64, room int, next uint64) {
	t.Helper()
	want := make([]uint64, room)
	wantN := keepReference(prev, touched, want, next)
	for _, withPairs := range []bool{false, true} {
		got := make([]uint64, room)
		for i := range got {
			got[i] = testkit.Sentinel
		}
		var pairs []uint32
		if withPairs {
			pairs = make([]uint32, 2*room+2)
			for i := range pairs {
				pairs[i] = sentinel32
			}
		}
		n := batch.KeepKeys(prev, touched, got, pairs, next)
		if n != wantN {
			t.Fatalf("%s, pairs %v: copied %d keys, want %d", what, withPairs, n, wantN)
		}
		for i := range got {
			w := want[i]
			if i >= n {
				w = testkit.Sentinel
			}
			if got[i] != w {
				t.Fatalf("%s, pairs %v: cur[%d] = %#x, want %#x (copied %d)", what, withPairs, i, got[i], w, n)
			}
		}
		for i := range pairs {
			w := uint32(sentinel32)
			if i < 2*n {
				w = uint32(want[i/2] >> (32 * (1 - i%2)))
			}
			if pairs[i] != w {
				t.Fatalf("%s: pairs[%d] = %#x, want %#x (copied %d)", what, i, pairs[i], w, n)
			}
		}
	}
}

// TestKeepKeys compares KeepKeys with the reference for every
// implementation: every length up to three groups of 8 past 64, with the
// first stop at every lane (a set bit of either box, a key above next, or
// the end of cur's room), and keys whose slots fill 24 bits, so the keys
// use the top bit the unsigned comparison with next must get right.
func TestKeepKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	testkit.ForEachImpl(t, func(t *testing.T) {
		for n := 0; n <= 64+3*8+1; n++ {
			prev, touched := keepCase(r, n, 40, 1<<30)
			for stop := 0; stop <= n; stop++ {
				what := fmt.Sprintf("%d keys, stop at %d", n, stop)
				checkKeep(t, what+", room", prev, touched, stop, math.MaxUint64)
				if stop == n {
					continue
				}
				next := prev[stop] - 1
				if stop > 0 && prev[stop-1] == prev[stop] {
					continue // equal keys: no next stops between them
				}
				checkKeep(t, what+", next", prev, touched, n, next)
				for _, second := range []bool{false, true} {
					k := prev[stop]
					s := k >> 40
					if second {
						s = uint64(uint32(k) >> 8)
					}
					marked := slices.Clone(touched)
					marked[s/64] |= 1 << (s % 64)
					checkKeep(t, fmt.Sprintf("%s, touched (second %v)", what, second), prev, marked, n+r.IntN(3), math.MaxUint64)
				}
			}
		}
		// Slots up to 2^24 - 1: keys at and above 2^63, next among them.
		for range 200 {
			prev, touched := keepCase(r, 1+r.IntN(60), 1<<18, 1<<20)
			next := prev[r.IntN(len(prev))] + uint64(r.IntN(3)) - 1
			checkKeep(t, "high keys", prev, touched, len(prev)+r.IntN(9), next)
		}
		// Many set bits: stops close together.
		for range 200 {
			prev, touched := keepCase(r, r.IntN(100), 4, 2+r.IntN(60))
			checkKeep(t, "dense bits", prev, touched, len(prev), math.MaxUint64)
		}
	})
}

// TestKeepKeysPanics checks that a key whose slot has no bit in touched
// panics with a message, after the keys before it are copied, and only
// when KeepKeys reaches it, not past the end of cur's room.
func TestKeepKeysPanics(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	testkit.ForEachImpl(t, func(t *testing.T) {
		for n := 1; n <= 40; n++ {
			prev, touched := keepCase(r, n, 3, 1<<30)
			at := r.IntN(n)
			bad := slices.Clone(prev)
			slot := uint64(3*64 + r.IntN(2))
			if r.IntN(2) == 0 {
				bad[at] = bad[at]&(1<<40-1) | slot<<40
			} else {
				bad[at] = bad[at]&^(1<<32-1) | slot<<8
			}
			cur := make([]uint64, n)
			testkit.MustPanic(t, fmt.Sprintf("batch: key %d (%#x) names slots", at, bad[at]), func() {
				batch.KeepKeys(bad, touched, cur, nil, math.MaxUint64)
			})
			if !slices.Equal(cur[:at], bad[:at]) {
				t.Fatalf("%d keys, bad key %d: the keys before it were not copied", n, at)
			}
			// With room for the keys before it only, the bad key is not tested.
			if got := batch.KeepKeys(bad, touched, cur[:at], nil, math.MaxUint64); got != at {
				t.Fatalf("%d keys, bad key %d, room for %d: copied %d", n, at, at, got)
			}
		}
	})
}

// TestKeepKeysShortPairs checks that pairs too short for the keys KeepKeys
// could copy panics before anything is written.
func TestKeepKeysShortPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 40))
	prev, touched := keepCase(r, 20, 10, 1<<30)
	testkit.ForEachImpl(t, func(t *testing.T) {
		cur, pairs := make([]uint64, 10), make([]uint32, 19)
		testkit.MustPanic(t, "batch: pairs has room for 9 pairs, need 10", func() {
			batch.KeepKeys(prev, touched, cur, pairs, math.MaxUint64)
		})
		if slices.ContainsFunc(cur, func(k uint64) bool { return k != 0 }) || slices.ContainsFunc(pairs, func(h uint32) bool { return h != 0 }) {
			t.Fatal("KeepKeys wrote before it panicked")
		}
	})
}

func TestKeepKeysAllocatesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 36))
	prev, touched := keepCase(r, 1000, 100, 50)
	cur := make([]uint64, len(prev))
	testkit.ForEachImpl(t, func(t *testing.T) {
		pairs := make([]uint32, 2*len(prev))
		if n := testing.AllocsPerRun(20, func() { batch.KeepKeys(prev, touched, cur, pairs, math.MaxUint64) }); n != 0 {
			t.Errorf("KeepKeys allocates %v times a call", n)
		}
	})
}
