package world

import (
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestFanOutTakesLateShares runs fanOut on one P, where a helper cannot
// begin before the caller yields. In the first run the caller does not
// yield: it must do every share itself and return without waiting for the
// helpers. In the second, the first run's helpers have not begun yet, and
// the caller's share yields: the first run's helpers and the second's then
// take the other shares, each once. No helper that begins late may do a
// share again.
func TestFanOutTakesLateShares(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const n = 4
	var w World
	var ran [n]atomic.Int32
	var onCaller [n]atomic.Bool
	yield := false
	task := func(_ *World, i int) {
		if i == 0 && yield {
			for range 10 {
				runtime.Gosched()
			}
		}
		ran[i].Add(1)
		onCaller[i].Store(callerOnStack())
	}
	check := func(run int, when string) {
		t.Helper()
		for i := range n {
			if got := ran[i].Load(); got != int32(run) {
				t.Fatalf("%s run %d: share %d ran %d times in all", when, run, i, got)
			}
		}
	}
	w.fanOut(n, task)
	check(1, "in")
	for i := range n {
		if !onCaller[i].Load() {
			t.Fatalf("run 1: share %d ran on a helper, which cannot begin before the caller yields", i)
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
	for range 10 { // let every helper begin
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	check(2, "after")
}

// callerOnStack reports whether TestFanOutTakesLateShares is on the
// calling goroutine's stack.
func callerOnStack() bool {
	pc := make([]uintptr, 32)
	frames := runtime.CallersFrames(pc[:runtime.Callers(1, pc)])
	for {
		f, more := frames.Next()
		if strings.HasSuffix(f.Function, ".TestFanOutTakesLateShares") {
			return true
		}
		if !more {
			return false
		}
	}
}
