package kernel

import (
	"fmt"

	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/soa"
)

// OverlapsRuns decides many one-against-many tests in one call, as a
// sweep-and-prune broad phase makes them: short runs of consecutive boxes,
// each against its own query box. runs holds triples q, lo, hi; run k tests
// box runs[3k] of qs against boxes runs[3k+1] through runs[3k+2]-1 of b. For
// qs and b, pass the same set to test boxes of one set against each other.
//
// Run k's bitset takes Words(hi-lo) words of out, right after the words of
// run k-1 (an empty run takes none), and holds exactly what
// Overlaps(&q, &s, words) writes for the query made from box runs[3k] and
// s = b.Slice(lo, hi): bit i%64 of word i/64 for box lo+i. OverlapsRuns
// returns the number of words written. It allocates nothing.
//
// One call replaces a call of Overlaps per run, and saves each run the
// per-call costs (slicing six columns, the dispatch, the assembly call),
// which a sweep's runs of about a hundred boxes feel.
//
// It panics, before writing anything, if len(runs) is not a multiple of 3, a
// set's columns differ in length, a query index is outside qs, a range is
// not within [0, b.Len()], or out is shorter than the runs' words together.
func OverlapsRuns(qs, b *soa.Boxes, runs []int32, out []uint64) int {
	words := checkRuns(qs, b, runs, out)
	if words == 0 {
		return 0
	}
	switch current.Load() {
	case implAVX512:
		runsAVX512(qs.CX, qs.CY, qs.UX, qs.UY, qs.HX, qs.HY, b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, runs, out)
	case implAVX2:
		runsAVX2(qs.CX, qs.CY, qs.UX, qs.UY, qs.HX, qs.HY, b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, runs, out)
	default:
		runsGeneric(qs, b, runs, out)
	}
	return words
}

// checkRuns checks the arguments of OverlapsRuns, panicking on the first
// error, and returns the number of words the runs take.
func checkRuns(qs, b *soa.Boxes, runs []int32, out []uint64) int {
	nq, n := qs.Len(), b.Len()
	if len(runs)%3 != 0 {
		panic(fmt.Sprintf("kernel: run list has length %d, not a multiple of 3", len(runs)))
	}
	words := 0
	for k := 0; k < len(runs); k += 3 {
		q, lo, hi := runs[k], runs[k+1], runs[k+2]
		if uint(q) >= uint(nq) {
			panic(fmt.Sprintf("kernel: run %d: query index %d is outside [0, %d)", k/3, q, nq))
		}
		if lo < 0 || hi < lo || int(hi) > n {
			panic(fmt.Sprintf("kernel: run %d: range [%d:%d] is outside [0, %d]", k/3, lo, hi, n))
		}
		words += Words(int(hi - lo))
	}
	if len(out) < words {
		panic(fmt.Sprintf("kernel: out has %d words, need %d for the runs", len(out), words))
	}
	return words
}

// runsGeneric is OverlapsRuns in Go, for checked arguments: the generic
// kernel on each run's slice of the columns.
func runsGeneric(qs, b *soa.Boxes, runs []int32, out []uint64) {
	for k := 0; k < len(runs); k += 3 {
		q, lo, hi := runs[k], runs[k+1], runs[k+2]
		if lo == hi {
			continue
		}
		query := Query{qs.CX[q], qs.CY[q], qs.UX[q], qs.UY[q], qs.HX[q], qs.HY[q]}
		w := Words(int(hi - lo))
		overlapsGeneric(&query, b.CX[lo:hi], b.CY[lo:hi], b.UX[lo:hi], b.UY[lo:hi], b.HX[lo:hi], b.HY[lo:hi], out[:w])
		out = out[w:]
	}
}

// OverlapsRunsPruned is OverlapsRuns with a cheap test in front of the
// separating-axis test: a candidate's bit is set only when
//
//	|b.CY[j] - qs.CY[q]| <= reach[j] + qreach[q]
//
// (float32 subtraction and addition, |x| by clearing the sign bit, false
// when either side is NaN) and the two boxes overlap. reach and qreach hold
// one value per box of b and of qs. Candidates that fail the first test skip
// the separating-axis test: one at a time in the generic kernel, a group of
// 8 or 16 at a time in the assembly kernels.
//
// A sweep along x gives the caller the reach: a bound on each box's half
// height, widened so that no pair that overlaps fails the first test. This
// function does not check that; package pairs proves it for the reaches it
// computes. For the same set on both sides, pass the same slice twice.
//
// It panics, before writing anything, in the cases OverlapsRuns does and when
// reach or qreach differs in length from its set.
func OverlapsRunsPruned(qs, b *soa.Boxes, qreach, reach []float32, runs []int32, out []uint64) int {
	if len(qreach) != qs.Len() || len(reach) != b.Len() {
		panic(fmt.Sprintf("kernel: reaches of %d and %d boxes for sets of %d and %d", len(qreach), len(reach), qs.Len(), b.Len()))
	}
	words := checkRuns(qs, b, runs, out)
	if words == 0 {
		return 0
	}
	switch current.Load() {
	case implAVX512:
		runsPrunedAVX512(qs.CX, qs.CY, qs.UX, qs.UY, qs.HX, qs.HY, qreach, b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, reach, runs, out)
	case implAVX2:
		runsPrunedAVX2(qs.CX, qs.CY, qs.UX, qs.UY, qs.HX, qs.HY, qreach, b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, reach, runs, out)
	default:
		runsPrunedGeneric(qs, b, qreach, reach, runs, out)
	}
	return words
}

// runsPrunedGeneric is OverlapsRunsPruned in Go, for checked arguments:
// each candidate that passes the reach test goes through the generic
// kernel's lane function, the others get a 0 bit. It branches on the reach
// test per candidate: the test exists to skip work, and on bench/'s uniform
// scene few candidates pass it, so the branch is predictable. Computing
// every lane in full, with the reach test as a mask afterwards, made the
// generic all-pairs pass slower than it was without the reach test (RTS
// map, 100,000 boxes: 15.4 to 19.4 µs a box in alternating runs, 4 rounds);
// branching made it faster (uniform map: 6.72 to 2.12 µs a box, 5 rounds).
func runsPrunedGeneric(qs, b *soa.Boxes, qreach, reach []float32, runs []int32, out []uint64) {
	for k := 0; k < len(runs); k += 3 {
		q, lo, hi := runs[k], runs[k+1], runs[k+2]
		if lo == hi {
			continue
		}
		query := Query{qs.CX[q], qs.CY[q], qs.UX[q], qs.UY[q], qs.HX[q], qs.HY[q]}
		qr := qreach[q]
		w := Words(int(hi - lo))
		words := out[:w]
		clear(words)
		cx, cy, ux, uy, hx, hy, rc := b.CX[lo:hi], b.CY[lo:hi], b.UX[lo:hi], b.UY[lo:hi], b.HX[lo:hi], b.HY[lo:hi], reach[lo:hi]
		for i, y := range cy {
			if f32.Abs(y-query.cy) <= rc[i]+qr && lane(&query, cx[i], y, ux[i], uy[i], hx[i], hy[i]) {
				words[i>>6] |= 1 << (i & 63)
			}
		}
		out = out[w:]
	}
}
