// Package stagger allocates parallel columns so that element i of each
// column falls in a different cache set.
//
// Go hands out large allocations page aligned. Columns of the same length
// allocated one by one therefore start at the same offset within a 4 KiB
// page, so element i of every column maps to the same set of the L1 data
// cache (and of any cache whose set index comes from address bits below the
// page size). A loop that walks more columns in step than the cache has ways
// (the sort's gather writes nine) evicts its own lines on every element:
// copying records into nine page-aligned columns runs several times slower
// than into columns one cache line apart (BenchmarkSplitRecords).
package stagger

// word is a 4-byte column element.
type word interface{ ~float32 | ~int32 | ~uint32 }

const (
	lineWords = 64 / 4   // elements in a 64-byte cache line
	pageWords = 4096 / 4 // elements in a 4 KiB page
)

// Columns returns k columns of length n and capacity at least n, carved
// from one allocation. Column c starts (skip+c) cache lines past a multiple
// of 4 KiB from the allocation's start, so that sets made by different
// calls with different skip values do not collide either. The columns' caps
// are clipped: appending to one never writes into the next.
func Columns[T word](n, k, skip int) [][]T {
	if n < 0 || k < 0 || skip < 0 {
		panic("stagger: negative size")
	}
	// Each column takes a whole number of pages plus one line, so column c
	// begins c lines further into its page than column 0.
	stride := (n+pageWords-1)/pageWords*pageWords + lineWords
	first := skip * lineWords % pageWords
	backing := make([]T, first+k*stride)
	cols := make([][]T, k)
	for c := range cols {
		start := first + c*stride
		cols[c] = backing[start : start+n : start+stride]
	}
	return cols
}
