// Command chart draws ns/box against n, one line per implementation, from
// go test -bench output, as an SVG (or PNG, by the file's extension), with
// gonum.org/v1/plot. Sub-benchmarks must be named .../impl=<name>/.../n=<N>
// and report an ns/box metric, as obb2d's benchmarks do; with -count above
// one the median of the runs is drawn.
//
//	go test ./bench -run '^$' -bench 'Overlaps$' -count 10 > kernels.txt
//	cd bench/peers && go run ./cmd/chart -in ../../kernels.txt -bench Overlaps -out ../../kernels.svg
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

func main() {
	in := flag.String("in", "-", "go test -bench output to read (- for stdin)")
	bench := flag.String("bench", "Overlaps", "benchmark to draw: the name before the first /, without the Benchmark prefix")
	filter := flag.String("filter", "", "draw only sub-benchmarks whose name matches this regexp (e.g. scene=uniform/.*workers=1)")
	out := flag.String("out", "chart.svg", "file to write; .svg, .png or .pdf")
	title := flag.String("title", "", "chart title (default: the benchmark name)")
	key := flag.String("series", "impl", "the name key whose values are the lines (impl=<name> by default)")
	flag.Parse()
	log.SetFlags(0)

	r := io.Reader(os.Stdin)
	if *in != "-" {
		f, err := os.Open(*in)
		if err != nil {
			log.Fatal(err)
		}
		defer f.Close()
		r = f
	}
	var re *regexp.Regexp
	if *filter != "" {
		re = regexp.MustCompile(*filter)
	}
	series, err := read(r, *bench, *key, re)
	if err != nil {
		log.Fatal(err)
	}
	if len(series) == 0 {
		log.Fatalf("no Benchmark%s/.../impl=.../n=... lines with an ns/box metric in %s", *bench, *in)
	}
	if *title == "" {
		*title = *bench
	}
	if err := draw(series, *title, *out); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("wrote %s: %d implementations\n", *out, len(series))
}

// series maps an implementation to its runs' ns/box per n.
type series map[string]map[int][]float64

var sizeRE = regexp.MustCompile(`(?:^|/)n=(\d+)`)

// read collects the ns/box values of every Benchmark<bench>/... line, one
// series per value of the name's key=<value> element.
func read(r io.Reader, bench, key string, filter *regexp.Regexp) (series, error) {
	nameRE := regexp.MustCompile(`(?:^|/)` + regexp.QuoteMeta(key) + `=([^/]+)`)
	s := series{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	prefix := "Benchmark" + bench + "/"
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], prefix) {
			continue
		}
		// Drop the -GOMAXPROCS suffix go test adds to the name.
		name := strings.TrimPrefix(fields[0], prefix)
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			name = name[:i]
		}
		if filter != nil && !filter.MatchString(name) {
			continue
		}
		impl, size := nameRE.FindStringSubmatch(name), sizeRE.FindStringSubmatch(name)
		if impl == nil || size == nil {
			continue
		}
		n, err := strconv.Atoi(size[1])
		if err != nil {
			return nil, err
		}
		// After the name and iteration count come value-unit pairs.
		for i := 2; i+1 < len(fields); i += 2 {
			if fields[i+1] != "ns/box" {
				continue
			}
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", fields[0], err)
			}
			if s[impl[1]] == nil {
				s[impl[1]] = map[int][]float64{}
			}
			s[impl[1]][n] = append(s[impl[1]][n], v)
		}
	}
	return s, sc.Err()
}

func median(v []float64) float64 {
	v = slices.Clone(v)
	sort.Float64s(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func draw(s series, title, out string) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "boxes (n)"
	p.Y.Label.Text = "ns per box (median)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	impls := make([]string, 0, len(s))
	for impl := range s {
		impls = append(impls, impl)
	}
	// Slowest first, so the legend reads top to bottom as the lines do.
	worst := func(impl string) float64 {
		m := 0.0
		for _, v := range s[impl] {
			m = max(m, median(v))
		}
		return m
	}
	sort.Slice(impls, func(i, j int) bool { return worst(impls[i]) > worst(impls[j]) })
	for k, impl := range impls {
		ns := make([]int, 0, len(s[impl]))
		for n := range s[impl] {
			ns = append(ns, n)
		}
		sort.Ints(ns)
		pts := make(plotter.XYs, len(ns))
		for i, n := range ns {
			pts[i] = plotter.XY{X: float64(n), Y: median(s[impl][n])}
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		line.Color, points.Color = plotutil.Color(k), plotutil.Color(k)
		line.Dashes = plotutil.Dashes(k)
		points.Shape = plotutil.Shape(k)
		p.Add(line, points)
		p.Legend.Add(impl, line, points)
	}
	// Leave the top decade free for the legend, and room left and right so
	// the end ticks' labels are not cut off.
	p.Y.Max *= 20
	p.X.Min /= 1.6
	p.X.Max *= 1.6
	return p.Save(7*vg.Inch, 4.5*vg.Inch, out)
}
