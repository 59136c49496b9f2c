package bench

import (
	"sync"
	"testing"
	"time"
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
