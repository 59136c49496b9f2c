package peers

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ByteArena/box2d"

	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

// stepper is one library's persistent structure finding the overlapping
// pairs of a world of moving boxes, step after step: setup builds it from
// the boxes, and the returned function moves boxes ids to poses and
// returns how many pairs overlap after the move.
type stepper struct {
	name  string
	setup func(boxes []obb.Box) func(ids []int32, poses []obb.Box) int
}

var stepImpls = []stepper{
	{"obb2d-world", func(boxes []obb.Box) func([]int32, []obb.Box) int {
		w := world.New()
		hs := make([]world.Handle, len(boxes))
		for i, b := range boxes {
			hs[i] = w.Insert(b, world.Dynamic, world.DefaultFilter)
		}
		pairs := w.Pairs(nil)
		var moved []world.Handle
		var b soa.Boxes
		return func(ids []int32, poses []obb.Box) int {
			moved = moved[:0]
			b.Reset()
			for j, i := range ids {
				moved = append(moved, hs[i])
				b.Append(poses[j])
			}
			w.MoveBoxes(moved, &b)
			pairs = w.Pairs(pairs[:0])
			return len(pairs)
		}
	}},
	{"box2d-broadphase", newBox2DStep},
}

// box2dStep is Box2D's way to keep a world's pairs (Catto, b2_broad_phase
// and b2_contact_manager in Box2D v2.3, whose broad phase ByteArena/box2d
// ports): the broad phase keeps each box's fat AABB in its dynamic tree
// and, when a box leaves its fat AABB, queries the tree for the boxes whose
// fat AABBs meet its new one (UpdatePairs); a contact, one per such pair,
// lives until the two fat AABBs part, and a step tests the contacts of the
// boxes that moved, as Box2D's contact manager tests those of awake bodies.
// Box2D's manager walks every contact and skips the asleep; this one walks
// the moved boxes' lists, which favours it. Its narrow phase is
// obb.Box.Overlaps, the test obb2d's World makes, so that the two count the
// same pairs and the difference is the structure around the test.
type box2dStep struct {
	bp       box2d.B2BroadPhase
	proxy    []int
	boxes    []obb.Box
	edges    [][]int32 // the contacts of each box
	contacts []b2Contact
	free     []int32
	stamp    uint32
	touching int
}

type b2Contact struct {
	a, b     int32
	stamp    uint32 // the step that last tested it
	touching bool
}

func newBox2DStep(boxes []obb.Box) func([]int32, []obb.Box) int {
	s := &box2dStep{bp: box2d.MakeB2BroadPhase(), boxes: slices.Clone(boxes), edges: make([][]int32, len(boxes))}
	for i, b := range boxes {
		s.proxy = append(s.proxy, s.bp.CreateProxy(aabb(b), int32(i)))
	}
	s.step(nil, nil) // every new proxy is in the move buffer
	return s.step
}

// aabb returns b's bounding box, widened by a millionth of a unit and of
// its coordinates' size so that float64 rounding never leaves a corner out.
func aabb(b obb.Box) box2d.B2AABB {
	cx, cy := float64(b.Center.X), float64(b.Center.Y)
	ux, uy := math.Abs(float64(b.Axis.X)), math.Abs(float64(b.Axis.Y))
	hx, hy := float64(b.Half.X), float64(b.Half.Y)
	rx, ry := ux*hx+uy*hy, uy*hx+ux*hy
	pad := 1e-6 * (1 + math.Abs(cx) + math.Abs(cy) + rx + ry)
	return box2d.B2AABB{
		LowerBound: box2d.B2Vec2{X: cx - rx - pad, Y: cy - ry - pad},
		UpperBound: box2d.B2Vec2{X: cx + rx + pad, Y: cy + ry + pad},
	}
}

func (s *box2dStep) step(ids []int32, poses []obb.Box) int {
	for j, i := range ids {
		old := s.boxes[i].Center
		s.boxes[i] = poses[j]
		d := box2d.B2Vec2{X: float64(poses[j].Center.X) - float64(old.X), Y: float64(poses[j].Center.Y) - float64(old.Y)}
		s.bp.MoveProxy(s.proxy[i], aabb(poses[j]), d)
	}
	s.bp.UpdatePairs(s.addPair)
	s.stamp++
	for _, i := range ids {
		s.collide(i)
	}
	return s.touching
}

