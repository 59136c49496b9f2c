package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/obb2d/obb2d/kernel"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/pairs"
	"github.com/obb2d/obb2d/soa"
)

// writeSVG draws the part of the world within radius of center: every box
// from its corners, red where it overlaps another footprint (found holds the
// all-pairs result), green where it is free, the planned buildings in blue,
// filled where the placement is blocked, and the contact points of the
// overlapping pairs as dots with their normals as short strokes.
func writeSVG(path string, world *soa.Boxes, found []pairs.Pair, contacts []pairs.Contact, plans []kernel.Query, center obb.Vec2, radius float32) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	hit := make([]bool, world.Len())
	for _, p := range found {
		hit[p.I], hit[p.J] = true, true
	}
	const px = 900
	scale := px / (2 * radius)
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", px, px+30, px, px+30)
	fmt.Fprintf(w, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	// World y grows upward; SVG y grows downward.
	poly := func(b obb.Box, style string) {
		fmt.Fprintf(w, `<polygon points="`)
		for _, c := range b.Corners() {
			fmt.Fprintf(w, "%.2f,%.2f ", (c.X-center.X+radius)*scale, (radius-(c.Y-center.Y))*scale)
		}
		fmt.Fprintf(w, `" %s/>`+"\n", style)
	}
	inView := func(b obb.Box) bool {
		min, max := b.Bounds()
		return max.X >= center.X-radius && min.X <= center.X+radius && max.Y >= center.Y-radius && min.Y <= center.Y+radius
	}
	for i := 0; i < world.Len(); i++ {
		b := world.At(i)
		if !inView(b) {
			continue
		}
		style := `fill="#b8e0b0" stroke="#2a7a2a" stroke-width="1"`
		if hit[i] {
			style = `fill="#f2b0a8" stroke="#c0392b" stroke-width="1.5"`
		}
		poly(b, style)
	}
	for i := range plans {
		b := plans[i].Box()
		if !inView(b) {
			continue
		}
		style := `fill="none" stroke="#1f4fd0" stroke-width="2.5"`
		if len(kernel.AppendOverlapping(nil, &plans[i], world)) > 0 {
			style = `fill="#1f4fd0" fill-opacity="0.35" stroke="#1f4fd0" stroke-width="2.5"`
		}
		poly(b, style)
	}
	toSVG := func(p obb.Vec2) (float32, float32) {
		return (p.X - center.X + radius) * scale, (radius - (p.Y - center.Y)) * scale
	}
	for _, c := range contacts {
		m := c.Manifold
		for k := range m.Count {
			p := m.Points[k].Point
			if p.X < center.X-radius || p.X > center.X+radius || p.Y < center.Y-radius || p.Y > center.Y+radius {
				continue
			}
			x, y := toSVG(p)
			x2, y2 := toSVG(p.Add(m.Normal.Scale(0.8)))
			fmt.Fprintf(w, `<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="#6a1b9a" stroke-width="1.5"/>`+"\n", x, y, x2, y2)
			fmt.Fprintf(w, `<circle cx="%.2f" cy="%.2f" r="2.5" fill="#6a1b9a"/>`+"\n", x, y)
		}
	}
	fmt.Fprintf(w, `<text x="8" y="%d" font-family="sans-serif" font-size="14">green: free · red: overlaps another · blue: planned building (filled: blocked) · purple: contact points and normals · %g units across</text>`+"\n", px+20, 2*radius)
	fmt.Fprintln(w, "</svg>")
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
