package f32

import (
	"math"
	"testing"
)

func TestDirectedRounding(t *testing.T) {
	values := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, -0.1, 1e-40, -1e-40, 1e-46, -1e-46, 0x1p-149, 3.4e38,
		-3.4e38, 3.5e38, -3.5e38, math.MaxFloat32, 1 + 0x1p-30, -(1 + 0x1p-30), math.Inf(1), math.Inf(-1)}
	for i := 0; i < 2000; i++ {
		// Random magnitudes over the whole float32 range and beyond, both signs.
		v := math.Ldexp(1+float64(i%997)/997, i%340-170)
		values = append(values, v, -v)
	}
	for _, v := range values {
		d, u := Down(v), Up(v)
		// The reference: math.Nextafter32 from the nearest float32.
		wantD, wantU := float32(v), float32(v)
		if float64(wantD) > v {
			wantD = math.Nextafter32(wantD, float32(math.Inf(-1)))
		}
		if float64(wantU) < v {
			wantU = math.Nextafter32(wantU, float32(math.Inf(1)))
		}
		if math.Float32bits(d) != math.Float32bits(wantD) || math.Float32bits(u) != math.Float32bits(wantU) {
			t.Errorf("v=%g: Down %g (want %g), Up %g (want %g)", v, d, wantD, u, wantU)
		}
		if float64(d) > v || float64(u) < v {
			t.Errorf("v=%g: Down %g, Up %g do not enclose it", v, d, u)
		}
	}
	if d, u := Down(math.NaN()), Up(math.NaN()); d == d || u == u {
		t.Errorf("NaN gave Down %g, Up %g", d, u)
	}
	if Abs(float32(math.Copysign(0, -1))) != 0 || math.Signbit(float64(Abs(float32(math.Copysign(0, -1))))) {
		t.Error("Abs(-0) keeps the sign")
	}
	nan := math.Float32frombits(0xffc00123)
	if math.Float32bits(Abs(nan)) != 0x7fc00123 {
		t.Error("Abs changes a NaN's payload")
	}
	if Finite(float32(math.Inf(1))) || Finite(float32(math.Inf(-1))) || Finite(float32(math.NaN())) || !Finite(1) || !Finite(math.MaxFloat32) || !Finite(0x1p-149) {
		t.Error("Finite")
	}
}
