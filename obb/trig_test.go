package obb

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// ulps returns how many float32 values lie between a and b (0 when equal,
// signed zeros equal).
func ulps(a, b float32) int64 {
	key := func(v float32) int64 {
		bits := int64(math.Float32bits(v))
		if bits < 0x80000000 {
			return bits
		}
		return 0x80000000 - bits // negative values, -0 at 0
	}
	d := key(a) - key(b)
	if d < 0 {
		d = -d
	}
	return d
}

// TestSincosMatchesMath compares sincos with math.Sincos rounded to
// float32 over a dense sweep of angles: every float64 step of 2⁻¹⁴ radians
// in [-8π, 8π], random angles up to 2²⁰ radians, and the float32 rounding
// midpoints' neighbourhood that the sweep hits. It requires at most one unit
// in the last place everywhere, and checks that the axis is unit length
// within 2⁻²², far inside AxisTolerance.
func TestSincosMatchesMath(t *testing.T) {
	var angles []float64
	for x := -8 * math.Pi; x <= 8*math.Pi; x += 0x1p-14 {
		angles = append(angles, x)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 400000 {
		angles = append(angles, (r.Float64()*2-1)*0x1p20, (r.Float64()*2-1)*math.Pi/4*math.Ldexp(1, -r.IntN(40)))
	}
	angles = append(angles, math.Pi/2, -math.Pi/2, math.Pi, -math.Pi, math.Pi/4, 3*math.Pi/4, 0x1p-1074, -0x1p-1074, 0x1p19*math.Pi)
	worst, differ := int64(0), 0
	for _, x := range angles {
		s, c := sincos(x)
		ms, mc := math.Sincos(x)
		ds, dc := ulps(s, float32(ms)), ulps(c, float32(mc))
		worst = max(worst, ds, dc)
		if ds+dc != 0 {
			differ++
		}
		if ds > 1 || dc > 1 {
			t.Fatalf("sincos(%v) = (%v, %v), math.Sincos rounded to float32 = (%v, %v): %d and %d ulps", x, s, c, float32(ms), float32(mc), ds, dc)
		}
		if l := float64(float64(s)*float64(s)) + float64(float64(c)*float64(c)); math.Abs(l-1) > 0x1p-22 {
			t.Fatalf("sincos(%v): squared length %v", x, l)
		}
	}
	t.Logf("%d angles: %d differ from math.Sincos rounded to float32, by at most %d ulp", len(angles), differ, worst)
}

// TestSincosSpecialValues checks the answers the documentation promises for
// zeros, NaN, infinities and angles too large to reduce.
func TestSincosSpecialValues(t *testing.T) {
	for _, x := range []float64{0, math.Copysign(0, -1)} {
		s, c := sincos(x)
		if math.Float32bits(s) != math.Float32bits(float32(x)) || c != 1 {
			t.Errorf("sincos(%v) = (%v, %v), want (%v, 1)", x, s, c, x)
		}
	}
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), maxAngle, -maxAngle, math.MaxFloat64} {
		if s, c := sincos(x); s == s || c == c {
			t.Errorf("sincos(%v) = (%v, %v), want NaN", x, s, c)
		}
	}
	if s, c := sincos(math.Nextafter(maxAngle, 0)); s != s || c != c {
		t.Errorf("sincos just below maxAngle = (%v, %v), want numbers", s, c)
	}
}

// TestReductionConstants recomputes 2/π and the three parts of π/2 from π
// to 110 digits in math/big.
func TestReductionConstants(t *testing.T) {
	const digits = "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651"
	pi, _, err := new(big.Float).SetPrec(400).Parse(digits, 10)
	if err != nil {
		t.Fatal(err)
	}
	rest := new(big.Float).SetPrec(400).Quo(pi, big.NewFloat(2))
	for i, part := range []float64{pio2_1, pio2_2, pio2_3} {
		f, _ := rest.Float64()
		if i < 2 {
			f = math.Float64frombits(math.Float64bits(f) &^ (1<<20 - 1)) // 33 significant bits
		}
		if f != part {
			t.Errorf("part %d of π/2 is %x, want %x", i+1, part, f)
		}
		rest.Sub(rest, new(big.Float).SetFloat64(f))
	}
	if f, _ := new(big.Float).SetPrec(400).Quo(big.NewFloat(2), pi).Float64(); f != twoOverPi {
		t.Errorf("twoOverPi is %x, want %x", twoOverPi, f)
	}
}

