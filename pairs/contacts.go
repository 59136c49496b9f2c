package pairs

import (
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
// obb.Box.Collide's, bit for bit, with the given margin. It returns dst
// unchanged and an *[IndexError] when a pair names a box outside its set,
// and panics if a set's columns differ in length.
func (f *Finder) Collide(dst []obb.Manifold, a, b *soa.Boxes, pairs []Pair, margin float32) ([]obb.Manifold, error) {
	if err := checkPairs(a.Len(), b.Len(), pairs); err != nil {
		return dst, err
	}
	for _, p := range pairs {
		dst = append(dst, a.At(int(p.I)).Collide(b.At(int(p.J)), margin))
	}
	return dst, nil
}

// Contacts is Collide keeping only the pairs whose manifold has points:
// it appends them, with their manifolds, in input order.
func (f *Finder) Contacts(dst []Contact, a, b *soa.Boxes, pairs []Pair, margin float32) ([]Contact, error) {
	if err := checkPairs(a.Len(), b.Len(), pairs); err != nil {
		return dst, err
	}
	for _, p := range pairs {
		if m := a.At(int(p.I)).Collide(b.At(int(p.J)), margin); m.Count > 0 {
			dst = append(dst, Contact{p, m})
		}
	}
	return dst, nil
}
