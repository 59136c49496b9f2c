package testkit

import (
	"runtime"
	"strings"
	"sync"
)

// Mallocs returns how many heap allocations runs calls of fn make from
// code of one type: allocations with a function whose name starts with
// prefix (a method set such as "github.com/obb2d/obb2d/pairs.(*Finder).",
// closures included) on the stack, as the heap profile records them with
// every allocation sampled. Unlike testing.AllocsPerRun, which averages
// and rounds down, it sees one allocation in many runs, and it does not
// count what the runtime's own goroutines allocate meanwhile (a run beside
// a CPU-heavy test saw the scavenger grow its timer heap).
//
// Like AllocsPerRun it measures with GOMAXPROCS set to 1, because the
// runtime keeps free goroutines and wait records in caches per P: a pass's
// goroutines, started on one P and ending on another, move them between
// caches, and a WaitGroup.Wait then allocates a new record now and then.
// Changing GOMAXPROCS drops the caches of the Ps it removes, so before
// measuring, Mallocs has the one P's cache hold a wait record by blocking
// once in a WaitGroup, and calls fn once, as AllocsPerRun does.
func Mallocs(runs int, prefix string, fn func()) int64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	runtime.MemProfileRate = 1
	var wg sync.WaitGroup
	wg.Add(1)
	go wg.Done()
	wg.Wait()
	fn()
	before := allocsUnder(prefix)
	for range runs {
		fn()
	}
	return allocsUnder(prefix) - before
}

// allocsUnder returns how many allocations the heap profile holds with a
// function named with prefix on the stack. The runtime.GC publishes the
// profile up to the present.
func allocsUnder(prefix string) int64 {
	runtime.GC()
	var recs []runtime.MemProfileRecord
	for {
		n, ok := runtime.MemProfile(recs, true)
		if ok {
			recs = recs[:n]
			break
		}
		recs = make([]runtime.MemProfileRecord, n+n/4+16)
	}
	var total int64
	for _, r := range recs {
		frames := runtime.CallersFrames(r.Stack())
		for {
			f, more := frames.Next()
			if strings.HasPrefix(f.Function, prefix) {
				total += r.AllocObjects
				break
			}
			if !more {
				break
			}
		}
	}
	return total
}
