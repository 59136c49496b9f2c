package peers

import (
	"github.com/ByteArena/box2d"
	"github.com/Tarliton/collision2d"
	"github.com/jakecoffman/cp/v2"
	"github.com/solarlune/resolv"

	"github.com/obb2d/obb2d/obb"
)

// corners returns b's corners in float64, counter-clockwise for a box with a
// positive orientation, relative to b's center: u·hx·(±1) + v·hy·(±1).
func corners(b obb.Box) [4][2]float64 {
	ux, uy := float64(b.Axis.X), float64(b.Axis.Y)
	ex, ey := ux*float64(b.Half.X), uy*float64(b.Half.X)
	fx, fy := -uy*float64(b.Half.Y), ux*float64(b.Half.Y)
	return [4][2]float64{
		{-ex - fx, -ey - fy},
		{ex - fx, ey - fy},
		{ex + fx, ey + fy},
		{-ex + fx, -ey + fy},
	}
}

// peer is one library's narrow-phase test. prepare converts every box into
// the library's shape once and returns a test of box i against box j.
type peer struct {
	name    string
	prepare func(boxes []obb.Box) func(i, j int) bool
}

var peerTests = []peer{
	{"collision2d", prepareCollision2D},
	{"box2d-overlap", prepareBox2DOverlap},
	{"box2d-collide", prepareBox2DCollide},
	{"cp", prepareChipmunk},
	{"resolv", prepareResolv},
}

func prepareCollision2D(boxes []obb.Box) func(i, j int) bool {
	polys := make([]collision2d.Polygon, len(boxes))
	for i, b := range boxes {
		c := corners(b)
		pos := collision2d.NewVector(float64(b.Center.X), float64(b.Center.Y))
		polys[i] = collision2d.NewPolygon(pos, collision2d.NewVector(0, 0), 0,
			[]float64{c[0][0], c[0][1], c[1][0], c[1][1], c[2][0], c[2][1], c[3][0], c[3][1]})
	}
	return func(i, j int) bool {
		hit, _ := collision2d.TestPolygonPolygon(polys[i], polys[j])
		return hit
	}
}

// box2dShapes makes each box a B2PolygonShape of its half extents, placed by
// a transform whose rotation is the stored axis.
func box2dShapes(boxes []obb.Box) ([]box2d.B2PolygonShape, []box2d.B2Transform) {
	shapes := make([]box2d.B2PolygonShape, len(boxes))
	xfs := make([]box2d.B2Transform, len(boxes))
	for i, b := range boxes {
		shapes[i] = box2d.MakeB2PolygonShape()
		shapes[i].SetAsBox(float64(b.Half.X), float64(b.Half.Y))
		xfs[i] = box2d.B2Transform{
			P: box2d.B2Vec2{X: float64(b.Center.X), Y: float64(b.Center.Y)},
			Q: box2d.B2Rot{C: float64(b.Axis.X), S: float64(b.Axis.Y)},
		}
	}
	return shapes, xfs
}

func prepareBox2DOverlap(boxes []obb.Box) func(i, j int) bool {
	shapes, xfs := box2dShapes(boxes)
	return func(i, j int) bool {
		return box2d.B2TestOverlapShapes(&shapes[i], 0, &shapes[j], 0, xfs[i], xfs[j])
	}
}

func prepareBox2DCollide(boxes []obb.Box) func(i, j int) bool {
	shapes, xfs := box2dShapes(boxes)
	var m box2d.B2Manifold
	return func(i, j int) bool {
		box2d.B2CollidePolygons(&m, &shapes[i], xfs[i], &shapes[j], xfs[j])
		return m.PointCount > 0
	}
}

// chipmunkShape makes b a polygon on a static body at the origin, with its
// world-space corners, and caches its world-space planes.
func chipmunkShape(b obb.Box, body *cp.Body) *cp.Shape {
	c := corners(b)
	cx, cy := float64(b.Center.X), float64(b.Center.Y)
	verts := make([]cp.Vector, 4)
	for k := range verts {
		verts[k] = cp.Vector{X: cx + c[k][0], Y: cy + c[k][1]}
	}
	s := cp.NewPolyShapeRaw(body, 4, verts, 0)
	s.Update(cp.NewTransformIdentity())
	return s
}

func prepareChipmunk(boxes []obb.Box) func(i, j int) bool {
	body := cp.NewStaticBody()
	shapes := make([]*cp.Shape, len(boxes))
	for i, b := range boxes {
		shapes[i] = chipmunkShape(b, body)
	}
	return func(i, j int) bool { return cp.ShapesCollide(shapes[i], shapes[j]).Count > 0 }
}

// resolvShape makes b a ConvexPolygon at b's center, shifted by (dx, dy)
// because resolv's spaces start at the origin.
func resolvShape(b obb.Box, dx, dy float64) *resolv.ConvexPolygon {
	c := corners(b)
	return resolv.NewConvexPolygon(float64(b.Center.X)+dx, float64(b.Center.Y)+dy,
		[]float64{c[0][0], c[0][1], c[1][0], c[1][1], c[2][0], c[2][1], c[3][0], c[3][1]})
}

func prepareResolv(boxes []obb.Box) func(i, j int) bool {
	shapes := make([]*resolv.ConvexPolygon, len(boxes))
	for i, b := range boxes {
		shapes[i] = resolvShape(b, 0, 0)
	}
	return func(i, j int) bool { return !shapes[i].Intersection(shapes[j]).IsEmpty() }
}
