// Package peers compares obb2d with published Go collision libraries on the
// same boxes: how long each takes and where each answers differently from
// the exact result. It is a module of its own so that obb2d never depends
// on them or on the plotting library its chart command uses; every peer is
// pinned to one version in go.mod:
//
//   - github.com/Tarliton/collision2d v0.1.0: TestPolygonPolygon (SAT on
//     polygons).
//   - github.com/ByteArena/box2d v1.0.2: B2TestOverlapShapes (GJK distance,
//     with Box2D's 0.01 polygon skin), B2CollidePolygons (contact manifold),
//     its dynamic AABB tree and its broad phase (B2BroadPhase).
//   - github.com/jakecoffman/cp/v2 v2.4.0 (Chipmunk2D): ShapesCollide and a
//     space's shape queries.
//   - github.com/solarlune/resolv v0.8.1: ConvexPolygon.Intersection, which
//     looks for crossing edges, and its cell grid.
//
// Run from this directory:
//
//	go test -run Answers -v                        # wrong answers per peer and kind of pair
//	go test -run '^$' -bench . -count 10 > peers.txt
//	benchstat -col /impl peers.txt
//
// Each peer gets the box as its own shape type, built from the float32
// fields in float64 before the timer starts: corners c ± u·hx ± v·hy, or
// half extents with a rotation of (cos, sin) = the stored axis. The
// conversion itself rounds, so a peer can differ from the exact answer on
// pairs within about 1e-15 of the pair's size from touching without being
// wrong; the answer tables separate those from clear errors.
package peers
