package batch_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/soa"
)

// scalarPairBits is the bitset obb.Box.Overlaps gives for each pair.
func scalarPairBits(a, b *soa.Boxes, ij []int32) []uint64 {
	out := make([]uint64, batch.Words(len(ij)/2))
	for k := 0; k < len(ij)/2; k++ {
		if a.At(int(ij[2*k])).Overlaps(b.At(int(ij[2*k+1]))) {
			out[k/64] |= 1 << (k % 64)
		}
	}
	return out
}

// randomPairs names n pairs of boxes of a (na boxes) and b (nb boxes),
// always including the last box of each, where an overrun would start.
func randomPairs(r *rand.Rand, n, na, nb int) []int32 {
	ij := make([]int32, 2*n)
	for k := 0; k < n; k++ {
		ij[2*k], ij[2*k+1] = int32(r.IntN(na)), int32(r.IntN(nb))
	}
	if n > 0 {
		ij[2*(n-1)], ij[1] = int32(na-1), int32(nb-1)
	}
	return ij
}

func checkPairBits(t *testing.T, a, b *soa.Boxes, ij []int32) {
	t.Helper()
	n := len(ij) / 2
	want := scalarPairBits(a, b, ij)
	buf := make([]uint64, batch.Words(n)+2)
	for i := range buf {
		buf[i] = testkit.Sentinel
	}
	batch.Pairs(a, b, ij, buf[:batch.Words(n)])
	expectBits(t, n, buf, want, func(k int) string { return fmt.Sprintf("%+v against %+v", a.At(int(ij[2*k])), b.At(int(ij[2*k+1]))) })
}

// expectBits fails t unless buf, two words longer than the bitset of n
// pairs that was asked for, holds want and then two sentinels. pair says
// what pair k was, for the message.
func expectBits(t *testing.T, n int, buf, want []uint64, pair func(k int) string) {
	t.Helper()
	if buf[batch.Words(n)] != testkit.Sentinel || buf[batch.Words(n)+1] != testkit.Sentinel {
		t.Fatalf("n=%d: wrote past the bitset's %d words", n, batch.Words(n))
	}
	for w := range want {
		if buf[w] != want[w] {
			k := w*64 + bits.TrailingZeros64(buf[w]^want[w])
			t.Fatalf("n=%d: word %d = %#x, want %#x; first differing pair %d: %s", n, w, buf[w], want[w], k, pair(k))
		}
	}
}

// pairCounts is every pair count up to three groups of sixteen (the
// widest kernel's) past a whole word, and a few large ones.
func pairCounts() []int {
	var counts []int
	for n := 0; n <= 64+3*16+1; n++ {
		counts = append(counts, n)
	}
	return append(counts, 127, 128, 129, 1000, 4096)
}

// TestPairsMatchesScalar runs every implementation on every pair
// count up to three groups of sixteen past a whole word, and a few large
// ones, with ordinary and with hostile boxes (NaN, infinities, signed zeros,
// denormals, negative extents), within one set and between two.
func TestPairsMatchesScalar(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(21, 22))
		for _, n := range pairCounts() {
			a, b := testkit.RandomSet(r, 1+r.IntN(50)), testkit.RandomSet(r, 1+r.IntN(50))
			checkPairBits(t, a, b, randomPairs(r, n, a.Len(), b.Len()))
			checkPairBits(t, a, a, randomPairs(r, n, a.Len(), a.Len()))
			h, g := testkit.HostileSet(r, 1+r.IntN(50)), testkit.HostileSet(r, 1+r.IntN(50))
			checkPairBits(t, h, g, randomPairs(r, n, h.Len(), g.Len()))
		}
		// Both answers must occur, or the comparison proves little.
		a := testkit.RandomSet(r, 200)
		ij := randomPairs(r, 4096, 200, 200)
		ones := 0
		for _, w := range scalarPairBits(a, a, ij) {
			ones += bits.OnesCount64(w)
		}
		if ones == 0 || ones == 4096 {
			t.Fatalf("%d of 4096 pairs overlap: the test scene does not test both answers", ones)
		}
	})
}

func TestPairsPanicsBeforeWriting(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 3))
		a, b := testkit.RandomSet(r, 10), testkit.RandomSet(r, 20)
		ij := randomPairs(r, 130, 10, 20)
		fresh := func() []uint64 { return []uint64{testkit.Sentinel, testkit.Sentinel, testkit.Sentinel} }
		untouched := func(out []uint64) {
			t.Helper()
			for _, w := range out {
				if w != testkit.Sentinel {
					t.Fatal("Pairs wrote before panicking")
				}
			}
		}
		out := fresh()
		testkit.MustPanic(t, "odd length 259", func() { batch.Pairs(a, b, ij[:259], out) })
		untouched(out)
		testkit.MustPanic(t, "out has 2 words, need 3 for 130 pairs", func() { batch.Pairs(a, b, ij, out[:2]) })
		untouched(out)
		for _, bad := range []struct {
			at   int
			v    int32
			want string
		}{{0, 10, "pair 0: first index 10 is outside [0, 10)"}, {2 * 129, -1, "pair 129: first index -1"},
			{2*64 + 1, 20, "pair 64: second index 20 is outside [0, 20)"}} {
			bad2 := append([]int32(nil), ij...)
			bad2[bad.at] = bad.v
			testkit.MustPanic(t, bad.want, func() { batch.Pairs(a, b, bad2, out) })
			untouched(out)
		}
		short := *b
		short.HY = short.HY[:19]
		testkit.MustPanic(t, "unequal lengths", func() { batch.Pairs(a, &short, ij, out) })
		untouched(out)
	})
}

