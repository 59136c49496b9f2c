// Package kernel tests one query box against many boxes stored as columns
// (package soa) and reports which overlap, as a bitset ([Overlaps]) or as a
// list of indices ([AppendOverlapping]). It is the building block of a
// placement check: one planned footprint against every footprint on a map.
//
// Every implementation computes, for each box b, exactly the bit
// q.Box().Overlaps(b) of package obb: the same float32 operations in the same
// order (written out in package obb's documentation), no fused multiply-add,
// quiet ordered comparisons and |x| by clearing the sign bit, so results are
// identical bit for bit on every CPU and for every input, NaN included.
//
// # Implementations
//
//   - generic: pure Go, eight boxes per step; built everywhere. It is the
//     only one with -tags purego, on other architectures, or with gccgo.
//   - avx2: amd64 assembly, eight boxes per instruction; needs AVX2 and BMI2.
//   - avx512: amd64 assembly, sixteen boxes per instruction; needs AVX-512F
//     as well.
//
// The fastest available implementation is chosen once, when the program
// starts; [Impl] names it and [Impls] lists what this CPU and build can run.
// The environment variable OBB2D_KERNEL=generic|avx2|avx512 ([EnvVar])
// chooses one explicitly. GODEBUG hides CPU features from the choice:
// cpu.avx512f=off leaves avx2, and cpu.avx2=off or cpu.bmi2=off leaves only
// generic, since both assembly kernels use BMI2.
//
// The assembly reads and writes nothing outside the slices it is given: the
// last, partial group of boxes is loaded with masked loads, and the bits
// past the last box are zero.
package kernel
