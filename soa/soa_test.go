package soa_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

func box(i int) obb.Box {
	return obb.New(obb.Vec2{X: float32(i), Y: float32(-i)}, float32(i+1), 2, float64(i)/10)
}

func TestAppendAtSet(t *testing.T) {
	var b soa.Boxes
	if b.Len() != 0 {
		t.Fatal("zero value not empty")
	}
	for i := 0; i < 10; i++ {
		b.Append(box(i))
	}
	b.Append(box(10), box(11))
	if b.Len() != 12 {
		t.Fatalf("Len = %d", b.Len())
	}
	for i := 0; i < 12; i++ {
		if b.At(i) != box(i) {
			t.Fatalf("At(%d) = %+v, want %+v", i, b.At(i), box(i))
		}
	}
	b.Set(3, box(99))
	if b.At(3) != box(99) || b.CX[3] != 99 || b.HX[3] != 50 {
		t.Fatalf("Set: %+v", b.At(3))
	}
}

func TestSwapRemoveResetGrow(t *testing.T) {
	var b soa.Boxes
	b.Append(box(0), box(1), box(2), box(3))
	b.SwapRemove(1)
	if b.Len() != 3 || b.At(1) != box(3) || b.At(0) != box(0) || b.At(2) != box(2) {
		t.Fatalf("after SwapRemove(1): %+v", b)
	}
	b.SwapRemove(2)
	if b.Len() != 2 || b.At(1) != box(3) {
		t.Fatalf("after removing the last: %+v", b)
	}
	b.Reset()
	if b.Len() != 0 || cap(b.CX) < 4 {
		t.Fatalf("Reset: len %d cap %d", b.Len(), cap(b.CX))
	}
	b.Grow(1000)
	p := &b.HY[:1][0]
	allocs := testing.AllocsPerRun(1, func() {
		b.Reset()
		for i := 0; i < 1000; i++ {
			b.Append(box(i))
		}
	})
	if allocs != 0 || &b.HY[0] != p {
		t.Errorf("Append after Grow(1000) allocated %v times", allocs)
	}
}

func TestSliceSharesMemory(t *testing.T) {
	var b soa.Boxes
	for i := 0; i < 10; i++ {
		b.Append(box(i))
	}
	s := b.Slice(3, 7)
	if s.Len() != 4 || s.At(0) != box(3) {
		t.Fatalf("Slice: %+v", s)
	}
	s.Set(0, box(42))
	if b.At(3) != box(42) {
		t.Fatal("Slice copied the columns")
	}
	s.Append(box(1)) // capacity is clipped: must not overwrite b's box 7
	if b.At(7) != box(7) {
		t.Fatal("appending to a slice overwrote the parent")
	}
}

func TestPanics(t *testing.T) {
	var b soa.Boxes
	b.Append(box(0), box(1))
	expect := func(want string, f func()) {
		t.Helper()
		defer func() {
			t.Helper()
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), want) {
				t.Errorf("panic %v, want one mentioning %q", r, want)
			}
		}()
		f()
	}
	expect("index 2 out of range [0, 2)", func() { b.At(2) })
	expect("index -1 out of range", func() { b.Set(-1, box(0)) })
	expect("slice [1:3] out of range", func() { b.Slice(1, 3) })
	bad := b
	bad.UY = bad.UY[:1]
	expect("unequal lengths: CX 2, CY 2, UX 2, UY 1, HX 2, HY 2", func() { bad.Len() })
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "unequal lengths: CX 2, CY 2, UX 2, UY 1, HX 2, HY 2") {
		t.Errorf("Validate on unequal columns = %v, want an error naming the lengths", err)
	}
}

func TestValidateNamesIndexAndColumn(t *testing.T) {
	var b soa.Boxes
	for i := 0; i < 5; i++ {
		b.Append(box(i))
	}
	if err := b.Validate(); err != nil {
		t.Fatalf("valid set: %v", err)
	}
	cases := []struct {
		col    *[]float32
		v      float32
		want   string
		reason string
	}{
		{&b.CX, float32(math.NaN()), "soa: box 3: CX NaN", "NaN"},
		{&b.CY, float32(math.Inf(1)), "soa: box 3: CY infinite", "infinite"},
		{&b.UX, 3, "soa: box 3: axis (UX, UY) not unit length", "not unit length"},
		{&b.UY, float32(math.NaN()), "soa: box 3: UY NaN", "NaN"},
		{&b.HX, -2, "soa: box 3: HX negative", "negative"},
		{&b.HY, -0.5, "soa: box 3: HY negative", "negative"},
	}
	for _, c := range cases {
		old := (*c.col)[3]
		(*c.col)[3] = c.v
		// A later bad box must not hide the first one.
		b.HX[4] = -1
		err := b.Validate()
		var ve *soa.ValidationError
		if !errors.As(err, &ve) || ve.Index != 3 || !strings.HasPrefix(err.Error(), c.want) || ve.Err.Reason != c.reason {
			t.Errorf("Validate = %v, want %q", err, c.want)
		}
		(*c.col)[3] = old
		b.HX[4] = box(4).Half.X
	}
}

func ExampleBoxes() {
	var world soa.Boxes
	world.Append(
		obb.New(obb.Vec2{X: 0, Y: 0}, 4, 2, 0),
		obb.New(obb.Vec2{X: 10, Y: 0}, 2, 2, math.Pi/4),
	)
	// Columns can be written directly, for example from a physics state.
	world.CX[1] += 0.5
	fmt.Println(world.Len(), world.At(1).Center, world.Validate())
	// Output: 2 {10.5 0} <nil>
}

// TestGrowStaggersColumns checks that growing puts box i of the six columns
// in six different cache lines of a 4 KiB page, whether the set grew by
// Grow or by Append, and that the columns' capacities do not overlap.
func TestGrowStaggersColumns(t *testing.T) {
	var grown, appended soa.Boxes
	grown.Grow(100000)
	grown.Append(box(0))
	for i := 0; i < 5000; i++ {
		appended.Append(box(i))
	}
	for name, b := range map[string]*soa.Boxes{"Grow": &grown, "Append": &appended} {
		cols := [][]float32{b.CX, b.CY, b.UX, b.UY, b.HX, b.HY}
		lines := map[uintptr]int{}
		for c, col := range cols {
			line := uintptr(unsafe.Pointer(&col[0])) % 4096 / 64
			if prev, ok := lines[line]; ok {
				t.Errorf("%s: columns %d and %d start in the same cache line of a page (%d)", name, prev, c, line)
			}
			lines[line] = c
		}
		for c := 0; c+1 < len(cols); c++ {
			end := uintptr(unsafe.Pointer(&cols[c][:cap(cols[c])][cap(cols[c])-1]))
			next := uintptr(unsafe.Pointer(&cols[c+1][0]))
			if end >= next && end < next+uintptr(4*cap(cols[c+1])) {
				t.Errorf("%s: column %d's capacity runs into column %d", name, c, c+1)
			}
		}
	}
}

// BenchmarkAt reads every box of a set of 4,096 in turn with At and writes
// it back with Set, as a simulation's loop over its bodies does: the cost
// of the two calls and their checks, from the L1 cache.
func BenchmarkAt(b *testing.B) {
	var s soa.Boxes
	for i := range 4096 {
		s.Append(box(i))
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := range 4096 {
			x := s.At(i)
			x.Center.X += 1
			s.Set(i, x)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4096, "ns/box")
}
