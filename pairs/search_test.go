package pairs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/internal/bound"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
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
			bucketsByScan(&s)
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

// TestGroupSortBuildsTheBucketIndex checks what build leaves in a sorted
// set, for one and two workers: starts in order (in bucket order, with lo
// as sortGroup gives it, for All's sweep), every valid box once, and the
// bucket index the groups fill in parallel equal to the one bucketsByScan
// computes from the sorted starts with a plain scan.
func TestGroupSortBuildsTheBucketIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for _, n := range []int{0, 1, 5, 511, 512, 513, 3000, 20000} {
		for _, layout := range []string{"uniform", "clustered", "identical", "invalid", "irregular"} {
			var b soa.Boxes
			scene.Uniform(r, n, &b)
			for i := 0; i < n; i++ {
				switch layout {
				case "clustered":
					b.CX[i] = float32(r.IntN(4)) * 1e4
				case "identical":
					b.Set(i, b.At(0))
				case "invalid":
					if i%7 == 0 {
						b.HX[i] = float32(math.NaN())
					}
				case "irregular": // finite, but not valid: an axis of length 2
					if i%5 == 0 {
						b.UX[i], b.UY[i] = 2*b.UX[i], 2*b.UY[i]
					}
				}
			}
			for _, workers := range []int{1, 2} {
				f := Finder{Workers: workers}
				f.sortSet(&b, false, true)
				if err := checkSweepOrder(&f.a); err != nil {
					t.Fatalf("%s n=%d workers=%d, All's order: %v", layout, n, workers, err)
				}
				f.sortSet(&b, false, false)
				s := &f.a
				nan := 0
				for i := 0; i < n; i++ {
					if b.HX[i] != b.HX[i] {
						nan++
					}
				}
				if len(s.start)+len(s.invalid)+nan != n {
					t.Fatalf("%s n=%d: %d sorted, %d invalid and %d NaN boxes", layout, n, len(s.start), len(s.invalid), nan)
				}
				seen := make([]bool, n)
				for p, i := range s.index {
					if seen[i] {
						t.Fatalf("%s n=%d: box %d sorted twice", layout, n, i)
					}
					seen[i] = true
					if p > 0 && (s.start[p-1] > s.start[p] || (s.start[p-1] == s.start[p] && s.index[p-1] > i)) {
						t.Fatalf("%s n=%d workers=%d: positions %d, %d out of order", layout, n, workers, p-1, p)
					}
				}
				parallel := slices.Clone(s.bucket)
				bucketsByScan(s)
				if !slices.Equal(parallel, s.bucket) {
					t.Fatalf("%s n=%d workers=%d: bucket index differs from the plain scan", layout, n, workers)
				}
				for _, useY := range []bool{false, true} {
					for _, bands := range []int{1, 3} {
						f.sortBands(&b, useY, true, bands)
						if err := checkRecords(&f.a, &b, useY); err != nil {
							t.Fatalf("%s n=%d workers=%d useY=%v bands=%d: %v", layout, n, workers, useY, bands, err)
						}
					}
				}
			}
		}
	}
}

// checkRecords checks that each position of a sorted set holds the box
// its index names (complemented in a band after the box's first), with x
// and y swapped when the set is swept along y, and the end of that box's
// padded interval along the sweep, bound.Interval's for a valid box and
// bound.Irregular's for another.
func checkRecords(s *sorted, b *soa.Boxes, useY bool) error {
	for p, i := range s.index {
		if i < 0 {
			i = ^i
		}
		want := b.At(int(i))
		if useY {
			want.Center.X, want.Center.Y = want.Center.Y, want.Center.X
			want.Axis.X, want.Axis.Y = want.Axis.Y, want.Axis.X
		}
		got := obb.Box{Center: obb.Vec2{X: s.boxes.CX[p], Y: s.boxes.CY[p]},
			Axis: obb.Vec2{X: s.boxes.UX[p], Y: s.boxes.UY[p]}, Half: obb.Vec2{X: s.boxes.HX[p], Y: s.boxes.HY[p]}}
		if got != want {
			return fmt.Errorf("position %d holds %v, want box %d: %v", p, got, i, want)
		}
		_, end := bound.Irregular(want.Center.X, want.Half.X, want.Half.Y, want.Axis.X, want.Axis.Y)
		if want.Valid() {
			_, end = bound.Interval(float64(want.Center.X), float64(want.Half.X), float64(want.Half.Y), float64(want.Axis.X), float64(want.Axis.Y))
		}
		if math.Float32bits(s.hi[p]) != math.Float32bits(end) {
			return fmt.Errorf("position %d (box %d) ends at %v, want %v", p, i, s.hi[p], end)
		}
	}
	return nil
}

