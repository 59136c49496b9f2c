package obb

import "math"

// The angle functions of this package compute sine, cosine and arctangent
// themselves, because the math package's differ across platforms in their
// last bit: the compiler fuses a*b+c into one FMA instruction on arm64,
// ppc64le, s390x, riscv64, loong64 and amd64 with GOAMD64=v3, and s390x
// computes math.Atan2 in assembly. Every product here is rounded to float64
// before it is added (float64(a*b)), so no platform can fuse it, and no
// math function is called: the same angle gives the same bits everywhere.
// Box2D v3 computes its rotations from angles with its own cosine and sine
// for the same reason (b2ComputeCosSin).

// maxAngle bounds the angles sincos reduces: below it, the reduction's
// multiple of π/2 is an integer that the float64 sum with roundShift rounds
// exactly.
const maxAngle = 0x1p50

// twoOverPi is 2/π, and pio2_1 + pio2_2 + pio2_3 is π/2 to about 2⁻¹²²:
// the first two parts hold 33 significant bits each, so k·pio2_1 and
// k·pio2_2 are exact for |k| < 2²⁰ (Cody and Waite's reduction). The
// values come from π to 110 digits in math/big (TestReductionConstants).
const (
	twoOverPi = 0x1.45f306dc9c883p-01
	pio2_1    = 0x1.921fb544p+00
	pio2_2    = 0x1.0b4611a6p-34
	pio2_3    = 0x1.3198a2e037073p-69
)

// roundShift is 1.5·2⁵²: t + roundShift rounds t to an integer (to nearest,
// ties to even) for |t| < 2⁵¹, and the integer's low bits are those of the
// sum's mantissa.
const roundShift = 0x1.8p52

// sincos returns sin x and cos x rounded to float32. For |x| < 2²⁰ both are
// within one unit in the last place of math.Sincos rounded to float32 (and
// almost always equal to it: TestSincosMatchesMath); larger angles lose
// accuracy as the reduction's rounding grows, and from maxAngle on, as for
// NaN and infinities, both are NaN.
//
// x is reduced to r = x - k·π/2 with |r| ≤ π/4 (plus rounding), and the
// quadrant k mod 4 picks the signs and which of the two Taylor polynomials
// gives which value. In |r| ≤ π/4 the first omitted terms, r¹⁷/17! and
// r¹⁸/18!, are below 5·2⁻⁵⁵, far inside float32's rounding.
func sincos(x float64) (sin, cos float32) {
	if x == 0 {
		return float32(x), 1 // sin(±0) = ±0
	}
	if !(x < maxAngle && x > -maxAngle) { // NaN and infinities included
		nan := float32(math.NaN())
		return nan, nan
	}
	t := float64(x * twoOverPi)
	shifted := t + roundShift
	k := shifted - roundShift
	quadrant := math.Float64bits(shifted) & 3
	r := x - float64(k*pio2_1)
	r -= float64(k * pio2_2)
	r -= float64(k * pio2_3)
	s, c := sinPoly(r), cosPoly(r)
	switch quadrant {
	case 1:
		s, c = c, -s
	case 2:
		s, c = -s, -c
	case 3:
		s, c = -c, s
	}
	return float32(s), float32(c)
}

// sinPoly is the Taylor polynomial of sin to r¹⁵, in Horner form.
func sinPoly(r float64) float64 {
	r2 := float64(r * r)
	p := -1.0 / 1307674368000
	p = float64(p*r2) + 1.0/6227020800
	p = float64(p*r2) - 1.0/39916800
	p = float64(p*r2) + 1.0/362880
	p = float64(p*r2) - 1.0/5040
	p = float64(p*r2) + 1.0/120
	p = float64(p*r2) - 1.0/6
	return r + float64(float64(r*r2)*p)
}

// cosPoly is the Taylor polynomial of cos to r¹⁶: 1 - (r²/2 - r⁴·p(r²)),
// so that the small terms are summed before they meet the 1.
func cosPoly(r float64) float64 {
	r2 := float64(r * r)
	p := 1.0 / 20922789888000
	p = float64(p*r2) - 1.0/87178291200
	p = float64(p*r2) + 1.0/479001600
	p = float64(p*r2) - 1.0/3628800
	p = float64(p*r2) + 1.0/40320
	p = float64(p*r2) - 1.0/720
	p = float64(p*r2) + 1.0/24
	return 1 - (float64(r2*0.5) - float64(float64(r2*r2)*p))
}

