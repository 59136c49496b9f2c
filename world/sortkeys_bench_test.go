package world

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// BenchmarkSortSparse backs sortSparse and sparseMin: keys of random pairs
// of handles of a world of 4,000,000 slots, about as many as a step of the
// uniform scene with one box in a hundred moved finds from 10,000 boxes
// (n=32 to n=64) to 4,000,000 (n=16384), sorted in sortSparse's buckets
// (bucketSparse, at every n), by sortKeys and by slices.Sort; ns/key is a
// key's share.
func BenchmarkSortSparse(b *testing.B) {
	const slots = 4000000
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{16, 32, 64, 256, 1024, 4096, 16384} {
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = key(makeHandle(int32(r.IntN(slots)), 1), makeHandle(int32(r.IntN(slots)), 1))
		}
		work, scratch := make([]uint64, n), make([]uint64, n)
		var counts []int32
		sorts := []struct {
			name string
			sort func()
		}{
			{"buckets", func() { work, scratch, counts = bucketSparse(work, scratch, counts, slots) }},
			{"radix", func() { work, scratch = sortKeys(work, scratch, slots) }},
			{"slices", func() { slices.Sort(work) }},
		}
		for _, s := range sorts {
			b.Run(fmt.Sprintf("sort=%s/n=%d", s.name, n), func(b *testing.B) {
				for b.Loop() {
					copy(work, keys)
					s.sort()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/key")
			})
		}
	}
}
