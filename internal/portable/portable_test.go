package portable_test

import (
	"bufio"
	"flag"
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/kernel"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/pairs"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

var update = flag.Bool("update", false, "rewrite testdata/portable.txt with this platform's hashes")

const goldenFile = "../../testdata/portable.txt"

// gen is splitmix64: integer operations only, so every platform draws the
// same numbers, and every float it makes is an integer scaled by a power of
// two, exact on every platform.
type gen struct{ s uint64 }

func (g *gen) next() uint64 {
	g.s += 0x9e3779b97f4a7c15
	z := g.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func (g *gen) intn(n int) int { return int(g.next() % uint64(n)) }

// coord is a multiple of 2⁻¹⁰ in [-16, 16).
func (g *gen) coord() float32 { return float32(int32(g.next()>>49)-1<<14) * 0x1p-10 }

// size is a multiple of 2⁻¹⁰ in [0, 8).
func (g *gen) size() float32 { return float32(g.next()>>51) * 0x1p-10 }

// angle is a multiple of 2⁻²⁰ in [-32, 32) radians, or now and then a
// large or special one.
func (g *gen) angle() float64 {
	switch g.intn(64) {
	case 2, 3, 4, 5, 6, 7, 8, 9:
		return g.hardAngle()
	case 0:
		return float64(int64(g.next()>>20)-1<<43) * 0x1p-20 // up to 2²³
	case 1:
		return []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 0x1p50, 0x1p-1074, math.Pi / 2}[g.intn(8)]
	}
	return float64(int64(g.next()>>38)-1<<25) * 0x1p-20
}

// hardAngle is an angle whose sine, or cosine, lies within about 10⁻¹⁷ of
// the midpoint between two float32 values, where a last-bit difference in
// the computation (a fused multiply-add in math.Sincos on some platforms)
// decides which way it rounds. The midpoint m is in [2⁻⁶, 2⁻²); the angle
// is asin m from its series, summed in float64 with every product rounded,
// or π/2 minus that for the cosine, turned by a multiple of π/2 now and
// then.
func (g *gen) hardAngle() float64 {
	bits := uint32(121+g.intn(4))<<23 | uint32(g.next()>>41)
	v := math.Float32frombits(bits)
	ulp := float64(math.Float32frombits(bits+1) - v)
	m := float64(v) + ulp/2
	m2 := float64(m * m)
	// asin m = Σ c_n m^(2n+1), c_0 = 1, c_(n+1) = c_n (2n+1)² / ((2n+2)(2n+3)):
	// 16 terms leave less than 2⁻⁶⁰ for m < 1/4.
	sum, term, c := 0.0, m, 1.0
	for n := range 16 {
		sum += float64(c * term)
		term = float64(term * m2)
		c = float64(c*float64((2*n+1)*(2*n+1))) / float64((2*n+2)*(2*n+3))
	}
	const halfPi = 0x1.921fb54442d18p+00
	if g.intn(2) == 0 {
		sum = halfPi - sum
	}
	return sum + float64(float64(g.intn(8)-4)*halfPi)
}

// hostile is one of the values that break naive code, by bit pattern.
func (g *gen) hostile() float32 {
	bits := []uint32{
		0x7fc00000, 0x7fc00001, 0xffc00000, 0x7f800001, // NaNs, one signalling
		0x7f800000, 0xff800000, // infinities
		0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00400000, // zeros, subnormals
		0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x1e3ce508, 0x60ad78ec,
	}
	return math.Float32frombits(bits[g.intn(len(bits))])
}

// box is a box from New, now and then with one field hostile or an axis
// that is not unit length.
func (g *gen) box() obb.Box {
	b := obb.New(obb.Vec2{X: g.coord(), Y: g.coord()}, g.size(), g.size(), g.angle())
	switch g.intn(40) {
	case 0:
		f := [6]*float32{&b.Center.X, &b.Center.Y, &b.Axis.X, &b.Axis.Y, &b.Half.X, &b.Half.Y}
		*f[g.intn(6)] = g.hostile()
	case 1:
		b.Axis = obb.Vec2{X: g.coord(), Y: g.coord()}
	case 2:
		b.Half.X = -b.Half.X
	}
	return b
}

func (g *gen) set(n int) *soa.Boxes {
	var b soa.Boxes
	for range n {
		b.Append(g.box())
	}
	return &b
}

// hasher hashes answers: float bits with every NaN made one NaN (platforms
// may propagate NaN payloads differently, and a NaN's payload is no
// answer), signed zeros kept.
type hasher struct{ hash.Hash64 }

func (h hasher) u64(v uint64) {
	var b [8]byte
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	h.Write(b[:])
}

func (h hasher) f32(v float32) {
	if v != v {
		v = float32(math.NaN())
	}
	h.u64(uint64(math.Float32bits(v)))
}

func (h hasher) f64(v float64) {
	if v != v {
		v = math.NaN()
	}
	h.u64(math.Float64bits(v))
}

func (h hasher) bool(v bool) {
	if v {
		h.u64(1)
	} else {
		h.u64(0)
	}
}

func (h hasher) vec(v obb.Vec2) { h.f32(v.X); h.f32(v.Y) }

func (h hasher) box(b obb.Box) { h.vec(b.Center); h.vec(b.Axis); h.vec(b.Half) }

// sections are the parts of the library the test hashes, each from its own
// seed, so that a difference names the part it is in.
var sections = []struct {
	name string
	run  func(g *gen, h hasher)
}{
	{"constructors", constructors},
	{"geometry", geometry},
	{"overlaps", overlaps},
	{"kernel", kernels},
	{"batch", batches},
	{"passes", passes},
	{"contacts", contacts},
	{"world", worlds},
}

// constructors: New, FromHalf, WithAngle, Rotated, Angle, FromMinMax and
// FromCorners.
func constructors(g *gen, h hasher) {
	for range 300000 {
		a := g.angle()
		b := obb.New(obb.Vec2{X: g.coord(), Y: g.coord()}, g.size(), g.size(), a)
		h.box(b)
		h.f64(b.Angle())
		h.box(obb.FromHalf(b.Center, b.Half, g.angle()))
		h.box(b.WithAngle(g.angle()))
		h.box(b.Rotated(g.angle()))
		h.box(obb.FromMinMax(obb.Vec2{X: g.coord(), Y: g.coord()}, obb.Vec2{X: g.coord(), Y: g.coord()}))
		c, err := obb.FromCorners(b.Corners())
		h.box(c)
		h.bool(err == nil)
	}
}

// geometry: Corners, Bounds, ContainsPoint, OverlapsAABB, Valid.
func geometry(g *gen, h hasher) {
	for range 300000 {
		b := g.box()
		for _, c := range b.Corners() {
			h.vec(c)
		}
		lo, hi := b.Bounds()
		h.vec(lo)
		h.vec(hi)
		h.bool(b.ContainsPoint(obb.Vec2{X: g.coord(), Y: g.coord()}))
		h.bool(b.OverlapsAABB(obb.Vec2{X: g.coord(), Y: g.coord()}, obb.Vec2{X: g.coord(), Y: g.coord()}))
		h.bool(b.Valid())
	}
}

// overlaps: the scalar test on two million pairs.
func overlaps(g *gen, h hasher) {
	for range 2000000 {
		h.bool(g.box().Overlaps(g.box()))
	}
}

// kernels: kernel.Overlaps and AppendOverlapping on sets of every size up
// to a few groups and some larger.
func kernels(g *gen, h hasher) {
	for round := range 600 {
		n := round % 150
		if round%50 == 49 {
			n = 2000
		}
		b := g.set(n)
		q := kernel.NewQuery(g.box())
		out := make([]uint64, kernel.Words(n))
		kernel.Overlaps(&q, b, out)
		for _, w := range out {
			h.u64(w)
		}
		for _, i := range kernel.AppendOverlapping(nil, &q, b) {
			h.u64(uint64(i))
		}
	}
}

// batches: the kernels pairs drives, on made-up runs, sweeps and pair
// lists.
func batches(g *gen, h hasher) {
	for range 300 {
		n := 1 + g.intn(300)
		b := g.set(n)
		reach := make([]float32, n)
		for i := range reach {
			reach[i] = g.size()
			if g.intn(30) == 0 {
				reach[i] = g.hostile()
			}
		}
		var runs []int32
		for range 20 {
			lo := g.intn(n)
			runs = append(runs, int32(g.intn(n)), int32(lo), int32(lo+g.intn(n-lo+1)))
		}
		words := 0
		for k := 0; k < len(runs); k += 3 {
			words += batch.Words(int(runs[k+2] - runs[k+1]))
		}
		out := make([]uint64, words)
		batch.RunsPruned(b, b, reach, reach, runs, out)
		for _, w := range out {
			h.u64(w)
		}

		lo, hi := make([]float32, n), make([]float32, n)
		for i := range lo {
			lo[i] = g.coord()
		}
		slices.Sort(lo)
		for i := range hi {
			hi[i] = lo[i] + g.size()
		}
		hits := make([]batch.Hit, batch.SweepMinOut+g.intn(40))
		st := batch.SweepState{Q: 0, C: 1}
		for st.Q < n {
			k := batch.Sweep(b, lo, hi, reach, &st, n, hits)
			for _, x := range hits[:k] {
				h.u64(uint64(x.Q)<<32 | uint64(x.C))
			}
		}
		h.u64(uint64(st.Candidates))

		ij := make([]int32, 2*g.intn(100))
		for i := range ij {
			ij[i] = int32(g.intn(n))
		}
		bits := make([]uint64, batch.Words(len(ij)/2))
		batch.Pairs(b, b, ij, bits)
		for _, w := range bits {
			h.u64(w)
		}
	}
}

// passes: Finder.All, Between and Filter with one and two workers.
func passes(g *gen, h hasher) {
	for round := range 6 {
		b, other := g.set(3000+round*500), g.set(1000)
		for _, workers := range []int{1, 2} {
			f := pairs.Finder{Workers: workers}
			all := f.All(nil, b)
			between := f.Between(nil, other, b)
			filtered, err := f.Filter(nil, b, b, []pairs.Pair{{I: 0, J: 1}, {I: 2, J: 2}, {I: 5, J: 9}})
			if err != nil {
				panic(err)
			}
			for _, list := range [][]pairs.Pair{all, between, filtered} {
				h.u64(uint64(len(list)))
				for _, p := range list {
					h.u64(uint64(p.I)<<32 | uint64(p.J))
				}
			}
		}
	}
}

// contacts: Collide on pairs placed within reach of each other, with and
// without a margin, and RayCast.
func contacts(g *gen, h hasher) {
	for range 500000 {
		a, b := g.box(), g.box()
		b.Center = obb.Vec2{X: a.Center.X + g.coord()*0x1p-2, Y: a.Center.Y + g.coord()*0x1p-2}
		for _, margin := range []float32{0, 0.5} {
			m := a.Collide(b, margin)
			h.vec(m.Normal)
			h.u64(uint64(m.Count))
			for k := range m.Count {
				p := m.Points[k]
				h.vec(p.Point)
				h.f32(p.Separation)
				h.u64(uint64(p.ID))
			}
		}
		t, n, hit := a.RayCast(obb.Vec2{X: g.coord(), Y: g.coord()}, obb.Vec2{X: g.coord(), Y: g.coord()})
		h.f32(t)
		h.vec(n)
		h.bool(hit)
	}
}

// worlds: a World's handles and answers through inserts, removals, moves,
// queries, pair steps and ray casts, with one and two workers.
func worlds(g *gen, h hasher) {
	for round := range 4 {
		w := world.New()
		w.Workers = 1 + round%2
		hs := w.InsertBoxes(nil, g.set(3000), world.Dynamic, world.DefaultFilter)
		for step := range 3 {
			for i := step; i < len(hs); i += 7 {
				if w.Contains(hs[i]) {
					w.Remove(hs[i])
				}
			}
			for i := step; i < len(hs); i += 3 {
				if w.Contains(hs[i]) {
					w.Move(hs[i], g.box())
				}
			}
			for range 100 {
				h.u64(uint64(w.Insert(g.box(), world.Kind(g.intn(2)), world.DefaultFilter)))
			}
			for _, p := range w.Pairs(nil) {
				h.u64(uint64(p.A)<<32 | uint64(p.B))
			}
			began, ended := w.Events(nil, nil)
			h.u64(uint64(len(began))<<32 | uint64(len(ended)))
			for range 100 {
				for _, x := range w.Query(nil, g.box(), ^uint32(0)) {
					h.u64(uint64(x))
				}
			}
			for _, r := range w.RayCastAll(nil, obb.Vec2{X: g.coord(), Y: g.coord()}, obb.Vec2{X: g.coord(), Y: g.coord()}, ^uint32(0)) {
				h.u64(uint64(r.Handle))
				h.f32(r.T)
				h.vec(r.Normal)
			}
		}
	}
}

// TestPortableHashes runs every section with every implementation and
// compares each hash with the committed one.
func TestPortableHashes(t *testing.T) {
	want := map[string]string{}
	if !*update {
		f, err := os.Open(goldenFile)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		s := bufio.NewScanner(f)
		for s.Scan() {
			if line := s.Text(); line != "" && !strings.HasPrefix(line, "#") {
				name, sum, _ := strings.Cut(line, " ")
				want[name] = sum
			}
		}
	}
	got := map[string]string{}
	testkit.EachImpl(func(impl string) {
		for i, sec := range sections {
			h := hasher{fnv.New64a()}
			sec.run(&gen{s: uint64(i + 1)}, h)
			sum := fmt.Sprintf("%016x", h.Sum64())
			if prev, ok := got[sec.name]; ok && prev != sum {
				t.Errorf("%s with %s: %s, with the implementations before it %s", sec.name, impl, sum, prev)
			}
			got[sec.name] = sum
			if !*update && want[sec.name] != sum {
				t.Errorf("%s with %s: hash %s, committed %s", sec.name, impl, sum, want[sec.name])
			}
		}
	})
	if *update {
		var b strings.Builder
		b.WriteString("# Hashes of obb2d's answers to the inputs of internal/portable, the same on\n# every platform. Written by go test ./internal/portable -update.\n")
		for _, sec := range sections {
			fmt.Fprintf(&b, "%s %s\n", sec.name, got[sec.name])
		}
		if err := os.WriteFile(goldenFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