// atan2 returns the angle of the point (x, y) in radians, in [-π, π], with
// the special cases of math.Atan2 (signed zeros, infinities, NaN). For
// finite arguments it is within 2 units in the last place of math.Atan2
// (TestAtan2MatchesMath).
//
// With a = min(|x|, |y|) / max(|x|, |y|) ≤ 1, atanUnit gives atan a; the
// octant then gives the angle, with π/2 and π as two-part constants so that
// subtracting from them adds one rounding. Division is correctly rounded in
// IEEE 754, so it gives the same bits everywhere.
func atan2(y, x float64) float64 {
	switch {
	case y != y || x != x:
		return math.NaN()
	case y == 0:
		if x > 0 || (x == 0 && !math.Signbit(x)) {
			return y // ±0
		}
		return copysign(math.Pi, y)
	case x == 0:
		return copysign(math.Pi/2, y)
	}
	ax, ay := abs(x), abs(y)
	if ax > math.MaxFloat64 || ay > math.MaxFloat64 {
		switch {
		case ax > math.MaxFloat64 && ay > math.MaxFloat64:
			if x > 0 {
				return copysign(math.Pi/4, y)
			}
			return copysign(3*math.Pi/4, y)
		case ax > math.MaxFloat64:
			if x > 0 {
				return copysign(0, y)
			}
			return copysign(math.Pi, y)
		default:
			return copysign(math.Pi/2, y)
		}
	}
	swap := ay > ax
	lo, hi := ay, ax
	if swap {
		lo, hi = ax, ay
	}
	a := atanUnit(lo / hi)
	if swap {
		a = (pio2Hi - a) + pio2Lo
	}
	if x < 0 {
		a = (piHi - a) + piLo
	}
	return copysign(a, y)
}

// π and π/2 as the float64 nearest each and the float64 nearest the rest
// (TestAtanConstants).
const (
	piHi   = 0x1.921fb54442d18p+01
	piLo   = 0x1.1a62633145c07p-53
	pio2Hi = 0x1.921fb54442d18p+00
	pio2Lo = 0x1.1a62633145c07p-54
)

// atanOf holds atan(i/4) for i = 0..4 as the float64 nearest it and the
// float64 nearest the rest (TestAtanConstants).
var atanOf = [5][2]float64{
	{0, 0},
	{0x1.f5b75f92c80ddp-03, 0x1.8ab6e3cf7afbdp-57},
	{0x1.dac670561bb4fp-02, 0x1.a2b7f222f65e2p-56},
	{0x1.4978fa3269ee1p-01, 0x1.2419a87f2a458p-56},
	{0x1.921fb54442d18p-01, 0x1.1a62633145c07p-55},
}

// atanUnit returns atan a for 0 ≤ a ≤ 1: with c = i/4 the nearest quarter,
// atan a = atan c + atan t for t = (a - c) / (1 + a·c), and |t| ≤ 1/8, where
// the Taylor series of atan to t¹⁹ leaves an error below 2⁻⁶⁶ of t.
func atanUnit(a float64) float64 {
	i := int(float64(a*4) + 0.5)
	c := float64(i) * 0.25
	t := (a - c) / (1 + float64(a*c))
	t2 := float64(t * t)
	p := -1.0 / 19
	for _, k := range [...]float64{1.0 / 17, -1.0 / 15, 1.0 / 13, -1.0 / 11, 1.0 / 9, -1.0 / 7, 1.0 / 5, -1.0 / 3} {
		p = float64(p*t2) + k
	}
	s := t + float64(float64(t*t2)*p)
	return atanOf[i][0] + (atanOf[i][1] + s)
}

func abs(x float64) float64 { return math.Float64frombits(math.Float64bits(x) &^ (1 << 63)) }

func copysign(v, sign float64) float64 {
	return math.Float64frombits(math.Float64bits(v)&^(1<<63) | math.Float64bits(sign)&(1<<63))
}
