package pairs

import (
	"runtime"
	"sync"
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
type crew struct {
	wk   []worker // each worker's scratch; wk[0] is the caller's
	size int      // how many workers the pass runs on

	// The job being run, its positions and how many are handed out.
	job      job
	n, chunk int
	next     atomic.Int64

	// helpers[i-1] is worker i's goroutine, made once (for this crew, self,
	// not one it was copied from), so that starting a pass's helpers
	// allocates nothing. helping of them are running: they run a job each
	// time gen moves past the last one they saw (seen at start: helperGen),
	// pending counts those still at work on the current job, and stopping
	// tells them to return.
	helpers   []func()
	self      *crew
	helping   int
	gen       atomic.Uint32
	helperGen uint32
	pending   atomic.Int32
	stopping  bool
	wg        sync.WaitGroup
}

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
	c.pending.Store(int32(c.size - 1))
	if c.helping == 0 {
		c.startHelpers(c.size - 1)
	} else {
		c.gen.Add(1)
	}
	c.drain(&c.wk[0])
	for spins := 0; c.pending.Load() != 0; spins++ {
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

// startHelpers starts n helpers on the job run has set up.
func (c *crew) startHelpers(n int) {
	if c.self != c { // a new crew, or a copy: the helpers are not its own
		c.self, c.helpers = c, nil
	}
	for i := len(c.helpers) + 1; i <= n; i++ {
		c.helpers = append(c.helpers, func() { c.help(&c.wk[i]) })
	}
	c.helperGen = c.gen.Load()
	c.gen.Add(1)
	c.helping = n
	c.wg.Add(n)
	for _, help := range c.helpers[:n] {
		go help()
	}
}

// help is one helper's life: it does its share of each job the pass runs,
// as drain, and returns when stop says so. A job starts when c.gen moves
// past the last one the helper saw; run starts the next only after every
// helper has finished this one, so no helper can miss a job.
func (c *crew) help(w *worker) {
	defer c.wg.Done()
	seen := c.helperGen
	for {
		for spins := 0; c.gen.Load() == seen; spins++ {
			if spins%yieldEvery == yieldEvery-1 {
				runtime.Gosched()
			}
		}
		seen = c.gen.Load()
		if c.stopping {
			return
		}
		c.drain(w)
		c.pending.Add(-1)
	}
}

// stop ends the helpers the pass started, if any, and waits until they have
// returned. Every pass defers it, so that no helper spins once the pass is
// over, panics included.
func (c *crew) stop() {
	if c.helping == 0 {
		return
	}
	c.stopping = true
	c.gen.Add(1)
	c.wg.Wait()
	c.stopping, c.helping = false, 0
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
