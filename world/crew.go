package world

import (
	"runtime"
	"slices"
	"sync"
)

// crew runs a task on several goroutines, the caller's among them. Its
// helpers' functions are made once, and the task is a function of the
// World and the worker's number that reads its inputs from the World, so
// that a run allocates nothing once the World has run as many workers
// before (TestSteadyStateAllocatesNothing).
type crew struct {
	task    func(w *World, worker int)
	helpers []func()
	wg      sync.WaitGroup
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
func (w *World) fanOut(n int, task func(w *World, worker int)) {
	c := &w.crew
	if n <= 1 {
		task(w, 0)
		return
	}
	c.task = task
	for len(c.helpers) < n-1 {
		i := len(c.helpers) + 1
		c.helpers = append(c.helpers, func() {
			c.task(w, i)
			c.wg.Done()
		})
	}
	c.wg.Add(n - 1)
	for i := 1; i < n; i++ {
		go c.helpers[i-1]()
	}
	task(w, 0)
	c.wg.Wait()
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
