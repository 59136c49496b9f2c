//go:build linux

package batch_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// TestGuardPageFaultIsCaught proves the harness detects an overrun: reading
// one float past a guarded column must be reported, not crash the test.
func TestGuardPageFaultIsCaught(t *testing.T) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	g := testkit.NewGuarded(t, 4096)
	col := g.FloatsAtEnd(4)
	err := testkit.Fault(func() {
		past := unsafe.Slice(&col[0], 5) // one element into the guard page
		sink = past[4]
	})
	if err == nil {
		t.Fatal("reading the guard page did not fault: the guard-page test would prove nothing")
	}
}

var sink float32

// twoSetPlaces is how many places checkTwoSetsGuarded puts before the guard
// page: the twelve columns of two sets, an index list, the output.
const twoSetPlaces = 14

// checkTwoSetsGuarded copies place (see twoSetPlaces) of a kernel call on
// two sets a and b, an index list and an output of len(want) words right
// before the guard page, runs call on them, and fails the test when it
// faults or its bits differ from want. what says what the call was, for the
// message.
func checkTwoSetsGuarded(t *testing.T, g *testkit.Guarded, place int, what string, a, b soa.Boxes, list []int32, want []uint64,
	call func(a, b *soa.Boxes, list []int32, out []uint64)) {
	t.Helper()
	out := make([]uint64, len(want))
	where := placeTwoSets(g, place, &a, &b, &list)
	if place == twoSetPlaces-1 {
		out = g.WordsAtEnd(len(want))
	}
	expectGuarded(t, what, where, want, func() []uint64 { call(&a, &b, list, out); return out })
}

// placeTwoSets copies place of a two-set call right before the guard page:
// a column of a or b (0 to 11) or the index list (12). It says which, and
// leaves place 13, the output, to the caller.
func placeTwoSets(g *testkit.Guarded, place int, a, b *soa.Boxes, list *[]int32) string {
	switch {
	case place < 12:
		set, name := a, "a."
		if place >= 6 {
			set, name = b, "b."
		}
		cols := [6]*[]float32{&set.CX, &set.CY, &set.UX, &set.UY, &set.HX, &set.HY}
		col := cols[place%6]
		*col = g.FloatsCopy(*col)
		return name + [6]string{"CX", "CY", "UX", "UY", "HX", "HY"}[place%6]
	case place == 12:
		guardedList := g.Int32sAtEnd(len(*list))
		copy(guardedList, *list)
		*list = guardedList
		return "index list"
	}
	return "output"
}

// expectGuarded runs call, which returns its output, and fails the test
// when it faults or the output differs from want. what says what the call
// was and where what lies before the guard page, for the message.
func expectGuarded(t *testing.T, what, where string, want []uint64, call func() []uint64) {
	t.Helper()
	var out []uint64
	if err := testkit.Fault(func() { out = call() }); err != nil {
		t.Fatalf("%s, %s before the guard page: %v", what, where, err)
	}
	if fmt.Sprint(out) != fmt.Sprint(want) {
		t.Fatalf("%s, %s before the guard page: wrong bits", what, where)
	}
}

// TestPairGuardPages places each of the twelve columns of the two sets, the
// pair list and the output right before an unreadable page, with pairs that
// name the last box of each set, for every pair count up to three groups
// past a word.
func TestPairGuardPages(t *testing.T) {
	g := testkit.NewGuarded(t, 64<<10)
	r := rand.New(rand.NewPCG(15, 16))
	testkit.ForEachImpl(t, func(t *testing.T) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		for n := 1; n <= 64+3*8+1; n++ {
			a, b := testkit.RandomSet(r, 1+r.IntN(40)), testkit.RandomSet(r, 1+r.IntN(40))
			ij := randomPairs(r, n, a.Len(), b.Len())
			want := scalarPairBits(a, b, ij)
			for place := 0; place < twoSetPlaces; place++ {
				checkTwoSetsGuarded(t, g, place, fmt.Sprintf("%d pairs", n), *a, *b, ij, want, batch.Pairs)
			}
		}
	})
}

