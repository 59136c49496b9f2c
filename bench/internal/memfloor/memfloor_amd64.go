//go:build amd64 && gc && !purego

package memfloor

import (
	"golang.org/x/sys/cpu"

	"github.com/obb2d/obb2d/soa"
)

//go:generate go run -C ../../../gen ./memfloor -out ../bench/internal/memfloor/read_amd64.s -stubs ../bench/internal/memfloor/read_amd64.go -pkg memfloor

var haveAVX2 = cpu.X86.HasAVX2

// readBulk reads whole groups of 8 boxes with readAVX2 when the CPU has
// AVX2, and returns their bits and how many boxes it read.
func readBulk(b *soa.Boxes) (acc uint32, done int) {
	if n := b.Len(); haveAVX2 && n >= 8 {
		return readAVX2(b.CX, b.CY, b.UX, b.UY, b.HX, b.HY), n &^ 7
	}
	return 0, 0
}
