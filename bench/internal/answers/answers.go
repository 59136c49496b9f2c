// Package answers counts where an overlap test answers differently from the
// exact one, per kind of pair, so the benchmarks can report a peer's or an
// old algorithm's wrong answers beside its time.
package answers

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"text/tabwriter"

	"github.com/obb2d/obb2d/internal/testkit/exact"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
)

// Case is one pair with its exact answer.
type Case struct {
	Kind    string // the scene generator that made it
	A, B    obb.Box
	Overlap bool
	// Slack is the pair's largest per-axis margin, |D·n| - (r_a + r_b), in
	// world units: positive is the gap along the best separating axis,
	// negative the depth of the shallowest overlap.
	Slack float64
	// Size is |D.x| + |D.y| plus the four half extents: the scale of the
	// pair's coordinates.
	Size float64
}

// Sample makes perKind pairs with each of scene.Generators (pairs with NaN,
// infinities or negative extents, which the exact model does not cover, are
// skipped) and decides each exactly. It is slow: about a millisecond a pair.
func Sample(perKind int, seed uint64) []Case {
	r := rand.New(rand.NewPCG(seed, 7))
	var cases []Case
	for _, g := range scene.Generators {
		for i := 0; i < perKind; i++ {
			p := g.Make(r)
			if !exact.Applies(p.A, p.B) {
				continue
			}
			v := exact.Decide(p.A, p.B)
			slack := math.Inf(-1)
			for _, m := range v.Margin {
				f, _ := m.Float64()
				slack = math.Max(slack, f)
			}
			abs := func(x float32) float64 { return math.Abs(float64(x)) }
			size := abs(p.B.Center.X-p.A.Center.X) + abs(p.B.Center.Y-p.A.Center.Y) +
				abs(p.A.Half.X) + abs(p.A.Half.Y) + abs(p.B.Half.X) + abs(p.B.Half.Y)
			cases = append(cases, Case{Kind: g.Name, A: p.A, B: p.B, Overlap: v.Overlap, Slack: slack, Size: size})
		}
	}
	return cases
}

// Kinds lists the kinds in cases in first-seen order.
func Kinds(cases []Case) []string {
	var kinds []string
	seen := map[string]bool{}
	for _, c := range cases {
		if !seen[c.Kind] {
			seen[c.Kind] = true
			kinds = append(kinds, c.Kind)
		}
	}
	return kinds
}

// Tally is one implementation's wrong answers.
type Tally struct {
	Name  string
	Total map[string]int // pairs per kind
	Wrong map[string]int // wrong answers per kind
	// FalseOverlap and FalseMiss split the wrong answers by direction.
	FalseOverlap, FalseMiss int
	// Clear lists the wrong answers on pairs whose |Slack| exceeds the
	// tolerance given to Count: these are not rounding or skin effects.
	Clear []Case
}

// Count runs overlaps on every case. tol(c) is how far from touching a pair
// must be before a wrong answer on it counts as clear.
func Count(name string, cases []Case, overlaps func(a, b obb.Box) bool, tol func(c Case) float64) Tally {
	t := Tally{Name: name, Total: map[string]int{}, Wrong: map[string]int{}}
	for _, c := range cases {
		t.Total[c.Kind]++
		got := overlaps(c.A, c.B)
		if got == c.Overlap {
			continue
		}
		t.Wrong[c.Kind]++
		if got {
			t.FalseOverlap++
		} else {
			t.FalseMiss++
		}
		if math.Abs(c.Slack) > tol(c) {
			t.Clear = append(t.Clear, c)
		}
	}
	return t
}

// Write prints the tallies as a table: one row per implementation, one
// column per kind of pair, each cell the number of wrong answers.
func Write(w io.Writer, kinds []string, tallies []Tally) error {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "wrong answers\t%s\ttotal\tfalse overlap\tfalse miss\tclear\t\n", strings.Join(kinds, "\t"))
	for _, t := range tallies {
		fmt.Fprintf(tw, "%s\t", t.Name)
		sum, all := 0, 0
		for _, k := range kinds {
			fmt.Fprintf(tw, "%d\t", t.Wrong[k])
			sum += t.Wrong[k]
			all += t.Total[k]
		}
		fmt.Fprintf(tw, "%d/%d\t%d\t%d\t%d\t\n", sum, all, t.FalseOverlap, t.FalseMiss, len(t.Clear))
	}
	return tw.Flush()
}

// Entry is one implementation to count: its test and the tolerance passed
// to Count.
type Entry struct {
	Name     string
	Overlaps func(a, b obb.Box) bool
	Tol      func(c Case) float64
}

// Reference is obb2d's own scalar test as an Entry, with a tolerance of
// 1e-5 of the pair's size: far wider than its documented rounding band, so
// any clear wrong answer from it is a bug.
var Reference = Entry{"obb2d", obb.Box.Overlaps, func(c Case) float64 { return 1e-5 * c.Size }}

// CountAll counts every entry on cases and renders the table.
func CountAll(cases []Case, entries []Entry) ([]Tally, string, error) {
	tallies := make([]Tally, len(entries))
	for i, e := range entries {
		tallies[i] = Count(e.Name, cases, e.Overlaps, e.Tol)
	}
	var sb strings.Builder
	err := Write(&sb, Kinds(cases), tallies)
	return tallies, sb.String(), err
}
