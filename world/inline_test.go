//go:build !js && !wasip1

package world_test

import (
	"os/exec"
	"strings"
	"testing"
)

// inlined lists, by package, functions that a loop moving boxes one by one
// calls for every box (Move(h, poses.At(i)): BenchmarkWorldStep, move=each;
// BenchmarkAt in soa) and that keep their panics' formatting and their
// rare work out of their bodies (soa's lengthsError and rangeError,
// handleError, decideCells) to stay within the compiler's inlining budget:
// one over it is a call more a box.
var inlined = map[string][]string{
	"github.com/obb2d/obb2d/soa":   {"(*Boxes).Len", "(*Boxes).check"},
	"github.com/obb2d/obb2d/world": {"(*World).slot", "(*World).cellsLater"},
}

// TestInlined asks the go command that runs the tests to build each
// package of inlined with the compiler's inlining report (-gcflags=-m),
// for the GOARCH the tests run on, and checks that it inlines each.
func TestInlined(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command, which reports the compiler's inlining: %v", err)
	}
	for pkg, fns := range inlined {
		out, err := exec.Command(goCmd, "build", "-gcflags=-m", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go build -gcflags=-m %s: %v\n%s", pkg, err, out)
		}
		can := map[string]bool{}
		for _, line := range strings.Split(string(out), "\n") {
			if _, fn, ok := strings.Cut(line, ": can inline "); ok {
				can[fn] = true
			}
		}
		for _, fn := range fns {
			if !can[fn] {
				t.Errorf("%s: the compiler does not inline %s", pkg, fn)
			}
		}
	}
}
