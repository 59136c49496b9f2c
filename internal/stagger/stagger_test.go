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

func TestColumnsInt32(t *testing.T) {
	cols := Columns[int32](10, 1, 8)
	if len(cols) != 1 || len(cols[0]) != 10 {
		t.Fatalf("got %d columns of length %d", len(cols), len(cols[0]))
	}
}