// addPair makes a contact for boxes a and b unless they have one, as
// b2ContactManager::AddPair does by walking one box's contacts.
func (s *box2dStep) addPair(ua, ub any) {
	a, b := ua.(int32), ub.(int32)
	for _, c := range s.edges[a] {
		if k := &s.contacts[c]; k.a^k.b^a == b {
			return
		}
	}
	var c int32
	if n := len(s.free); n > 0 {
		c, s.free = s.free[n-1], s.free[:n-1]
	} else {
		c = int32(len(s.contacts))
		s.contacts = append(s.contacts, b2Contact{})
	}
	s.contacts[c] = b2Contact{a: a, b: b}
	s.edges[a] = append(s.edges[a], c)
	s.edges[b] = append(s.edges[b], c)
	s.collide1(c)
}

// collide tests box i's contacts not yet tested this step, destroying
// those whose fat AABBs no longer meet.
func (s *box2dStep) collide(i int32) {
	for j := 0; j < len(s.edges[i]); {
		c := s.edges[i][j]
		k := &s.contacts[c]
		if k.stamp == s.stamp {
			j++
			continue
		}
		if !s.bp.TestOverlap(s.proxy[k.a], s.proxy[k.b]) {
			s.destroy(c)
			continue // the last contact took place j
		}
		s.collide1(c)
		j++
	}
}

func (s *box2dStep) collide1(c int32) {
	k := &s.contacts[c]
	k.stamp = s.stamp
	t := s.boxes[k.a].Overlaps(s.boxes[k.b])
	if t != k.touching {
		if t {
			s.touching++
		} else {
			s.touching--
		}
		k.touching = t
	}
}

func (s *box2dStep) destroy(c int32) {
	k := s.contacts[c]
	for _, i := range [2]int32{k.a, k.b} {
		e := s.edges[i]
		at := slices.Index(e, c)
		e[at] = e[len(e)-1]
		s.edges[i] = e[:len(e)-1]
	}
	if k.touching {
		s.touching--
	}
	s.free = append(s.free, c)
}

// BenchmarkPeerStep runs physics steps on the uniform scene's boxes, all
// moving: every hundredth box (moved=1%) or every box (moved=100%)
// alternates between two poses a small random step apart, as
// BenchmarkWorldStep moves them, and each library finds the overlapping
// pairs after the move. It reports ns per moved box and the pairs at
// either pose, which must agree.
func BenchmarkPeerStep(b *testing.B) {
	for _, n := range []int{10000, 100000, 1000000, 4000000} {
		if testing.Short() && n > 10000 {
			continue
		}
		all := uniformBoxes(n, uint64(n))
		for _, moved := range []int{1, 100} {
			var ids []int32
			var poses [2][]obb.Box
			r := rand.New(rand.NewPCG(1, 2))
			for i := 0; i < n; i += 100 / moved {
				a := all[i]
				poses[0] = append(poses[0], a)
				a.Center = a.Center.Add(obb.Vec2{X: float32(r.NormFloat64() * 0.05), Y: float32(r.NormFloat64() * 0.05)})
				poses[1] = append(poses[1], a)
				ids = append(ids, int32(i))
			}
			for _, im := range stepImpls {
				b.Run(fmt.Sprintf("world=uniform/moved=%d%%/impl=%s/n=%d", moved, im.name, n), func(b *testing.B) {
					step := im.setup(all)
					for k := range 4 {
						step(ids, poses[k&1])
					}
					for k := 0; b.Loop(); k++ {
						step(ids, poses[k&1])
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ids)), "ns/moved")
					// The pairs at the two poses, after the timer, which every
					// library must count alike.
					b.ReportMetric(float64(step(ids, poses[0])), "pairs0")
					b.ReportMetric(float64(step(ids, poses[1])), "pairs1")
				})
			}
		}
	}
}

// TestStepAnswers checks that BenchmarkPeerStep's steppers count the
// pairs brute force counts, step after step, on a small uniform scene.
func TestStepAnswers(t *testing.T) {
	all := uniformBoxes(2000, 3)
	r := rand.New(rand.NewPCG(7, 7))
	for _, im := range stepImpls {
		cur := slices.Clone(all)
		step := im.setup(cur)
		for k := range 8 {
			var ids []int32
			var poses []obb.Box
			for i := range cur {
				if r.IntN(4) == 0 {
					a := cur[i]
					a.Center = a.Center.Add(obb.Vec2{X: float32(r.NormFloat64() * 0.2), Y: float32(r.NormFloat64() * 0.2)})
					cur[i] = a
					ids, poses = append(ids, int32(i)), append(poses, a)
				}
			}
			want := 0
			for i := range cur {
				for j := i + 1; j < len(cur); j++ {
					if cur[i].Overlaps(cur[j]) {
						want++
					}
				}
			}
			if got := step(ids, poses); got != want {
				t.Fatalf("%s: step %d: %d pairs, brute force %d", im.name, k, got, want)
			}
		}
	}
}
