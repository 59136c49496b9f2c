package batch_test

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/soa"
)

// scalarRunBits is what unpruned RunsPruned must write: each run's bitset from
// obb.Box.Overlaps, one pair at a time, one run after the other.
func scalarRunBits(qs, b *soa.Boxes, runs []int32) []uint64 {
	var out []uint64
	for k := 0; k < len(runs); k += 3 {
		s := b.Slice(int(runs[k+1]), int(runs[k+2]))
		out = append(out, testkit.ScalarBits(qs.At(int(runs[k])), &s)...)
	}
	return out
}

// unpruned is RunsPruned with every reach infinite, so that every
// candidate passes the reach test (a NaN center fails it, but then fails
// the overlap test too): the plain one-against-many bitset of each run.
func unpruned(qs, b *soa.Boxes, runs []int32, out []uint64) int {
	return batch.RunsPruned(qs, b, infinite(qs.Len()), infinite(b.Len()), runs, out)
}

// infinite returns n infinite reaches, sliced from one array so that a
// test of allocations counts none.
func infinite(n int) []float32 {
	for len(infiniteReach) < n {
		infiniteReach = append(infiniteReach, float32(math.Inf(1)))
	}
	return infiniteReach[:n]
}

var infiniteReach []float32

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

// checkRunBits runs unpruned RunsPruned with sentinels after the output and
// compares with the scalar test, bit for bit.
func checkRunBits(t *testing.T, qs, b *soa.Boxes, runs []int32) {
	t.Helper()
	checkRunWords(t, "unpruned RunsPruned", runs, scalarRunBits(qs, b, runs), func(out []uint64) int {
		return unpruned(qs, b, runs, out)
	})
}

// checkRunWords runs call, a run kernel named name, with sentinels after
// the output and compares its words with want.
func checkRunWords(t *testing.T, name string, runs []int32, want []uint64, call func(out []uint64) int) {
	t.Helper()
	buf := make([]uint64, len(want)+2)
	for i := range buf {
		buf[i] = testkit.Sentinel
	}
	if got := call(buf[:len(want)]); got != len(want) {
		t.Fatalf("%d runs: %s reports %d words, want %d", len(runs)/3, name, got, len(want))
	}
	if buf[len(want)] != testkit.Sentinel || buf[len(want)+1] != testkit.Sentinel {
		t.Fatalf("%d runs: %s wrote past the runs' %d words", len(runs)/3, name, len(want))
	}
	// Find the run that holds the first wrong word, for the message.
	for k, w := 0, 0; k < len(runs); k += 3 {
		lo, hi := int(runs[k+1]), int(runs[k+2])
		for i := 0; i < batch.Words(hi-lo); i, w = i+1, w+1 {
			if buf[w] != want[w] {
				t.Fatalf("%s, run %d (query %d against [%d:%d]): word %d = %#x, want %#x",
					name, k/3, runs[k], lo, hi, i, buf[w], want[w])
			}
		}
	}
}

// TestUnprunedRunsMatchesScalar runs every implementation on runs of every
// length up to three groups past a word, within one set and between two,
// with ordinary and with hostile boxes (NaN, infinities, signed zeros,
// denormals, negative extents), on sets shorter and longer than one run.
func TestUnprunedRunsMatchesScalar(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(21, 22))
		for _, n := range []int{1, 5, 16, 17, 40, maxRunLength, 300} {
			for _, newSet := range []func(*rand.Rand, int) *soa.Boxes{testkit.RandomSet, testkit.HostileSet} {
				b, qs := newSet(r, n), newSet(r, 1+r.IntN(50))
				checkRunBits(t, b, b, randomRuns(r, 3*(maxRunLength+1), n, n))
				checkRunBits(t, qs, b, randomRuns(r, 3*(maxRunLength+1), qs.Len(), n))
				checkRunBits(t, qs, b, randomRuns(r, 1, qs.Len(), n))
			}
		}
		// Only empty runs: nothing to write.
		b := testkit.RandomSet(r, 10)
		out := []uint64{testkit.Sentinel}
		if got := unpruned(b, b, []int32{0, 3, 3, 9, 10, 10}, out); got != 0 || out[0] != testkit.Sentinel {
			t.Fatalf("empty runs: %d words, out %#x", got, out[0])
		}
		if got := unpruned(b, b, nil, nil); got != 0 {
			t.Fatalf("no runs: %d words", got)
		}
	})
}

