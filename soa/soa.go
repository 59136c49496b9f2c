// Package soa stores many boxes as structure-of-arrays float32 columns, the
// layout the batch kernels in package kernel read: box i is
// (CX[i], CY[i]) center, (UX[i], UY[i]) unit axis, (HX[i], HY[i]) half
// extents, 24 bytes per box and no per-box header.
//
// The columns are exported so that a simulation can fill them from its own
// state without a copy. Every method that reads them requires the six columns
// to have the same length and panics with a message naming the lengths when
// they do not.
package soa

import (
	"fmt"

	"github.com/obb2d/obb2d/internal/stagger"
	"github.com/obb2d/obb2d/obb"
)

// Boxes is a set of boxes in six parallel columns. Box i is
//
//	obb.Box{Center: {CX[i], CY[i]}, Axis: {UX[i], UY[i]}, Half: {HX[i], HY[i]}}
//
// The zero value is an empty set ready to use. Methods never copy the
// columns except to grow them, as append does.
type Boxes struct {
	CX, CY []float32 // centers
	UX, UY []float32 // unit x-edge directions (cos θ, sin θ)
	HX, HY []float32 // half extents along the x edge and the y edge
}

// BytesPerBox is the storage one box takes in the columns.
const BytesPerBox = 6 * 4

// Len returns the number of boxes. It panics if the columns differ in length.
func (b *Boxes) Len() int {
	n := len(b.CX)
	if len(b.CY) != n || len(b.UX) != n || len(b.UY) != n || len(b.HX) != n || len(b.HY) != n {
		panic(b.lengths())
	}
	return n
}

// lengthsError is the panic of columns of unequal lengths, and rangeError
// that of an index out of range: values whose messages are formatted only
// when printed. A call to fmt.Sprintf in Len's or check's body would put
// it over the compiler's inlining budget; as it is, both inline, and At
// and Set are one call a box in a loop that reads or writes boxes one by
// one, where a check and a Len that did not inline would make three
// (BenchmarkAt; BenchmarkWorldStep, move=each, whose loop moves each box
// to At of its next pose).
type (
	lengthsError [6]int
	rangeError   struct{ i, n int }
)

func (b *Boxes) lengths() lengthsError {
	return lengthsError{len(b.CX), len(b.CY), len(b.UX), len(b.UY), len(b.HX), len(b.HY)}
}

func (e lengthsError) Error() string {
	return fmt.Sprintf("soa: columns have unequal lengths: CX %d, CY %d, UX %d, UY %d, HX %d, HY %d", e[0], e[1], e[2], e[3], e[4], e[5])
}

func (e rangeError) Error() string {
	return fmt.Sprintf("soa: index %d out of range [0, %d)", e.i, e.n)
}

// Append adds boxes at the end. When the columns are full it grows all six
// together, as [Boxes.Grow] does, at least doubling their capacity.
func (b *Boxes) Append(boxes ...obb.Box) {
	if n := b.Len(); b.spare() < len(boxes) {
		b.Grow(max(len(boxes), n, 8))
	}
	for _, x := range boxes {
		b.CX = append(b.CX, x.Center.X)
		b.CY = append(b.CY, x.Center.Y)
		b.UX = append(b.UX, x.Axis.X)
		b.UY = append(b.UY, x.Axis.Y)
		b.HX = append(b.HX, x.Half.X)
		b.HY = append(b.HY, x.Half.Y)
	}
}

// At returns box i. It panics if i is out of range.
func (b *Boxes) At(i int) obb.Box {
	b.check(i)
	return obb.Box{
		Center: obb.Vec2{X: b.CX[i], Y: b.CY[i]},
		Axis:   obb.Vec2{X: b.UX[i], Y: b.UY[i]},
		Half:   obb.Vec2{X: b.HX[i], Y: b.HY[i]},
	}
}

// Set replaces box i. It panics if i is out of range.
func (b *Boxes) Set(i int, x obb.Box) {
	b.check(i)
	b.CX[i], b.CY[i] = x.Center.X, x.Center.Y
	b.UX[i], b.UY[i] = x.Axis.X, x.Axis.Y
	b.HX[i], b.HY[i] = x.Half.X, x.Half.Y
}

