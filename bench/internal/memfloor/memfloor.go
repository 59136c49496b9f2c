// Package memfloor reads box columns as fast as the machine allows, with no
// computation: the benchmarks' memory floor, against which the kernels'
// speed on sets far larger than the caches is measured.
package memfloor

import "github.com/obb2d/obb2d/soa"

// Read touches every float of b's six columns once and returns their bits
// ORed together, so the reads cannot be optimised away. On amd64 with AVX2
// the bulk is read by 32-byte vector loads; elsewhere by a Go loop.
func Read(b *soa.Boxes) uint32 {
	n := b.Len()
	acc, done := readBulk(b)
	cx, cy, ux, uy, hx, hy := b.CX[:n], b.CY[:n], b.UX[:n], b.UY[:n], b.HX[:n], b.HY[:n]
	for i := done; i < n; i++ {
		acc |= bits(cx[i]) | bits(cy[i]) | bits(ux[i]) | bits(uy[i]) | bits(hx[i]) | bits(hy[i])
	}
	return acc
}

// Impl names the read in use: "avx2" or "go".
func Impl() string {
	if haveAVX2 {
		return "avx2"
	}
	return "go"
}
