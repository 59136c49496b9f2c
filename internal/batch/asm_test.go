package batch_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestAVX2AssemblyUsesAVX2Registers reads the generated assembly and checks
// that no AVX2 function names a register only AVX-512 has (X16 to X31, Y16
// to Y31, a ZMM register or a mask register): avo's register allocator
// takes them when more than sixteen vectors are live, and an instruction
// using one would fault on a CPU with AVX2 but not AVX-512, which the test
// machine, having both, would not notice.
func TestAVX2AssemblyUsesAVX2Registers(t *testing.T) {
	src, err := os.ReadFile("kernels_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	evex := regexp.MustCompile(`\b([XY](1[6-9]|2[0-9]|3[01])|Z[0-9]+|K[0-7])\b`)
	functions := 0
	for _, fn := range strings.Split(string(src), "\nTEXT ")[1:] {
		name, _, _ := strings.Cut(fn, "(")
		if !strings.HasSuffix(name, "AVX2") {
			continue
		}
		functions++
		for i, line := range strings.Split(fn, "\n") {
			code, _, _ := strings.Cut(line, "//")
			if reg := evex.FindString(code); reg != "" {
				t.Errorf("%s, line %d of its text: %s uses %s, which AVX2 lacks", name, i, strings.TrimSpace(code), reg)
			}
		}
	}
	if functions < 4 {
		t.Fatalf("found %d AVX2 functions in kernels_amd64.s: the test reads the file wrong", functions)
	}
}
