package world

import (
	"fmt"
	"math"

	"github.com/obb2d/obb2d/internal/bound"
	"github.com/obb2d/obb2d/obb"
)

// invariants returns an error naming the first broken rule of w's layout,
// or nil, for a World whose lanes hold their slots' poses (after a
// catch-up, lag.go). Questions see a broken rule only when one of theirs
// happens to meet the one box it affects; the model and fuzz tests check
// the rules after every batch of operations, so that such a box is found
// whatever the questions asked.
//
//   - A live box in a grid is at its slot's block and lane, which hold its
//     handle, its filter and its pose bit for bit, in a cell of its slot's
//     key; a box in the infinite list is at its slot's index there.
//   - Every lane of every cell's blocks holds a live box of the grid's Kind,
//     so the grids and the list hold exactly the live boxes that have no NaN.
//   - A cell's count is its blocks' lanes; only its first block has room.
//   - A block's common categories are the AND of its lanes' categories.
//   - While the candidates are in use (fat.go), a lane's fat bounds are
//     those its box's slot keeps, if it keeps any for the box.
//   - In the Static grid, a block's rectangle holds its boxes' bounds and
//     lies in its cell's rectangle (block_rects.go).
func (w *World) invariants() error {
	placed := 0
	for k := range w.grids {
		g := &w.grids[k]
		for c := range g.cells {
			cl := &g.cells[c]
			boxes := int32(0)
			for b := cl.head; b >= 0; b = g.blocks[b].next {
				blk := &g.blocks[b]
				if blk.cell != int32(c) {
					return fmt.Errorf("grid %d: cell %v: block %d names cell %d", k, cl.key, b, blk.cell)
				}
				if b != cl.head && blk.n != blockLanes {
					return fmt.Errorf("grid %d: cell %v: block %d of %d boxes is not the cell's first", k, cl.key, b, blk.n)
				}
				boxes += blk.n
				common := ^uint32(0)
				for lane := range blk.n {
					h := blk.h[lane]
					s := &w.slots[h>>8]
					switch {
					case !s.live || s.gen != uint8(h):
						return fmt.Errorf("grid %d: block %d lane %d holds %#x, which is not live", k, b, lane, h)
					case s.where != inGrid || int(s.kind) != k || s.block != b || s.lane != lane || s.cell != cl.key:
						return fmt.Errorf("grid %d: block %d lane %d holds %#x, whose slot says grid %d, block %d, lane %d, cell %v",
							k, b, lane, h, s.kind, s.block, s.lane, s.cell)
					case blk.f[lane] != s.filter:
						return fmt.Errorf("grid %d: box %#x: filter %v in its lane, %v in its slot", k, h, blk.f[lane], s.filter)
					case !sameBits(blk.at(lane), s.box):
						return fmt.Errorf("grid %d: box %#x: pose %v in its lane, %v in its slot", k, h, blk.at(lane), s.box)
					}
					common &= blk.f[lane].Category
					if g.keepFat {
						f := &g.fat[b]
						lo, hi := obb.Vec2{X: f[0][lane], Y: f[1][lane]}, obb.Vec2{X: f[2][lane], Y: f[3][lane]}
						if int(h>>8) < len(w.fat.box) && w.fat.box[h>>8].h == h {
							if fb := &w.fat.box[h>>8]; lo != fb.lo || hi != fb.hi {
								return fmt.Errorf("grid %d: box %#x: fat bounds %v, %v in its lane, %v, %v in its slot", k, h, lo, hi, fb.lo, fb.hi)
							}
						}
					}
					if g.static {
						r := &blk.rect
						lo, hi, _ := bound.Box(s.box)
						if !(r[0] <= lo.X && r[1] <= lo.Y && r[2] >= hi.X && r[3] >= hi.Y) {
							return fmt.Errorf("static cell %v: box %#x (bounds %v, %v) outside its block's rectangle %v", cl.key, h, lo, hi, *r)
						}
					}
				}
				if blk.common != common {
					return fmt.Errorf("grid %d: block %d: common categories %#x, its lanes' %#x", k, b, blk.common, common)
				}
				if !g.static || blk.n == 0 {
					continue
				}
				if cr, r := g.rect(cl.key), &blk.rect; !(cr[0] <= r[0] && cr[1] <= r[1] && cr[2] >= r[2] && cr[3] >= r[3]) {
					return fmt.Errorf("static cell %v: block rectangle %v outside the cell's %v", cl.key, *r, *cr)
				}
			}
			if boxes != cl.boxes {
				return fmt.Errorf("grid %d: cell %v counts %d boxes, its blocks hold %d", k, cl.key, cl.boxes, boxes)
			}
			placed += int(boxes)
		}
	}
	for i, h := range w.infinite {
		if s := &w.slots[h>>8]; !s.live || s.gen != uint8(h) || s.where != inInfinite || s.block != int32(i) {
			return fmt.Errorf("infinite list: %#x at %d, whose slot says live %v, where %d, index %d", h, i, s.live, s.where, s.block)
		}
	}
	placed += len(w.infinite)
	live := 0
	for i := range w.slots {
		if s := &w.slots[i]; s.live && s.where != inNaN {
			live++
		}
	}
	if placed != live {
		return fmt.Errorf("the grids and the infinite list hold %d boxes, %d live boxes are placed", placed, live)
	}
	return nil
}

// sameBits reports whether a and b have the same bits in every field.
func sameBits(a, b obb.Box) bool {
	return math.Float32bits(a.Center.X) == math.Float32bits(b.Center.X) &&
		math.Float32bits(a.Center.Y) == math.Float32bits(b.Center.Y) &&
		math.Float32bits(a.Half.X) == math.Float32bits(b.Half.X) &&
		math.Float32bits(a.Half.Y) == math.Float32bits(b.Half.Y) &&
		math.Float32bits(a.Axis.X) == math.Float32bits(b.Axis.X) &&
		math.Float32bits(a.Axis.Y) == math.Float32bits(b.Axis.Y)
}
