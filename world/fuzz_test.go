package world_test

import (
	"math/rand/v2"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
	"github.com/obb2d/obb2d/world"
)

// FuzzWorld drives a World and the model with the operations the input
// spells (Insert, InsertBoxes, Move, MoveBoxes, Remove, SetKind, SetFilter,
// Clear), on boxes built from its bytes (small coordinates, the hostile
// values of package scene, huge and tiny sizes), and compares every answer,
// and checks the World's layout (world.Invariants), at each check it spells.
// An input of odd length runs as in a large world (world.SortAll): sorted
// passes, and Moves that leave their blocks to the next reader; of those,
// one in two with two workers, whose Moves leave their cells to the next
// reader too.
func FuzzWorld(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 0, 9, 9, 9, 9, 9, 9, 9, 200})
	f.Add([]byte{0, 10, 10, 0, 0, 4, 4, 0, 0, 10, 11, 0, 0, 4, 4, 0, 255, 100, 1, 50, 50, 0, 0, 4, 4, 0, 255})
	f.Add([]byte{0, 1, 1, 200, 1, 2, 2, 1, 0, 1, 1, 0, 0, 2, 2, 1, 150, 0, 255})
	// Two touching boxes, then MoveBoxes takes the second away.
	f.Add([]byte{0, 112, 112, 116, 116, 0, 0, 0, 120, 112, 116, 116, 0, 0, 180, 1, 140, 112, 116, 116, 0, 0, 255})
	// Of length 3 mod 4: two workers, whose Moves leave the boxes' cells
	// to the next reader, and a box moved out of its cell.
	f.Add([]byte("000ax000000000x0\x00\x00xx000"))
	// Two touching boxes, one Dynamic and one Static; the first turns
	// Static, so the pair ends, then the second Dynamic, so it begins.
	f.Add([]byte{0, 112, 112, 116, 116, 0, 0, 1, 120, 112, 116, 116, 0, 0, 255, 112, 112, 116, 116, 0, 0, 112, 112, 116, 116, 0, 0,
		241, 0, 255, 112, 112, 116, 116, 0, 0, 112, 112, 116, 116, 0, 0, 240, 1})
	// Two touching boxes; a filter change forbids their pair, then Clear,
	// and two boxes overlap afresh. Each check (255) reads two query boxes.
	f.Add([]byte{0, 112, 112, 116, 116, 0, 0, 0, 120, 112, 116, 116, 0, 0, 255, 112, 112, 116, 116, 0, 0, 112, 112, 116, 116, 0, 0,
		250, 0, 1, 255, 112, 112, 116, 116, 0, 0, 112, 112, 116, 116, 0, 0,
		251, 0, 112, 112, 116, 116, 0, 0, 0, 113, 112, 116, 116, 0, 0, 255, 112, 112, 116, 116, 0, 0, 112, 112, 116, 116, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		world.SortAll(len(data)%2 == 1)
		defer world.SortAll(false)
		w, m := world.New(), &model{}
		if len(data)%4 == 3 {
			w.Workers = 2
		}
		r := rand.New(rand.NewPCG(uint64(len(data)), 1))
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return b
		}
		value := func() float32 {
			b := next()
			if b >= 224 {
				return scene.Hostile[int(b-224)%len(scene.Hostile)]
			}
			return float32(int(b)-112) / 4
		}
		box := func() obb.Box {
			b := obb.FromHalf(obb.Vec2{X: value(), Y: value()}, obb.Vec2{X: value(), Y: value()}, float64(next())/16)
			if next()&1 == 1 {
				b.Axis = obb.Vec2{X: value(), Y: value()}
			}
			return b
		}
		for len(data) > 0 {
			switch op := next(); {
			case op >= 96 && op < 100:
				// InsertBoxes of one to four boxes.
				var bs soa.Boxes
				for range 1 + op%4 {
					bs.Append(box())
				}
				k := world.Kind(op & 1)
				for i, h := range w.InsertBoxes(nil, &bs, k, world.DefaultFilter) {
					m.insert(h, bs.At(i), k, world.DefaultFilter)
				}
			case op < 100 || len(m.h) == 0:
				b := box()
				k, f := world.Kind(op&1), fuzzFilter(op>>1)
				m.insert(w.Insert(b, k, f), b, k, f)
			case op < 180:
				i := int(next()) % len(m.h)
				b := box()
				w.Move(m.h[i], b)
				m.box[i] = b
			case op < 200:
				// MoveBoxes of one to four boxes, a handle possibly twice.
				var hs []world.Handle
				var bs soa.Boxes
				for range 1 + op%4 {
					i := int(next()) % len(m.h)
					b := box()
					hs = append(hs, m.h[i])
					bs.Append(b)
					m.box[i] = b
				}
				w.MoveBoxes(hs, &bs)
			case op < 240:
				i := int(next()) % len(m.h)
				w.Remove(m.h[i])
				m.remove(i)
			case op < 250:
				i := int(next()) % len(m.h)
				k := world.Kind(op & 1)
				w.SetKind(m.h[i], k)
				m.kind[i] = k
			case op == 250:
				i := int(next()) % len(m.h)
				f := fuzzFilter(next())
				w.SetFilter(m.h[i], f)
				m.filter[i] = f
			case op == 251:
				w.Clear()
				m.clear()
			default:
				check(t, w, m, r, []obb.Box{box(), box()}, "fuzz")
			}
		}
		check(t, w, m, r, []obb.Box{box()}, "end")
	})
}

// fuzzFilter is the filter that FuzzWorld's Insert and SetFilter spell
// with the low three bits of b: category 1 or 2, and a mask that holds 1.
func fuzzFilter(b byte) world.Filter {
	return world.Filter{Category: 1 << (b & 1), Mask: uint32(b>>1&3) | 1}
}
