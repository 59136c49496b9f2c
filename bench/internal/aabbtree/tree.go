// Package aabbtree is the baseline the all-pairs benchmarks compare with: a
// dynamic AABB tree (incremental insertion, the sibling chosen by least
// enlarged area, as in common physics engines) queried once per box, and a
// per-pair separating-axis test written the usual way, in float64 with the
// corners projected onto each box's edge normals. It is deliberately a
// plain, competent implementation, not a tuned one.
package aabbtree

import "math"

// AABB is an axis-aligned box.
type AABB struct{ MinX, MinY, MaxX, MaxY float64 }

func (a AABB) union(b AABB) AABB {
	return AABB{math.Min(a.MinX, b.MinX), math.Min(a.MinY, b.MinY), math.Max(a.MaxX, b.MaxX), math.Max(a.MaxY, b.MaxY)}
}

func (a AABB) area() float64 { return (a.MaxX - a.MinX) * (a.MaxY - a.MinY) }

func (a AABB) overlaps(b AABB) bool {
	return a.MinX <= b.MaxX && b.MinX <= a.MaxX && a.MinY <= b.MaxY && b.MinY <= a.MaxY
}

type node struct {
	box                 AABB
	parent, left, right int32
	item                int32 // leaf: the item; internal: -1
}

// Tree is a dynamic AABB tree of items named by index.
type Tree struct {
	nodes []node
	root  int32
	stack []int32
}

// Reset empties the tree, keeping its memory.
func (t *Tree) Reset() { t.nodes, t.root = t.nodes[:0], -1 }

// Insert adds item with bounds box.
func (t *Tree) Insert(item int32, box AABB) {
	leaf := int32(len(t.nodes))
	t.nodes = append(t.nodes, node{box: box, parent: -1, left: -1, right: -1, item: item})
	if t.root < 0 || len(t.nodes) == 1 {
		t.root = leaf
		return
	}
	// Walk down to the sibling whose bounds grow least.
	s := t.root
	for t.nodes[s].item < 0 {
		n := t.nodes[s]
		l, r := t.nodes[n.left], t.nodes[n.right]
		cl := l.box.union(box).area() - l.box.area()
		cr := r.box.union(box).area() - r.box.area()
		if cl <= cr {
			s = n.left
		} else {
			s = n.right
		}
	}
	parent := int32(len(t.nodes))
	old := t.nodes[s].parent
	t.nodes = append(t.nodes, node{box: t.nodes[s].box.union(box), parent: old, left: s, right: leaf, item: -1})
	t.nodes[s].parent = parent
	t.nodes[leaf].parent = parent
	if old < 0 {
		t.root = parent
	} else if t.nodes[old].left == s {
		t.nodes[old].left = parent
	} else {
		t.nodes[old].right = parent
	}
	for p := old; p >= 0; p = t.nodes[p].parent {
		t.nodes[p].box = t.nodes[t.nodes[p].left].box.union(t.nodes[t.nodes[p].right].box)
	}
}

// Query calls visit for every item whose bounds overlap box.
func (t *Tree) Query(box AABB, visit func(item int32)) {
	if t.root < 0 {
		return
	}
	t.stack = append(t.stack[:0], t.root)
	for len(t.stack) > 0 {
		n := t.nodes[t.stack[len(t.stack)-1]]
		t.stack = t.stack[:len(t.stack)-1]
		if !n.box.overlaps(box) {
			continue
		}
		if n.item >= 0 {
			visit(n.item)
			continue
		}
		t.stack = append(t.stack, n.left, n.right)
	}
}

// Rect is an oriented rectangle in float64.
type Rect struct{ CX, CY, UX, UY, HX, HY float64 }

// Corners returns the four corners.
func (r Rect) Corners() [4][2]float64 {
	ex, ey := r.HX*r.UX, r.HX*r.UY
	fx, fy := -r.HY*r.UY, r.HY*r.UX
	return [4][2]float64{
		{r.CX - ex - fx, r.CY - ey - fy}, {r.CX + ex - fx, r.CY + ey - fy},
		{r.CX + ex + fx, r.CY + ey + fy}, {r.CX - ex + fx, r.CY - ey + fy},
	}
}

// Bounds returns the rectangle's AABB.
func (r Rect) Bounds() AABB {
	ex := r.HX*math.Abs(r.UX) + r.HY*math.Abs(r.UY)
	ey := r.HX*math.Abs(r.UY) + r.HY*math.Abs(r.UX)
	return AABB{r.CX - ex, r.CY - ey, r.CX + ex, r.CY + ey}
}

// SAT is the per-pair test as usually written: project both boxes' corners
// onto each of the four edge normals and compare the intervals.
func SAT(a, b Rect) bool {
	ca, cb := a.Corners(), b.Corners()
	for _, n := range [4][2]float64{{a.UX, a.UY}, {-a.UY, a.UX}, {b.UX, b.UY}, {-b.UY, b.UX}} {
		amin, amax := math.Inf(1), math.Inf(-1)
		bmin, bmax := math.Inf(1), math.Inf(-1)
		for k := 0; k < 4; k++ {
			pa := ca[k][0]*n[0] + ca[k][1]*n[1]
			pb := cb[k][0]*n[0] + cb[k][1]*n[1]
			amin, amax = math.Min(amin, pa), math.Max(amax, pa)
			bmin, bmax = math.Min(bmin, pb), math.Max(bmax, pb)
		}
		if amax < bmin || bmax < amin {
			return false
		}
	}
	return true
}
