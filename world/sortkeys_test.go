package world

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortKeys checks sortKeys and sortSparse against slices.Sort: on keys
// that vary in every byte, in some bytes only (the shared ones are
// skipped), with duplicates, and on either side of radixMin, which take
// the byte sort unless their generation bytes agree; and on keys of
// handles with generation 1 and slots below 1 to 2²⁴, which take the
// slot-pair digits, with one key of generation 2 among them sending them
// to the byte sort. sortSparse sorts fewer than sparseMin keys by
// slices.Sort, and the others in buckets (bucketSparse, checked at every
// size too): those whose first slots vary in their top bits only, or not
// at all, crowd a few buckets, which it sorts by slices.Sort.
func TestSortKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	var scratch []uint64
	var counts []int32
	check := func(keys []uint64, slots int, what string) {
		t.Helper()
		want := slices.Clone(keys)
		slices.Sort(want)
		var got []uint64
		sparse := slices.Clone(keys)
		got, scratch = sortKeys(keys, scratch, slots)
		if !slices.Equal(got, want) {
			t.Fatalf("%d keys, %s: not sorted", len(keys), what)
		}
		buckets := slices.Clone(sparse)
		got, scratch, counts = sortSparse(sparse, scratch, counts, slots)
		if !slices.Equal(got, want) {
			t.Fatalf("%d keys, %s: sortSparse did not sort them", len(keys), what)
		}
		got, scratch, counts = bucketSparse(buckets, scratch, counts, slots)
		if !slices.Equal(got, want) {
			t.Fatalf("%d keys, %s: bucketSparse did not sort them", len(keys), what)
		}
	}
	sizes := []int{0, 1, 7, radixMin - 1, radixMin, radixMin + 1, 5000, 70000}
	for _, n := range sizes {
		for _, mask := range []uint64{^uint64(0), 0x00ffff0100ffff01, 0xff00000000000000, 0x1f, 0} {
			keys := make([]uint64, n)
			for i := range keys {
				keys[i] = r.Uint64()&mask | 0x0100000001000000
				if i > 0 && r.IntN(8) == 0 {
					keys[i] = keys[r.IntN(i)]
				}
			}
			check(keys, maxSlots, "random bits")
		}
		for _, slots := range []int{1, 2, 3, 255, 256, 100000, 1 << 17, 1<<17 + 1, 4000000, maxSlots} {
			for _, reused := range []bool{false, true} {
				keys := make([]uint64, n)
				for i := range keys {
					a, b := makeHandle(int32(r.IntN(slots)), 1), makeHandle(int32(r.IntN(slots)), 1)
					if reused && i == n/2 {
						b = makeHandle(int32(r.IntN(slots)), 2)
					}
					keys[i] = uint64(a)<<32 | uint64(b)
				}
				check(keys, slots, "handles")
			}
		}
	}
}

// TestSortFound checks sortFound against slices.Sort, for 1 to 5 workers'
// lists of keys of handles, of lengths on either side of radixMin and
// empty ones, with generation 1 (the slot-pair digits: three passes for
// these slots, so the sorted list ends in the other buffer) and with one
// key of generation 2 (the byte sort: four passes).
func TestSortFound(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var w World
	for range 100000 {
		w.slots = append(w.slots, slot{gen: 1, live: true})
	}
	lengths := []int{0, 3, radixMin - 1, radixMin + 1, 2000, 9000}
	for n := 1; n <= 5; n++ {
		for _, reused := range []bool{false, true} {
			for trial := range 20 {
				st := &w.step
				st.found, st.parts = st.found[:0], st.parts[:0]
				for range n {
					st.parts = append(st.parts, len(st.found))
					for range lengths[r.IntN(len(lengths))] {
						a, b := makeHandle(int32(r.IntN(len(w.slots))), 1), makeHandle(int32(r.IntN(len(w.slots))), 1)
						st.found = append(st.found, uint64(a)<<32|uint64(b))
					}
				}
				st.parts = append(st.parts, len(st.found))
				if reused && len(st.found) > 0 {
					st.found[r.IntN(len(st.found))] |= 2 // generation 3 for one B
				}
				want := slices.Clone(st.found)
				slices.Sort(want)
				w.sortFound(n)
				if !slices.Equal(st.found, want) {
					t.Fatalf("%d workers, trial %d, reused=%v: %d keys not sorted", n, trial, reused, len(want))
				}
			}
		}
	}
}