// TestAtan2MatchesMath checks atan2 against math.Atan2: exactly on the
// special cases, and within 2 float64 ulps (a few times 10⁻¹⁶ radians) on
// random points of every octant and on axes made by sincos.
func TestAtan2MatchesMath(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 1, -1, 0x1p-1074, math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	for _, y := range special {
		for _, x := range special {
			got, want := atan2(y, x), math.Atan2(y, x)
			if math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) && math.Abs(got-want) > 2*ulp64(want) {
				t.Errorf("atan2(%v, %v) = %v, math.Atan2 %v", y, x, got, want)
			}
			if (got == 0) && math.Signbit(got) != math.Signbit(want) {
				t.Errorf("atan2(%v, %v) = %v, math.Atan2 %v: signs of zero differ", y, x, got, want)
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	worst := 0.0
	for range 1000000 {
		x, y := r.NormFloat64(), r.NormFloat64()
		if r.IntN(4) == 0 {
			s, c := sincos(r.Float64() * 2 * math.Pi)
			x, y = float64(c), float64(s)
		}
		got, want := atan2(y, x), math.Atan2(y, x)
		e := math.Abs(got-want) / ulp64(want)
		worst = max(worst, e)
		if e > 2 {
			t.Fatalf("atan2(%v, %v) = %v, math.Atan2 %v: %v ulps", y, x, got, want, e)
		}
	}
	t.Logf("atan2 within %v float64 ulps of math.Atan2", worst)
}

func ulp64(v float64) float64 {
	v = math.Abs(v)
	return math.Nextafter(v, math.Inf(1)) - v
}

// TestAtanConstants recomputes π, π/2 and atan(i/4) as two-part constants
// in math/big: atan by halving the argument six times
// (atan a = 2·atan(a / (1 + √(1 + a²)))) and summing 60 terms of its
// series.
func TestAtanConstants(t *testing.T) {
	const prec = 300
	pi, _, err := new(big.Float).SetPrec(prec).Parse("3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651", 10)
	if err != nil {
		t.Fatal(err)
	}
	split := func(v *big.Float) [2]float64 {
		hi, _ := v.Float64()
		lo, _ := new(big.Float).SetPrec(prec).Sub(v, new(big.Float).SetFloat64(hi)).Float64()
		return [2]float64{hi, lo}
	}
	bigAtan := func(x float64) *big.Float {
		a := new(big.Float).SetPrec(prec).SetFloat64(x)
		one := big.NewFloat(1)
		for range 6 {
			d := new(big.Float).SetPrec(prec).Mul(a, a)
			d.Sqrt(d.Add(d, one))
			a.Quo(a, d.Add(d, one))
		}
		a2 := new(big.Float).SetPrec(prec).Mul(a, a)
		sum, term := new(big.Float).SetPrec(prec), new(big.Float).SetPrec(prec).Set(a)
		for n := range 60 {
			q := new(big.Float).SetPrec(prec).Quo(term, big.NewFloat(float64(2*n+1)))
			if n%2 == 0 {
				sum.Add(sum, q)
			} else {
				sum.Sub(sum, q)
			}
			term.Mul(term, a2)
		}
		return sum.Mul(sum, big.NewFloat(64))
	}
	if got, want := [2]float64{piHi, piLo}, split(pi); got != want {
		t.Errorf("π = %x, want %x", got, want)
	}
	if got, want := [2]float64{pio2Hi, pio2Lo}, split(new(big.Float).SetPrec(prec).Quo(pi, big.NewFloat(2))); got != want {
		t.Errorf("π/2 = %x, want %x", got, want)
	}
	for i := 1; i <= 4; i++ {
		if got, want := atanOf[i], split(bigAtan(float64(i)/4)); got != want {
			t.Errorf("atan(%d/4) = %x, want %x", i, got, want)
		}
	}
}

// TestSincosAtTheIssuesAngle checks the angle whose float32 sine amd64's
// and arm64's math.Sincos round in different directions: sincos gives the
// correctly rounded value, computed here from the sine's series in
// math/big.
func TestSincosAtTheIssuesAngle(t *testing.T) {
	const x = 0.7503381837622234
	const prec = 300
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	x2 := new(big.Float).SetPrec(prec).Mul(bx, bx)
	sum, term := new(big.Float).SetPrec(prec), new(big.Float).SetPrec(prec).Set(bx)
	for n := range 40 {
		if n%2 == 0 {
			sum.Add(sum, term)
		} else {
			sum.Sub(sum, term)
		}
		term.Mul(term, x2)
		term.Quo(term, big.NewFloat(float64((2*n+2)*(2*n+3))))
	}
	want, _ := sum.Float32()
	s, _ := sincos(x)
	if math.Float32bits(s) != math.Float32bits(want) || math.Float32bits(s) != 0x3f2e9017 {
		t.Errorf("sincos(%v) sine %#x, correctly rounded %#x (0x3f2e9017)", x, math.Float32bits(s), math.Float32bits(want))
	}
}
