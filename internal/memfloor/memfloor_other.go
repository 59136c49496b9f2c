//go:build !amd64 || !gc || purego

package memfloor

const haveAVX2 = false

func readAVX2(cx, cy, ux, uy, hx, hy []float32) uint32 { panic("memfloor: no AVX2 read in this build") }
