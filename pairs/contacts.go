package pairs

import (
	"slices"
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// Contact is a pair of boxes with its contact manifold.
type Contact struct {
	Pair
	Manifold obb.Manifold
}

// Collide appends to dst, in input order, the contact manifold of each
// candidate pair, box pairs[k].I of a against box pairs[k].J of b: exactly
// obb.Box.Collide's, bit for bit, with the given margin, 8 or 16 pairs per
// instruction with the assembly kernels. It returns dst unchanged and an
// *[IndexError] when a pair names a box outside its set, and panics if a
// set's columns differ in length.
func (f *Finder) Collide(dst []obb.Manifold, a, b *soa.Boxes, pairs []Pair, margin float32) ([]obb.Manifold, error) {
	if err := checkPairs(a.Len(), b.Len(), pairs); err != nil {
		return dst, err
	}
	n := len(dst)
	dst = slices.Grow(dst, len(pairs))[:n+len(pairs)]
	batch.CollideUnchecked(a, b, indexList(pairs), margin, dst[n:])
	return dst, nil
}

// contactChunk is how many manifolds Contacts computes at a time into a
// buffer on the stack, before it keeps those with points.
const contactChunk = 256

// Contacts is Collide keeping only the pairs whose manifold has points:
// it appends them, with their manifolds, in input order.
func (f *Finder) Contacts(dst []Contact, a, b *soa.Boxes, pairs []Pair, margin float32) ([]Contact, error) {
	if err := checkPairs(a.Len(), b.Len(), pairs); err != nil {
		return dst, err
	}
	var ms [contactChunk]obb.Manifold
	for from := 0; from < len(pairs); from += contactChunk {
		chunk := pairs[from:min(from+contactChunk, len(pairs))]
		batch.CollideUnchecked(a, b, indexList(chunk), margin, ms[:len(chunk)])
		for k, m := range ms[:len(chunk)] {
			if m.Count > 0 {
				dst = append(dst, Contact{chunk[k], m})
			}
		}
	}
	return dst, nil
}

// indexList returns pairs as the interleaved index list the batch kernels
// read: a Pair is two int32s, I then J, with no padding.
func indexList(pairs []Pair) []int32 {
	return unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(pairs))), 2*len(pairs))
}