// TestPairKeyGuardPages places the records, the keys and the output
// right before an unreadable page, with keys that name the last record,
// for every key count up to three groups of sixteen past a word.
func TestPairKeyGuardPages(t *testing.T) {
	g := testkit.NewGuarded(t, 64<<10)
	r := rand.New(rand.NewPCG(17, 18))
	testkit.ForEachImpl(t, func(t *testing.T) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		for n := 1; n <= 64+3*16+1; n++ {
			a := testkit.RandomSet(r, 1+r.IntN(40))
			ij := randomPairs(r, n, a.Len(), a.Len())
			want, keys, recs := scalarPairBits(a, a, ij), keysOf(r, ij), recordsOf(a)
			for _, where := range []string{"records", "keys", "output"} {
				rs, k, out := recs, keys, make([]uint64, len(want))
				switch where {
				case "records":
					f := g.FloatsAtEnd(8 * len(recs))
					rs = unsafe.Slice((*batch.Record)(unsafe.Pointer(&f[0])), len(recs))
					copy(rs, recs)
				case "keys":
					k = g.WordsAtEnd(len(keys))
					copy(k, keys)
				default:
					out = g.WordsAtEnd(len(want))
				}
				expectGuarded(t, fmt.Sprintf("%d keys", n), where, want, func() []uint64 { batch.PairKeys(rs, k, out); return out })
			}
		}
	})
}

// TestRunGuardPages places each of the twelve columns of the query set and
// the candidate set, the run list and the output right before an
// unreadable page, with runs of every length up to three groups past a word
// that end at the last box, so that the last group of each run would cross
// the columns' end, and a run whose query is the last query box. It runs
// unpruned RunsPruned and RunsPruned, the latter with each of its two reach
// columns before the guard page too.
func TestRunGuardPages(t *testing.T) {
	g := testkit.NewGuarded(t, 64<<10)
	r := rand.New(rand.NewPCG(25, 26))
	testkit.ForEachImpl(t, func(t *testing.T) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		for length := 1; length <= maxRunLength; length++ {
			n := length + r.IntN(3)
			qs, b := testkit.RandomSet(r, 1+r.IntN(20)), testkit.RandomSet(r, n)
			qreach, reach := randomReach(r, qs, false), randomReach(r, b, false)
			runs := []int32{int32(qs.Len() - 1), int32(n - length), int32(n), 0, 0, int32(min(n, 20))}
			want := scalarRunBits(qs, b, runs)
			wantPruned, _ := scalarPrunedBits(qs, b, qreach, reach, runs)
			what := fmt.Sprintf("run length %d of %d boxes", length, n)
			for place := 0; place < twoSetPlaces; place++ {
				checkTwoSetsGuarded(t, g, place, "unpruned RunsPruned, "+what, *qs, *b, runs, want, func(qs, b *soa.Boxes, runs []int32, out []uint64) {
					unpruned(qs, b, runs, out)
				})
				checkTwoSetsGuarded(t, g, place, "RunsPruned, "+what, *qs, *b, runs, wantPruned, func(qs, b *soa.Boxes, runs []int32, out []uint64) {
					batch.RunsPruned(qs, b, qreach, reach, runs, out)
				})
			}
			for _, col := range []struct {
				name string
				data []float32
			}{{"qreach", qreach}, {"reach", reach}} {
				guardedCol := g.FloatsCopy(col.data)
				qr, rr := qreach, reach
				if col.name == "qreach" {
					qr = guardedCol
				} else {
					rr = guardedCol
				}
				expectGuarded(t, "RunsPruned, "+what, col.name, wantPruned, func() []uint64 {
					out := make([]uint64, len(wantPruned))
					batch.RunsPruned(qs, b, qr, rr, runs, out)
					return out
				})
			}
		}
	})
}