func (b *Boxes) check(i int) {
	if uint(i) >= uint(b.Len()) {
		panic(rangeError{i, len(b.CX)})
	}
}

// SwapRemove removes box i in constant time by moving the last box into its
// place, so the order of the boxes changes. It panics if i is out of range.
func (b *Boxes) SwapRemove(i int) {
	b.check(i)
	last := b.Len() - 1
	for _, col := range b.columns() {
		(*col)[i] = (*col)[last]
		*col = (*col)[:last]
	}
}

// Reset empties the set and keeps the capacity.
func (b *Boxes) Reset() {
	for _, col := range b.columns() {
		*col = (*col)[:0]
	}
}

// Grow makes room for n more boxes without another allocation. When any
// column lacks room it moves all six into one new allocation, each column
// starting one cache line further into a 4 KiB page than the one before:
// columns allocated one by one start page aligned, so box i of every column
// would compete for the same cache set while a kernel streams through them.
func (b *Boxes) Grow(n int) {
	if n < 0 {
		panic("soa: Grow with negative count")
	}
	length := b.Len()
	if b.spare() >= n {
		return
	}
	grown := stagger.Columns[float32](length+n, 6, 0)
	for c, col := range b.columns() {
		copy(grown[c], *col)
		*col = grown[c][:length]
	}
}

// spare returns how many boxes fit before some column must grow.
func (b *Boxes) spare() int {
	n := len(b.CX)
	return min(cap(b.CX), cap(b.CY), cap(b.UX), cap(b.UY), cap(b.HX), cap(b.HY)) - n
}

// Slice returns a view of boxes [i, j) sharing the columns' memory, for
// handing part of a set to a kernel. It panics if the range is invalid.
func (b *Boxes) Slice(i, j int) Boxes {
	if n := b.Len(); i < 0 || j < i || j > n {
		panic(fmt.Sprintf("soa: slice [%d:%d] out of range [0, %d]", i, j, n))
	}
	return Boxes{b.CX[i:j:j], b.CY[i:j:j], b.UX[i:j:j], b.UY[i:j:j], b.HX[i:j:j], b.HY[i:j:j]}
}

func (b *Boxes) columns() [6]*[]float32 {
	return [6]*[]float32{&b.CX, &b.CY, &b.UX, &b.UY, &b.HX, &b.HY}
}

// ValidationError names the first invalid box of a set and what is wrong
// with it.
type ValidationError struct {
	Index int             // index of the box
	Err   *obb.FieldError // the bad field, as obb.Box.Validate reports it
}

// Error names the box and the column.
func (e *ValidationError) Error() string {
	return fmt.Sprintf("soa: box %d: %s %s (%g)", e.Index, fieldColumn(e.Err.Field), e.Err.Reason, e.Err.Value)
}

// Unwrap returns the field error.
func (e *ValidationError) Unwrap() error { return e.Err }

// fieldColumn names the column of an obb field.
func fieldColumn(field string) string {
	switch field {
	case "Center.X":
		return "CX"
	case "Center.Y":
		return "CY"
	case "Axis.X":
		return "UX"
	case "Axis.Y":
		return "UY"
	case "Half.X":
		return "HX"
	case "Half.Y":
		return "HY"
	}
	return "axis (UX, UY)"
}

// Validate returns nil when every box passes obb.Box.Validate, and otherwise a
// *[ValidationError] for the lowest bad index, naming the column. Columns of
// unequal length, which every other method treats as a programming error,
// are an error here, naming the lengths: Validate is the check for columns
// filled in by hand.
func (b *Boxes) Validate() error {
	n := len(b.CX)
	if len(b.CY) != n || len(b.UX) != n || len(b.UY) != n || len(b.HX) != n || len(b.HY) != n {
		return b.lengths()
	}
	for i := 0; i < n; i++ {
		if err := b.At(i).Validate(); err != nil {
			return &ValidationError{Index: i, Err: err.(*obb.FieldError)}
		}
	}
	return nil
}
