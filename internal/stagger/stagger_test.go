package stagger

import (
	"testing"
	"unsafe"
)

func TestColumnsAreStaggeredAndSeparate(t *testing.T) {
	for _, n := range []int{0, 1, 15, 16, 1000, 1024, 1025, 100000} {
		for _, skip := range []int{0, 6, 70} {
			cols := Columns[float32](n, 9, skip)
			if len(cols) != 9 {
				t.Fatalf("n=%d: %d columns, want 9", n, len(cols))
			}
			base := uintptr(0)
			for c, col := range cols {
				if len(col) != n || cap(col) < n {
					t.Fatalf("n=%d column %d: len %d cap %d", n, c, len(col), cap(col))
				}
				if n == 0 {
					continue
				}
				addr := uintptr(unsafe.Pointer(&col[:1][0]))
				if c == 0 {
					base = addr
					continue
				}
				// Offsets within a page must differ by whole lines, one per column.
				if got, want := (addr-base)%4096, uintptr(64*c)%4096; got != want {
					t.Errorf("n=%d skip=%d column %d starts %d bytes into the page after column 0, want %d", n, skip, c, got, want)
				}
			}
			if n > 0 {
				// Writing a full column to its cap must leave the next column untouched.
				cols[1][0] = 7
				full := cols[0][:cap(cols[0])]
				for i := range full {
					full[i] = -1
				}
				if cols[1][0] != 7 {
					t.Errorf("n=%d: column 0's capacity overlaps column 1", n)
				}
			}
		}
	}
}

// TestSkipPlacesLargeColumns checks skip on allocations large enough that
// Go hands them out page aligned, the case the package exists for: column c
// of a call with skip s starts s+c lines into its page, for each element type.
func TestSkipPlacesLargeColumns(t *testing.T) {
	const n = 100000
	line := func(p unsafe.Pointer) uintptr { return uintptr(p) % 4096 / 64 }
	for _, skip := range []int{0, 7, 8, 63} {
		for c, col := range Columns[float32](n, 3, skip) {
			if got, want := line(unsafe.Pointer(&col[0])), uintptr((skip+c)%64); got != want {
				t.Errorf("float32 skip=%d column %d starts at line %d of its page, want %d", skip, c, got, want)
			}
		}
		if got, want := line(unsafe.Pointer(&Columns[int32](n, 1, skip)[0][0])), uintptr(skip%64); got != want {
			t.Errorf("int32 skip=%d starts at line %d of its page, want %d", skip, got, want)
		}
	}
}