// TestMergeInPieces merges two ascending lists in 1 to 7 pieces cut by
// coRank, with keys in both lists and runs of equal ones, and checks that
// the pieces join into the merge.
func TestMergeInPieces(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 11))
	for trial := range 500 {
		x, y := make([]uint64, r.IntN(40)), make([]uint64, r.IntN(40))
		for i := range x {
			x[i] = uint64(r.IntN(30))
		}
		for i := range y {
			y[i] = uint64(r.IntN(30))
		}
		slices.Sort(x)
		slices.Sort(y)
		want := slices.Sorted(slices.Values(append(slices.Clone(x), y...)))
		for m := 1; m <= 7; m++ {
			got := make([]uint64, len(want))
			for q := range m {
				p0, p1 := q*len(got)/m, (q+1)*len(got)/m
				i0, i1 := coRank(p0, x, y), coRank(p1, x, y)
				if i0 > i1 || p0-i0 > p1-i1 {
					t.Fatalf("trial %d, %d pieces: piece %d has x[%d:%d], y[%d:%d]", trial, m, q, i0, i1, p0-i0, p1-i1)
				}
				mergeKeys(got[p0:p1], x[i0:i1], y[p0-i0:p1-i1])
			}
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d, %d pieces: %v, want %v", trial, m, got, want)
			}
		}
	}
}

// TestSortBuckets checks sortBuckets against slices.Sort on 1 to 4
// workers' lists, for slot counts that give it no digit within a bucket
// (3 slots), two, three and four (the sorted keys then end in st.found or
// in the other buffer), with buckets of every size from empty to most of
// the keys (one slot holds a key in eight as its A), and checks that it
// declines keys whose generations differ, which sortFound then sorts.
func TestSortBuckets(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 12))
	for _, slots := range []int{3, 300, 100000, 1 << 20} {
		var w World
		w.slots = make([]slot, slots)
		for _, n := range []int{1, 2, 3, 4} {
			for _, size := range []int{bucketMin, 3 * bucketMin} {
				st := &w.step
				st.found, st.parts = st.found[:0], st.parts[:0]
				for k := range n {
					st.parts = append(st.parts, len(st.found))
					for range (k + 1) * size / (n * (n + 1) / 2) {
						a, b := r.IntN(slots), r.IntN(slots)
						if r.IntN(8) == 0 {
							a = slots / 3
						}
						st.found = append(st.found, uint64(makeHandle(int32(min(a, b)), 1))<<32|uint64(makeHandle(int32(max(a, b)), 1)))
					}
				}
				st.parts = append(st.parts, len(st.found))
				want := slices.Clone(st.found)
				slices.Sort(want)
				st.spare = slices.Grow(st.spare[:0], len(st.found))[:len(st.found)]
				if !w.sortBuckets(n) {
					t.Fatalf("%d slots, %d workers: sortBuckets declined keys of one generation", slots, n)
				}
				if !slices.Equal(st.found, want) {
					t.Fatalf("%d slots, %d workers, %d keys: not sorted", slots, n, len(want))
				}
				if !slices.Equal(st.parts, []int{0, len(want)}) {
					t.Fatalf("%d slots, %d workers: parts %v after the sort", slots, n, st.parts)
				}
				// A key of another generation: sortBuckets declines, and
				// sortFound sorts the keys its other way.
				st.found = append(st.found[:0], want...)
				r.Shuffle(len(st.found), func(i, j int) { st.found[i], st.found[j] = st.found[j], st.found[i] })
				st.found[len(st.found)/2] |= 2
				st.parts = append(st.parts[:0], 0)
				for k := range n {
					st.parts = append(st.parts, (k+1)*len(st.found)/n)
				}
				want = slices.Sorted(slices.Values(st.found))
				st.spare = slices.Grow(st.spare[:0], len(st.found))[:len(st.found)]
				if w.sortBuckets(n) {
					t.Fatalf("%d slots, %d workers: sortBuckets took keys of two generations", slots, n)
				}
				w.sortFound(n)
				if !slices.Equal(st.found, want) {
					t.Fatalf("%d slots, %d workers, %d keys of two generations: not sorted", slots, n, len(want))
				}
			}
		}
	}
}
