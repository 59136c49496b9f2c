package batch_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// manifoldBits is a manifold's fields as bits, so that two manifolds
// compare bit for bit (NaNs and signed zeros included), as the kernels
// promise.
func manifoldBits(m *obb.Manifold) [12]uint64 {
	b := func(v float32) uint64 { return uint64(math.Float32bits(v)) }
	p, q := m.Points[0], m.Points[1]
	return [12]uint64{b(m.Normal.X), b(m.Normal.Y), uint64(m.Count),
		b(p.Point.X), b(p.Point.Y), b(p.Separation), uint64(p.ID),
		b(q.Point.X), b(q.Point.Y), b(q.Separation), uint64(q.ID)}
}

// TestManifoldLayout checks the field offsets the collide kernels write.
func TestManifoldLayout(t *testing.T) {
	var m obb.Manifold
	got := [...]uintptr{unsafe.Sizeof(m), unsafe.Offsetof(m.Count), unsafe.Offsetof(m.Points),
		unsafe.Sizeof(m.Points[0]), unsafe.Offsetof(m.Points[0].Separation), unsafe.Offsetof(m.Points[0].ID)}
	if got != [...]uintptr{48, 8, 16, 16, 8, 12} && unsafe.Sizeof(0) == 8 {
		t.Fatalf("obb.Manifold layout %v: the collide kernels write size 48, Count at 8, Points at 16, 16 bytes a point, Separation at 8, ID at 12", got)
	}
}

// pairColumns lays out pairs of boxes as the columns CollideColumns takes.
func pairColumns(ps []scene.Pair) []float32 {
	cols := make([]float32, batch.PairColumns*len(ps))
	for k := range ps {
		batch.SetPair(cols, len(ps), k, &ps[k].A, &ps[k].B)
	}
	return cols
}

// contactPairs makes n pairs from every generator of the oracle (touching,
// nearly touching, turned, corner to corner, containment, tiny, far...),
// resting stacks, and, with hostile, a hostile value in a third of them.
func contactPairs(r *rand.Rand, n int, hostile bool) []scene.Pair {
	var stack soa.Boxes
	scene.Stacks(r, 64, &stack)
	ps := make([]scene.Pair, n)
	for k := range ps {
		if r.IntN(4) == 0 {
			i := 1 + r.IntN(stack.Len()-1)
			ps[k] = scene.Pair{A: stack.At(i), B: stack.At(i - 1)}
			if i%20 == 1 {
				ps[k].B = stack.At(0)
			}
		} else {
			ps[k] = scene.Generators[r.IntN(len(scene.Generators))].Make(r)
		}
		if r.IntN(2) == 0 {
			ps[k].A, ps[k].B = ps[k].B, ps[k].A
		}
		if hostile && r.IntN(3) == 0 {
			f := [...]*float32{&ps[k].A.Center.X, &ps[k].A.Axis.Y, &ps[k].A.Half.X, &ps[k].B.Center.Y, &ps[k].B.Axis.X, &ps[k].B.Half.Y}
			*f[r.IntN(len(f))] = scene.Hostile[r.IntN(len(scene.Hostile))]
		}
	}
	return ps
}

var collideMargins = []float32{0, 0.01, 0.5, -0.01, float32(math.Inf(1)), float32(math.NaN())}

// checkCollide fails the test unless out holds obb.Box.Collide's manifold
// of each pair, bit for bit.
func checkCollide(t *testing.T, what string, ps []scene.Pair, margin float32, out []obb.Manifold) {
	t.Helper()
	for k, p := range ps {
		want := p.A.Collide(p.B, margin)
		if manifoldBits(&out[k]) != manifoldBits(&want) {
			t.Fatalf("%s, margin %v, pair %d of %d (%+v, %+v):\n got %+v\nwant %+v", what, margin, k, len(ps), p.A, p.B, out[k], want)
		}
	}
}

// TestCollideColumns checks every implementation against obb.Box.Collide,
// bit for bit, on every pair count up to three AVX-512 groups past a
// chunk, on generated pairs with and without hostile values, and every
// margin of collideMargins.
func TestCollideColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	testkit.ForEachImpl(t, func(t *testing.T) {
		for n := 1; n <= 3*16+1; n++ {
			for _, hostile := range []bool{false, true} {
				ps := contactPairs(r, n, hostile)
				cols := pairColumns(ps)
				for _, margin := range collideMargins {
					out := make([]obb.Manifold, n+1)
					out[n].Count = 7
					batch.CollideColumns(cols, n, margin, out)
					checkCollide(t, fmt.Sprintf("%d pairs, hostile %v", n, hostile), ps, margin, out)
					if out[n].Count != 7 {
						t.Fatalf("%d pairs: out[%d] written", n, n)
					}
				}
			}
		}
		ps := contactPairs(r, 20000, true)
		out := make([]obb.Manifold, len(ps))
		for _, margin := range collideMargins[:3] {
			batch.CollideColumns(pairColumns(ps), len(ps), margin, out)
			checkCollide(t, "20000 pairs", ps, margin, out)
		}
	})
}

