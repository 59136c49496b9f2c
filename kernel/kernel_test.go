package kernel

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// testLengths is every length up to three groups of the widest kernel,
// unrolled, every length around where the assembly's prefetching loop
// starts to run (512 bytes ahead: 128 boxes plus a line, 16 boxes), plus
// sizes that span many bitset words.
func testLengths() []int {
	var ns []int
	for n := 0; n <= 3*16*2+2; n++ {
		ns = append(ns, n)
	}
	for n := 127; n <= 16+128+16+2; n++ {
		ns = append(ns, n)
	}
	return append(ns, 1024, 4096, 4099)
}

// checkBits runs Overlaps with sentinels around the output and compares with
// want, bit for bit.
func checkBits(t *testing.T, q *Query, b *soa.Boxes, want []uint64) {
	t.Helper()
	n := b.Len()
	buf := make([]uint64, Words(n)+2)
	for i := range buf {
		buf[i] = testkit.Sentinel
	}
	Overlaps(q, b, buf[:Words(n)])
	if buf[Words(n)] != testkit.Sentinel || buf[Words(n)+1] != testkit.Sentinel {
		t.Fatalf("n=%d: wrote past the bitset's %d words", n, Words(n))
	}
	for w := range want {
		if buf[w] != want[w] {
			diff := buf[w] ^ want[w]
			i := w*64 + bits.TrailingZeros64(diff)
			t.Fatalf("n=%d: word %d = %#x, want %#x; first differing box %d: %+v against query %+v",
				n, w, buf[w], want[w], i, b.At(i), q.Box())
		}
	}
	if n%64 != 0 && buf[n/64]>>(n%64) != 0 {
		t.Fatalf("n=%d: bits past the last box are set: %#x", n, buf[n/64])
	}
}

func TestKernelMatchesScalar(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for _, n := range testLengths() {
			b := testkit.RandomSet(r, n)
			qb := obb.New(obb.Vec2{}, float32(1+r.Float64()*20), float32(1+r.Float64()*20), r.Float64()*6)
			q := NewQuery(qb)
			want := testkit.ScalarBits(qb, b)
			checkBits(t, &q, b, want)
			ones := 0
			for _, w := range want {
				ones += bits.OnesCount64(w)
			}
			if n >= 64 && (ones == 0 || ones == n) {
				t.Fatalf("n=%d: %d of %d overlap: the scene does not test both answers", n, ones, n)
			}
		}
	})
}

func hostileQuery(r *rand.Rand) obb.Box {
	q := obb.New(obb.Vec2{}, 6, 3, r.Float64()*6)
	if r.IntN(2) == 0 {
		f := [6]*float32{&q.Center.X, &q.Center.Y, &q.Axis.X, &q.Axis.Y, &q.Half.X, &q.Half.Y}
		*f[r.IntN(6)] = scene.Hostile[r.IntN(len(scene.Hostile))]
	}
	return q
}

func TestKernelHostileValues(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		for round := 0; round < 200; round++ {
			n := r.IntN(200)
			b := testkit.HostileSet(r, n)
			qb := hostileQuery(r)
			q := NewQuery(qb)
			// The scalar test is the reference for every input; generic is
			// checked against it here too.
			checkBits(t, &q, b, testkit.ScalarBits(qb, b))
		}
	})
}

func TestKernelGolden(t *testing.T) {
	f, err := os.Open("../testdata/golden.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := scene.ReadGolden(f)
	if err != nil || len(cases) == 0 {
		t.Fatalf("golden cases: %v (%d)", err, len(cases))
	}
	testkit.ForEachImpl(t, func(t *testing.T) {
		for _, c := range cases {
			// Each box as the query against the other placed at every lane
			// position of a group, so every lane of the kernel sees it.
			for _, pair := range [2][2]obb.Box{{c.A, c.B}, {c.B, c.A}} {
				var b soa.Boxes
				for i := 0; i < 19; i++ {
					b.Append(pair[1])
				}
				q := NewQuery(pair[0])
				out := make([]uint64, 1)
				Overlaps(&q, &b, out)
				want := uint64(0)
				if c.Overlap {
					want = 1<<19 - 1
				}
				if out[0] != want {
					t.Errorf("%s: bits %#x, want %#x", c.Name, out[0], want)
				}
			}
		}
	})
}

func TestAppendOverlapping(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		for _, n := range []int{0, 1, 7, 63, 64, 65, 511, 512, 513, 1500} {
			b := testkit.RandomSet(r, n)
			qb := obb.New(obb.Vec2{}, 10, 4, 0.4)
			q := NewQuery(qb)
			prefix := []int32{-7}
			got := AppendOverlapping(prefix, &q, b)
			var want []int32
			for i := 0; i < n; i++ {
				if qb.Overlaps(b.At(i)) {
					want = append(want, int32(i))
				}
			}
			if got[0] != -7 || fmt.Sprint(got[1:]) != fmt.Sprint(want) {
				t.Fatalf("n=%d: got %v, want %v", n, got[1:], want)
			}
			lo, hi := n/3, n-n/5
			gotR := AppendOverlappingRange(nil, &q, b, lo, hi)
			var wantR []int32
			for _, i := range want {
				if int(i) >= lo && int(i) < hi {
					wantR = append(wantR, i)
				}
			}
			if fmt.Sprint(gotR) != fmt.Sprint(wantR) {
				t.Fatalf("n=%d range [%d:%d]: got %v, want %v", n, lo, hi, gotR, wantR)
			}
		}
	})
}

