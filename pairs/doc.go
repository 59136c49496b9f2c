// Package pairs runs whole collision passes: every overlapping pair among a
// set of boxes (or between a moving set and a static set), and the narrow
// phase over a candidate pair list that someone else's broad phase produced.
//
// Every answer is exactly obb.Box.Overlaps of the two boxes: the passes only
// decide which pairs to hand to the batch kernels of package kernel, and the
// kernels compute the same bits as the scalar test.
//
// # All pairs
//
// [Finder.All] is a sort-and-sweep broad phase. Each box's interval on the
// sweep axis (x or y, whichever spreads a sample of the centers more) is its
// exact bounds widened by the rounding band of package obb, so that no pair
// the float32 test calls overlapping can be dropped: when the test says two
// boxes overlap, their exact rectangles are within √2 times the band of each
// other. After sorting by interval start, the candidates of a box are the
// contiguous run of later boxes that start before it ends. [Finder.All]
// hands the sorted set to kernel.Sweep a chunk of boxes at a time, which
// finds each box's run and tests it in one call; [Finder.Between] finds the
// runs of each set in the other and hands them to kernel.OverlapsRunsPruned.
// Both kernels' reach test first drops the candidates whose centers are too
// far apart across the sweep axis: each box's reach is its exact half
// extent across the sweep, widened like the interval.
// Boxes that fail obb.Box.Validate (NaN, infinities, negative extents, axes
// that are not unit length), for which the band does not hold, are tested
// against every box by the scalar test, so the result equals the
// brute-force answer for every input.
//
// Pairs are returned with I < J (for [Finder.Between], I indexes the moving
// set and J the static set), sorted by I and then J, whatever the kernel and
// the number of workers.
package pairs
