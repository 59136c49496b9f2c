package kernel

import (
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/soa"
)

// scalarRunBits is what OverlapsRuns must write: each run's bitset from
// obb.Box.Overlaps, one pair at a time, one run after the other.
func scalarRunBits(qs, b *soa.Boxes, runs []int32) []uint64 {
	var out []uint64
	for k := 0; k < len(runs); k += 3 {
		s := b.Slice(int(runs[k+1]), int(runs[k+2]))
		out = append(out, scalarBits(qs.At(int(runs[k])), &s)...)
	}
	return out
}

// maxRunLength is the longest run the tests make: three groups of the
// widest kernel past a whole word.
const maxRunLength = 64 + 3*16 + 1

// randomRuns makes count runs of qs (nq boxes) against b (n boxes), of every
// length up to maxRunLength (capped at n) in turn, at random starts, with
// empty runs among them, and the last run ending at the columns' end, where a
// group that overran would start reading past them.
func randomRuns(r *rand.Rand, count, nq, n int) []int32 {
	runs := make([]int32, 0, 3*count)
	for k := 0; k < count; k++ {
		length := min(k%(maxRunLength+1), n)
		if r.IntN(8) == 0 {
			length = 0
		}
		lo := r.IntN(n - length + 1)
		if k == count-1 {
			lo = n - length
		}
		runs = append(runs, int32(r.IntN(nq)), int32(lo), int32(lo+length))
	}
	return runs
}

// checkRunBits runs OverlapsRuns with sentinels after the output and
// compares with the scalar test, bit for bit.
func checkRunBits(t *testing.T, qs, b *soa.Boxes, runs []int32) {
	t.Helper()
	want := scalarRunBits(qs, b, runs)
	buf := make([]uint64, len(want)+2)
	for i := range buf {
		buf[i] = sentinel
	}
	if got := OverlapsRuns(qs, b, runs, buf[:len(want)]); got != len(want) {
		t.Fatalf("%d runs: OverlapsRuns reports %d words, want %d", len(runs)/3, got, len(want))
	}
	if buf[len(want)] != sentinel || buf[len(want)+1] != sentinel {
		t.Fatalf("%d runs: wrote past the runs' %d words", len(runs)/3, len(want))
	}
	// Find the run that holds the first wrong word, for the message.
	for k, w := 0, 0; k < len(runs); k += 3 {
		lo, hi := int(runs[k+1]), int(runs[k+2])
		for i := 0; i < Words(hi-lo); i, w = i+1, w+1 {
			if buf[w] != want[w] {
				t.Fatalf("run %d (query %d against [%d:%d]): word %d = %#x, want %#x",
					k/3, runs[k], lo, hi, i, buf[w], want[w])
			}
		}
	}
}

// TestOverlapsRunsMatchesScalar runs every implementation on runs of every
// length up to three groups past a word, within one set and between two,
// with ordinary and with hostile boxes (NaN, infinities, signed zeros,
// denormals, negative extents), on sets shorter and longer than one run.
func TestOverlapsRunsMatchesScalar(t *testing.T) {
	forEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(21, 22))
		for _, n := range []int{1, 5, 16, 17, 40, maxRunLength, 300} {
			for _, newSet := range []func(*rand.Rand, int) *soa.Boxes{randomSet, hostileSet} {
				b, qs := newSet(r, n), newSet(r, 1+r.IntN(50))
				checkRunBits(t, b, b, randomRuns(r, 3*(maxRunLength+1), n, n))
				checkRunBits(t, qs, b, randomRuns(r, 3*(maxRunLength+1), qs.Len(), n))
				checkRunBits(t, qs, b, randomRuns(r, 1, qs.Len(), n))
			}
		}
		// Only empty runs: nothing to write.
		b := randomSet(r, 10)
		out := []uint64{sentinel}
		if got := OverlapsRuns(b, b, []int32{0, 3, 3, 9, 10, 10}, out); got != 0 || out[0] != sentinel {
			t.Fatalf("empty runs: %d words, out %#x", got, out[0])
		}
		if got := OverlapsRuns(b, b, nil, nil); got != 0 {
			t.Fatalf("no runs: %d words", got)
		}
	})
}

func TestOverlapsRunsPanicsBeforeWriting(t *testing.T) {
	forEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(23, 23))
		qs, b := randomSet(r, 10), randomSet(r, 200)
		runs := []int32{0, 0, 130, 9, 199, 200, 3, 0, 64}
		out := []uint64{sentinel, sentinel, sentinel, sentinel, sentinel}
		untouched := func() {
			t.Helper()
			for _, w := range out {
				if w != sentinel {
					t.Fatal("OverlapsRuns wrote before panicking")
				}
			}
		}
		mustPanic(t, "length 8, not a multiple of 3", func() { OverlapsRuns(qs, b, runs[:8], out) })
		untouched()
		mustPanic(t, "out has 4 words, need 5 for the runs", func() { OverlapsRuns(qs, b, runs, out[:4]) })
		untouched()
		for _, bad := range []struct {
			at   int
			v    int32
			want string
		}{
			{0, 10, "run 0: query index 10 is outside [0, 10)"},
			{3, -1, "run 1: query index -1"},
			{4, -1, "run 1: range [-1:200] is outside [0, 200]"},
			{5, 201, "run 1: range [199:201]"},
			{7, 65, "run 2: range [65:64]"},
		} {
			bad2 := append([]int32(nil), runs...)
			bad2[bad.at] = bad.v
			mustPanic(t, bad.want, func() { OverlapsRuns(qs, b, bad2, out) })
			untouched()
		}
		for c := 0; c < 6; c++ {
			for _, set := range []*soa.Boxes{qs, b} {
				short := *set
				cols := [6]*[]float32{&short.CX, &short.CY, &short.UX, &short.UY, &short.HX, &short.HY}
				*cols[c] = (*cols[c])[:len(*cols[c])-1]
				q, s := qs, b
				if set == qs {
					q = &short
				} else {
					s = &short
				}
				mustPanic(t, "unequal lengths", func() { OverlapsRuns(q, s, runs, out) })
				untouched()
			}
		}
	})
}

func TestOverlapsRunsAllocatesNothing(t *testing.T) {
	forEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(24, 24))
		b := randomSet(r, 500)
		runs := randomRuns(r, 300, 500, 500)
		out := make([]uint64, len(scalarRunBits(b, b, runs)))
		if n := testing.AllocsPerRun(20, func() { OverlapsRuns(b, b, runs, out) }); n != 0 {
			t.Errorf("OverlapsRuns allocates %v times per call", n)
		}
	})
}
