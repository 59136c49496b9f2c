package batch

import (
	"fmt"

	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/soa"
)

// RunsPruned decides many short one-against-many tests in one call, as a
// sweep-and-prune broad phase makes them: runs holds triples q, lo, hi, and
// run k tests box runs[3k] of qs against boxes runs[3k+1] through
// runs[3k+2]-1 of b. A candidate j of query q gets its bit when
//
//	|b.CY[j] - qs.CY[q]| <= reach[j] + qreach[q]
//
// (float32 subtraction and addition, |x| by clearing the sign bit, false
// when either side is NaN) and the two boxes overlap as obb.Box.Overlaps
// says. The reach test comes first: a group of 8 or 16 candidates none of
// which passes it skips the separating-axis test (one candidate at a time
// in Go).
//
// Run k's bitset takes Words(hi-lo) words of out, right after run k-1's (an
// empty run takes none): bit i%64 of word i/64 for box lo+i. RunsPruned
// returns the number of words written. One call replaces a call per run and
// saves each run the per-call costs that a sweep's runs of about a hundred
// boxes would feel (BenchmarkOverlapsShort).
//
// The reach is the caller's bound on each box's extent across the sweep,
// widened so that no overlapping pair fails the first test: package pairs
// proves that for the reaches it computes. For one set on both sides, pass
// the same set and slice twice.
//
// It panics, before writing anything, if len(runs) is not a multiple of 3,
// a set's columns differ in length or from its reach, a query index is
// outside qs, a range is not within [0, b.Len()], or out is shorter than
// the runs' words together.
func RunsPruned(qs, b *soa.Boxes, qreach, reach []float32, runs []int32, out []uint64) int {
	nq, n := qs.Len(), b.Len()
	if len(qreach) != nq || len(reach) != n {
		panic(fmt.Sprintf("batch: reaches of %d and %d boxes for sets of %d and %d", len(qreach), len(reach), nq, n))
	}
	if len(runs)%3 != 0 {
		panic(fmt.Sprintf("batch: run list has length %d, not a multiple of 3", len(runs)))
	}
	words := 0
	for k := 0; k < len(runs); k += 3 {
		q, lo, hi := runs[k], runs[k+1], runs[k+2]
		if uint(q) >= uint(nq) {
			panic(fmt.Sprintf("batch: run %d: query index %d is outside [0, %d)", k/3, q, nq))
		}
		if lo < 0 || hi < lo || int(hi) > n {
			panic(fmt.Sprintf("batch: run %d: range [%d:%d] is outside [0, %d]", k/3, lo, hi, n))
		}
		words += Words(int(hi - lo))
	}
	if len(out) < words {
		panic(fmt.Sprintf("batch: out has %d words, need %d for the runs", len(out), words))
	}
	if words > 0 {
		runsPruned(qs, b, qreach, reach, runs, out)
	}
	return words
}

// runsPrunedGeneric is RunsPruned in Go, for checked arguments: each
// candidate that passes the reach test goes through lane, the others get a
// 0 bit. It branches on the reach test per candidate: the test exists to
// skip work, few candidates of a sweep pass it, and computing every lane
// with the test as a mask afterwards measured slower than no reach test at
// all (BenchmarkAllPairs, impl=generic).
func runsPrunedGeneric(qs, b *soa.Boxes, qreach, reach []float32, runs []int32, out []uint64) {
	for k := 0; k < len(runs); k += 3 {
		q, lo, hi := runs[k], runs[k+1], runs[k+2]
		if lo == hi {
			continue
		}
		// The query written field by field: made as a value, it is six
		// 4-byte stores to a temporary and two 16-byte loads copying it,
		// and a load that spans several stores waits for them to reach the
		// cache (AMD and Intel forward a store to a load only whole).
		var query Query
		query.CX, query.CY, query.UX, query.UY, query.HX, query.HY = qs.CX[q], qs.CY[q], qs.UX[q], qs.UY[q], qs.HX[q], qs.HY[q]
		qr := qreach[q]
		w := Words(int(hi - lo))
		words := out[:w]
		clear(words)
		cx, cy, ux, uy, hx, hy, rc := b.CX[lo:hi], b.CY[lo:hi], b.UX[lo:hi], b.UY[lo:hi], b.HX[lo:hi], b.HY[lo:hi], reach[lo:hi]
		for i, y := range cy {
			if f32.Abs(y-query.CY) <= rc[i]+qr && lane(&query, cx[i], y, ux[i], uy[i], hx[i], hy[i]) {
				words[i>>6] |= 1 << (i & 63)
			}
		}
		out = out[w:]
	}
}
