//go:build amd64 && gc && !purego

package batch

import (
	"reflect"

	"github.com/obb2d/obb2d/obb"
)

// CollideKernel runs the selected implementation's collide kernel alone,
// without the Go pass that finishes the pairs it leaves, and returns how
// many it left.
func CollideKernel(cols []float32, n int, margin float32, out []obb.Manifold) int {
	switch current.Load() {
	case AVX512:
		return collideAVX512(cols, n, margin, manifoldWords(out))
	case AVX2:
		return collideAVX2(cols, n, margin, manifoldWords(out))
	}
	panic("batch: CollideKernel needs an assembly implementation")
}

// FarHintL2 reports whether PrefetchFar, on a processor of the given
// vendor string, asks into the L2 cache; FarHintChosen whether the kernel
// it uses here is the one farKernel chooses for this processor's vendor.
func FarHintL2(vendor string) bool {
	return reflect.ValueOf(farKernel(vendor)).Pointer() == reflect.ValueOf(prefetchLinesL2).Pointer()
}

func FarHintChosen() bool {
	return reflect.ValueOf(prefetchFar).Pointer() == reflect.ValueOf(farKernel(Vendor())).Pointer()
}
