package f32

import (
	"math"
	"testing"
)

func TestDirectedRounding(t *testing.T) {
	for _, v := range []float64{0, 1, -1, 0.1, -0.1, 1e-40, -1e-40, 3.4e38, 1 + 0x1p-30, -(1 + 0x1p-30)} {
		d, u := Down(v), Up(v)
		if float64(d) > v || float64(u) < v || math.Nextafter32(d, float32(math.Inf(1))) < u {
			t.Errorf("v=%g: Down %g, Up %g", v, d, u)
		}
	}
	if Abs(float32(math.Copysign(0, -1))) != 0 || math.Signbit(float64(Abs(float32(math.Copysign(0, -1))))) {
		t.Error("Abs(-0) keeps the sign")
	}
	nan := math.Float32frombits(0xffc00123)
	if math.Float32bits(Abs(nan)) != 0x7fc00123 {
		t.Error("Abs changes a NaN's payload")
	}
	if Finite(float32(math.Inf(1))) || Finite(float32(math.NaN())) || !Finite(1) {
		t.Error("Finite")
	}
}
