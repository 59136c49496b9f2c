package memfloor

import (
	"math"
	"testing"

	"github.com/obb2d/obb2d/soa"
)

func TestReadSeesEveryFloat(t *testing.T) {
	for n := 0; n < 100; n++ {
		for col := 0; col < 6; col++ {
			for at := 0; at < n; at += 7 {
				var b soa.Boxes
				for i := 0; i < n; i++ {
					b.CX, b.CY, b.UX = append(b.CX, 0), append(b.CY, 0), append(b.UX, 0)
					b.UY, b.HX, b.HY = append(b.UY, 0), append(b.HX, 0), append(b.HY, 0)
				}
				cols := [6][]float32{b.CX, b.CY, b.UX, b.UY, b.HX, b.HY}
				bit := uint32(1) << ((col*5 + at) % 32)
				cols[col][at] = math.Float32frombits(bit)
				if got := Read(&b); got != bit {
					t.Fatalf("n=%d: a bit at column %d index %d read as %#x (impl %s)", n, col, at, got, Impl())
				}
			}
		}
	}
}
