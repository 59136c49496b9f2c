package world

import "math"

// SortAll makes MoveBoxes sort its writes, and Pairs its dirty boxes, by
// block in worlds of every size when on, so that small worlds test those
// paths too, and restores the size limit when off.
func SortAll(on bool) {
	largeBytes = defaultLargeBytes
	if on {
		largeBytes = -1
	}
}

// SortNone makes those passes go in the callers' order in worlds of every
// size, until SortAll is called (BenchmarkSortedPasses).
func SortNone() { largeBytes = math.MaxInt }
