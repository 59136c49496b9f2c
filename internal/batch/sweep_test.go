package batch_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/soa"
)

// sweepSet returns a set for Sweep of n boxes, with each box's interval on
// x, a reach and the boxes sorted by the interval's start. spread scatters
// the centers over that many units of x, so that runs of every length
// occur; with hostile, boxes, reaches and interval ends hold NaNs,
// infinities and the like, and some starts are out of order.
func sweepSet(r *rand.Rand, n int, spread float32, hostile bool) (b *soa.Boxes, lo, hi, reach []float32) {
	src := testkit.RandomSet(r, n)
	if hostile {
		src = testkit.HostileSet(r, n)
	}
	reach = randomReach(r, src, hostile)
	lo, hi = make([]float32, n), make([]float32, n)
	for i := range lo {
		src.CX[i] += r.Float32() * spread
		e := src.HX[i]*max(src.UX[i], -src.UX[i]) + src.HY[i]*max(src.UY[i], -src.UY[i])
		lo[i], hi[i] = src.CX[i]-e, src.CX[i]+e
		if hostile && r.IntN(8) == 0 {
			hi[i] = scene.Hostile[r.IntN(len(scene.Hostile))]
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		switch {
		case lo[i] < lo[j]:
			return -1
		case lo[i] > lo[j]:
			return 1
		}
		return 0
	})
	b = new(soa.Boxes)
	slo, shi, sreach := make([]float32, n), make([]float32, n), make([]float32, n)
	for p, i := range order {
		b.Append(src.At(i))
		slo[p], shi[p], sreach[p] = lo[i], hi[i], reach[i]
	}
	if hostile {
		for k := 0; k < n/10; k++ {
			slo[r.IntN(n)] = scene.Hostile[r.IntN(len(scene.Hostile))]
		}
	}
	return b, slo, shi, sreach
}

// scalarSweep is what Sweep must find, written out from its documentation
// with obb.Box.Overlaps and Go's operators: the hits of queries q through
// end-1, the first from candidate c on, and how many candidates their runs
// hold. pruned counts the overlapping candidates the reach test drops.
func scalarSweep(b *soa.Boxes, lo, hi, reach []float32, q, c, end int) (hits []batch.Hit, candidates, pruned int) {
	for ; q < end; q, c = q+1, q+2 {
		for j := c; j < b.Len() && lo[j] <= hi[q]; j++ {
			candidates++
			d := b.CY[j] - b.CY[q]
			if d < 0 {
				d = -d
			}
			if !b.At(q).Overlaps(b.At(j)) {
				continue
			}
			if !(d <= reach[j]+reach[q]) {
				pruned++
				continue
			}
			hits = append(hits, batch.Hit{int32(q), int32(j)})
		}
	}
	return hits, candidates, pruned
}

// sentinelHit marks places in out that Sweep must not write.
var sentinelHit = batch.Hit{-7, -9}

// sweepAll runs Sweep from st to end with an out of room places followed by
// sentinels, calling it again until it is done, and returns the hits of
// all the calls and the final state. It fails the test when a call writes
// past out, stops with free places to spare, or makes no progress.
func sweepAll(t *testing.T, b *soa.Boxes, lo, hi, reach []float32, st batch.SweepState, end, room int) ([]batch.Hit, batch.SweepState) {
	t.Helper()
	buf := make([]batch.Hit, room+3)
	var all []batch.Hit
	for calls := 0; ; calls++ {
		for i := range buf {
			buf[i] = sentinelHit
		}
		before := st
		n := batch.Sweep(b, lo, hi, reach, &st, end, buf[:room])
		if n < 0 || n > room {
			t.Fatalf("Sweep reports %d hits in an out of %d", n, room)
		}
		for i := n; i < len(buf); i++ {
			if buf[i] != sentinelHit {
				t.Fatalf("Sweep wrote place %d with %d hits reported (out of %d)", i, n, room)
			}
		}
		all = append(all, buf[:n]...)
		if st.Q == end {
			return all, st
		}
		if room-n >= batch.SweepMinOut {
			t.Fatalf("Sweep stopped at query %d, candidate %d (of %d to %d) with %d of %d places free", st.Q, st.C, before.Q, end, room-n, room)
		}
		// A call that does not finish writes a hit at least, and there are
		// at most n(n-1)/2 of them.
		if n == 0 || calls > b.Len()*b.Len()/2 {
			t.Fatalf("Sweep made no progress from query %d, candidate %d", before.Q, before.C)
		}
	}
}

