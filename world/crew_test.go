package world

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/obb2d/obb2d/internal/testkit"
)

// TestFanOutTakesLateShares runs fanOut on one P, where a helper cannot
// begin before the caller yields. In the first run the caller does not
// yield: it must do every share itself and return without waiting for the
// helpers. In the second, the first run's helpers have not begun yet, and
// the caller's share yields: the first run's helpers and the second's then
// take the other shares, each once, and no new goroutine may be started
// for a share while the one started before has not begun. No helper that
// begins late may do a share again.
//
// The runtime can still take the P from the caller, and then a helper can
// begin and take a share: an attempt whose first run saw that is retried
// (testkit.RetryPreempted).
func TestFanOutTakesLateShares(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	testkit.RetryPreempted(t, func() string { return lateShares(t) })
}

// lateShares is one attempt of TestFanOutTakesLateShares. It fails the
// test on an error no preemption explains, and returns why the first run
// failed if a helper took a share during it.
func lateShares(t *testing.T) string {
	t.Helper()
	const n = 4
	var w World
	var ran [n]atomic.Int32
	var onCaller [n]atomic.Bool
	yield := false
	var most atomic.Int32 // the most goroutines a share saw
	task := func(_ *World, i int) {
		if g := int32(runtime.NumGoroutine()); g > most.Load() {
			most.Store(g)
		}
		if i == 0 && yield {
			for range 10 {
				runtime.Gosched()
			}
		}
		ran[i].Add(1)
		onCaller[i].Store(testkit.OnStack(".TestFanOutTakesLateShares"))
	}
	check := func(run int, when string) {
		t.Helper()
		for i := range n {
			if got := ran[i].Load(); got != int32(run) {
				t.Fatalf("%s run %d: share %d ran %d times in all", when, run, i, got)
			}
		}
	}
	settle := func() { // let every helper that has not begun begin
		for range 10 {
			runtime.Gosched()
			time.Sleep(time.Millisecond)
		}
	}
	settle()
	before := runtime.NumGoroutine()
	w.fanOut(n, task)
	check(1, "in")
	for i := range n {
		if !onCaller[i].Load() {
			settle()
			return fmt.Sprintf("run 1: share %d ran on a helper, which cannot begin before the caller yields", i)
		}
	}
	yield = true
	w.fanOut(n, task)
	check(2, "in")
	for i := 1; i < n; i++ {
		if onCaller[i].Load() {
			t.Fatalf("run 2: share %d ran on the caller, which yielded to the helpers first", i)
		}
	}
	if g := most.Load(); g > int32(before+n-1) {
		t.Fatalf("%d goroutines ran at once, %d before the runs: a helper was started while one started before had not begun", g, before)
	}
	settle()
	check(2, "after")
	return ""
}
