package batch

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
)

// The implementations, in order of preference: the last available one is
// chosen at start.
const (
	Generic = iota
	AVX2
	AVX512
	numImpls
)

var names = [numImpls]string{"generic", "avx2", "avx512"}

// available says which implementations this CPU and build can run, from
// the feature flags that dispatch_amd64.go reads (all false but generic in
// other builds).
var available = [numImpls]bool{true, haveAVX2, haveAVX512}

// current is the implementation in use. Every entry point reads it once
// per call (an atomic load is a plain load on amd64), so Use is race-free
// and a call finishes with the implementation it started with.
var current atomic.Int32

// EnvVar names the environment variable that chooses the implementation
// when the program starts.
const EnvVar = "OBB2D_KERNEL"

func init() {
	best := Generic
	for i, ok := range available {
		if ok {
			best = i
		}
	}
	current.Store(int32(best))
	if name, ok := os.LookupEnv(EnvVar); ok && name != "" {
		if err := Use(name); err != nil {
			// A configuration mistake must not kill a program that merely
			// imports obb2d (a launcher written for x86 runs the arm64 build
			// too), nor fall back silently: say so once and carry on.
			fmt.Fprintf(os.Stderr, "obb2d: %s=%s: %v; using %s\n", EnvVar, name, err, Name())
		}
	}
}

// Name returns the name of the implementation in use.
func Name() string { return names[current.Load()] }

// Names returns the names of the implementations this CPU and build can
// run, slowest first.
func Names() []string {
	var list []string
	for i, ok := range available {
		if ok {
			list = append(list, names[i])
		}
	}
	return list
}

// Use switches every later call to the named implementation. It returns an
// error, and changes nothing, when the name is unknown or the CPU or build
// cannot run it. Tests and benchmarks use it to compare implementations;
// calls already running finish with the implementation they started with.
func Use(name string) error {
	for i, n := range names {
		if n != name {
			continue
		}
		if !available[i] {
			return fmt.Errorf("implementation %q is not available on this CPU or build (available: %s)",
				name, strings.Join(Names(), ", "))
		}
		current.Store(int32(i))
		return nil
	}
	return fmt.Errorf("unknown implementation %q (known: %s; available: %s)",
		name, strings.Join(names[:], ", "), strings.Join(Names(), ", "))
}

// Words returns how many uint64 words a bitset of n bits takes.
func Words(n int) int { return (n + 63) >> 6 }
