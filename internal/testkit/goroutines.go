package testkit

import (
	"runtime"
	"strings"
	"testing"
)

// OnStack reports whether a function whose name ends with suffix (such as
// ".TestName") is on the calling goroutine's stack: the way a test tells
// whether code ran on its own goroutine or on one it started.
func OnStack(suffix string) bool {
	pc := make([]uintptr, 64)
	frames := runtime.CallersFrames(pc[:runtime.Callers(1, pc)])
	for {
		f, more := frames.Next()
		if strings.HasSuffix(f.Function, suffix) {
			return true
		}
		if !more {
			return false
		}
	}
}

// RetryPreempted runs attempt until it returns "", four times at most, and
// fails t with the last reason it returned if it never did. It is for a
// test that runs on one P and checks that code did not wait for a
// goroutine it started to begin: the runtime may still take the P from
// the test's goroutine (sysmon preempts one that has run 10 ms, which an
// emulated run can exceed), and then the goroutine begins with no one
// waiting for it. attempt returns why such a check failed, and fails t
// itself on errors no preemption explains. Code that does wait fails every
// attempt.
func RetryPreempted(t testing.TB, attempt func() string) {
	t.Helper()
	const attempts = 4
	var why string
	for range attempts {
		if why = attempt(); why == "" {
			return
		}
		t.Logf("inconclusive or failed, retrying: %s", why)
	}
	t.Fatalf("every one of %d attempts: %s", attempts, why)
}
