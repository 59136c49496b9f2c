//go:build linux

package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"syscall"
	"testing"
	"unsafe"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// guarded is memory whose last usable byte is followed by a PROT_NONE page,
// like bytes/boundary_test.go in the standard library.
type guarded struct {
	mem  []byte
	data []byte // the readable, writable part, ending at the guard page
}

func newGuarded(t *testing.T, size int) *guarded {
	t.Helper()
	page := syscall.Getpagesize()
	data := (size + page - 1) / page * page
	mem, err := syscall.Mmap(-1, 0, data+page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	if err := syscall.Mprotect(mem[data:], syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	return &guarded{mem: mem, data: mem[:data]}
}

func (g *guarded) free() { syscall.Munmap(g.mem) }

// floatsAtEnd returns n float32s whose last element is the last before the
// guard page.
func (g *guarded) floatsAtEnd(n int) []float32 {
	all := unsafe.Slice((*float32)(unsafe.Pointer(&g.data[0])), len(g.data)/4)
	return all[len(all)-n:]
}

// floatsCopy returns a copy of src whose last element is the last before
// the guard page.
func (g *guarded) floatsCopy(src []float32) []float32 {
	dst := g.floatsAtEnd(len(src))
	copy(dst, src)
	return dst
}

func (g *guarded) int32sAtEnd(n int) []int32 {
	all := unsafe.Slice((*int32)(unsafe.Pointer(&g.data[0])), len(g.data)/4)
	return all[len(all)-n:]
}

func (g *guarded) wordsAtEnd(n int) []uint64 {
	all := unsafe.Slice((*uint64)(unsafe.Pointer(&g.data[0])), len(g.data)/8)
	return all[len(all)-n:]
}

// TestGuardPages places each column, and then the output, right before an
// unreadable page, for every length that ends a group or word differently,
// and runs every implementation. A read or write past a slice's end faults;
// SetPanicOnFault turns the fault into a panic that the test reports with the
// length and the column.
func TestGuardPages(t *testing.T) {
	g := newGuarded(t, 64<<10)
	defer g.free()

	var lengths []int
	for n := 1; n <= 3*16+64+1; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1024, 4095, 4096)

	r := rand.New(rand.NewPCG(11, 12))
	forEachImpl(t, func(t *testing.T) {
		// Per goroutine: t.Run runs this function on a goroutine of its own.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		for _, n := range lengths {
			src := randomSet(r, n)
			qb := obb.New(obb.Vec2{}, 8, 5, 0.7)
			q := NewQuery(qb)
			want := scalarBits(qb, src)
			// place = 0..5: that column at the guard page; 6: the output.
			for place := 0; place <= 6; place++ {
				b := *src
				cols := [6]*[]float32{&b.CX, &b.CY, &b.UX, &b.UY, &b.HX, &b.HY}
				out := make([]uint64, Words(n))
				where := "output"
				if place < 6 {
					where = [6]string{"CX", "CY", "UX", "UY", "HX", "HY"}[place]
					*cols[place] = g.floatsCopy(*cols[place])
				} else {
					out = g.wordsAtEnd(Words(n))
				}
				if err := fault(func() { Overlaps(&q, &b, out) }); err != nil {
					t.Fatalf("n=%d, %s before the guard page: %v", n, where, err)
				}
				if fmt.Sprint(out) != fmt.Sprint(want) {
					t.Fatalf("n=%d, %s before the guard page: wrong bits", n, where)
				}
			}
		}
	})
}

// fault runs f and returns the panic it raised, if any: with
// debug.SetPanicOnFault on, a read or write of the guard page.
func fault(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("fault: %v", r)
		}
	}()
	f()
	return nil
}

// TestGuardPageFaultIsCaught proves the harness detects an overrun: reading
// one float past a guarded column must be reported, not crash the test.
func TestGuardPageFaultIsCaught(t *testing.T) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	g := newGuarded(t, 4096)
	defer g.free()
	col := g.floatsAtEnd(4)
	err := fault(func() {
		past := unsafe.Slice(&col[0], 5) // one element into the guard page
		sink = past[4]
	})
	if err == nil {
		t.Fatal("reading the guard page did not fault: the guard-page test would prove nothing")
	}
}

var sink float32

// TestStartOffsets runs columns that start at every float offset within a
// 32-byte line, so unaligned loads are exercised too.
func TestStartOffsets(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	forEachImpl(t, func(t *testing.T) {
		for off := 0; off < 8; off++ {
			for _, n := range []int{1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 200} {
				src := randomSet(r, n)
				var b soa.Boxes
				shift := func(col []float32) []float32 {
					s := make([]float32, off+len(col))
					copy(s[off:], col)
					return s[off:]
				}
				b.CX, b.CY, b.UX, b.UY, b.HX, b.HY = shift(src.CX), shift(src.CY), shift(src.UX), shift(src.UY), shift(src.HX), shift(src.HY)
				qb := obb.New(obb.Vec2{}, 6, 6, 0.1)
				q := NewQuery(qb)
				checkBits(t, &q, &b, scalarBits(qb, &b))
			}
		}
	})
}

// twoSetPlaces is how many places checkTwoSetsGuarded puts before the guard
// page: the twelve columns of two sets, an index list, the output.
const twoSetPlaces = 14

