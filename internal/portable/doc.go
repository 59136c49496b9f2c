// Package portable holds obb2d's portability test and nothing else: a
// deterministic generator (an integer PRNG, no math calls) makes millions of
// inputs for the constructors, the geometry, the overlap test, every kernel
// entry point and the passes, and the test hashes every answer and compares
// the hashes with testdata/portable.txt. CI runs it on every platform it can
// (amd64 with each kernel, GOAMD64=v3, purego, 386 or, on a machine that
// cannot run 386 programs, 32-bit arm under qemu, arm64, ppc64le, s390x,
// riscv64 and loong64 under qemu, js/wasm under node): the same hashes
// there are what "the same bits on every CPU" means.
package portable
