package bench

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/klauspost/cpuid/v2"
)

// BenchmarkRunWindows describes how the machine runs two busy goroutines,
// which is what the workers=2 figures of BenchmarkAllPairs depend on. Each
// goroutine does a little work at a time for the measured span and notes the
// windows in which it ran: a gap of more than windowGap between two of its
// clock readings means its core was taken away. It reports:
//
//   - on-%: the share of the span a goroutine ran, averaged over the two;
//   - both-%: the share of the span in which both ran at once;
//   - window-ms: the average length of a window.
//
// On a machine to itself, on-% and both-% are near 100 and a window lasts the
// whole span. A virtual machine whose host caps its cores runs them in short
// windows. A pass with two workers waits at the end of each of its phases
// for the other worker's last chunk, so when the two cores' windows do not
// coincide, the second worker gains less than on-% alone would say.
func BenchmarkRunWindows(b *testing.B) {
	const span = 300 * time.Millisecond
	var on, both, windows, inWindows float64
	for i := 0; i < b.N; i++ {
		w := runWindows(span)
		t := float64(span)
		on += (total(w[0]) + total(w[1])) / 2 / t
		both += float64(overlap(w[0], w[1])) / t
		windows += float64(len(w[0]) + len(w[1]))
		inWindows += total(w[0]) + total(w[1])
	}
	b.ReportMetric(100*on/float64(b.N), "on-%")
	b.ReportMetric(100*both/float64(b.N), "both-%")
	b.ReportMetric(inWindows/windows/float64(time.Millisecond), "window-ms")
}

// windowGap is the longest pause between two clock readings of a busy
// goroutine that still counts as running: longer than a timer interrupt,
// far shorter than a host's scheduling slice.
const windowGap = 50 * time.Microsecond

// window is a stretch of time, as offsets from the start of a measurement,
// in which a goroutine ran.
type window struct{ from, to time.Duration }

// runWindows runs two busy goroutines for span and returns the windows in
// which each ran, in time order.
func runWindows(span time.Duration) [2][]window {
	var ws [2][]window
	var results [2]uint64
	var wg sync.WaitGroup
	start := time.Now()
	for g := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := uint64(g + 1)
			from := time.Since(start)
			last := from
			for last < span {
				for k := 0; k < 100; k++ { // well under windowGap of work
					x = x*6364136223846793005 + 1442695040888963407
				}
				now := time.Since(start)
				if now-last > windowGap {
					ws[g] = append(ws[g], window{from, last})
					from = now
				}
				last = now
			}
			ws[g] = append(ws[g], window{from, last})
			results[g] = x
		}()
	}
	wg.Wait()
	sink += results[0] ^ results[1] // so that the compiler keeps the work
	return ws
}

// total returns the summed length of ws.
func total(ws []window) float64 {
	var t time.Duration
	for _, w := range ws {
		t += w.to - w.from
	}
	return float64(t)
}

// overlap returns how long both of two time-ordered lists of disjoint
// windows cover.
func overlap(a, b []window) time.Duration {
	var t time.Duration
	for len(a) > 0 && len(b) > 0 {
		if from, to := max(a[0].from, b[0].from), min(a[0].to, b[0].to); to > from {
			t += to - from
		}
		if a[0].to < b[0].to { // the window that ends first can meet no later one
			a = a[1:]
		} else {
			b = b[1:]
		}
	}
	return t
}

func TestOverlap(t *testing.T) {
	ms := func(v ...time.Duration) []window {
		var ws []window
		for i := 0; i < len(v); i += 2 {
			ws = append(ws, window{v[i] * time.Millisecond, v[i+1] * time.Millisecond})
		}
		return ws
	}
	for _, c := range []struct {
		a, b []window
		want time.Duration
	}{
		{ms(0, 10), ms(0, 10), 10},
		{ms(0, 10), ms(10, 20), 0},
		{ms(0, 2, 10, 12), ms(1, 11), 2},
		{ms(0, 2, 10, 12, 20, 22), ms(1, 21), 4},
		{ms(5, 6), ms(0, 2, 4, 8, 9, 30), 1},
		{nil, ms(0, 10), 0},
	} {
		for _, swap := range []bool{false, true} {
			a, b := c.a, c.b
			if swap {
				a, b = b, a
			}
			if got := overlap(a, b); got != c.want*time.Millisecond {
				t.Errorf("overlap(%v, %v) = %v, want %v", a, b, got, c.want*time.Millisecond)
			}
		}
	}
}

// BenchmarkTwoCores reports how much work two goroutines get done, each on
// its own core, against one, for three kinds of work: many independent
// integer additions (alu-x, bound by the core's execution units), one
// chain of dependent floating-point steps (chain-x, bound by latency), and
// a read of a buffer of its own twice the size of L2 (stream-x, bound by
// the caches beyond L2). Each figure is twice the time of one goroutine's
// share divided by the time of two such shares run at once: 2 when the
// cores share nothing, 1 when the second gains nothing: hyperthreads of
// one physical core would show in alu-x, a shared cache or memory path in
// stream-x, a host that gives the two virtual cores less than two physical
// ones in all three. BenchmarkAllPairs's workers=2 figures depend on the
// mix of these the pass is made of; on the project's VM they changed from
// hour to hour.
func BenchmarkTwoCores(b *testing.B) {
	words := 2 * cacheSize(cpuid.CPU.Cache.L2, 1<<20) / 8
	bufs := [2][]uint64{make([]uint64, words), make([]uint64, words)}
	kinds := []struct {
		name string
		work func(g int) uint64
	}{
		{"alu-x", func(int) uint64 { return aluWork(1 << 25) }},
		{"chain-x", func(int) uint64 { return chainWork(1 << 24) }},
		{"stream-x", func(g int) uint64 { return streamWork(bufs[g], 8) }},
	}
	for _, k := range kinds {
		var one, two time.Duration
		for i := 0; i < b.N; i++ {
			start := time.Now()
			sinkWord += k.work(0)
			one += time.Since(start)
			start = time.Now()
			var wg sync.WaitGroup
			for g := range 2 {
				wg.Add(1)
				go func() { defer wg.Done(); sinkWords[g] += k.work(g) }()
			}
			wg.Wait()
			two += time.Since(start)
		}
		b.ReportMetric(2*float64(one)/float64(two), k.name)
	}
}

var (
	sinkWord  uint64
	sinkWords [2]uint64
)

// aluWork makes n rounds of eight independent additions.
func aluWork(n int) uint64 {
	var a, c, d, e, f, g, h, k uint64 = 1, 2, 3, 4, 5, 6, 7, 8
	for i := 0; i < n; i++ {
		a += c ^ 3
		c += d ^ 5
		d += e ^ 7
		e += f ^ 9
		f += g ^ 11
		g += h ^ 13
		h += k ^ 15
		k += a ^ 17
	}
	return a + c + d + e + f + g + h + k
}

// chainWork makes n dependent floating-point steps.
func chainWork(n int) uint64 {
	x := 1.0
	for i := 0; i < n; i++ {
		x = x*1.0000001 + 1e-9
	}
	return math.Float64bits(x)
}

// streamWork sums buf rounds times.
func streamWork(buf []uint64, rounds int) uint64 {
	var s uint64
	for range rounds {
		for _, v := range buf {
			s += v
		}
	}
	return s
}

// BenchmarkGoStart reports how long a goroutine started with a go
// statement takes to begin running while the goroutine that started it
// keeps its core busy and another core is idle: the wait each phase of a
// pass paid when it started its helpers anew (see pairs.Finder.parallel).
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
