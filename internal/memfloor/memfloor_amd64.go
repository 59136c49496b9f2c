//go:build amd64 && gc && !purego

package memfloor

import "golang.org/x/sys/cpu"

//go:generate go run -C ../../gen ./memfloor -out ../internal/memfloor/read_amd64.s -stubs ../internal/memfloor/read_amd64.go -pkg memfloor

var haveAVX2 = cpu.X86.HasAVX2