// sentinelWords returns n words of sentinels, and a function that fails
// the test, naming the function under test, once any of them changed.
func sentinelWords(t *testing.T, name string, n int) (out []uint64, untouched func()) {
	out = make([]uint64, n)
	for i := range out {
		out[i] = testkit.Sentinel
	}
	return out, func() {
		t.Helper()
		for _, w := range out {
			if w != testkit.Sentinel {
				t.Fatalf("%s wrote before panicking", name)
			}
		}
	}
}

func TestUnprunedRunsPanicsBeforeWriting(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(23, 23))
		qs, b := testkit.RandomSet(r, 10), testkit.RandomSet(r, 200)
		runs := []int32{0, 0, 130, 9, 199, 200, 3, 0, 64}
		out, untouched := sentinelWords(t, "unpruned RunsPruned", 5)
		testkit.MustPanic(t, "length 8, not a multiple of 3", func() { unpruned(qs, b, runs[:8], out) })
		untouched()
		testkit.MustPanic(t, "out has 4 words, need 5 for the runs", func() { unpruned(qs, b, runs, out[:4]) })
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
			testkit.MustPanic(t, bad.want, func() { unpruned(qs, b, bad2, out) })
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
				testkit.MustPanic(t, "unequal lengths", func() { unpruned(q, s, runs, out) })
				untouched()
			}
		}
	})
}

func TestUnprunedRunsAllocatesNothing(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(24, 24))
		b := testkit.RandomSet(r, 500)
		runs := randomRuns(r, 300, 500, 500)
		out := make([]uint64, len(scalarRunBits(b, b, runs)))
		if n := testing.AllocsPerRun(20, func() { unpruned(b, b, runs, out) }); n != 0 {
			t.Errorf("unpruned RunsPruned allocates %v times per call", n)
		}
	})
}

// scalarPrunedBits is what RunsPruned must write: the scalar test's
// bits, each kept only when the candidate passes the reach test, written
// out here in Go's operators.
func scalarPrunedBits(qs, b *soa.Boxes, qreach, reach []float32, runs []int32) (bits []uint64, pruned int) {
	bits = scalarRunBits(qs, b, runs)
	w := 0
	for k := 0; k < len(runs); k += 3 {
		q, lo, hi := runs[k], int(runs[k+1]), int(runs[k+2])
		for i := 0; i < hi-lo; i++ {
			d := b.CY[lo+i] - qs.CY[q]
			if d < 0 {
				d = -d
			}
			if !(d <= reach[lo+i]+qreach[q]) && bits[w+i/64]&(1<<(i%64)) != 0 {
				bits[w+i/64] &^= 1 << (i % 64)
				pruned++
			}
		}
		w += batch.Words(hi - lo)
	}
	return bits, pruned
}

// randomReach returns a reach for each box of b: mostly a random fraction
// of the box's |CY| plus its half height, so that the test keeps some
// overlapping candidates and drops others, and, when hostile, now and then
// NaN, an infinity, a negative value or a signed zero.
func randomReach(r *rand.Rand, b *soa.Boxes, hostile bool) []float32 {
	reach := make([]float32, b.Len())
	for i := range reach {
		reach[i] = r.Float32() * (max(b.CY[i], -b.CY[i]) + b.HY[i])
		if hostile && r.IntN(4) == 0 {
			reach[i] = scene.Hostile[r.IntN(len(scene.Hostile))]
		}
	}
	return reach
}