// TestCollidePairList checks Collide and CollideUnchecked on index pairs of
// two sets, with more pairs than one chunk, and their panics.
func TestCollidePairList(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	a, b := testkit.HostileSet(r, 50), testkit.RandomSet(r, 70)
	testkit.ForEachImpl(t, func(t *testing.T) {
		for _, n := range []int{0, 1, 63, 64, 65, 200} {
			ij := randomPairs(r, n, a.Len(), b.Len())
			ps := make([]scene.Pair, n)
			for k := range ps {
				ps[k] = scene.Pair{A: a.At(int(ij[2*k])), B: b.At(int(ij[2*k+1]))}
			}
			out := make([]obb.Manifold, n)
			batch.Collide(a, b, ij, 0.1, out)
			checkCollide(t, fmt.Sprintf("%d index pairs", n), ps, 0.1, out)
			clear(out)
			batch.CollideUnchecked(a, b, ij, 0.1, out)
			checkCollide(t, fmt.Sprintf("%d index pairs, unchecked", n), ps, 0.1, out)
		}
	})
	out := make([]obb.Manifold, 2)
	testkit.MustPanic(t, "odd length", func() { batch.Collide(a, b, []int32{0}, 0, out) })
	testkit.MustPanic(t, "outside [0, 70)", func() { batch.Collide(a, b, []int32{0, 70}, 0, out) })
	testkit.MustPanic(t, "room for 2 manifolds, need 3", func() { batch.Collide(a, b, make([]int32, 6), 0, out) })
	testkit.MustPanic(t, "3 indices and room for 2 manifolds", func() { batch.CollideUnchecked(a, b, make([]int32, 3), 0, out) })
	testkit.MustPanic(t, "6 indices and room for 2 manifolds", func() { batch.CollideUnchecked(a, b, make([]int32, 6), 0, out) })
	testkit.MustPanic(t, "need 36", func() { batch.CollideColumns(make([]float32, 35), 3, 0, make([]obb.Manifold, 3)) })
	testkit.MustPanic(t, "room for 2 manifolds, need 3", func() { batch.CollideColumns(make([]float32, 36), 3, 0, out) })
}

// TestCollideInfinities gives pairs an infinite half extent or center
// coordinate, with an infinite margin, so that their manifolds hold NaNs
// made by invalid operations (an infinity times 0, opposite infinities
// added): every implementation must write the same NaNs as Collide, sign
// included.
func TestCollideInfinities(t *testing.T) {
	r := rand.New(rand.NewPCG(37, 38))
	inf := float32(math.Inf(1))
	ps := contactPairs(r, 20000, false)
	for k := range ps {
		f := [...]*float32{&ps[k].A.Half.X, &ps[k].A.Half.Y, &ps[k].B.Half.X, &ps[k].B.Half.Y, &ps[k].A.Center.X, &ps[k].B.Center.Y}
		*f[r.IntN(len(f))] = [...]float32{inf, -inf}[r.IntN(2)]
	}
	nans := 0
	for _, p := range ps {
		m := p.A.Collide(p.B, inf)
		for _, q := range m.Points[:max(m.Count, 0)] {
			if q.Point.X != q.Point.X || q.Point.Y != q.Point.Y {
				nans++
				break
			}
		}
	}
	if nans < 10 {
		t.Fatalf("only %d manifolds have a NaN point: the test would prove nothing", nans)
	}
	testkit.ForEachImpl(t, func(t *testing.T) {
		out := make([]obb.Manifold, len(ps))
		batch.CollideColumns(pairColumns(ps), len(ps), inf, out)
		checkCollide(t, "infinite fields", ps, inf, out)
	})
}

// FuzzCollide compares every implementation's CollideColumns and Collide
// (the pair-list kernels) with obb.Box.Collide, bit for bit, on a pair
// whose twelve fields and margin the fuzzer chooses, placed in every lane
// of a group among generated pairs, and with a and b swapped.
func FuzzCollide(f *testing.F) {
	one, half := math.Float32bits(1), math.Float32bits(0.5)
	f.Add(uint32(0), uint32(0), one, uint32(0), one, half, half, uint32(0), one, uint32(0), one, half, uint32(0), uint8(5))
	f.Add(one, uint32(0), one, uint32(0), one, one, math.Float32bits(2.5), math.Float32bits(0.5), uint32(0), one, one, one, math.Float32bits(0.25), uint8(17))
	f.Add(uint32(0), uint32(0), one, uint32(0), math.Float32bits(float32(math.Inf(-1))), one, half, uint32(0), one, uint32(0), one, one, math.Float32bits(float32(math.Inf(1))), uint8(1))
	f.Fuzz(func(t *testing.T, acx, acy, aux, auy, ahx, ahy, bcx, bcy, bux, buy, bhx, bhy, margin uint32, seed uint8) {
		fl := math.Float32frombits
		a := obb.Box{Center: obb.Vec2{X: fl(acx), Y: fl(acy)}, Axis: obb.Vec2{X: fl(aux), Y: fl(auy)}, Half: obb.Vec2{X: fl(ahx), Y: fl(ahy)}}
		b := obb.Box{Center: obb.Vec2{X: fl(bcx), Y: fl(bcy)}, Axis: obb.Vec2{X: fl(bux), Y: fl(buy)}, Half: obb.Vec2{X: fl(bhx), Y: fl(bhy)}}
		r := rand.New(rand.NewPCG(uint64(seed), 43))
		ps := contactPairs(r, 17+int(seed%16), true)
		for k := range ps {
			if k%3 == int(seed)%3 {
				ps[k] = scene.Pair{A: a, B: b}
			} else if k%3 == (int(seed)+1)%3 {
				ps[k] = scene.Pair{A: b, B: a}
			}
		}
		cols := pairColumns(ps)
		var as, bs soa.Boxes
		ij := make([]int32, 0, 2*len(ps))
		for k, p := range ps {
			as.Append(p.A)
			bs.Append(p.B)
			ij = append(ij, int32(k), int32(k))
		}
		testkit.EachImpl(func(string) {
			out := make([]obb.Manifold, len(ps))
			batch.CollideColumns(cols, len(ps), fl(margin), out)
			checkCollide(t, batch.Name()+", columns", ps, fl(margin), out)
			clear(out)
			batch.Collide(&as, &bs, ij, fl(margin), out)
			checkCollide(t, batch.Name()+", pair list", ps, fl(margin), out)
		})
	})
}