// TestSweepMatchesScalar runs every implementation over sets of every size
// up to three of the widest groups past a word and larger, piled up and
// spread out, ordinary and hostile, from the first query and from a query
// part way through its run, with outs just large enough, a little larger
// and roomy, and compares the hits and the candidate count with
// scalarSweep. The data must contain hits, runs that end inside a group
// and overlapping candidates the reach test drops, so that a kernel that
// skips any of those steps fails.
func TestSweepMatchesScalar(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(41, 42))
		var hits, pruned, partial int
		var sizes []int
		for n := 1; n <= maxRunLength; n++ {
			sizes = append(sizes, n)
		}
		sizes = append(sizes, 300, 1000)
		for _, n := range sizes {
			for _, hostile := range []bool{false, true} {
				spread := []float32{0, 10, float32(n) * 4}[n%3]
				b, lo, hi, reach := sweepSet(r, n, spread, hostile)
				from := r.IntN(n)
				end := from + r.IntN(n-from+1)
				c := from + 1 + r.IntN(n-from)
				if r.IntN(2) == 0 {
					from, c, end = 0, 1, n
				}
				want, candidates, dropped := scalarSweep(b, lo, hi, reach, from, c, end)
				hits += len(want)
				pruned += dropped
				if candidates%16 != 0 {
					partial++
				}
				for _, room := range []int{batch.SweepMinOut, batch.SweepMinOut + 1, 37, 4096} {
					what := fmt.Sprintf("n=%d hostile=%v, queries %d (from %d) to %d, out of %d", n, hostile, from, c, end, room)
					got, st := sweepAll(t, b, lo, hi, reach, batch.SweepState{Q: from, C: c}, end, room)
					if !slices.Equal(got, want) {
						t.Fatalf("%s: %d hits, want %d; first difference at %d", what, len(got), len(want), firstDifference(got, want))
					}
					if st.Candidates != candidates {
						t.Fatalf("%s: %d candidates, want %d", what, st.Candidates, candidates)
					}
				}
			}
		}
		if hits == 0 || pruned == 0 || partial == 0 {
			t.Fatalf("%d hits, %d overlapping candidates pruned, %d runs ending mid-group: the data does not exercise the kernel", hits, pruned, partial)
		}
	})
}

func firstDifference(a, b []batch.Hit) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestSweepInfiniteReachIsUnpruned checks that with every reach
// infinite the hits are exactly the overlapping pairs of each run, as
// unpruned RunsPruned finds them.
func TestSweepInfiniteReachIsUnpruned(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(43, 44))
		b, lo, hi, _ := sweepSet(r, 500, 300, false)
		inf := make([]float32, b.Len())
		for i := range inf {
			inf[i] = float32(math.Inf(1))
		}
		var runs []int32
		for q := 0; q < b.Len(); q++ {
			j := q + 1
			for j < b.Len() && lo[j] <= hi[q] {
				j++
			}
			runs = append(runs, int32(q), int32(q+1), int32(j))
		}
		words := make([]uint64, len(scalarRunBits(b, b, runs)))
		unpruned(b, b, runs, words)
		var want []batch.Hit
		for k, w := 0, 0; k < len(runs); k += 3 {
			for i := 0; i < int(runs[k+2]-runs[k+1]); i++ {
				if words[w+i/64]>>(i%64)&1 != 0 {
					want = append(want, batch.Hit{runs[k], runs[k+1] + int32(i)})
				}
			}
			w += batch.Words(int(runs[k+2] - runs[k+1]))
		}
		got, _ := sweepAll(t, b, lo, hi, inf, batch.SweepState{Q: 0, C: 1}, b.Len(), 64)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Fatalf("%d hits, want %d (unpruned)", len(got), len(want))
		}
	})
}