// TestSweepGuardPages places each of the nine columns Sweep reads (the six
// of the set, reach, lo and hi) and then its output right before an
// unreadable page, for every set size up to three of the widest groups
// past a word, with every interval's end infinite, so that every run goes
// on to the set's end and its last group would cross the columns' end.
func TestSweepGuardPages(t *testing.T) {
	g := testkit.NewGuarded(t, 64<<10)
	r := rand.New(rand.NewPCG(49, 50))
	testkit.ForEachImpl(t, func(t *testing.T) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		for n := 1; n <= maxRunLength; n++ {
			src, lo, hi, reach := sweepSet(r, n, 10, false)
			for i := range hi {
				hi[i] = float32(math.Inf(1))
			}
			want, _, _ := scalarSweep(src, lo, hi, reach, 0, 1, n)
			const room = 40
			for place := 0; place <= 9; place++ {
				b, rc, l, h := *src, reach, lo, hi
				cols := [9]*[]float32{&b.CX, &b.CY, &b.UX, &b.UY, &b.HX, &b.HY, &rc, &l, &h}
				var out []batch.Hit
				where := "output"
				if place < 9 {
					where = [9]string{"CX", "CY", "UX", "UY", "HX", "HY", "reach", "lo", "hi"}[place]
					*cols[place] = g.FloatsCopy(*cols[place])
					out = make([]batch.Hit, room)
				} else {
					words := g.WordsAtEnd(room)
					out = unsafe.Slice((*batch.Hit)(unsafe.Pointer(&words[0])), room)
				}
				var got []batch.Hit
				err := testkit.Fault(func() {
					for st := (batch.SweepState{Q: 0, C: 1}); st.Q < n; {
						k := batch.Sweep(&b, l, h, rc, &st, n, out)
						got = append(got, out[:k]...)
					}
				})
				if err != nil {
					t.Fatalf("Sweep of %d boxes, %s before the guard page: %v", n, where, err)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("Sweep of %d boxes, %s before the guard page: %d hits, want %d", n, where, len(got), len(want))
				}
			}
		}
	})
}

// TestCollidePairGuardPages places each of the twelve columns of the two
// sets, the pair list and the output of Collide right before an unreadable
// page, with pairs that name the last box of each set, for every pair
// count up to three AVX-512 groups: the pair-list kernels read whole
// groups of the list, and the last pairs go through the column kernel.
func TestCollidePairGuardPages(t *testing.T) {
	g := testkit.NewGuarded(t, 64<<10)
	r := rand.New(rand.NewPCG(41, 42))
	testkit.ForEachImpl(t, func(t *testing.T) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		for n := 1; n <= 3*16+1; n++ {
			a, b := testkit.HostileSet(r, 1+r.IntN(40)), testkit.RandomSet(r, 1+r.IntN(40))
			ij := randomPairs(r, n, a.Len(), b.Len())
			want := make([]obb.Manifold, n)
			for k := range want {
				want[k] = a.At(int(ij[2*k])).Collide(b.At(int(ij[2*k+1])), 0.01)
			}
			for place := 0; place < twoSetPlaces; place++ {
				a, b, list := *a, *b, ij
				where := placeTwoSets(g, place, &a, &b, &list)
				out := make([]obb.Manifold, n)
				if place == twoSetPlaces-1 {
					out = guardedManifolds(g, n)
				}
				if err := testkit.Fault(func() { batch.Collide(&a, &b, list, 0.01, out) }); err != nil {
					t.Fatalf("%d pairs, %s before the guard page: %v", n, where, err)
				}
				checkManifolds(t, fmt.Sprintf("%d pairs, %s before the guard page", n, where), out, want)
			}
		}
	})
}

// guardedManifolds returns n manifolds, cleared, whose last byte is the last
// before the guard page.
func guardedManifolds(g *testkit.Guarded, n int) []obb.Manifold {
	floats := g.FloatsAtEnd(int(unsafe.Sizeof(obb.Manifold{})) / 4 * n)
	clear(floats)
	return unsafe.Slice((*obb.Manifold)(unsafe.Pointer(&floats[0])), n)
}

// checkManifolds fails the test unless got and want are equal bit for bit.
func checkManifolds(t *testing.T, what string, got, want []obb.Manifold) {
	t.Helper()
	for k := range want {
		if manifoldBits(&got[k]) != manifoldBits(&want[k]) {
			t.Fatalf("%s: manifold %d is %+v, want %+v", what, k, got[k], want[k])
		}
	}
}

// TestCollideGuardPages places the pair columns, then the output, right
// before an unreadable page, for every pair count up to three AVX-512
// groups, so that the last group of every length would cross the end: the
// kernels must load the last pairs with masked loads and write only the
// manifolds asked for. The twelve columns are one slice, the last column
// at its end.
func TestCollideGuardPages(t *testing.T) {
	g := testkit.NewGuarded(t, 64<<10)
	r := rand.New(rand.NewPCG(39, 40))
	testkit.ForEachImpl(t, func(t *testing.T) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		for n := 1; n <= 3*16+1; n++ {
			ps := contactPairs(r, n, true)
			want := make([]obb.Manifold, n)
			for k, p := range ps {
				want[k] = p.A.Collide(p.B, 0.01)
			}
			for _, where := range []string{"columns", "output"} {
				cols, out := pairColumns(ps), make([]obb.Manifold, n)
				if where == "columns" {
					cols = g.FloatsCopy(cols)
				} else {
					out = guardedManifolds(g, n)
				}
				if err := testkit.Fault(func() { batch.CollideColumns(cols, n, 0.01, out) }); err != nil {
					t.Fatalf("%d pairs, %s before the guard page: %v", n, where, err)
				}
				checkManifolds(t, fmt.Sprintf("%d pairs, %s before the guard page", n, where), out, want)
			}
		}
	})
}

