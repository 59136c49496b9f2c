package world

import (
	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/obb"
)

// Contact is a pair of boxes with its contact manifold, the normal pointing
// from A toward B.
type Contact struct {
	Pair
	Manifold obb.Manifold
}

// contactChunk is how many pairs Contacts lays out as columns on the stack
// for one call of the batch kernel.
const contactChunk = 64

// Contacts appends to dst, in input order, each pair of pairs (the result
// of Pairs, say) whose manifold has points, with its manifold: exactly
// obb.Box.Collide's for Box(A) and Box(B), with the given margin, computed
// 8 or 16 pairs per instruction with the assembly kernels. It panics,
// before appending, if a pair names a stale handle.
func (w *World) Contacts(dst []Contact, pairs []Pair, margin float32) []Contact {
	for _, p := range pairs {
		w.slot(p.A, "Contacts")
		w.slot(p.B, "Contacts")
	}
	var cols [batch.PairColumns * contactChunk]float32
	var ms [contactChunk]obb.Manifold
	for from := 0; from < len(pairs); from += contactChunk {
		chunk := pairs[from:min(from+contactChunk, len(pairs))]
		n := len(chunk)
		c := cols[:batch.PairColumns*n]
		for k, p := range chunk {
			batch.SetPair(c, n, k, &w.slots[p.A>>8].box, &w.slots[p.B>>8].box)
		}
		batch.CollideColumns(c, n, margin, ms[:n])
		for k, m := range ms[:n] {
			if m.Count > 0 {
				dst = append(dst, Contact{chunk[k], m})
			}
		}
	}
	return dst
}
