//go:build amd64 && gc && !purego

package batch_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"

	"github.com/obb2d/obb2d/internal/batch"
)

// TestAssemblySelected fails when a CPU that can run the assembly kernels did
// not get them, so CI on such a machine cannot quietly test only Go. The
// feature check here is written independently of dispatch_amd64.go.
func TestAssemblySelected(t *testing.T) {
	impls := batch.Names()
	if cpu.X86.HasAVX2 && cpu.X86.HasBMI2 && !slices.Contains(impls, "avx2") {
		t.Errorf("CPU has AVX2 and BMI2 but batch.Names() = %v", impls)
	}
	if cpu.X86.HasAVX2 && cpu.X86.HasBMI2 && cpu.X86.HasAVX512F && !slices.Contains(impls, "avx512") {
		t.Errorf("CPU has AVX-512F but batch.Names() = %v", impls)
	}
	if os.Getenv("CI") == "true" && os.Getenv("GODEBUG") == "" && !slices.Contains(impls, "avx2") {
		t.Errorf("CI runs on an AVX2 machine, but batch.Names() = %v: the assembly is not being tested", impls)
	}
	// Every test that switches implementations restores the one it found,
	// so without OBB2D_KERNEL the one in use is what init chose.
	if got, want := batch.Name(), impls[len(impls)-1]; os.Getenv(batch.EnvVar) == "" && got != want {
		t.Errorf("%s in use without %s, want the best available, %s", got, batch.EnvVar, want)
	}
}

// TestGODEBUGTurnsAssemblyOff runs the test binary again with the CPU
// features hidden.
func TestGODEBUGTurnsAssemblyOff(t *testing.T) {
	if os.Getenv("OBB2D_GODEBUG_CHILD") == "1" {
		os.Stdout.WriteString("impls=" + strings.Join(batch.Names(), ",") + "\n")
		return
	}
	if !cpu.X86.HasAVX2 || !cpu.X86.HasBMI2 {
		t.Skip("no AVX2 on this CPU: nothing to turn off")
	}
	for godebug, want := range map[string]string{
		"cpu.avx2=off":    "impls=generic\n",
		"cpu.bmi2=off":    "impls=generic\n",
		"cpu.avx512f=off": "impls=generic,avx2\n",
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestGODEBUGTurnsAssemblyOff$")
		cmd.Env = append(os.Environ(), "OBB2D_GODEBUG_CHILD=1", "GODEBUG="+godebug, batch.EnvVar+"=")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("GODEBUG=%s: %v\n%s\nwant %q", godebug, err, out, want)
		}
	}
}

// TestVendor checks the vendor string that PrefetchFar chooses its hint
// by against the kernel's report of it, where Linux gives one, and
// otherwise that it is 12 printable bytes, as CPUID leaf 0 gives them.
func TestVendor(t *testing.T) {
	v := batch.Vendor()
	if len(v) != 12 || strings.IndexFunc(v, func(r rune) bool { return r < ' ' || r > '~' }) >= 0 {
		t.Fatalf("Vendor() = %q, not 12 printable bytes", v)
	}
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return // no kernel report to compare with
	}
	for _, line := range strings.Split(string(info), "\n") {
		if name, value, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "vendor_id" {
			if want := strings.TrimSpace(value); v != want {
				t.Errorf("Vendor() = %q, /proc/cpuinfo's vendor_id %q", v, want)
			}
			return
		}
	}
	t.Errorf("/proc/cpuinfo has no vendor_id line")
}

// TestFarHint checks PrefetchFar's choice: PREFETCHT1 on Intel
// processors, PREFETCHT0 on every other, chosen for this one.
func TestFarHint(t *testing.T) {
	for _, c := range []struct {
		vendor string
		l2     bool
	}{{"GenuineIntel", true}, {"AuthenticAMD", false}, {"HygonGenuine", false}, {"", false}} {
		if got := batch.FarHintL2(c.vendor); got != c.l2 {
			t.Errorf("PrefetchFar on %q asks into the L2 cache: %v, want %v", c.vendor, got, c.l2)
		}
	}
	if !batch.FarHintChosen() {
		t.Errorf("PrefetchFar's kernel is not the one chosen for %q", batch.Vendor())
	}
}
