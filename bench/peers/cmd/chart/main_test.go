package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const sample = `goos: linux
cpu-brand: AMD EPYC
BenchmarkOverlaps/impl=avx2/n=640-2     100  2000 ns/op  3.0 ns/box  1e8 boxes/s
BenchmarkOverlaps/impl=avx2/n=640-2     100  2000 ns/op  5.0 ns/box  1e8 boxes/s
BenchmarkOverlaps/impl=avx2/n=640-2     100  2000 ns/op  4.0 ns/box  1e8 boxes/s
BenchmarkOverlaps/impl=generic/n=4096-2 100  2000 ns/op  50 ns/box
BenchmarkOverlapsDense/impl=avx2/n=640-2 100 2000 ns/op  9.0 ns/box
BenchmarkAllPairs/scene=rts/impl=avx2/workers=2/n=1000-2 1 2 ns/op 7 ns/box
BenchmarkOverlaps/impl=scalar/n=640-2   100  2000 ns/op
`

func TestRead(t *testing.T) {
	s, err := read(strings.NewReader(sample), "Overlaps", "impl", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 2 || len(s["avx2"][640]) != 3 || len(s["generic"][4096]) != 1 {
		t.Fatalf("read %v: want avx2 n=640 three runs and generic n=4096 one, nothing from OverlapsDense or lines without ns/box", s)
	}
	if m := median(s["avx2"][640]); m != 4 {
		t.Errorf("median of 3, 5, 4 = %v, want 4", m)
	}
	if m := median([]float64{1, 4, 2, 3}); m != 2.5 {
		t.Errorf("median of 1, 4, 2, 3 = %v, want 2.5", m)
	}
	a, err := read(strings.NewReader(sample), "AllPairs", "impl", nil)
	if err != nil || len(a["avx2"][1000]) != 1 {
		t.Fatalf("AllPairs: %v, %v", a, err)
	}
	byWorkers, _ := read(strings.NewReader(sample), "AllPairs", "workers", nil)
	if len(byWorkers) != 1 || len(byWorkers["2"][1000]) != 1 {
		t.Errorf("series by workers: %v, want one line, workers=2", byWorkers)
	}
	none, _ := read(strings.NewReader(sample), "AllPairs", "impl", regexp.MustCompile("workers=1/"))
	if len(none) != 0 {
		t.Errorf("filter workers=1 kept %v", none)
	}
}

func TestDrawWritesSVG(t *testing.T) {
	s, _ := read(strings.NewReader(sample), "Overlaps", "impl", nil)
	out := filepath.Join(t.TempDir(), "c.svg")
	if err := draw(s, "test", out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "avx2", "generic"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("chart lacks %q", want)
		}
	}
}
