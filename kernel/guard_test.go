//go:build linux

package kernel

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// TestGuardPages places each column, and then the output, right before an
// unreadable page, for every length that ends a group or word differently,
// and runs every implementation. A read or write past a slice's end faults;
// SetPanicOnFault turns the fault into a panic that the test reports with the
// length and the column.
func TestGuardPages(t *testing.T) {
	g := testkit.NewGuarded(t, 64<<10)

	var lengths []int
	for n := 1; n <= 3*16+64+1; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1024, 4095, 4096)

	r := rand.New(rand.NewPCG(11, 12))
	testkit.ForEachImpl(t, func(t *testing.T) {
		// Per goroutine: t.Run runs this function on a goroutine of its own.
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		for _, n := range lengths {
			src := testkit.RandomSet(r, n)
			qb := obb.New(obb.Vec2{}, 8, 5, 0.7)
			q := NewQuery(qb)
			want := testkit.ScalarBits(qb, src)
			// place = 0..5: that column at the guard page; 6: the output.
			for place := 0; place <= 6; place++ {
				b := *src
				cols := [6]*[]float32{&b.CX, &b.CY, &b.UX, &b.UY, &b.HX, &b.HY}
				out := make([]uint64, Words(n))
				where := "output"
				if place < 6 {
					where = [6]string{"CX", "CY", "UX", "UY", "HX", "HY"}[place]
					*cols[place] = g.FloatsCopy(*cols[place])
				} else {
					out = g.WordsAtEnd(Words(n))
				}
				if err := testkit.Fault(func() { Overlaps(&q, &b, out) }); err != nil {
					t.Fatalf("n=%d, %s before the guard page: %v", n, where, err)
				}
				if fmt.Sprint(out) != fmt.Sprint(want) {
					t.Fatalf("n=%d, %s before the guard page: wrong bits", n, where)
				}
			}
		}
	})
}

// TestStartOffsets runs columns that start at every float offset within a
// 32-byte line, so unaligned loads are exercised too.
func TestStartOffsets(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	testkit.ForEachImpl(t, func(t *testing.T) {
		for off := 0; off < 8; off++ {
			for _, n := range []int{1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 200} {
				src := testkit.RandomSet(r, n)
				var b soa.Boxes
				shift := func(col []float32) []float32 {
					s := make([]float32, off+len(col))
					copy(s[off:], col)
					return s[off:]
				}
				b.CX, b.CY, b.UX, b.UY, b.HX, b.HY = shift(src.CX), shift(src.CY), shift(src.UX), shift(src.UY), shift(src.HX), shift(src.HY)
				qb := obb.New(obb.Vec2{}, 6, 6, 0.1)
				q := NewQuery(qb)
				checkBits(t, &q, &b, testkit.ScalarBits(qb, &b))
			}
		}
	})
}
