package pairs

import (
	"slices"
	"sync/atomic"
)

// collector gathers a pass's pairs from every worker into one buffer that
// it keeps from pass to pass. A worker reserves room for a chunk's pairs
// with a compare-and-swap, so found[:n] is always filled by pairs, and a
// pass that fits allocates nothing however the work is split; pairs that do
// not fit go to the worker's spill, and gather then makes room for all.
type collector struct {
	found []Pair
	n     atomic.Int64
}

func (c *collector) reset() { c.n.Store(0) }

// room returns n places for worker w's next pairs: the next n of found when
// they are free, or else n more at the end of w.spill.
func (c *collector) room(w *worker, n int) []Pair {
	for {
		at := c.n.Load()
		end := at + int64(n)
		if end > int64(len(c.found)) {
			break
		}
		if c.n.CompareAndSwap(at, end) {
			return c.found[at:end]
		}
	}
	m := len(w.spill)
	w.spill = slices.Grow(w.spill, n)[:m+n]
	return w.spill[m:]
}

// gather returns the pass's pairs, in found. When some did not fit there,
// it first makes found room for them all and an eighth more, so that the
// next pass with about as many pairs fits, copies them in and lets the
// workers' spills go.
func (c *collector) gather(wk []worker) []Pair {
	total := int(c.n.Load())
	spilled := 0
	for i := range wk {
		spilled += len(wk[i].spill)
	}
	if spilled == 0 {
		return c.found[:total]
	}
	found := make([]Pair, total+spilled+(total+spilled)/8)
	n := copy(found, c.found[:total])
	for i := range wk {
		n += copy(found[n:], wk[i].spill)
		wk[i].spill = nil
	}
	c.found = found
	c.n.Store(int64(n))
	return found[:n]
}
