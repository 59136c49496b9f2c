// Package crew runs the jobs of a pass on several goroutines, the caller's
// among them: package pairs' Finder runs its passes on it.
//
// A goroutine can begin long after the go statement that starts it: on a
// virtual machine whose idle cores sleep, BenchmarkGoStart finds it can take
// longer than a whole pass over 10,000 boxes. So a crew starts its helpers
// once for a pass of several jobs, not once a job; between jobs they wait by
// spinning, yielding their P now and then, and the caller waits for them the
// same way, so a pass keeps its workers' cores busy from start to end,
// serial parts included. And a helper that has not begun holds nothing up:
// it joins a job only while the job is open, and the caller, once it has run
// out of positions, closes the job and waits only for the helpers that
// joined. Likewise Stop waits only for the helpers that began; one that
// begins after its pass ended returns at once, or, if a later pass has
// started helpers, takes the place of that pass's helper of its number,
// which does the same.
package crew

import (
	"runtime"
	"sync/atomic"
)

// A Job is work over positions [0, n) that a Crew hands out in chunks: Do
// runs positions [start, end) on worker k, 0 being the caller. A Job is
// best a pointer to memory its owner keeps, so that handing one to the
// crew allocates nothing.
type Job interface {
	Do(k, start, end int)
}

// Crew runs jobs on Size workers between Begin and Stop. Its zero value is
// ready; it must not be copied while a pass runs, and a copy made between
// passes starts helpers of its own.
type Crew struct {
	size int

	// The job being run, its positions and how many are handed out.
	job      Job
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
	self      *Crew
	helping   int
	gen       atomic.Uint32
	helperGen uint32
	open      atomic.Uint64
	finished  atomic.Int32
	stopping  atomic.Bool
	starts    int // the passes that started helpers (Starts)
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

// closed is the bit of Crew.open that closes the job to helpers; the bits
// below it count the helpers that joined.
const closed = 1 << 31

// YieldEvery is how many polls of a spinning wait go by between calls of
// runtime.Gosched, which lets the other goroutines of the P run: a worker
// of this pass when there are fewer Ps than workers, the garbage
// collector, or the program's own.
const YieldEvery = 64

// Begin sets the crew up for a pass on size workers. It starts no
// goroutine: the first job with work for more than one worker does.
func (c *Crew) Begin(size int) { c.size = max(size, 1) }

// Size returns how many workers the pass runs on.
func (c *Crew) Size() int { return c.size }

// Run does job j for every position in [0, n), chunk positions at a time,
// so that a dense region does not leave one worker with all the work, and
// returns when every position is done. A job too small to split runs on
// the calling goroutine alone.
func (c *Crew) Run(j Job, n, chunk int) {
	if c.size <= 1 || n < 2*chunk {
		j.Do(0, 0, n)
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
	c.drain(0)
	joined := int32(c.open.Or(closed) & (closed - 1))
	for spins := 0; c.finished.Load() != joined; spins++ {
		if spins%YieldEvery == YieldEvery-1 {
			runtime.Gosched()
		}
	}
	c.job = nil
}

// startHelpers starts n helpers for the jobs from the next one on.
func (c *Crew) startHelpers(n int) {
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
	c.starts++
	for i, help := range c.helpers[:n] {
		p := c.places[i]
		p.state.Store(placeWanted)
		if p.unbegun.Load() == 0 {
			p.unbegun.Add(1)
			go help()
		}
	}
}

// Starts returns how many passes of the crew have started helpers.
func (c *Crew) Starts() int { return c.starts }

// help is helper i's life, in place p: it joins each job the pass runs
// while the job is open, does its share as drain, and returns when Stop
// says so, or at once if its place is not wanted (its pass ended before it
// began).
func (c *Crew) help(i int, p *place) {
	p.unbegun.Add(-1)
	if !p.state.CompareAndSwap(placeWanted, placeTaken) {
		return
	}
	seen := c.helperGen
	for {
		g := c.gen.Load()
		for spins := 0; g == seen; spins++ {
			if spins%YieldEvery == YieldEvery-1 {
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
				c.drain(i)
				c.finished.Add(1)
				break
			}
		}
	}
}

// Stop ends the helpers the pass started, if any, and waits until those
// that began have returned. A pass defers it, so that no helper spins once
// the pass is over, panics included.
func (c *Crew) Stop() {
	if c.helping == 0 {
		return
	}
	c.stopping.Store(true)
	c.gen.Add(1)
	for _, p := range c.places[:c.helping] {
		for spins := 0; !p.state.CompareAndSwap(placeWanted, placeFree) && p.state.Load() != placeFree; spins++ {
			if spins%YieldEvery == YieldEvery-1 {
				runtime.Gosched()
			}
		}
	}
	c.stopping.Store(false)
	c.helping = 0
}

// drain does chunks of the current job on worker k until none is left.
func (c *Crew) drain(k int) {
	n, chunk := c.n, c.chunk
	for {
		start := int(c.next.Add(int64(chunk))) - chunk
		if start >= n {
			return
		}
		c.job.Do(k, start, min(start+chunk, n))
	}
}