// TestOverlapsBlockGuardPages places the block, then the query, right
// before an unreadable page, for every lane count; a block of at most 8
// boxes with its first group alone before the page, as OverlapsBlock reads
// no more of it.
func TestOverlapsBlockGuardPages(t *testing.T) {
	g := testkit.NewGuarded(t, 4096)
	r := rand.New(rand.NewPCG(43, 44))
	testkit.ForEachImpl(t, func(t *testing.T) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		for n := 0; n <= batch.BlockLanes; n++ {
			q, b := randomBlock(r, false)
			want := []uint64{blockWant(&q, &b, n)}
			floats := 96
			if n <= batch.GroupLanes {
				floats = 48
			}
			blk := (*batch.Block)(unsafe.Pointer(&g.FloatsAtEnd(floats)[0]))
			copy(blk[:floats/48], b[:])
			expectGuarded(t, fmt.Sprintf("%d lanes", n), "block", want, func() []uint64 {
				return []uint64{batch.OverlapsBlock(&q, blk, n)}
			})
			qs := (*batch.Query)(unsafe.Pointer(&g.FloatsAtEnd(6)[0]))
			*qs = q
			expectGuarded(t, fmt.Sprintf("%d lanes", n), "query", want, func() []uint64 {
				return []uint64{batch.OverlapsBlock(qs, &b, n)}
			})
		}
	})
}

// TestPrefetchGuardPage asks for the last bytes before an unreadable page,
// every length up to three lines: Prefetch, PrefetchL2 and PrefetchFar
// name only the memory they are given, and the hint must not fault where
// a read of the next line would.
func TestPrefetchGuardPage(t *testing.T) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	g := testkit.NewGuarded(t, 4096)
	for k, prefetch := range []func(unsafe.Pointer, uintptr){batch.Prefetch, batch.PrefetchL2, batch.PrefetchFar} {
		name := []string{"Prefetch", "PrefetchL2", "PrefetchFar"}[k]
		for n := 1; n <= 3*16; n++ {
			col := g.FloatsAtEnd(n)
			if err := testkit.Fault(func() { prefetch(unsafe.Pointer(&col[0]), uintptr(4*n)) }); err != nil {
				t.Fatalf("%s of the last %d bytes before the guard page: %v", name, 4*n, err)
			}
		}
	}
}

// TestPrefetchMarkedGuardPages runs PrefetchMarked on handles that end
// right before an unreadable page, every count up to 20, with a bitset
// that ends before another, all of its bits set, and handles whose slots
// lie in its last word, past it, and far past it: the kernel reads the
// handles and the words of the bitset it is given only. The records it
// asks for lie past the guard page too, which a prefetch may name.
func TestPrefetchMarkedGuardPages(t *testing.T) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	gh, gb := testkit.NewGuarded(t, 4096), testkit.NewGuarded(t, 4096)
	rec := gb.FloatsAtEnd(8)
	for words := 0; words <= 3; words++ {
		bits := gb.WordsAtEnd(words)
		for i := range bits {
			bits[i] = ^uint64(0)
		}
		for n := 1; n <= 20; n++ {
			col := gh.Int32sAtEnd(n)
			hs := unsafe.Slice((*uint32)(unsafe.Pointer(&col[0])), n)
			for i := range hs {
				slot := []uint32{uint32(64*words - 1 - i), uint32(64 * words), uint32(64*words + 64*i), 1 << 23}[i%4]
				hs[i] = slot<<8 | uint32(i)
			}
			for _, span := range []uintptr{1, 24, 64} {
				if err := testkit.Fault(func() { batch.PrefetchMarked(unsafe.Pointer(&rec[0]), 56, span, hs, bits) }); err != nil {
					t.Fatalf("PrefetchMarked of %d handles, %d words, %d bytes a record: %v", n, words, span, err)
				}
			}
		}
	}
	for _, span := range []uintptr{0, 65} {
		if err := testkit.Fault(func() { batch.PrefetchMarked(unsafe.Pointer(&rec[0]), 56, span, nil, nil) }); err == nil {
			t.Errorf("PrefetchMarked of %d bytes a record did not panic", span)
		}
	}
}

