package world

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortKeys checks sortKeys against slices.Sort on keys that vary in
// every byte, in some bytes only (the shared ones are skipped), with
// duplicates, and on either side of radixMin.
func TestSortKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	var scratch []uint64
	for _, n := range []int{0, 1, 7, radixMin - 1, radixMin, radixMin + 1, 5000, 70000} {
		for _, mask := range []uint64{^uint64(0), 0x00ffff0100ffff01, 0xff00000000000000, 0x1f, 0} {
			keys := make([]uint64, n)
			for i := range keys {
				keys[i] = r.Uint64()&mask | 0x0100000001000000
				if i > 0 && r.IntN(8) == 0 {
					keys[i] = keys[r.IntN(i)]
				}
			}
			want := slices.Clone(keys)
			slices.Sort(want)
			var got []uint64
			got, scratch = sortKeys(keys, scratch)
			if !slices.Equal(got, want) {
				t.Fatalf("%d keys, mask %#x: not sorted", n, mask)
			}
		}
	}
}
