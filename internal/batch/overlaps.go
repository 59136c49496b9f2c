package batch

import (
	"fmt"
	"unsafe"

	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/obb"
)

// Query is one box's fields, as the kernels broadcast them to every lane:
// center, unit x-edge direction and half extents.
type Query struct{ CX, CY, UX, UY, HX, HY float32 }

// overlapsGeneric is Overlaps in Go: the fallback on every platform and the
// oracle the assembly kernels are tested against. It is the plain loop: the
// query's fields in locals, each box tested with lane's operations written
// out (lane is too large for the compiler to inline, and the call measured
// slower), returning after the first axis that separates, and the bitset
// built a word at a time. Grouping eight boxes per step, as the AVX2 kernel
// does, measured slower than this loop (BenchmarkOverlaps, impl=generic
// against impl=scalar-columns).
func overlapsGeneric(q *Query, cx, cy, ux, uy, hx, hy []float32, out []uint64) {
	n := len(cx)
	cy, ux, uy, hx, hy = cy[:n], ux[:n], uy[:n], hx[:n], hy[:n]
	qcx, qcy, qux, quy, qhx, qhy := q.CX, q.CY, q.UX, q.UY, q.HX, q.HY
	var word uint64
	for i := range n {
		bx, by, bux, buy, bhx, bhy := cx[i], cy[i], ux[i], uy[i], hx[i], hy[i]
		dx, dy := bx-qcx, by-qcy
		ac := f32.Abs(float32(qux*bux) + float32(quy*buy))
		as := f32.Abs(float32(qux*buy) - float32(quy*bux))
		if f32.Abs(float32(dx*qux)+float32(dy*quy)) <= qhx+(float32(bhx*ac)+float32(bhy*as)) &&
			f32.Abs(float32(dy*qux)-float32(dx*quy)) <= qhy+(float32(bhx*as)+float32(bhy*ac)) &&
			f32.Abs(float32(dx*bux)+float32(dy*buy)) <= bhx+(float32(qhx*ac)+float32(qhy*as)) &&
			f32.Abs(float32(dy*bux)-float32(dx*buy)) <= bhy+(float32(qhx*as)+float32(qhy*ac)) {
			word |= 1 << (i & 63)
		}
		if i&63 == 63 {
			out[i>>6] = word
			word = 0
		}
	}
	if n&63 != 0 {
		out[n>>6] = word
	}
}

// lane is obb.Box.Overlaps for the query against one box: the same
// operations in the same order, with the same return after each axis that
// separates the boxes, so it computes the same bit, NaN included (a NaN
// fails the first comparison it reaches). Returning early matters: on a
// spread-out map the first axis settles most boxes, and computing all four
// axes before comparing made this kernel slower than the
// scalar test in a loop (BenchmarkOverlaps, impl=generic against
// impl=scalar). The query stays behind a pointer: taking it by value
// measured slower on both of BenchmarkOverlaps' scenes.
func lane(q *Query, cx, cy, ux, uy, hx, hy float32) bool {
	dx := cx - q.CX
	dy := cy - q.CY
	ac := f32.Abs(float32(q.UX*ux) + float32(q.UY*uy))
	as := f32.Abs(float32(q.UX*uy) - float32(q.UY*ux))

	if !(f32.Abs(float32(dx*q.UX)+float32(dy*q.UY)) <= q.HX+(float32(hx*ac)+float32(hy*as))) {
		return false
	}
	if !(f32.Abs(float32(dy*q.UX)-float32(dx*q.UY)) <= q.HY+(float32(hx*as)+float32(hy*ac))) {
		return false
	}
	if !(f32.Abs(float32(dx*ux)+float32(dy*uy)) <= hx+(float32(q.HX*ac)+float32(q.HY*as))) {
		return false
	}
	return f32.Abs(float32(dy*ux)-float32(dx*uy)) <= hy+(float32(q.HX*as)+float32(q.HY*ac))
}