// checkSweepOrder checks the order of a set sorted for All's sweep in one
// band (sortGroup): the starts in bucket order, the boxes of a bucket in
// index order, or in order of start and then index in a bucket of more
// than unsortedMax boxes, lo never decreasing, and lo at each position the
// least start from there to the end of its group, as a float32.
func checkSweepOrder(s *sorted) error {
	bucket := func(p int) int { return s.bucketOf(unsortable(s.start[p])) }
	for first := 0; first < len(s.start); {
		end := first + 1
		for end < len(s.start) && bucket(end) == bucket(first) {
			end++
		}
		if end < len(s.start) && bucket(end) < bucket(first) {
			return fmt.Errorf("position %d is in bucket %d, after bucket %d", end, bucket(end), bucket(first))
		}
		for p := first + 1; p < end; p++ {
			inOrder := s.index[p-1] < s.index[p]
			if end-first > unsortedMax {
				inOrder = s.start[p-1] < s.start[p] || s.start[p-1] == s.start[p] && inOrder
			}
			if !inOrder {
				return fmt.Errorf("positions %d and %d of bucket %d out of order: boxes %d and %d", p-1, p, bucket(p), s.index[p-1], s.index[p])
			}
		}
		first = end
	}
	for p := 1; p < len(s.lo); p++ {
		if s.lo[p-1] > s.lo[p] {
			return fmt.Errorf("lo decreases from %v to %v at position %d", s.lo[p-1], s.lo[p], p)
		}
	}
	for g := range s.groups {
		least := uint32(math.MaxUint32)
		for p := int(s.groupStart[g+1]) - 1; p >= int(s.groupStart[g]); p-- {
			least = min(least, s.start[p])
			if got, want := s.lo[p], unsortable(least); math.Float32bits(got) != math.Float32bits(want) {
				return fmt.Errorf("position %d's lo is %v, want %v", p, got, want)
			}
		}
	}
	return nil
}

// bucketsByScan sets s's bucket index from its sorted starts with a plain
// scan, the definition of the index: entry k is the first position whose
// start maps to bucket k or later.
func bucketsByScan(s *sorted) {
	m := len(s.start)
	first, last := uint32(0), uint32(0)
	if m > 0 {
		first, last = s.start[0], s.start[m-1]
	}
	s.bands = 1
	s.initBuckets(m, first, last)
	p := 0
	for k := range s.bucket {
		for p < m && s.bucketOf(unsortable(s.start[p])) < k {
			p++
		}
		s.bucket[k] = int32(p)
	}
}

// TestSweepAxisFollowsTheSpread checks the axis choice on sets shorter
// and longer than its sample: centers spread along y pick y, along x pick x,
// NaN or infinite centers are left out, and a second, short set spread the
// other way weighs as little as its size.
func TestSweepAxisFollowsTheSpread(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	line := func(n int, alongY bool) *soa.Boxes {
		var b soa.Boxes
		for i := 0; i < n; i++ {
			long, short := float32(r.Float64()*1000), float32(r.Float64()*10)
			c := obb.Vec2{X: long, Y: short}
			if alongY {
				c = obb.Vec2{X: short, Y: long}
			}
			b.Append(obb.New(c, 1, 1, 0))
		}
		return &b
	}
	for _, n := range []int{1, axisSamples - 1, 5*axisSamples + 3} {
		for _, alongY := range []bool{false, true} {
			b := line(n, alongY)
			if n > 1 {
				// A NaN or infinite center must not count.
				b.CX[0], b.CY[axisSamples-2] = float32(math.NaN()), float32(math.Inf(1))
			}
			if got := sweepAxis(b); got != (alongY && n > 1) {
				t.Errorf("n=%d spread along y=%v: sweepAxis says y=%v", n, alongY, got)
			}
			if n > axisSamples {
				// 8,000 boxes spread the other way, all in the sample,
				// against 20,483 of which the sample keeps 4,097 with
				// weight 5: the larger set wins.
				if got := sweepAxis(b, line(8000, !alongY)); got != alongY {
					t.Errorf("n=%d with a second set: sweepAxis says y=%v, want %v", n, got, alongY)
				}
				if got := sweepAxis(line(8000, !alongY), b); got != alongY {
					t.Errorf("n=%d as the second set: sweepAxis says y=%v, want %v", n, got, alongY)
				}
			}
		}
	}
}
