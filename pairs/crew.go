package pairs

import (
	"runtime"
	"sync/atomic"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/room"
)

// A job is work over positions [0, n) that the crew hands out in chunks:
// do runs positions [start, end) with worker w's scratch. The phases of a
// pass are jobs (boundsJob, countJob, scatterJob and gatherJob of the sort,
// allJob and betweenJob of the sweep, splitJob and mergeJob of the merge).
// Each is a pointer to memory the Finder keeps, so handing one to the crew
// allocates nothing.
type job interface {
	do(w *worker, start, end int)
}

// crew runs a pass's jobs on its workers: the calling goroutine is worker
// 0, and helper goroutines, started by the first job that has work enough
// for them, are the others. Between jobs the helpers wait by spinning,
// yielding their P now and then, and the caller waits for them the same
// way, so a pass keeps its workers' cores busy from start to end, serial
// parts included: a goroutine started while its starter keeps running may
// begin a millisecond later (BenchmarkGoStart), which a pass of
// eight jobs would pay eight times. stop ends the helpers when the pass
// ends.
//
// A helper that has not begun holds nothing up: it joins a job only while
// the job is open, and the caller, once it has run out of positions,
// closes the job and waits only for the helpers that joined. Likewise stop
// waits only for the helpers that began; one that begins after its pass
// ended returns at once, or, if a later pass has started helpers, takes
// the place of that pass's helper of its number, which does the same.
type crew struct {
	wk   []worker // each worker's scratch; wk[0] is the caller's
	size int      // how many workers the pass runs on

	// The job being run, its positions and how many are handed out.
	job      job
	n, chunk int
	next     atomic.Int64

	// helpers[i-1] is worker i's goroutine, made once (for this crew, self,
	// not one it was copied from), so that starting a pass's helpers
	// allocates nothing, and places[i-1] its place; helping of them were
	// started for this pass. A job starts when gen moves past the last one
	// a helper saw (seen at start: helperGen); open holds the job's number,
	// whether it is closed and how many helpers joined it, finished how
	// many of those are done, and stopping tells the helpers to return.
	helpers   []func()
	places    []*place
	self      *crew
	helping   int
	gen       atomic.Uint32
	helperGen uint32
	open      atomic.Uint64
	finished  atomic.Int32
	stopping  atomic.Bool
}

// place is a helper's place in a pass: placeFree when no goroutine is
// wanted in it, placeWanted when one was started for it, placeTaken while
// one runs; and how many goroutines started for it have not begun. While
// one has not, startHelpers starts no other for the place: that one takes
// it when it begins. Without that, a caller that never yields (one P, no
// preemption, as under js/wasm) would leave a new goroutine waiting every
// pass.
type place struct {
	state   atomic.Int32
	unbegun atomic.Int32
}

const (
	placeFree int32 = iota
	placeWanted
	placeTaken
)

// closed is the bit of crew.open that closes the job to helpers; the bits
// below it count the helpers that joined.
const closed = 1 << 31

// worker is one goroutine's scratch, kept from pass to pass.
type worker struct {
	out        *collector  // where the pass's pairs go
	spill      []Pair      // pairs that did not fit in out's buffer
	candidates int         // candidate pairs handed to the kernels this pass
	hits       []batch.Hit // batch.Sweep's output (allJob)
	runs       []int32     // candidate runs: query, first and end candidate (betweenJob)
	bits       []uint64    // the runs' bitsets (betweenJob)
	wordStart  []int       // where each run's words start in bits, then the end
	tmp        []uint64    // a group's keys in sorted order (gatherJob)
	count      []int32     // a group's boxes per bucket (gatherJob)
	sink       int32       // keeps sortGroup's prefetching loads
	startI     []int       // pairs per I, then where each I's start (mergeJob)
	startJ     []int       // the same per J
	radix      []int32     // a radix merge's counts per digit, of fixed size (mergeJob)
}

// sweepHits is how many hits a worker's batch.Sweep call has room for.
const sweepHits = 1024

// begin sets the crew up for a pass on size workers whose pairs go to out.
func (c *crew) begin(size int, out *collector) {
	c.size = size
	for len(c.wk) < size {
		c.wk = append(c.wk, worker{hits: make([]batch.Hit, sweepHits), radix: make([]int32, maxRadixPasses<<radixBits)})
	}
	out.reset()
	for i := range c.wk {
		w := &c.wk[i]
		w.out, w.spill, w.candidates = out, w.spill[:0], 0
	}
}