// guardedKernel is a kernel of six float32 columns and two outputs, as
// TestColumnKernelGuardPages runs it: run calls it on c with output out
// (0 or 1) right before the guard page, or neither for -1, and returns
// the fault or the first difference from the Go reference.
type guardedKernel struct {
	name string
	outs [2]string
	run  func(g *testkit.Guarded, c *soa.Boxes, out int) error
}

// float64sAtEnd returns n float64s whose last element is the last before
// the guard page.
func float64sAtEnd(g *testkit.Guarded, n int) []float64 {
	return unsafe.Slice((*float64)(unsafe.Pointer(&g.WordsAtEnd(n)[0])), n)
}

var guardedKernels = []guardedKernel{
	{"Reaches", [2]string{"rx", "ry"}, func(g *testkit.Guarded, c *soa.Boxes, out int) error {
		wx, wy := wantReaches(c)
		rx, ry := make([]float64, c.Len()), make([]float64, c.Len())
		switch out {
		case 0:
			rx = float64sAtEnd(g, c.Len())
		case 1:
			ry = float64sAtEnd(g, c.Len())
		}
		if err := testkit.Fault(func() { batch.Reaches(c.CX, c.CY, c.UX, c.UY, c.HX, c.HY, rx, ry) }); err != nil {
			return err
		}
		return errors.Join(sameBits(rx, wx), sameBits(ry, wy))
	}},
	{"Intervals", [2]string{"lo", "hi"}, func(g *testkit.Guarded, c *soa.Boxes, out int) error {
		wlo, whi := wantIntervals(c, false)
		lo, hi := make([]float32, c.Len()), make([]float32, c.Len())
		switch out {
		case 0:
			lo = g.FloatsAtEnd(c.Len())
		case 1:
			hi = g.FloatsAtEnd(c.Len())
		}
		if err := testkit.Fault(func() { batch.Intervals(c.CX, c.CY, c.UX, c.UY, c.HX, c.HY, lo, hi) }); err != nil {
			return err
		}
		return errors.Join(sameFloats(lo, wlo), sameFloats(hi, whi))
	}},
}

// TestColumnKernelGuardPages places each of the six columns Reaches and
// Intervals read and each of their two outputs right before an
// unreadable page, for every length up to three of the widest groups and
// one more, so that every partial last group ends at the page.
func TestColumnKernelGuardPages(t *testing.T) {
	g := testkit.NewGuarded(t, 64<<10)
	r := rand.New(rand.NewPCG(73, 74))
	testkit.ForEachImpl(t, func(t *testing.T) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		for _, k := range guardedKernels {
			for n := 1; n <= 3*8+1; n++ {
				b := reachSet(r, n)
				for place := range 8 {
					c := *b
					out, where := place-6, ""
					if place < 6 {
						cols := [6]*[]float32{&c.CX, &c.CY, &c.UX, &c.UY, &c.HX, &c.HY}
						out, where = -1, [6]string{"CX", "CY", "UX", "UY", "HX", "HY"}[place]
						*cols[place] = g.FloatsCopy(*cols[place])
					} else {
						where = k.outs[out]
					}
					if err := k.run(g, &c, out); err != nil {
						t.Fatalf("%s, %d boxes, %s before the guard page: %v", k.name, n, where, err)
					}
				}
			}
		}
	})
}