// checkTwoSetsGuarded copies place (see twoSetPlaces) of a kernel call on
// two sets a and b, an index list and an output of len(want) words right
// before the guard page, runs call on them, and fails the test when it
// faults or its bits differ from want. what says what the call was, for the
// message.
func checkTwoSetsGuarded(t *testing.T, g *guarded, place int, what string, a, b soa.Boxes, list []int32, want []uint64,
	call func(a, b *soa.Boxes, list []int32, out []uint64)) {
	t.Helper()
	out := make([]uint64, len(want))
	var where string
	switch {
	case place < 12:
		set, name := &a, "a."
		if place >= 6 {
			set, name = &b, "b."
		}
		cols := [6]*[]float32{&set.CX, &set.CY, &set.UX, &set.UY, &set.HX, &set.HY}
		col := cols[place%6]
		*col = g.floatsCopy(*col)
		where = name + [6]string{"CX", "CY", "UX", "UY", "HX", "HY"}[place%6]
	case place == 12:
		guardedList := g.int32sAtEnd(len(list))
		copy(guardedList, list)
		list = guardedList
		where = "index list"
	default:
		out = g.wordsAtEnd(len(want))
		where = "output"
	}
	expectGuarded(t, what, where, want, func() []uint64 { call(&a, &b, list, out); return out })
}

// expectGuarded runs call, which returns its output, and fails the test
// when it faults or the output differs from want. what says what the call
// was and where what lies before the guard page, for the message.
func expectGuarded(t *testing.T, what, where string, want []uint64, call func() []uint64) {
	t.Helper()
	var out []uint64
	if err := fault(func() { out = call() }); err != nil {
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
	g := newGuarded(t, 64<<10)
	defer g.free()
	r := rand.New(rand.NewPCG(15, 16))
	forEachImpl(t, func(t *testing.T) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		for n := 1; n <= 64+3*8+1; n++ {
			a, b := randomSet(r, 1+r.IntN(40)), randomSet(r, 1+r.IntN(40))
			ij := randomPairs(r, n, a.Len(), b.Len())
			want := scalarPairBits(a, b, ij)
			for place := 0; place < twoSetPlaces; place++ {
				checkTwoSetsGuarded(t, g, place, fmt.Sprintf("%d pairs", n), *a, *b, ij, want, PairOverlaps)
			}
		}
	})
}

// TestRunGuardPages places each of the twelve columns of the query set and
// the candidate set, the run list and the output right before an
// unreadable page, with runs of every length up to three groups past a word
// that end at the last box, so that the last group of each run would cross
// the columns' end, and a run whose query is the last query box. It runs
// OverlapsRuns and OverlapsRunsPruned, the latter with each of its two reach
// columns before the guard page too.
func TestRunGuardPages(t *testing.T) {
	g := newGuarded(t, 64<<10)
	defer g.free()
	r := rand.New(rand.NewPCG(25, 26))
	forEachImpl(t, func(t *testing.T) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		for length := 1; length <= maxRunLength; length++ {
			n := length + r.IntN(3)
			qs, b := randomSet(r, 1+r.IntN(20)), randomSet(r, n)
			qreach, reach := randomReach(r, qs, false), randomReach(r, b, false)
			runs := []int32{int32(qs.Len() - 1), int32(n - length), int32(n), 0, 0, int32(min(n, 20))}
			want := scalarRunBits(qs, b, runs)
			wantPruned, _ := scalarPrunedBits(qs, b, qreach, reach, runs)
			what := fmt.Sprintf("run length %d of %d boxes", length, n)
			for place := 0; place < twoSetPlaces; place++ {
				checkTwoSetsGuarded(t, g, place, "OverlapsRuns, "+what, *qs, *b, runs, want, func(qs, b *soa.Boxes, runs []int32, out []uint64) {
					OverlapsRuns(qs, b, runs, out)
				})
				checkTwoSetsGuarded(t, g, place, "OverlapsRunsPruned, "+what, *qs, *b, runs, wantPruned, func(qs, b *soa.Boxes, runs []int32, out []uint64) {
					OverlapsRunsPruned(qs, b, qreach, reach, runs, out)
				})
			}
			for _, col := range []struct {
				name string
				data []float32
			}{{"qreach", qreach}, {"reach", reach}} {
				guardedCol := g.floatsCopy(col.data)
				qr, rr := qreach, reach
				if col.name == "qreach" {
					qr = guardedCol
				} else {
					rr = guardedCol
				}
				expectGuarded(t, "OverlapsRunsPruned, "+what, col.name, wantPruned, func() []uint64 {
					out := make([]uint64, len(wantPruned))
					OverlapsRunsPruned(qs, b, qr, rr, runs, out)
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
	g := newGuarded(t, 64<<10)
	defer g.free()
	r := rand.New(rand.NewPCG(49, 50))
	forEachImpl(t, func(t *testing.T) {
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
				var out []Hit
				where := "output"
				if place < 9 {
					where = [9]string{"CX", "CY", "UX", "UY", "HX", "HY", "reach", "lo", "hi"}[place]
					*cols[place] = g.floatsCopy(*cols[place])
					out = make([]Hit, room)
				} else {
					words := g.wordsAtEnd(room)
					out = unsafe.Slice((*Hit)(unsafe.Pointer(&words[0])), room)
				}
				var got []Hit
				err := fault(func() {
					for st := (SweepState{Q: 0, C: 1}); st.Q < n; {
						k := Sweep(&b, l, h, rc, &st, n, out)
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
