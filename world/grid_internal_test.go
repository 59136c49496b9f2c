package world

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLevelArithmetic checks sizeClass, sizes and coord, which work on
// float64 bits, against the math package's Frexp, Ldexp and a division, on
// powers of two, their neighbours and random values over every level.
func TestLevelArithmetic(t *testing.T) {
	refClass := func(r float64) int {
		if r <= 0 {
			return minLevel
		}
		f, e := math.Frexp(r)
		if f == 0.5 {
			e--
		}
		return min(max(e, minLevel), maxLevel)
	}
	r := rand.New(rand.NewPCG(8, 8))
	var values []float64
	for e := -1074; e <= 1023; e++ {
		p := math.Ldexp(1, e)
		values = append(values, p, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1)), p*(1+r.Float64()))
	}
	values = append(values, 0, math.SmallestNonzeroFloat64, math.MaxFloat64)
	for _, v := range values {
		if got, want := sizeClass(v), refClass(v); got != want {
			t.Fatalf("sizeClass(%g) = %d, want %d", v, got, want)
		}
	}
	for k := minLevel; k <= maxLevel; k++ {
		rr, s := sizes(k)
		if rr != math.Ldexp(1, k) || s != math.Ldexp(1, k+2) {
			t.Fatalf("sizes(%d) = %g, %g", k, rr, s)
		}
		for range 50 {
			v := values[r.IntN(len(values))]
			if r.IntN(2) == 0 {
				v = -v
			}
			want := int32(min(max(math.Floor(v/s), -maxCoord), maxCoord))
			if got := coord(v, s); got != want {
				t.Fatalf("coord(%g, %g) = %d, want %d", v, s, got, want)
			}
		}
	}
}
