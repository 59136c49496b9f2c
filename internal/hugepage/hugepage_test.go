package hugepage

import (
	"testing"

	"github.com/obb2d/obb2d/internal/testkit"
)

// TestGrowKeeps checks Grow's slice, with and without advice, on both sides
// of MinBytes: the elements kept, the length unchanged, room for n more,
// and the same array when it had the room.
func TestGrowKeeps(t *testing.T) {
	saved := advising
	defer func() { advising = saved }()
	for _, on := range []bool{false, true} {
		advising = func() bool { return on }
		for _, start := range []int{0, 1, 1000, MinBytes/8 - 3, MinBytes / 8, 3 * MinBytes / 8} {
			for _, n := range []int{0, 1, 7, MinBytes / 8} {
				s := make([]int64, start, start+start/3)
				for i := range s {
					s[i] = int64(i)*7 + 1
				}
				g := Grow(s, n)
				if len(g) != len(s) || cap(g)-len(g) < n {
					t.Fatalf("advice %v: Grow(len %d cap %d, %d) has len %d cap %d", on, len(s), cap(s), n, len(g), cap(g))
				}
				for i := range g {
					if g[i] != int64(i)*7+1 {
						t.Fatalf("advice %v: Grow(len %d, %d) lost element %d", on, start, n, i)
					}
				}
				if cap(s)-len(s) >= n && cap(s) > 0 && &g[:1][0] != &s[:1][0] {
					t.Fatalf("advice %v: Grow(len %d cap %d, %d) replaced an array with room", on, len(s), cap(s), n)
				}
			}
		}
	}
	testkit.MustPanic(t, "negative count", func() { Grow([]byte{1}, -1) })
}
