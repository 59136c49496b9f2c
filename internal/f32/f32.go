// Package f32 holds the float32 helpers the packages share: |x| by clearing
// the sign bit, and directed rounding from float64.
package f32

import "math"

// Abs clears the sign bit: |x| for every float32, NaN payloads kept. This is
// what the assembly kernels do with an AND, so every implementation takes
// |x| the same way.
func Abs(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// Down rounds v to the largest float32 not above it.
func Down(v float64) float32 {
	f := float32(v)
	if float64(f) > v {
		f = math.Nextafter32(f, float32(math.Inf(-1)))
	}
	return f
}

// Up rounds v to the smallest float32 not below it.
func Up(v float64) float32 {
	f := float32(v)
	if float64(f) < v {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

// Finite reports whether v is neither NaN nor infinite.
func Finite(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }
