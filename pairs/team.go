package pairs

import (
	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/crew"
	"github.com/obb2d/obb2d/internal/room"
)

// A job is work over positions [0, n) that the team hands out in chunks:
// do runs positions [start, end) with worker w's scratch. The phases of a
// pass are jobs (boundsJob, countJob, scatterJob and gatherJob of the sort,
// allJob and betweenJob of the sweep, splitJob and mergeJob of the merge).
// Each is a pointer to memory the Finder keeps, so handing one to the team
// allocates nothing.
type job interface {
	do(w *worker, start, end int)
}

// team runs a pass's jobs on its workers (package crew: the calling
// goroutine is worker 0, helpers started by the first job with work enough
// for them the others, and spinning between jobs) and keeps each worker's
// scratch from pass to pass.
type team struct {
	wk   []worker // each worker's scratch; wk[0] is the caller's
	crew crew.Crew
	job  runner // the job being run, as crew.Crew takes it
}

// runner hands a job to crew.Crew, which numbers its workers, with the
// numbered worker's scratch.
type runner struct {
	j  job
	wk []worker
}

func (r *runner) Do(k, start, end int) { r.j.do(&r.wk[k], start, end) }

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

// begin sets the team up for a pass on size workers whose pairs go to out.
func (c *team) begin(size int, out *collector) {
	c.crew.Begin(size)
	for len(c.wk) < size {
		c.wk = append(c.wk, worker{hits: make([]batch.Hit, sweepHits), radix: make([]int32, maxRadixPasses<<radixBits)})
	}
	out.reset()
	for i := range c.wk {
		w := &c.wk[i]
		w.out, w.spill, w.candidates = out, w.spill[:0], 0
	}
}

// run does job j over positions [0, n) in chunks on the pass's workers
// (crew.Crew.Run).
func (c *team) run(j job, n, chunk int) {
	c.job = runner{j: j, wk: c.wk}
	c.crew.Run(&c.job, n, chunk)
	c.job = runner{}
}

// stop ends the helpers the pass started, if any. Every pass defers it, so
// that no helper spins once the pass is over, panics included.
func (c *team) stop() { c.crew.Stop() }

// evenOut gives each of the pass's workers as much room in each scratch
// buffer as the roomiest of them has. What a buffer must hold depends on
// the chunk, group or range a worker takes, and which worker takes which
// changes from pass to pass: after this, a pass over the same boxes finds
// room in whichever worker takes it. The merge's buffers, as large as the
// sets, are evened out only after a pass that merged on several workers.
func (c *team) evenOut(merged bool) {
	wk := c.wk[:c.crew.Size()]
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
func (c *team) candidates() int {
	n := 0
	for i := range c.wk {
		n += c.wk[i].candidates
	}
	return n
}
