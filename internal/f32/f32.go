// Package f32 holds the float32 helpers the packages share: |x| by clearing
// the sign bit, and directed rounding from float64.
package f32

import "math"

// Abs clears the sign bit: |x| for every float32, NaN payloads kept. This is
// what the assembly kernels do with an AND, so every implementation takes
// |x| the same way.
func Abs(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// Down rounds v to the largest float32 not above it. It steps the bits
// itself instead of calling math.Nextafter32, which obb.Box.Bounds would
// call four times a box.
func Down(v float64) float32 {
	f := float32(v)
	if float64(f) > v { // rounded up (v is not NaN): step one float32 down
		f = stepDown(f)
	}
	return f
}

// Up rounds v to the smallest float32 not below it.
func Up(v float64) float32 {
	f := float32(v)
	if float64(f) < v {
		f = -stepDown(-f)
	}
	return f
}

// stepDown returns the next float32 below f, for f not NaN and not -Inf.
func stepDown(f float32) float32 {
	switch b := math.Float32bits(f); {
	case f == 0: // +0 or -0
		return -math.SmallestNonzeroFloat32
	case b>>31 == 0: // positive, +Inf included: one step toward zero
		return math.Float32frombits(b - 1)
	default: // negative: one step away from zero
		return math.Float32frombits(b + 1)
	}
}

// Finite reports whether v is neither NaN nor infinite.
func Finite(v float32) bool { return v-v == 0 }
