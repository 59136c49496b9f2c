// Package pairs runs whole collision passes: every overlapping pair among a
// set of boxes ([Finder.All]) or between a moving set and a static set
// ([Finder.Between]), and the narrow phase over a candidate pair list that
// someone else's broad phase produced ([Finder.Check], [Finder.Filter]).
//
// Every answer is exactly obb.Box.Overlaps of the two boxes: the passes only
// decide which pairs to hand to the batch kernels (the same kernels, and the
// same choice of implementation, as package kernel), and the kernels compute
// the same bits as the scalar test.
//
// # All pairs
//
// [Finder.All] is a sort-and-sweep broad phase (Baraff's sweep and prune;
// Ericson, Real-Time Collision Detection, 7.5). Each box's interval on the
// sweep axis (x or y, whichever spreads a sample of the centers more) is its
// exact bounds widened by the rounding band of package obb, so that no pair
// the float32 test calls overlapping can be dropped: when the test says two
// boxes overlap, their exact rectangles are within √2 times the band of each
// other. After sorting by interval start, the candidates of a box are the
// contiguous run of later boxes that start before it ends; one kernel call
// finds each box's run and tests it, 8 or 16 candidates per instruction.
// [Finder.Between] finds the runs of each set in the other. A reach test
// first drops the candidates whose centers are too far apart across the
// sweep axis: each box's reach is its exact half extent across the sweep,
// widened like the interval.
//
// Boxes that fail obb.Box.Validate cost what their answers need, and the
// result equals the brute-force answer for every input: a box with a NaN
// overlaps nothing and is left out; a box with negative half extents or an
// axis that is not unit length is swept like the others, with an interval
// and a reach proven to keep its pairs; only a box with an infinity, an
// axis of length zero, half extents that sum to 2¹²⁶ or more, or an axis
// of length L with L ≥ 2⁶⁰ or L·(|Half.X| + |Half.Y|) ≥ 2⁶⁰ (the last three:
// boxes whose radii in the test can overflow to +Inf, which every
// projection passes) is tested against every box by the scalar test.
//
// Pairs are returned with I < J (for [Finder.Between], I indexes the moving
// set and J the static set), sorted by I and then J, whatever the kernel and
// the number of workers.
package pairs

// The files, for maintainers: finder.go holds the passes, read top down;
// bounds.go each box's padded interval and reach and the proofs that they
// lose no pair; sort.go the bucketed sort along the sweep axis, buckets.go
// its bucket index and the search in it; sweep.go the jobs that hand runs
// to the kernels; collect.go and merge.go how the workers' pairs are
// gathered and sorted; team.go the workers that run each job.