func TestSweepPanicsBeforeWriting(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(45, 46))
		b, lo, hi, reach := sweepSet(r, 100, 0, false)
		out := make([]batch.Hit, batch.SweepMinOut)
		for i := range out {
			out[i] = sentinelHit
		}
		untouched := func() {
			t.Helper()
			for _, h := range out {
				if h != sentinelHit {
					t.Fatal("Sweep wrote before panicking")
				}
			}
		}
		st := batch.SweepState{Q: 0, C: 1}
		testkit.MustPanic(t, "room for 15 hits, need at least 16", func() { batch.Sweep(b, lo, hi, reach, &st, 100, out[:15]) })
		untouched()
		testkit.MustPanic(t, "lo, hi and reach of 99, 100 and 100 boxes for a set of 100", func() { batch.Sweep(b, lo[:99], hi, reach, &st, 100, out) })
		untouched()
		testkit.MustPanic(t, "lo, hi and reach of 100, 100 and 101 boxes", func() { batch.Sweep(b, lo, hi, append(reach, 0), &st, 100, out) })
		untouched()
		short := *b
		short.HY = short.HY[:99]
		testkit.MustPanic(t, "unequal lengths", func() { batch.Sweep(&short, lo, hi, reach, &st, 100, out) })
		untouched()
		for _, bad := range []struct {
			st   batch.SweepState
			end  int
			want string
		}{
			{batch.SweepState{Q: -1, C: 0}, 100, "sweep at query -1, candidate 0, to query 100, of 100 boxes"},
			{batch.SweepState{Q: 5, C: 6}, 4, "sweep at query 5, candidate 6, to query 4"},
			{batch.SweepState{Q: 5, C: 6}, 101, "to query 101, of 100 boxes"},
			{batch.SweepState{Q: 5, C: 5}, 100, "sweep at query 5, candidate 5"},
			{batch.SweepState{Q: 5, C: 101}, 100, "sweep at query 5, candidate 101"},
		} {
			st := bad.st
			testkit.MustPanic(t, bad.want, func() { batch.Sweep(b, lo, hi, reach, &st, bad.end, out) })
			untouched()
		}
		// Nothing to do is not an error.
		done := batch.SweepState{Q: 100, C: 0}
		if n := batch.Sweep(b, lo, hi, reach, &done, 100, out); n != 0 || done.Q != 100 {
			t.Fatalf("a finished sweep wrote %d hits and moved to query %d", n, done.Q)
		}
		untouched()
	})
}

func TestSweepAllocatesNothing(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(47, 48))
		b, lo, hi, reach := sweepSet(r, 2000, 3000, false)
		out := make([]batch.Hit, 64)
		if n := testing.AllocsPerRun(20, func() {
			for st := (batch.SweepState{Q: 0, C: 1}); st.Q < b.Len(); {
				batch.Sweep(b, lo, hi, reach, &st, b.Len(), out)
			}
		}); n != 0 {
			t.Errorf("Sweep allocates %v times per sweep", n)
		}
	})
}

// FuzzSweep compares every implementation's sweep with scalarSweep on sets
// the fuzzer sizes, spreads and spoils, with outs of every size from
// batch.SweepMinOut up.
func FuzzSweep(f *testing.F) {
	f.Add(uint64(1), uint16(100), float32(30), false, uint8(0))
	f.Add(uint64(2), uint16(17), float32(0), true, uint8(3))
	f.Add(uint64(3), uint16(300), float32(5), true, uint8(200))
	f.Fuzz(func(t *testing.T, seed uint64, n uint16, spread float32, hostile bool, extra uint8) {
		r := rand.New(rand.NewPCG(seed, seed>>9))
		b, lo, hi, reach := sweepSet(r, 1+int(n%500), spread, hostile)
		want, candidates, _ := scalarSweep(b, lo, hi, reach, 0, 1, b.Len())
		saved := batch.Name()
		defer batch.Use(saved)
		for _, name := range batch.Names() {
			batch.Use(name)
			got, st := sweepAll(t, b, lo, hi, reach, batch.SweepState{Q: 0, C: 1}, b.Len(), batch.SweepMinOut+int(extra))
			if !slices.Equal(got, want) || st.Candidates != candidates {
				t.Fatalf("%s: %d hits and %d candidates, want %d and %d", name, len(got), st.Candidates, len(want), candidates)
			}
		}
	})
}
