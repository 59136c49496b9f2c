// Package world keeps a persistent set of oriented boxes for the questions
// a game or a physics engine asks every frame: which boxes overlap this
// footprint (Query, Any, QueryRegion, QueryPoint), what does this segment
// hit first (RayCast), and which pairs of boxes overlap now, and which began
// and stopped since the last step (Pairs, Events).
//
// Boxes are named by a Handle that stays valid for the box's life. Each box
// has a Kind (Dynamic or Static: two Static boxes never pair, and a Static
// box costs a step nothing unless it moves) and a Filter of collision
// categories, which SetKind and SetFilter change.
//
// # Answers
//
// Every answer is exactly what obb.Box.Overlaps (obb.Box.ContainsPoint for
// QueryPoint, obb.Box.RayCast for RayCast) says for the two boxes, the same
// bits on every CPU, with every kernel implementation and every number of
// workers: the grid only decides which boxes are tested, and its bounds
// provably keep every box the float32 test could report (see package obb
// for the test's operation order and rounding band). Bad data gets
// obb.Box.Overlaps' answer and costs no more than it needs: a box with a
// NaN overlaps nothing and is kept out of the grid, so it is never tested;
// a box with an infinity, or with a zero axis, has no finite bounds and is
// tested against every box by the scalar test, as is a box whose axis has a
// component of 2¹⁶ or more, with which obb.Box.RayCast's products can
// overflow, and one whose half extents sum to 2¹²⁶ or more, or whose axis
// length L times |Half.X| + |Half.Y| is 2⁶⁰ or more, whose radii in
// obb.Box.Overlaps can overflow to +Inf, which every projection passes
// (bound.Huge, bound.Irregular); a box with negative half extents or an
// axis that is not unit length is in the grid with bounds that cover what
// the test can say of it.
//
// # Structure
//
// The boxes live in a loose hierarchical grid whose cells are found through
// a hash table of 8×8-cell tiles, so that coordinates are unbounded, one
// grid per Kind, and where a level's tiles lie close together through an
// array over their coordinates, which the caches keep; a cell keeps its
// boxes in blocks of 16, two groups of 8 as float32 columns, that the batch
// kernels test 8 or 16 at a time, a block per call. A question visits the
// few cells its bounds reach on each level of box sizes, so its cost does
// not grow with the number of boxes in the world. A Dynamic box whose
// center moves just past its cell's edge stays in the cell while its
// bounds stay within the cell's reach, so a box that jitters on an edge
// does not move between cells every step. In the Static grid each
// cell and each block keeps a rectangle that holds its boxes' bounds, a
// crowded cell's boxes lie in spatial order (Sort-Tile-Recursive), and the
// questions skip the cells and blocks whose rectangles miss theirs.
// InsertBoxes writes its boxes into their cells cell by cell. Once as
// many boxes have entered a grid's cells as it held when it was last laid
// out, or holds now if fewer (and at least 1,024), it lays its cells and
// their blocks out again in the order of the cells' coordinates, so that
// neighbouring cells' blocks lie close together in memory: a World grown
// by Insert is laid out each time it doubles. Pairs
// remembers the last step's pairs and tests only the boxes inserted, moved
// or refiltered since; the others' pairs stand. When many boxes moved, it
// tests the candidates it keeps, the pairs whose fat bounds (the boxes'
// bounds grown by a margin, as in Box2D's dynamic tree) meet, and finds new
// candidates only for the boxes that left their fat bounds; when more than
// one box in 16 a step does, on average over the last steps, it recomputes
// every pair cell by cell until a sample of the boxes shows few leaving.
// While it keeps them, fewer than two a box, a step where few boxes moved
// tests only the moved boxes' candidates instead of querying the boxes.
// MoveBoxes moves many boxes in one call, on several goroutines, and writes
// them block by block rather than in the caller's order when there are many
// or the world is large. In a large world, Move too leaves the writing of
// its box's block to the next question or Pairs, which writes the blocks of
// all the Moves since together. When a quarter of the boxes or more moved in
// a world larger than the L2 cache, the blocks wait for the first question,
// or step that does not use the candidates, which writes them in one pass;
// in a large world whose steps with few moves the candidates serve, the
// blocks of a MoveBoxes of fewer, and of Moves, wait too, and that
// question writes each box moved since once: in a physics loop of moves
// and steps served by the candidates, only what reads the blocks pays for
// their writes. On Linux, the arrays of 4 MiB or more that questions read
// at scattered places (the blocks, their fat bounds, the tiles and the
// boxes' slots) ask for transparent huge pages where the system gives
// them only on request ("madvise");
// GODEBUG=disablethp=1, the runtime's switch for the heap, turns that off.
//
// # Memory
//
// A box takes its slot, 56 bytes, and a lane of a block of its cell: 40
// bytes, and 16 of fat bounds, in a block of 16 lanes, so a World's
// memory depends on how full its cells' blocks are (BenchmarkWorldLoad's
// kept-B/box, which docs/PERFORMANCE.md gives by scene). A World that
// steps adds 64 bytes a box, and 8 bytes a pair, or a pair of boxes
// whose fat bounds meet, in each list Pairs keeps of them. No array is
// kept twice: a compaction moves the blocks within their own array, and a
// large InsertBoxes lets its buffers go.
//
// # Handles
//
// A Handle's low 8 bits are a generation and the other 24 a slot: a World
// holds up to 2²⁴ boxes. A method given a handle whose box was removed, or
// one this World never issued, panics with a message saying which, before
// changing anything. A slot's generation runs from 1 to 255 and wraps, so a
// handle kept through 255 reuses of its slot is no longer caught; freed slots
// are reused first in, first out, which makes that as late as it can be.
package world
