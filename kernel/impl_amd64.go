//go:build amd64 && gc && !purego

package kernel

import "golang.org/x/sys/cpu"

//go:generate go run -C ../gen ./kernel -out ../kernel/overlaps_amd64.s -stubs ../kernel/overlaps_amd64.go -pkg kernel

// The assembly kernels use BMI2 (SHLX, BZHI) to place each group's bits.
// x/sys/cpu reports AVX2 and AVX-512F only when the OS saves the YMM and ZMM
// state, and honours GODEBUG=cpu.avx2=off and cpu.avx512f=off. The AVX-512
// kernel also requires AVX2 so that GODEBUG=cpu.avx2=off turns all assembly
// off.
var (
	haveAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasBMI2
	haveAVX512 = haveAVX2 && cpu.X86.HasAVX512F
)
