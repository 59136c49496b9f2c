package pairs

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFirstAboveMatchesLinearScan checks the bucket-bracketed search on
// sorted starts with duplicates, zeros of both signs, clusters, one value,
// huge spans and values outside the range, against a plain scan.
func TestFirstAboveMatchesLinearScan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	shapes := map[string]func(m int) []float32{
		"uniform": func(m int) []float32 {
			v := make([]float32, m)
			for i := range v {
				v[i] = float32(r.Float64()*200 - 100)
			}
			return v
		},
		"duplicates": func(m int) []float32 {
			v := make([]float32, m)
			for i := range v {
				v[i] = float32(r.IntN(5))
			}
			return v
		},
		"signed-zeros": func(m int) []float32 {
			v := make([]float32, m)
			for i := range v {
				v[i] = []float32{float32(math.Copysign(0, -1)), 0, -1, 1}[r.IntN(4)]
			}
			return v
		},
		"clustered": func(m int) []float32 {
			v := make([]float32, m)
			for i := range v {
				v[i] = float32(r.IntN(3)*1e6) + float32(r.Float64())
			}
			return v
		},
		"huge-span": func(m int) []float32 {
			v := make([]float32, m)
			for i := range v {
				v[i] = float32(math.Ldexp(r.Float64()*2-1, r.IntN(254)-126))
			}
			v[0], v[len(v)-1] = -math.MaxFloat32, math.MaxFloat32
			return v
		},
	}
	for name, gen := range shapes {
		for _, m := range []int{1, 2, 3, 7, 64, 1000} {
			lo := gen(m)
			slices.Sort(lo)
			var s sorted
			for i, v := range lo {
				s.start = append(s.start, sortable(v))
				s.keys = append(s.keys, uint64(sortable(v))<<32|uint64(i))
			}
			s.buildBuckets()
			probes := append([]float32{float32(math.Inf(-1)), float32(math.Inf(1)), -math.MaxFloat32, math.MaxFloat32, 0, float32(math.Copysign(0, -1))}, lo...)
			for i := 0; i < 200; i++ {
				probes = append(probes, lo[r.IntN(m)]+float32(r.NormFloat64()))
			}
			for _, v := range probes {
				for _, orEqual := range []bool{false, true} {
					from := r.IntN(m + 1)
					want := from
					for want < m && !(lo[want] > v || (orEqual && lo[want] == v)) {
						want++
					}
					if got := s.firstAbove(from, v, orEqual); got != want {
						t.Fatalf("%s m=%d: firstAbove(from %d, %g, orEqual %v) = %d, want %d", name, m, from, v, orEqual, got, want)
					}
				}
			}
		}
	}
}
