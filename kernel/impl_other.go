//go:build !amd64 || !gc || purego

package kernel

// Without the amd64 assembly only the generic kernel exists.
const (
	haveAVX2   = false
	haveAVX512 = false
)

// The assembly entry points are never selected in this build.

func overlapsAVX2(qcx, qcy, qux, quy, qhx, qhy float32, cx, cy, ux, uy, hx, hy []float32, out []uint64) {
	panic("kernel: avx2 kernel is not built")
}

func overlapsAVX512(qcx, qcy, qux, quy, qhx, qhy float32, cx, cy, ux, uy, hx, hy []float32, out []uint64) {
	panic("kernel: avx512 kernel is not built")
}

func pairsAVX2(acx, acy, aux, auy, ahx, ahy, bcx, bcy, bux, buy, bhx, bhy []float32, ij []int32, out []uint64) {
	panic("kernel: avx2 pair kernel is not built")
}

func runsAVX2(qcx, qcy, qux, quy, qhx, qhy, cx, cy, ux, uy, hx, hy []float32, runs []int32, out []uint64) {
	panic("kernel: avx2 run kernel is not built")
}

func runsAVX512(qcx, qcy, qux, quy, qhx, qhy, cx, cy, ux, uy, hx, hy []float32, runs []int32, out []uint64) {
	panic("kernel: avx512 run kernel is not built")
}

func runsPrunedAVX2(qcx, qcy, qux, quy, qhx, qhy, qreach, cx, cy, ux, uy, hx, hy, reach []float32, runs []int32, out []uint64) {
	panic("kernel: avx2 pruned run kernel is not built")
}

func runsPrunedAVX512(qcx, qcy, qux, quy, qhx, qhy, qreach, cx, cy, ux, uy, hx, hy, reach []float32, runs []int32, out []uint64) {
	panic("kernel: avx512 pruned run kernel is not built")
}

func sweepAVX2(cx, cy, ux, uy, hx, hy, reach, lo, hi []float32, q, c, end int, out []uint64) (nextQ, nextC, candidates, hits int) {
	panic("kernel: avx2 sweep kernel is not built")
}

func sweepAVX512(cx, cy, ux, uy, hx, hy, reach, lo, hi []float32, q, c, end int, out []uint64) (nextQ, nextC, candidates, hits int) {
	panic("kernel: avx512 sweep kernel is not built")
}
