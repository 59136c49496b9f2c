package world

import (
	"math"
	"runtime"
	"slices"

	"github.com/obb2d/obb2d/internal/crew"
)

// shares runs fanOut's tasks on a crew.Crew (package crew), the caller's
// goroutine among the workers: the task is a function of the World and
// the share's number that reads its inputs from the World, so that a run
// allocates nothing once the World has run as many workers before
// (TestSteadyStateAllocatesNothing). Outside a call that holds the crew
// (hold), each fanOut starts the helpers and stops them; Pairs and
// MoveBoxes, which hand work to helpers several times a call, hold it, so
// that its helpers are started once a call and spin between the call's
// runs instead of being started for each.
type shares struct {
	crew crew.Crew
	w    *World
	task func(w *World, share int)
	held bool
}

// Do runs shares [start, end) of the task.
func (s *shares) Do(_, start, end int) {
	for k := start; k < end; k++ {
		s.task(s.w, k)
	}
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

// fanOut runs task(w, k) for every share k in [0, n), on as many
// goroutines as n, the caller's among them, and returns when all have.
// Which goroutine does which share is not fixed: the caller does the
// shares of helpers that have not begun (package crew).
func (w *World) fanOut(n int, task func(w *World, share int)) {
	if n <= 1 {
		task(w, 0)
		return
	}
	s := &w.shares
	s.w, s.task = w, task
	if !s.held {
		s.crew.Begin(n)
		defer s.crew.Stop()
	}
	s.crew.Run(s, n, 1)
	s.w, s.task = nil, nil
}

// hold keeps the crew's helpers, once started, until release: a call that
// runs several fanOuts defers release after hold, panics included.
func (w *World) hold() {
	w.shares.held = true
	w.shares.crew.Begin(w.workers(math.MaxInt, 1))
}

// release stops the helpers hold kept.
func (w *World) release() {
	w.shares.held = false
	w.shares.crew.Stop()
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
