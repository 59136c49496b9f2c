package world

import "github.com/obb2d/obb2d/obb"

// Contact is a pair of boxes with its contact manifold, the normal pointing
// from A toward B.
type Contact struct {
	Pair
	Manifold obb.Manifold
}

// Contacts appends to dst, in input order, each pair of pairs (the result
// of Pairs, say) whose manifold has points, with its manifold: exactly
// obb.Box.Collide's for Box(A) and Box(B), with the given margin. It
// panics, before appending, if a pair names a stale handle.
func (w *World) Contacts(dst []Contact, pairs []Pair, margin float32) []Contact {
	for _, p := range pairs {
		w.slot(p.A, "Contacts")
		w.slot(p.B, "Contacts")
	}
	for _, p := range pairs {
		if m := w.slots[p.A>>8].box.Collide(w.slots[p.B>>8].box, margin); m.Count > 0 {
			dst = append(dst, Contact{p, m})
		}
	}
	return dst
}