// TestRunsPrunedMatchesScalar runs every implementation of
// RunsPruned on the runs TestUnprunedRunsMatchesScalar uses, with
// random and hostile reaches, and checks that the reach test both dropped
// overlapping candidates and kept some, so that a kernel ignoring it or
// applying it wrongly fails. Infinite reaches must give unpruned bits.
func TestRunsPrunedMatchesScalar(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(27, 28))
		dropped, kept := 0, 0
		check := func(qs, b *soa.Boxes, qreach, reach []float32, runs []int32) {
			t.Helper()
			want, pruned := scalarPrunedBits(qs, b, qreach, reach, runs)
			dropped += pruned
			for _, w := range want {
				kept += bits.OnesCount64(w)
			}
			checkRunWords(t, "RunsPruned", runs, want, func(out []uint64) int {
				return batch.RunsPruned(qs, b, qreach, reach, runs, out)
			})
		}
		for _, n := range []int{1, 5, 16, 17, 40, maxRunLength, 300} {
			for _, hostile := range []bool{false, true} {
				newSet := testkit.RandomSet
				if hostile {
					newSet = testkit.HostileSet
				}
				b, qs := newSet(r, n), newSet(r, 1+r.IntN(50))
				reach, qreach := randomReach(r, b, hostile), randomReach(r, qs, hostile)
				check(b, b, reach, reach, randomRuns(r, 3*(maxRunLength+1), n, n))
				check(qs, b, qreach, reach, randomRuns(r, 3*(maxRunLength+1), qs.Len(), n))
				check(qs, b, qreach, reach, randomRuns(r, 1, qs.Len(), n))

				inf := make([]float32, max(n, qs.Len()))
				for i := range inf {
					inf[i] = float32(math.Inf(1))
				}
				runs := randomRuns(r, 3*(maxRunLength+1), qs.Len(), n)
				checkRunWords(t, "RunsPruned with infinite reach", runs, scalarRunBits(qs, b, runs), func(out []uint64) int {
					return batch.RunsPruned(qs, b, inf[:qs.Len()], inf[:n], runs, out)
				})
			}
		}
		if dropped == 0 || kept == 0 {
			t.Fatalf("the reach test dropped %d overlapping candidates and kept %d: the data does not exercise it", dropped, kept)
		}
	})
}

func TestRunsPrunedPanicsBeforeWriting(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(29, 29))
		qs, b := testkit.RandomSet(r, 10), testkit.RandomSet(r, 200)
		qreach, reach := randomReach(r, qs, false), randomReach(r, b, false)
		runs := []int32{0, 0, 130, 9, 199, 200, 3, 0, 64}
		out, untouched := sentinelWords(t, "RunsPruned", 5)
		testkit.MustPanic(t, "reaches of 9 and 200 boxes for sets of 10 and 200", func() { batch.RunsPruned(qs, b, qreach[:9], reach, runs, out) })
		untouched()
		testkit.MustPanic(t, "reaches of 10 and 201 boxes for sets of 10 and 200", func() { batch.RunsPruned(qs, b, qreach, append(reach, 0), runs, out) })
		untouched()
		testkit.MustPanic(t, "length 8, not a multiple of 3", func() { batch.RunsPruned(qs, b, qreach, reach, runs[:8], out) })
		untouched()
		testkit.MustPanic(t, "out has 4 words, need 5 for the runs", func() { batch.RunsPruned(qs, b, qreach, reach, runs, out[:4]) })
		untouched()
		bad := append([]int32(nil), runs...)
		bad[5] = 201
		testkit.MustPanic(t, "run 1: range [199:201]", func() { batch.RunsPruned(qs, b, qreach, reach, bad, out) })
		untouched()
	})
}

func TestRunsPrunedAllocatesNothing(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(30, 30))
		b := testkit.RandomSet(r, 500)
		reach := randomReach(r, b, false)
		runs := randomRuns(r, 300, 500, 500)
		out := make([]uint64, len(scalarRunBits(b, b, runs)))
		if n := testing.AllocsPerRun(20, func() { batch.RunsPruned(b, b, reach, reach, runs, out) }); n != 0 {
			t.Errorf("RunsPruned allocates %v times per call", n)
		}
	})
}