func TestPairsAllocatesNothing(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(4, 4))
		a := testkit.RandomSet(r, 300)
		ij := randomPairs(r, 1000, 300, 300)
		out := make([]uint64, batch.Words(1000))
		if n := testing.AllocsPerRun(20, func() { batch.Pairs(a, a, ij, out) }); n != 0 {
			t.Errorf("Pairs allocates %v times per call", n)
		}
	})
}

// recordsOf returns the boxes of b as records.
func recordsOf(b *soa.Boxes) []batch.Record {
	recs := make([]batch.Record, b.Len())
	for i := range recs {
		recs[i].Set(b.At(i))
	}
	return recs
}

// keysOf writes the pairs of ij, on one set, as package world's keys:
// each index shifted left by 8 above a random generation byte, the first
// in the high half.
func keysOf(r *rand.Rand, ij []int32) []uint64 {
	keys := make([]uint64, len(ij)/2)
	for k := range keys {
		a, b := uint64(ij[2*k])<<8|uint64(r.IntN(256)), uint64(ij[2*k+1])<<8|uint64(r.IntN(256))
		keys[k] = a<<32 | b
	}
	return keys
}

// TestPairKeysMatchesScalar runs every implementation of PairKeys on
// every key count up to three groups of sixteen past a whole word, and a few
// large ones, with ordinary and hostile boxes, against Overlaps, and checks
// that it writes no word past the bitset.
func TestPairKeysMatchesScalar(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(23, 24))
		for _, n := range pairCounts() {
			for _, a := range []*soa.Boxes{testkit.RandomSet(r, 1+r.IntN(50)), testkit.HostileSet(r, 1+r.IntN(50))} {
				ij := randomPairs(r, n, a.Len(), a.Len())
				want := scalarPairBits(a, a, ij)
				buf := make([]uint64, batch.Words(n)+2)
				for i := range buf {
					buf[i] = testkit.Sentinel
				}
				batch.PairKeys(recordsOf(a), keysOf(r, ij), buf[:batch.Words(n)])
				expectBits(t, n, buf, want, func(k int) string { return fmt.Sprintf("%+v against %+v", a.At(int(ij[2*k])), a.At(int(ij[2*k+1]))) })
			}
		}
	})
}

func TestPairKeysPanicsBeforeWriting(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 5))
		a := testkit.RandomSet(r, 10)
		keys := keysOf(r, randomPairs(r, 130, 10, 10))
		out := []uint64{testkit.Sentinel, testkit.Sentinel, testkit.Sentinel}
		untouched := func() {
			t.Helper()
			for _, w := range out {
				if w != testkit.Sentinel {
					t.Fatal("PairKeys wrote before panicking")
				}
			}
		}
		recs := recordsOf(a)
		testkit.MustPanic(t, "out has 2 words, need 3 for 130 pairs", func() { batch.PairKeys(recs, keys, out[:2]) })
		untouched()
		for _, bad := range []struct {
			at   int
			key  uint64
			want string
		}{{0, 10<<40 | 3<<8, "pair 0: first index 10 is outside [0, 10)"},
			{129, 0xffffff01<<32 | 2<<8, "pair 129: first index 16777215"},
			{127, 2<<40 | 0xffffff<<8, "pair 127: second index 16777215"},
			{64, 4<<40 | 10<<8 | 0xff, "pair 64: second index 10 is outside [0, 10)"}} {
			bad2 := append([]uint64(nil), keys...)
			bad2[bad.at] = bad.key
			testkit.MustPanic(t, bad.want, func() { batch.PairKeys(recs, bad2, out) })
			untouched()
		}
		testkit.MustPanic(t, "pair 0: second index 9 is outside [0, 9)", func() { batch.PairKeys(recs[:9], keys, out) })
		untouched()
	})
}

func TestPairKeysAllocatesNothing(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(6, 6))
		recs := recordsOf(testkit.RandomSet(r, 300))
		keys := keysOf(r, randomPairs(r, 1000, 300, 300))
		out := make([]uint64, batch.Words(1000))
		if n := testing.AllocsPerRun(20, func() { batch.PairKeys(recs, keys, out) }); n != 0 {
			t.Errorf("PairKeys allocates %v times per call", n)
		}
	})
}
