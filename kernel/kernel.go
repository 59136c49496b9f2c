package kernel

import (
	"fmt"
	"math/bits"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/soa"
)

// EnvVar names the environment variable that chooses the implementation when
// the program starts: OBB2D_KERNEL=generic, avx2 or avx512.
const EnvVar = "OBB2D_KERNEL"

// Impl returns the name of the implementation in use: "generic", "avx2" or
// "avx512".
func Impl() string { return batch.Name() }

// Impls returns the names of the implementations this CPU and build can run,
// slowest first; the last is the one chosen at start unless OBB2D_KERNEL says
// otherwise.
func Impls() []string { return batch.Names() }

// Words returns how many uint64 words the bitset for n boxes takes: (n+63)/64.
func Words(n int) int { return batch.Words(n) }

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
	batch.Overlaps(&q.q, b.CX, b.CY, b.UX, b.UY, b.HX, b.HY, out[:Words(n)])
}

// appendChunk is how many boxes AppendOverlapping decides per kernel call; their
// bitset lives on the stack.
const appendChunk = 512

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
	var words [appendChunk / 64]uint64
	for start := lo; start < hi; start += appendChunk {
		end := min(start+appendChunk, hi)
		batch.Overlaps(&q.q, b.CX[start:end], b.CY[start:end], b.UX[start:end], b.UY[start:end],
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
