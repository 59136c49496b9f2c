// Package room evens out the scratch buffers of parallel workers. Which
// worker takes which share of a pass changes from pass to pass, so a
// worker's buffer that only grows when it needs to grows again, in a pass
// like the ones before, whenever the worker is handed more than it ever
// held: a steady state that allocates now and then. Giving every worker's
// buffer the capacity of the roomiest after each pass ends that.
package room

// EvenOut gives the buffer that buf returns of every worker of ws the
// capacity of the roomiest worker's, as a new empty slice where it had
// less. The contents of those buffers are dropped.
func EvenOut[W, T any](ws []W, buf func(*W) *[]T) {
	most := 0
	for i := range ws {
		most = max(most, cap(*buf(&ws[i])))
	}
	for i := range ws {
		if b := buf(&ws[i]); cap(*b) < most {
			*b = make([]T, 0, most)
		}
	}
}