// TestKeepKeysGuardPages places the keys, the bitset, the output and the
// pairs' halves right before an unreadable page, for every key count up to three groups of 8
// past 64, with keys whose boxes' bits lie in the bitset's last word, the
// output's room ending with the keys or one short of them, and every key
// standing or one stopped at; and a key whose box's word would be the one
// past the bitset, which must panic, not read it.
func TestKeepKeysGuardPages(t *testing.T) {
	g := testkit.NewGuarded(t, 64<<10)
	r := rand.New(rand.NewPCG(37, 38))
	testkit.ForEachImpl(t, func(t *testing.T) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		for n := 1; n <= 64+3*8+1; n++ {
			prev, touched := keepCase(r, n, 5, 1<<30)
			for i := range prev { // the last word's slots, 256 to 319
				if r.IntN(2) == 0 {
					prev[i] = prev[i]&(1<<40-1) | uint64(256+r.IntN(64))<<40
				} else {
					prev[i] = prev[i]&^(1<<32-1) | uint64(256+r.IntN(64))<<8
				}
			}
			slices.Sort(prev)
			if r.IntN(2) == 0 {
				s := prev[r.IntN(n)] >> 40
				touched[s/64] |= 1 << (s % 64)
			}
			for _, room := range []int{n, n - 1} {
				want := make([]uint64, room)
				wantN := keepReference(prev, touched, want, math.MaxUint64)
				for _, where := range []string{"keys", "bitset", "output", "pairs"} {
					p, tb, out, pairs := prev, touched, make([]uint64, room), make([]uint32, 2*room)
					switch where {
					case "keys":
						p = g.WordsAtEnd(len(prev))
						copy(p, prev)
					case "bitset":
						tb = g.WordsAtEnd(len(touched))
						copy(tb, touched)
					case "output":
						out = g.WordsAtEnd(room)
						clear(out)
					default:
						w := g.WordsAtEnd(room)
						pairs = unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(w))), 2*room)
						clear(pairs)
					}
					var got int
					if err := testkit.Fault(func() { got = batch.KeepKeys(p, tb, out, pairs, math.MaxUint64) }); err != nil {
						t.Fatalf("%d keys, room %d, %s before the guard page: %v", n, room, where, err)
					}
					if got != wantN || !slices.Equal(out[:got], want[:wantN]) {
						t.Fatalf("%d keys, room %d, %s before the guard page: copied %d, want %d", n, room, where, got, wantN)
					}
					for i, k := range want[:wantN] {
						if pairs[2*i] != uint32(k>>32) || pairs[2*i+1] != uint32(k) {
							t.Fatalf("%d keys, room %d, %s before the guard page: pair %d is %#x %#x, key %#x", n, room, where, i, pairs[2*i], pairs[2*i+1], k)
						}
					}
				}
			}
			// A key whose box's word would be the one past the bitset:
			// KeepKeys panics with its message, it does not read the word.
			bad, at := slices.Clone(prev), r.IntN(n)
			if r.IntN(2) == 0 {
				bad[at] = bad[at]&(1<<40-1) | uint64(320+r.IntN(64))<<40
			} else {
				bad[at] = bad[at]&^(1<<32-1) | uint64(320+r.IntN(64))<<8
			}
			tb := g.WordsAtEnd(len(touched))
			clear(tb)
			err := testkit.Fault(func() { batch.KeepKeys(bad, tb, make([]uint64, n), nil, math.MaxUint64) })
			if err == nil || !strings.Contains(err.Error(), "names slots") {
				t.Fatalf("%d keys, key %d past the bitset before the guard page: %v", n, at, err)
			}
		}
	})
}

// TestMeetsGuardPages places the bounds, the rectangle and the handles,
// each in turn, right before an unreadable page, for every lane count.
func TestMeetsGuardPages(t *testing.T) {
	g := testkit.NewGuarded(t, 4096)
	r := rand.New(rand.NewPCG(53, 54))
	testkit.ForEachImpl(t, func(t *testing.T) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		for n := 0; n <= batch.BlockLanes; n++ {
			q, b, h, limit := randomBounds(r)
			want := []uint64{uint64(meetsWant(&q, &b, &h, limit, n, false)), uint64(meetsWant(&q, &b, &h, limit, n, true))}
			call := func(q *batch.Rect, b *batch.Bounds, h *[batch.BlockLanes]uint32) func() []uint64 {
				return func() []uint64 {
					return []uint64{uint64(batch.Meets(q, b, n)), uint64(batch.MeetsBelow(q, b, h, limit, n))}
				}
			}
			what := fmt.Sprintf("%d lanes", n)
			gb := (*batch.Bounds)(unsafe.Pointer(&g.FloatsAtEnd(64)[0]))
			*gb = b
			expectGuarded(t, what, "bounds", want, call(&q, gb, &h))
			gq := (*batch.Rect)(unsafe.Pointer(&g.FloatsAtEnd(4)[0]))
			*gq = q
			expectGuarded(t, what, "rectangle", want, call(gq, &b, &h))
			gh := (*[batch.BlockLanes]uint32)(unsafe.Pointer(&g.Int32sAtEnd(batch.BlockLanes)[0]))
			*gh = h
			expectGuarded(t, what, "handles", want, call(&q, &b, gh))
		}
	})
}
