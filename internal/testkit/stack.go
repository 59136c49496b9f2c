package testkit

import (
	"runtime"
	"strings"
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