func TestProgrammingErrorsPanicBeforeWriting(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		q := NewQuery(obb.New(obb.Vec2{}, 1, 1, 0))
		b := testkit.RandomSet(rand.New(rand.NewPCG(1, 1)), 130)
		short := []uint64{testkit.Sentinel, testkit.Sentinel}
		testkit.MustPanic(t, "out has 2 words, need 3 for 130 boxes", func() { Overlaps(&q, b, short) })
		if short[0] != testkit.Sentinel || short[1] != testkit.Sentinel {
			t.Fatal("Overlaps wrote to a too-short output before panicking")
		}
		for c := 0; c < 6; c++ {
			bad := *b
			cols := [6]*[]float32{&bad.CX, &bad.CY, &bad.UX, &bad.UY, &bad.HX, &bad.HY}
			*cols[c] = (*cols[c])[:129]
			out := []uint64{testkit.Sentinel, testkit.Sentinel, testkit.Sentinel}
			testkit.MustPanic(t, "unequal lengths", func() { Overlaps(&q, &bad, out) })
			if out[0] != testkit.Sentinel {
				t.Fatal("Overlaps wrote before panicking on unequal columns")
			}
			testkit.MustPanic(t, "unequal lengths", func() { AppendOverlapping(nil, &q, &bad) })
		}
		testkit.MustPanic(t, "range [5:4]", func() { AppendOverlappingRange(nil, &q, b, 5, 4) })
		testkit.MustPanic(t, "range [0:131]", func() { AppendOverlappingRange(nil, &q, b, 0, 131) })
	})
}

func TestNoAllocations(t *testing.T) {
	testkit.ForEachImpl(t, func(t *testing.T) {
		b := testkit.RandomSet(rand.New(rand.NewPCG(9, 9)), 4096)
		q := NewQuery(obb.New(obb.Vec2{}, 30, 30, 0.2))
		out := make([]uint64, Words(b.Len()))
		if a := testing.AllocsPerRun(20, func() { Overlaps(&q, b, out) }); a != 0 {
			t.Errorf("Overlaps allocates %v times per call", a)
		}
		dst := make([]int32, 0, b.Len())
		if a := testing.AllocsPerRun(20, func() { dst = AppendOverlapping(dst[:0], &q, b) }); a != 0 {
			t.Errorf("AppendOverlapping with capacity allocates %v times per call", a)
		}
		if len(dst) == 0 {
			t.Error("the allocation test found no overlaps: it would not exercise the append path")
		}
	})
}

// TestEnvVar starts the test binary again with OBB2D_KERNEL set: a name
// this CPU runs is used; a wrong one (unknown, wrongly cased, or not built
// or supported here) costs one line on stderr naming the problem and the
// implementation used instead, and the program carries on.
func TestEnvVar(t *testing.T) {
	if os.Getenv("OBB2D_ENV_CHILD") == "1" {
		fmt.Printf("impl=%s\n", Impl())
		return
	}
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skipf("%s cannot start a process: the test re-executes its binary", runtime.GOOS)
	}
	run := func(value string) (stdout, stderr string) {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run=^TestEnvVar$")
		cmd.Env = append(os.Environ(), "OBB2D_ENV_CHILD=1", EnvVar+"="+value)
		var out, errs strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errs
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Skipf("cannot re-execute the test binary here (%v): the test needs it", err)
		}
		if err != nil {
			t.Fatalf("%s=%s: the program failed: %v\n%s%s", EnvVar, value, err, out.String(), errs.String())
		}
		return out.String(), errs.String()
	}
	best := Impls()[len(Impls())-1]
	for _, name := range Impls() {
		if out, errs := run(name); !strings.Contains(out, "impl="+name+"\n") || errs != "" {
			t.Errorf("%s=%s: stdout %q, stderr %q", EnvVar, name, out, errs)
		}
	}
	wrong := map[string]string{
		"bogus": `unknown implementation "bogus"`,
		"AVX2":  `unknown implementation "AVX2"`,
	}
	for _, name := range []string{"generic", "avx2", "avx512"} {
		if !slices.Contains(Impls(), name) {
			wrong[name] = fmt.Sprintf("implementation %q is not available", name)
		}
	}
	for value, problem := range wrong {
		out, errs := run(value)
		want := fmt.Sprintf("obb2d: %s=%s: %s", EnvVar, value, problem)
		if !strings.HasPrefix(errs, want) || !strings.HasSuffix(errs, "; using "+best+"\n") || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s=%s: stderr %q, want one line starting %q and ending %q", EnvVar, value, errs, want, "; using "+best)
		}
		if !strings.Contains(out, "impl="+best+"\n") {
			t.Errorf("%s=%s: stdout %q, want the program to carry on with %s", EnvVar, value, out, best)
		}
	}
}

func FuzzKernel(f *testing.F) {
	f.Add(uint64(1), uint16(100), float32(0), float32(0), float32(1), float32(0), float32(2), float32(1))
	f.Add(uint64(2), uint16(7), float32(math.NaN()), float32(0), float32(1), float32(0), float32(2), float32(1))
	f.Add(uint64(3), uint16(65), float32(0), float32(0), float32(0), float32(0), float32(-1), float32(math.Inf(1)))
	f.Fuzz(func(t *testing.T, seed uint64, n uint16, cx, cy, ux, uy, hx, hy float32) {
		r := rand.New(rand.NewPCG(seed, seed>>7))
		b := testkit.HostileSet(r, int(n%600))
		qb := obb.Box{Center: obb.Vec2{X: cx, Y: cy}, Axis: obb.Vec2{X: ux, Y: uy}, Half: obb.Vec2{X: hx, Y: hy}}
		q := NewQuery(qb)
		want := testkit.ScalarBits(qb, b)
		testkit.EachImpl(func(name string) {
			got := make([]uint64, Words(b.Len()))
			Overlaps(&q, b, got)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s differs from obb.Box.Overlaps for query %+v, n=%d", name, qb, b.Len())
			}
		})
	})
}