// BlockLanes is how many boxes a Block holds, GroupLanes how many a Group.
const (
	BlockLanes = 16
	GroupLanes = 8
)

// Group is the columns of up to 8 boxes, one after the other: 192 bytes,
// three cache lines when it starts on one.
type Group struct{ CX, CY, UX, UY, HX, HY [GroupLanes]float32 }

// Block holds up to 16 boxes, the unit a spatial index keeps its boxes in,
// tested against a query with one call of OverlapsBlock: lanes 0 to 7 in
// its first Group, 8 to 15 in its second. A block of at most 8 boxes is
// then read in its first group's three lines, where six columns of 16
// lanes would take six lines whatever the block held; the cells of the
// uniform scene hold six or seven boxes on average, and its queries take
// less time in groups than in columns of 16 (BenchmarkWorldQuery,
// n=1000000).
type Block [2]Group

// Put sets lane i of b to box x.
func (b *Block) Put(i int, x obb.Box) {
	g, j := &b[i/GroupLanes], i%GroupLanes
	g.CX[j], g.CY[j] = x.Center.X, x.Center.Y
	g.UX[j], g.UY[j] = x.Axis.X, x.Axis.Y
	g.HX[j], g.HY[j] = x.Half.X, x.Half.Y
}

// Box returns the box in lane i of b.
func (b *Block) Box(i int) obb.Box {
	g, j := &b[i/GroupLanes], i%GroupLanes
	return obb.Box{
		Center: obb.Vec2{X: g.CX[j], Y: g.CY[j]},
		Axis:   obb.Vec2{X: g.UX[j], Y: g.UY[j]},
		Half:   obb.Vec2{X: g.HX[j], Y: g.HY[j]},
	}
}

// The block kernels read a Query as six float32s, a Group as 48 and a
// Block as 96.
var (
	_ [unsafe.Sizeof(Query{}) - 24]struct{}
	_ [24 - unsafe.Sizeof(Query{})]struct{}
	_ [unsafe.Sizeof(Group{}) - 48*4]struct{}
	_ [48*4 - unsafe.Sizeof(Group{})]struct{}
	_ [unsafe.Sizeof(Block{}) - 96*4]struct{}
	_ [96*4 - unsafe.Sizeof(Block{})]struct{}
)

// blockBits returns the bits of the first n lanes, or panics, naming the
// kernel, when n is not a lane count of a Block. The message is made in a
// function the compiler does not inline, so that blockBits stays small
// enough to inline into the block kernels' dispatch, as it was before it
// named the kernel.
func blockBits(kernel, what string, n int) uint64 {
	if uint(n) > BlockLanes {
		panic(badLanes(kernel, what, n))
	}
	return 1<<n - 1
}

// badLanes is blockBits' panic message.
//
//go:noinline
func badLanes(kernel, what string, n int) string {
	return fmt.Sprintf("batch: %s of %d %s; a Block holds %d", kernel, n, what, BlockLanes)
}

// overlapsBlockGeneric is OverlapsBlock in Go: overlapsGeneric on the n
// boxes in use, group by group.
func overlapsBlockGeneric(q *Query, b *Block, n int) uint64 {
	var bits uint64
	for i := 0; i < n; i += GroupLanes {
		var out [1]uint64
		g, m := &b[i/GroupLanes], min(n-i, GroupLanes)
		overlapsGeneric(q, g.CX[:m], g.CY[:m], g.UX[:m], g.UY[:m], g.HX[:m], g.HY[:m], out[:])
		bits |= out[0] << i
	}
	return bits
}

// markedSpan panics unless PrefetchMarked can ask for span bytes, the
// lines of its first and last byte: 0 < span <= 64.
func markedSpan(span uintptr) {
	if span == 0 || span > 64 {
		panic(fmt.Sprintf("batch: PrefetchMarked of %d bytes a record, not 1 to 64", span))
	}
}
