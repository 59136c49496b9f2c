package pairs

import (
	"fmt"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/soa"
)

// IndexError reports a candidate pair that names a box outside its set.
type IndexError struct {
	Pair int  // position in the pair list
	P    Pair // the pair
	Len  int  // length of the set the bad index refers to
	J    bool // the bad index is J (else I)
}

// Error names the pair and the index outside its set.
func (e *IndexError) Error() string {
	which, v := "I", e.P.I
	if e.J {
		which, v = "J", e.P.J
	}
	return fmt.Sprintf("pairs: pair %d (%d, %d): %s = %d is outside [0, %d)", e.Pair, e.P.I, e.P.J, which, v, e.Len)
}

// Check is the narrow phase over a candidate list: it sets bit k%64 of
// out[k/64] when box pairs[k].I of a overlaps box pairs[k].J of b, exactly as
// obb.Box.Overlaps says, and clears it otherwise. For pairs within one set,
// pass the set as both a and b. Repeated pairs and I == J are allowed (a box
// overlaps itself unless it holds a NaN).
//
// The pairs go to batch.Pairs, which gathers both boxes of 8 pairs
// at a time, so the list runs at the same speed in any order. (Copying the
// second boxes of each run of pairs that share a first box into columns for
// the one-against-many kernel measured slower even on lists grouped that
// way.)
//
// It returns an *[IndexError], having written nothing, when a pair names a
// box outside its set. It panics, before writing, if out is shorter than
// batch.Words(len(pairs)) or a set's columns differ in length.
func (f *Finder) Check(out []uint64, a, b *soa.Boxes, pairs []Pair) error {
	na, nb := a.Len(), b.Len()
	if len(out) < batch.Words(len(pairs)) {
		panic(fmt.Sprintf("pairs: out has %d words, need %d for %d pairs", len(out), batch.Words(len(pairs)), len(pairs)))
	}
	if err := checkPairs(na, nb, pairs); err != nil {
		return err
	}
	if len(pairs) == 0 {
		return nil
	}
	batch.Pairs(a, b, indexList(pairs), out[:batch.Words(len(pairs))])
	return nil
}

// checkPairs returns an *IndexError for the first pair that names a box
// outside its set.
func checkPairs(na, nb int, pairs []Pair) error {
	for k, p := range pairs {
		if p.I < 0 || int(p.I) >= na {
			return &IndexError{Pair: k, P: p, Len: na}
		}
		if p.J < 0 || int(p.J) >= nb {
			return &IndexError{Pair: k, P: p, Len: nb, J: true}
		}
	}
	return nil
}

// Filter appends to dst, in input order, the pairs of the candidate list
// that overlap (see [Finder.Check]) and returns the extended slice. It
// returns dst unchanged and an *[IndexError] when a pair names a box outside
// its set.
func (f *Finder) Filter(dst []Pair, a, b *soa.Boxes, pairs []Pair) ([]Pair, error) {
	words := batch.Words(len(pairs))
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
