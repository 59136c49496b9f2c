package pairs

import (
	"fmt"

	"github.com/obb2d/obb2d/kernel"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// IndexError reports a candidate pair that names a box outside its set.
type IndexError struct {
	Pair int  // position in the pair list
	P    Pair // the pair
	Len  int  // length of the set the bad index refers to
	J    bool // the bad index is J (else I)
}

func (e *IndexError) Error() string {
	which, v := "I", e.P.I
	if e.J {
		which, v = "J", e.P.J
	}
	return fmt.Sprintf("pairs: pair %d (%d, %d): %s = %d is outside [0, %d)", e.Pair, e.P.I, e.P.J, which, v, e.Len)
}

// gatherMin is the shortest run of pairs sharing a first box that is copied
// into columns and decided by the batch kernel; shorter runs use the scalar
// test, which gives the same bits.
const gatherMin = 8

// Check is the narrow phase over a candidate list: it sets bit k%64 of
// out[k/64] when box pairs[k].I of a overlaps box pairs[k].J of b, exactly as
// obb.Box.Overlaps says, and clears it otherwise. For pairs within one set,
// pass the set as both a and b. Repeated pairs and I == J are allowed (a box
// overlaps itself unless it holds a NaN).
//
// Consecutive pairs with the same I are decided together: their second
// boxes are gathered into columns and handed to the batch kernel, so a list
// grouped by its first box (as sweep and grid broad phases emit it) runs at
// kernel speed.
//
// It returns an *[IndexError], having written nothing, when a pair names a
// box outside its set. It panics, before writing, if out is shorter than
// kernel.Words(len(pairs)) or a set's columns differ in length.
func (f *Finder) Check(out []uint64, a, b *soa.Boxes, pairs []Pair) error {
	na, nb := a.Len(), b.Len()
	if len(out) < kernel.Words(len(pairs)) {
		panic(fmt.Sprintf("pairs: out has %d words, need %d for %d pairs", len(out), kernel.Words(len(pairs)), len(pairs)))
	}
	for k, p := range pairs {
		if p.I < 0 || int(p.I) >= na {
			return &IndexError{Pair: k, P: p, Len: na}
		}
		if p.J < 0 || int(p.J) >= nb {
			return &IndexError{Pair: k, P: p, Len: nb, J: true}
		}
	}
	out = out[:kernel.Words(len(pairs))]
	clear(out)
	for k0 := 0; k0 < len(pairs); {
		k1 := k0 + 1
		for k1 < len(pairs) && pairs[k1].I == pairs[k0].I {
			k1++
		}
		first := a.At(int(pairs[k0].I))
		if k1-k0 < gatherMin {
			for k := k0; k < k1; k++ {
				if first.Overlaps(b.At(int(pairs[k].J))) {
					out[k>>6] |= 1 << (k & 63)
				}
			}
		} else {
			f.gathered(out, first, b, pairs, k0, k1)
		}
		k0 = k1
	}
	return nil
}

// gathered decides pairs[k0:k1], which share their first box, with the
// batch kernel.
func (f *Finder) gathered(out []uint64, first obb.Box, b *soa.Boxes, pairs []Pair, k0, k1 int) {
	g := &f.gather
	g.Reset()
	g.Grow(k1 - k0)
	for _, p := range pairs[k0:k1] {
		j := p.J
		g.CX, g.CY = append(g.CX, b.CX[j]), append(g.CY, b.CY[j])
		g.UX, g.UY = append(g.UX, b.UX[j]), append(g.UY, b.UY[j])
		g.HX, g.HY = append(g.HX, b.HX[j]), append(g.HY, b.HY[j])
	}
	if len(f.wk) == 0 {
		f.wk = append(f.wk, worker{})
	}
	q := kernel.NewQuery(first)
	for _, t := range f.wk[0].overlapping(&q, g) {
		k := k0 + int(t)
		out[k>>6] |= 1 << (k & 63)
	}
}

// Filter appends to dst, in input order, the pairs of the candidate list
// that overlap (see [Finder.Check]) and returns the extended slice. It
// returns dst unchanged and an *[IndexError] when a pair names a box outside
// its set.
func (f *Finder) Filter(dst []Pair, a, b *soa.Boxes, pairs []Pair) ([]Pair, error) {
	words := kernel.Words(len(pairs))
	if cap(f.filter) < words {
		f.filter = make([]uint64, words)
	}
	set := f.filter[:words]
	if err := f.Check(set, a, b, pairs); err != nil {
		return dst, err
	}
	for k, p := range pairs {
		if set[k>>6]>>(k&63)&1 != 0 {
			dst = append(dst, p)
		}
	}
	return dst, nil
}
