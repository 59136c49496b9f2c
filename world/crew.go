package world

import (
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/obb2d/obb2d/internal/crew"
)

// fan runs a task on several goroutines, the caller's among them. Its
// helpers' functions are made once, and the task is a function of the
// World and the worker's number that reads its inputs from the World, so
// that a run allocates nothing once the World has run as many workers
// before (TestSteadyStateAllocatesNothing).
type fan struct {
	task    func(w *World, worker int)
	helpers []func()
	shares  []*share     // helper i+1's share of this run
	done    atomic.Int32 // the helpers' shares done in this run
}

// share is a helper's share of a run of fanOut: whether it is taken, and
// how many goroutines started for it have not begun. While one has not,
// fanOut starts no other for the share: that one takes it when it begins,
// or the caller does. Without that, a caller that never yields (one P, no
// preemption, as under js/wasm) would leave a new goroutine waiting every
// run.
type share struct {
	taken   atomic.Bool
	unbegun atomic.Int32
}

// slotWorkers returns n, or 1 in a world that is not large (regions.go):
// how many workers a pass of Pairs or of the catch-up of Moves that reads
// the boxes' slots may use. The caller's next Moves write those slots,
// and a line a helper read is then in the helper's cache as well: in a
// world the caches hold, each such write waits for the other core to
// give its copy up. In BenchmarkWorldDrift on the uniform scene at 100,000
// boxes, a CPU profile with two workers shows the store after Move's slot
// write waiting for it, and the step takes longer than with one worker. So
// these passes run on the caller in such a world: the check of the boxes
// that may have left their fat bounds, the slots' test of the candidates
// and the kernel's test of few of them (fewCandidates, and of any number
// in a smaller world: ownRecordBytes), and the catch-up's
// cells and block writes (BenchmarkWorldDrift and
// BenchmarkWorldStep, moved=100%/move=each, workers=2; the RTS and mixed
// scenes, whose candidates the kernel tests from records, no different). A
// large world misses the caches anyway, and keeps its workers.
func (w *World) slotWorkers(n int) int {
	if !w.large() {
		return 1
	}
	return n
}

// workers returns how many goroutines to use for items items, at least
// perWorker of them each: Workers, with 0 meaning one and a negative value
// runtime.GOMAXPROCS(0).
func (w *World) workers(items, perWorker int) int {
	n := w.Workers
	if n < 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return min(max(n, 1), max((items+perWorker-1)/perWorker, 1))
}

// fanOut runs task(w, i) for i in [0, n), task(w, 0) on the calling
// goroutine, and returns when all have.
//
// A goroutine can begin long after the go statement that starts it: on a
// virtual machine whose idle cores sleep, BenchmarkGoStart in package
// internal/crew finds it can take longer than a whole step of 10,000 boxes.
// So each helper first takes its share, and the caller, once its own share
// is done, does every share that no helper has taken instead of waiting for
// a helper to begin. A helper that begins after its share was taken does
// nothing; one that begins during a later run may take that run's share of
// its number, which is the same work.
//
// Each helper does one share and returns. A crew.Crew whose helpers spin
// between the runs of a MoveBoxes or a Pairs call, started once a call,
// made the moves of BenchmarkWorldStep's all-moved step on the mixed scene
// at 10,000 boxes with two workers take longer, and no row's step shorter.
func (w *World) fanOut(n int, task func(w *World, worker int)) {
	c := &w.fan
	if n <= 1 {
		task(w, 0)
		return
	}
	c.task = task
	c.done.Store(0)
	for len(c.helpers) < n-1 {
		i, sh := len(c.helpers)+1, new(share)
		sh.taken.Store(true)
		c.shares = append(c.shares, sh)
		c.helpers = append(c.helpers, func() {
			sh.unbegun.Add(-1)
			if sh.taken.CompareAndSwap(false, true) {
				c.task(w, i)
				c.done.Add(1)
			}
		})
	}
	for i := 1; i < n; i++ {
		sh := c.shares[i-1]
		sh.taken.Store(false)
		if sh.unbegun.Load() == 0 {
			sh.unbegun.Add(1)
			go c.helpers[i-1]()
		}
	}
	task(w, 0)
	for i := 1; i < n; i++ {
		if c.shares[i-1].taken.CompareAndSwap(false, true) {
			task(w, i)
			c.done.Add(1)
		}
	}
	for spins := 0; c.done.Load() != int32(n-1); spins++ {
		if spins%crew.YieldEvery == crew.YieldEvery-1 {
			runtime.Gosched()
		}
	}
	c.task = nil
}

// shareStart returns the first unit of worker k's share of n, for items in
// units, unit u's starting at starts[u] and starts[len-1] their end: the
// first unit that starts at or after k/n of the items. Workers k and k+1
// then take the units between, whole, about 1/n of the items; for k = n
// it is the end, or where only empty units are left.
func shareStart(starts []int32, k, n int) int {
	u, _ := slices.BinarySearch(starts, int32(k*int(starts[len(starts)-1])/n))
	return u
}

// spans hands a run of fanOut's units of work (sortMoves' chunks,
// settle's runs of blocks) to its workers: worker k takes the units of
// its own span, k/n to (k+1)/n of them, in order, and then, in turn,
// those left in the other workers' spans, from where each stands. A
// helper that begins late loses no time (fanOut), and while both run,
// each streams through memory of its own.
// With one counter for all the units, the workers took alternate units,
// and the helper's units, each just past the caller's, took longer than
// the caller's: the sortMoves pass of BenchmarkWorldStep's all-moved
// MoveBoxes step with two workers on 1,000,000 boxes.
type spans struct {
	next []spanNext // each span's next unit
	end  []int      // each span's end
}

// spanNext is a span's counter, alone in its cache line, so that one
// worker's counter does not share a line another writes.
type spanNext struct {
	atomic.Int64
	_ [56]byte
}

// reset cuts units units into n spans.
func (sp *spans) reset(units, n int) {
	if len(sp.next) < n {
		sp.next = make([]spanNext, n)
	}
	sp.end = sp.end[:0]
	for k := range n {
		sp.next[k].Store(int64(k * units / n))
		sp.end = append(sp.end, (k+1)*units/n)
	}
}

// each calls f with each unit worker k takes, its own span's first.
func (sp *spans) each(k int, f func(unit int)) {
	n := len(sp.end)
	for j := range n {
		s := (k + j) % n
		for {
			u := int(sp.next[s].Add(1)) - 1
			if u >= sp.end[s] {
				break
			}
			f(u)
		}
	}
}
