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

// BenchmarkSplitRecords copies 100,000 eight-field records into nine
// columns in one pass, as the sweep's gather does, with the columns
// allocated one by one (page aligned: layout=separate) or by Columns
// (layout=staggered). The package comment quotes it.
func BenchmarkSplitRecords(b *testing.B) {
	const n = 100000
	type record struct{ a, b, c, d, e, f, g, h float32 }
	recs := make([]record, n)
	for i := range recs {
		recs[i] = record{float32(i), 1, 2, 3, 4, 5, 6, 7}
	}
	separate := make([][]float32, 9)
	for c := range separate {
		separate[c] = make([]float32, n)
	}
	for _, layout := range []struct {
		name string
		cols [][]float32
	}{{"separate", separate}, {"staggered", Columns[float32](n, 9, 0)}} {
		b.Run("layout="+layout.name, func(b *testing.B) {
			c := layout.cols
			c0, c1, c2, c3, c4, c5, c6, c7, c8 := c[0][:n], c[1][:n], c[2][:n], c[3][:n], c[4][:n], c[5][:n], c[6][:n], c[7][:n], c[8][:n]
			for i := 0; i < b.N; i++ {
				for p := range recs {
					r := &recs[p]
					c0[p], c1[p], c2[p], c3[p], c4[p], c5[p], c6[p], c7[p], c8[p] = r.a, r.b, r.c, r.d, r.e, r.f, r.g, r.h, r.a
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/element")
		})
	}
}
