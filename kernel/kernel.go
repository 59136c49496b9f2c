package kernel

import (
	"fmt"
	"math/bits"
	"os"
	"strings"
	"sync/atomic"

	"github.com/obb2d/obb2d/soa"
)

// Implementation indices, in order of preference (the last available wins).
const (
	implGeneric = iota
	implAVX2
	implAVX512
	numImpls
)

var implNames = [numImpls]string{"generic", "avx2", "avx512"}

// implAvailable says which implementations this CPU and build can run. It is
// filled from the CPU feature flags once, before init runs.
var implAvailable = [numImpls]bool{true, haveAVX2, haveAVX512}

// current is the implementation in use. It is read once per call (an atomic
// load is a plain load on amd64) so that SetImpl is race-free.
var current atomic.Int32

// EnvVar names the environment variable that chooses the implementation when
// the program starts.
const EnvVar = "OBB2D_KERNEL"

// startImpl is the implementation chosen from the CPU features, before
// OBB2D_KERNEL is read.
var startImpl string

func init() {
	best := implGeneric
	for i := range implAvailable {
		if implAvailable[i] {
			best = i
		}
	}
	current.Store(int32(best))
	startImpl = implNames[best]
	if name, ok := os.LookupEnv(EnvVar); ok && name != "" {
		if err := SetImpl(name); err != nil {
			// An explicit choice that cannot be honoured must not fall back silently.
			panic(fmt.Sprintf("%s=%s: %v", EnvVar, name, err))
		}
	}
}

// Impl returns the name of the implementation in use: "generic", "avx2" or
// "avx512".
func Impl() string { return implNames[current.Load()] }

// Impls returns the names of the implementations this CPU and build can run,
// slowest first; the last is the one chosen at start unless OBB2D_KERNEL says
// otherwise.
func Impls() []string {
	var names []string
	for i, ok := range implAvailable {
		if ok {
			names = append(names, implNames[i])
		}
	}
	return names
}

// SetImpl switches to the named implementation for all later calls. It
// returns an error, and changes nothing, when the name is unknown or the CPU
// or build cannot run it. It is meant for tests, benchmarks and start-up
// configuration; calls already running finish with the implementation they
// started with.
func SetImpl(name string) error {
	for i, n := range implNames {
		if n != name {
			continue
		}
		if !implAvailable[i] {
			return fmt.Errorf("kernel: implementation %q is not available on this CPU or build (available: %s)",
				name, strings.Join(Impls(), ", "))
		}
		current.Store(int32(i))
		return nil
	}
	return fmt.Errorf("kernel: unknown implementation %q (known: %s; available: %s)",
		name, strings.Join(implNames[:], ", "), strings.Join(Impls(), ", "))
}

// Words returns how many uint64 words the bitset for n boxes takes: (n+63)/64.
func Words(n int) int { return (n + 63) >> 6 }

// Overlaps sets bit i%64 of out[i/64] when box i of b overlaps the query box,
// exactly as q.Box().Overlaps(b.At(i)) would say, and clears it otherwise.
// It writes out[0 : Words(b.Len())] and nothing else; bits past the last box
// in the last word are zero. It allocates nothing.
//
// It panics, before writing anything, if b's columns differ in length or out
// is shorter than Words(b.Len()).
func Overlaps(q *Query, b *soa.Boxes, out []uint64) {
	n := b.Len()
	if len(out) < Words(n) {
		panic(fmt.Sprintf("kernel: out has %d words, need %d for %d boxes", len(out), Words(n), n))
	}
	if n == 0 {
		return
	}
	run(q, b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, out[:Words(n)])
}

// run hands equal-length, non-empty columns to the implementation in use.
func run(q *Query, cx, cy, ux, uy, hx, hy []float32, out []uint64) {
	switch current.Load() {
	case implAVX512:
		overlapsAVX512(q.cx, q.cy, q.ux, q.uy, q.hx, q.hy, cx, cy, ux, uy, hx, hy, out)
	case implAVX2:
		overlapsAVX2(q.cx, q.cy, q.ux, q.uy, q.hx, q.hy, cx, cy, ux, uy, hx, hy, out)
	default:
		overlapsGeneric(q, cx, cy, ux, uy, hx, hy, out)
	}
}

// chunk is how many boxes AppendOverlapping decides per kernel call; their
// bitset lives on the stack.
const chunk = 512

// AppendOverlapping appends to dst, in ascending order, the index of every
// box of b that overlaps the query box, and returns the extended slice. It
// allocates only when dst must grow. It panics if b's columns differ in
// length.
func AppendOverlapping(dst []int32, q *Query, b *soa.Boxes) []int32 {
	return AppendOverlappingRange(dst, q, b, 0, b.Len())
}

// AppendOverlappingRange is AppendOverlapping restricted to boxes lo through
// hi-1 of b; the appended indices are indices into b (not relative to lo). It
// panics if the columns differ in length, the range is not within
// [0, b.Len()], or hi exceeds the range of int32.
func AppendOverlappingRange(dst []int32, q *Query, b *soa.Boxes, lo, hi int) []int32 {
	n := b.Len()
	if lo < 0 || hi < lo || hi > n {
		panic(fmt.Sprintf("kernel: range [%d:%d] out of range [0, %d]", lo, hi, n))
	}
	if hi > 1<<31-1 {
		panic(fmt.Sprintf("kernel: index %d does not fit in int32", hi-1))
	}
	var words [chunk / 64]uint64
	for start := lo; start < hi; start += chunk {
		end := min(start+chunk, hi)
		run(q, b.CX[start:end], b.CY[start:end], b.UX[start:end], b.UY[start:end],
			b.HX[start:end], b.HY[start:end], words[:Words(end-start)])
		for w, word := range words[:Words(end-start)] {
			base := int32(start + w*64)
			for word != 0 {
				dst = append(dst, base+int32(bits.TrailingZeros64(word)))
				word &= word - 1
			}
		}
	}
	return dst
}
