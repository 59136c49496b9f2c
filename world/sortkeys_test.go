package world

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortKeys checks sortKeys against slices.Sort: on keys that vary in
// every byte, in some bytes only (the shared ones are skipped), with
// duplicates, and on either side of radixMin, which take the byte sort
// unless their generation bytes agree; and on keys of handles with
// generation 1 and slots below 1 to 2²⁴, which take the slot-pair digits,
// with one key of generation 2 among them sending them to the byte sort.
func TestSortKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	var scratch []uint64
	check := func(keys []uint64, slots int, what string) {
		t.Helper()
		want := slices.Clone(keys)
		slices.Sort(want)
		var got []uint64
		got, scratch = sortKeys(keys, scratch, slots)
		if !slices.Equal(got, want) {
			t.Fatalf("%d keys, %s: not sorted", len(keys), what)
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
