//go:build !amd64 || !gc || purego

package memfloor

import "github.com/obb2d/obb2d/soa"

const haveAVX2 = false

// readBulk reads nothing: without the AVX2 read, Read's Go loop reads every
// box.
func readBulk(*soa.Boxes) (acc uint32, done int) { return 0, 0 }