// run does job j for every position in [0, n), chunk positions at a time,
// so that a dense region does not leave one worker with all the work, and
// returns when every position is done. A job too small to split runs on the
// calling goroutine alone.
func (c *crew) run(j job, n, chunk int) {
	if c.size == 1 || n < 2*chunk {
		j.do(&c.wk[0], 0, n)
		return
	}
	c.job, c.n, c.chunk = j, n, chunk
	c.next.Store(0)
	c.finished.Store(0)
	if c.helping == 0 {
		c.startHelpers(c.size - 1)
	}
	g := c.gen.Load() + 1
	c.open.Store(uint64(g) << 32)
	c.gen.Store(g)
	c.drain(&c.wk[0])
	joined := int32(c.open.Or(closed) & (closed - 1))
	for spins := 0; c.finished.Load() != joined; spins++ {
		if spins%yieldEvery == yieldEvery-1 {
			runtime.Gosched()
		}
	}
	c.job = nil
}

// yieldEvery is how many polls of a spinning wait go by between calls of
// runtime.Gosched, which lets the other goroutines of the P run: a worker
// of this pass when there are fewer Ps than workers, the garbage
// collector, or the program's own.
const yieldEvery = 64

// startHelpers starts n helpers for the jobs from the next one on.
func (c *crew) startHelpers(n int) {
	if c.self != c { // a new crew, or a copy: the helpers are not its own
		c.self, c.helpers, c.places = c, nil, nil
	}
	for i := len(c.helpers) + 1; i <= n; i++ {
		p := new(place)
		c.places = append(c.places, p)
		c.helpers = append(c.helpers, func() { c.help(i, p) })
	}
	c.helperGen = c.gen.Load()
	c.helping = n
	for i, help := range c.helpers[:n] {
		p := c.places[i]
		p.state.Store(placeWanted)
		if p.unbegun.Load() == 0 {
			p.unbegun.Add(1)
			go help()
		}
	}
}

// help is helper i's life, in place p: it joins each job the pass runs while
// the job is open, does its share as drain, and returns when stop says so,
// or at once if its place is not wanted (its pass ended before it began).
func (c *crew) help(i int, p *place) {
	p.unbegun.Add(-1)
	if !p.state.CompareAndSwap(placeWanted, placeTaken) {
		return
	}
	w, seen := &c.wk[i], c.helperGen
	for {
		g := c.gen.Load()
		for spins := 0; g == seen; spins++ {
			if spins%yieldEvery == yieldEvery-1 {
				runtime.Gosched()
			}
			g = c.gen.Load()
		}
		seen = g
		if c.stopping.Load() {
			p.state.Store(placeFree)
			return
		}
		for {
			st := c.open.Load()
			if uint32(st>>32) != g || st&closed != 0 {
				break // closed, or a later job is open: the loop above sees it
			}
			if c.open.CompareAndSwap(st, st+1) {
				c.drain(w)
				c.finished.Add(1)
				break
			}
		}
	}
}

// stop ends the helpers the pass started, if any, and waits until those that
// began have returned. Every pass defers it, so that no helper spins once
// the pass is over, panics included.
func (c *crew) stop() {
	if c.helping == 0 {
		return
	}
	c.stopping.Store(true)
	c.gen.Add(1)
	for _, p := range c.places[:c.helping] {
		for spins := 0; !p.state.CompareAndSwap(placeWanted, placeFree) && p.state.Load() != placeFree; spins++ {
			if spins%yieldEvery == yieldEvery-1 {
				runtime.Gosched()
			}
		}
	}
	c.stopping.Store(false)
	c.helping = 0
}

// drain does chunks of the current job until none is left.
func (c *crew) drain(w *worker) {
	n, chunk := c.n, c.chunk
	for {
		start := int(c.next.Add(int64(chunk))) - chunk
		if start >= n {
			return
		}
		c.job.do(w, start, min(start+chunk, n))
	}
}

// evenOut gives each of the pass's workers as much room in each scratch
// buffer as the roomiest of them has. What a buffer must hold depends on
// the chunk, group or range a worker takes, and which worker takes which
// changes from pass to pass: after this, a pass over the same boxes finds
// room in whichever worker takes it. The merge's buffers, as large as the
// sets, are evened out only after a pass that merged on several workers.
func (c *crew) evenOut(merged bool) {
	wk := c.wk[:c.size]
	room.EvenOut(wk, func(w *worker) *[]int32 { return &w.runs })
	room.EvenOut(wk, func(w *worker) *[]uint64 { return &w.bits })
	room.EvenOut(wk, func(w *worker) *[]int { return &w.wordStart })
	room.EvenOut(wk, func(w *worker) *[]uint64 { return &w.tmp })
	room.EvenOut(wk, func(w *worker) *[]int32 { return &w.count })
	if merged {
		room.EvenOut(wk, func(w *worker) *[]int { return &w.startI })
		room.EvenOut(wk, func(w *worker) *[]int { return &w.startJ })
	}
}

// candidates returns how many candidate pairs the workers handed to the
// kernels in the last pass.
func (c *crew) candidates() int {
	n := 0
	for i := range c.wk {
		n += c.wk[i].candidates
	}
	return n
}
