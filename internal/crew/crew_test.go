package crew

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/obb2d/obb2d/internal/testkit"
)

// markJob records, for each position, how many times it ran and whether
// the last time was on the test's goroutine; with yield, each chunk
// yields its P first.
type markJob struct {
	ran        []atomic.Int32
	onCaller   []atomic.Bool
	yield      bool
	goroutines atomic.Int32 // the most runtime.NumGoroutine saw
}

func (j *markJob) Do(_, start, end int) {
	if g := int32(runtime.NumGoroutine()); g > j.goroutines.Load() {
		j.goroutines.Store(g)
	}
	if j.yield {
		runtime.Gosched()
	}
	caller := testkit.OnStack(".TestCrewLateHelpers")
	for p := start; p < end; p++ {
		j.ran[p].Add(1)
		j.onCaller[p].Store(caller)
	}
}

// TestCrewLateHelpers runs passes of two jobs on one P, where a helper
// cannot begin before the caller yields. In the first pass the jobs do not
// yield: the caller must do every position and end the pass without
// waiting for its helpers to begin. In the second the jobs yield, and the
// helpers (the first pass's, which begin late, and the second's) must take
// positions, and no new goroutine may be started for a helper while the
// one started before has not begun. No position may run twice, and no
// helper may run once its pass has ended.
//
// The runtime can still take the P from the caller, and then helpers begin
// with no one waiting for them (a pass under qemu did): an attempt whose
// first pass saw one begin is retried (testkit.RetryPreempted).
func TestCrewLateHelpers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	testkit.RetryPreempted(t, func() string { return lateHelpers(t) })
}

// lateHelpers is one attempt of TestCrewLateHelpers. It fails the test on
// an error no preemption explains, and returns why the first pass failed
// if a helper began during it.
func lateHelpers(t *testing.T) string {
	t.Helper()
	const n, chunk = 64, 4
	var c Crew
	j := &markJob{ran: make([]atomic.Int32, n), onCaller: make([]atomic.Bool, n)}
	check := func(want int32, what string) (helped int) {
		t.Helper()
		for p := range n {
			if got := j.ran[p].Load(); got != want {
				t.Fatalf("%s: position %d ran %d times in all, want %d", what, p, got, want)
			}
			if !j.onCaller[p].Load() {
				helped++
			}
		}
		return helped
	}
	settle := func() { // let every helper that has not begun begin
		for range 10 {
			runtime.Gosched()
			time.Sleep(time.Millisecond)
		}
	}
	settle() // earlier attempts' and tests' helpers too
	before := runtime.NumGoroutine()
	for pass := int32(1); pass <= 2; pass++ {
		j.yield = pass == 2
		c.Begin(3)
		c.Run(j, n, chunk)
		c.Run(j, n, chunk)
		c.Stop()
		helped := check(2*pass, "at the end of the pass")
		if pass == 1 && helped != 0 {
			settle()
			return fmt.Sprintf("pass 1: helpers ran %d positions, but none can begin before the caller yields", helped)
		}
		if g := runtime.NumGoroutine(); pass == 1 && g != before+2 {
			settle()
			return fmt.Sprintf("pass 1 ended with %d goroutines, %d before it: a helper began", g, before)
		}
		if pass == 2 && helped == 0 {
			t.Fatal("pass 2: the caller yielded, but no helper ran a position")
		}
	}
	if g := j.goroutines.Load(); g > int32(before+2) {
		t.Fatalf("%d goroutines ran at once, %d before the passes: a helper was started while one started before had not begun", g, before)
	}
	settle()
	check(4, "after the passes")
	return ""
}

// countJob counts the runs of each position and records the workers that
// ran any.
type countJob struct {
	ran     []atomic.Int32
	workers [8]atomic.Bool
}

func (j *countJob) Do(k, start, end int) {
	j.workers[k].Store(true)
	for p := start; p < end; p++ {
		j.ran[p].Add(1)
	}
}

// TestRunDoesEveryPositionOnce runs jobs of many sizes and chunks on one
// to four workers, several jobs a pass: every position must run once, on
// a worker numbered below the pass's size, and a job of fewer than two
// chunks on the caller alone.
func TestRunDoesEveryPositionOnce(t *testing.T) {
	var c Crew
	for size := 1; size <= 4; size++ {
		c.Begin(size)
		for _, n := range []int{0, 1, 7, 8, 9, 100, 1000} {
			for _, chunk := range []int{1, 4, 64} {
				j := &countJob{ran: make([]atomic.Int32, n)}
				c.Run(j, n, chunk)
				for p := range n {
					if got := j.ran[p].Load(); got != 1 {
						c.Stop()
						t.Fatalf("%d workers, n=%d, chunk=%d: position %d ran %d times", size, n, chunk, p, got)
					}
				}
				for k := range j.workers {
					if j.workers[k].Load() && (k >= size || n < 2*chunk && k > 0) {
						c.Stop()
						t.Fatalf("%d workers, n=%d, chunk=%d: worker %d ran", size, n, chunk, k)
					}
				}
			}
		}
		c.Stop()
	}
}
