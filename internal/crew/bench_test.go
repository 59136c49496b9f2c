package crew

import (
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkGoStart reports how long a goroutine started with a go
// statement takes to begin running while the goroutine that started it
// keeps its core busy and another core is idle: the wait each job of a
// pass would pay if it started its helpers anew, which is why the crew
// starts them once a pass and they spin between jobs.
// Each of 200 tries lets both cores go idle, keeps one busy for 500 µs, as
// a pass's previous phase would, and then starts the goroutine. It reports
// the median and the 90th percentile in µs; a goroutine that has not begun
// after a millisecond is let run by yielding, so 1,000 means "not before
// the starter stopped".
func BenchmarkGoStart(b *testing.B) {
	var p50, p90 float64
	for i := 0; i < b.N; i++ {
		lat := make([]time.Duration, 200)
		for k := range lat {
			time.Sleep(2 * time.Millisecond)
			for t := time.Now(); time.Since(t) < 500*time.Microsecond; { // busy, as a pass is
			}
			var started atomic.Int64
			t0 := time.Now()
			go func() { started.Store(int64(time.Since(t0))) }()
			for time.Since(t0) < time.Millisecond && started.Load() == 0 {
			}
			for started.Load() == 0 { // not begun within a millisecond
				runtime.Gosched()
			}
			lat[k] = time.Duration(started.Load())
		}
		slices.Sort(lat)
		p50 += float64(lat[len(lat)/2]) / 1e3
		p90 += float64(lat[len(lat)*9/10]) / 1e3
	}
	b.ReportMetric(p50/float64(b.N), "p50-µs")
	b.ReportMetric(p90/float64(b.N), "p90-µs")
}
