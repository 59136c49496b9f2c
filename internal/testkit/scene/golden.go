package scene

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/obb2d/obb2d/obb"
)

// Case is one golden regression case: a named pair and the exact answer.
type Case struct {
	Name    string
	A, B    obb.Box
	Overlap bool
}

// The golden file holds one case a line:
//
//	name a.cx a.cy a.ux a.uy a.hx a.hy b.cx b.cy b.ux b.uy b.hx b.hy overlap
//
// with float32 values written in the shortest form that reads back exactly
// and overlap 0 or 1. Lines starting with # are comments.

// ReadGolden parses a golden file.
func ReadGolden(r io.Reader) ([]Case, error) {
	var cases []Case
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		if len(f) != 14 || (f[13] != "0" && f[13] != "1") {
			return nil, fmt.Errorf("golden line %d: want name, 12 numbers and 0 or 1, got %q", line, text)
		}
		var v [12]float32
		for i := range v {
			x, err := strconv.ParseFloat(f[1+i], 32)
			if err != nil {
				return nil, fmt.Errorf("golden line %d: %v", line, err)
			}
			v[i] = float32(x)
		}
		cases = append(cases, Case{
			Name:    f[0],
			A:       obb.Box{Center: obb.Vec2{X: v[0], Y: v[1]}, Axis: obb.Vec2{X: v[2], Y: v[3]}, Half: obb.Vec2{X: v[4], Y: v[5]}},
			B:       obb.Box{Center: obb.Vec2{X: v[6], Y: v[7]}, Axis: obb.Vec2{X: v[8], Y: v[9]}, Half: obb.Vec2{X: v[10], Y: v[11]}},
			Overlap: f[13] == "1",
		})
	}
	return cases, sc.Err()
}

// WriteGolden writes cases in the golden format, after a header comment.
func WriteGolden(w io.Writer, header string, cases []Case) error {
	bw := bufio.NewWriter(w)
	for _, h := range strings.Split(strings.TrimSpace(header), "\n") {
		fmt.Fprintf(bw, "# %s\n", h)
	}
	g := func(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) }
	for _, c := range cases {
		fmt.Fprintf(bw, "%s", c.Name)
		for _, b := range [2]obb.Box{c.A, c.B} {
			for _, v := range [6]float32{b.Center.X, b.Center.Y, b.Axis.X, b.Axis.Y, b.Half.X, b.Half.Y} {
				fmt.Fprintf(bw, " %s", g(v))
			}
		}
		o := 0
		if c.Overlap {
			o = 1
		}
		fmt.Fprintf(bw, " %d\n", o)
	}
	return bw.Flush()
}
