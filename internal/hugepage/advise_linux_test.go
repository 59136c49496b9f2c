package hugepage

import (
	"bufio"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// vmFlags returns the VmFlags of the mapping that holds p, from
// /proc/self/smaps: "hg" marks a region advised MADV_HUGEPAGE, "nh" one
// advised MADV_NOHUGEPAGE.
func vmFlags(t *testing.T, p unsafe.Pointer) []string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := strings.Cut(strings.Fields(line + " x")[0], "-"); ok && !strings.HasSuffix(lo, ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				in = uint64(uintptr(p)) >= a && uint64(uintptr(p)) < b
				continue
			}
		}
		if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return strings.Fields(rest)
		}
	}
	t.Fatalf("no mapping in /proc/self/smaps holds %p", p)
	return nil
}

// TestGrowAdvises checks, in the kernel's own account of the process's
// mappings, that a grown array of MinBytes or more is advised to take huge
// pages and that the array it replaced has the advice withdrawn. Under
// qemu-user, which runs the tests of the other architectures,
// /proc/self/smaps describes the emulator's mappings, so the test runs
// where the kernel runs the test binary itself.
func TestGrowAdvises(t *testing.T) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "386" {
		t.Skip("/proc/self/smaps is the emulator's under qemu-user")
	}
	saved := advising
	defer func() { advising = saved }()
	advising = func() bool { return true }
	// A kernel built without transparent huge pages refuses the advice
	// (EINVAL): then no array may carry it.
	probe := make([]byte, 1<<16)
	pg := uintptr(os.Getpagesize())
	at := (uintptr(unsafe.Pointer(&probe[0])) + pg - 1) &^ (pg - 1)
	off := int(at - uintptr(unsafe.Pointer(&probe[0])))
	kernelTakes := unix.Madvise(probe[off:off+int(pg)], unix.MADV_HUGEPAGE) == nil

	old := Grow([]byte(nil), 2*MinBytes)
	mid := unsafe.Pointer(&old[:cap(old)/2+1][cap(old)/2])
	if flags := vmFlags(t, mid); slices.Contains(flags, "hg") != kernelTakes {
		t.Fatalf("an array of %d bytes, on a kernel that takes the advice (%v): VmFlags %v", cap(old), kernelTakes, flags)
	}
	if !kernelTakes {
		return
	}
	old = old[:cap(old)]
	grown := Grow(old, 1)
	if flags := vmFlags(t, unsafe.Pointer(&grown[:cap(grown)/2+1][cap(grown)/2])); !slices.Contains(flags, "hg") {
		t.Errorf("the grown array of %d bytes is not advised: VmFlags %v", cap(grown), flags)
	}
	if flags := vmFlags(t, mid); slices.Contains(flags, "hg") || !slices.Contains(flags, "nh") {
		t.Errorf("the replaced array keeps its advice: VmFlags %v", flags)
	}
	runtime.KeepAlive(old)
}

func TestDisabled(t *testing.T) {
	for _, c := range []struct {
		godebug string
		want    bool
	}{
		{"", false},
		{"disablethp=1", true},
		{"disablethp=0", false},
		{"gctrace=1,disablethp=1", true},
		{"disablethp=1,disablethp=0", false},
		{"xdisablethp=1", false},
		{"madvdontneed=1,disablethp=1", true},
	} {
		if got := disabled(c.godebug); got != c.want {
			t.Errorf("disabled(%q) = %v, want %v", c.godebug, got, c.want)
		}
	}
}
