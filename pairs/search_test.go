package pairs

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFirstAboveMatchesLinearScan checks the bucket-started galloping search
// on sorted starts with duplicates, clusters, one value, huge spans and
// values outside the range, against a plain scan.
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
			var s sorted
			s.lo = gen(m)
			slices.Sort(s.lo)
			s.buildBuckets()
			probes := append([]float32{float32(math.Inf(-1)), float32(math.Inf(1)), -math.MaxFloat32, math.MaxFloat32}, s.lo...)
			for i := 0; i < 200; i++ {
				probes = append(probes, s.lo[r.IntN(m)]+float32(r.NormFloat64()))
			}
			for _, v := range probes {
				for _, orEqual := range []bool{false, true} {
					from := r.IntN(m + 1)
					want := from
					for want < m && !(s.lo[want] > v || (orEqual && s.lo[want] == v)) {
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
