package world

import (
	"cmp"
	"fmt"
	"math"
	mathbits "math/bits"
	"slices"

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
//   - A box's bounds lie within its level's reach of a point of its cell
//     (nearShift): its center lies in its cell, or, in the Dynamic grid,
//     within R/2^nearShift of it, its reach and that distance summing to
//     the level's reach or less (offCell); and a level's reach is at most
//     its R (widenNear).
//   - In the Static grid, a block's rectangle holds its boxes' bounds and
//     lies in its cell's rectangle (block_rects.go).
//   - The tiles index every cell and no other (indexRules).
func (w *World) invariants() error {
	placed := 0
	for k := range w.grids {
		g := &w.grids[k]
		if err := g.indexRules(); err != nil {
			return fmt.Errorf("grid %d: %v", k, err)
		}
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
					if err := g.nearRule(cl.key, s.box); err != nil {
						return fmt.Errorf("grid %d: box %#x: %v", k, h, err)
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
						if lo, hi, _ := bound.Box(s.box); !r.holds(lo, hi) {
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
				if cr, r := g.rect(cl.key), &blk.rect; !cr.holds(r.lo(), r.hi()) {
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

// holds reports whether r holds the rectangle [lo, hi].
func (r *cellBounds) holds(lo, hi obb.Vec2) bool {
	return r[0] <= lo.X && r[1] <= lo.Y && r[2] >= hi.X && r[3] >= hi.Y
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

// indexRules returns an error naming the first broken rule of g's index of
// cells (tiles.go, tiles_window.go), or nil: each cell is found by its key,
// through the entry a question reads (its window's or the table's), at its
// tile's entry, which holds its index and first block; the table's masks
// name as many cells as there are and its entries as many tiles; and a
// window's entries agree with the table's.
func (g *grid) indexRules() error {
	for c := range g.cells {
		k := g.cells[c].key
		occ, t := g.entry(tileKey(k))
		s := tileSlot(k)
		switch {
		case g.find(k) != int32(c):
			return fmt.Errorf("cell %d, %v: find gives %d", c, k, g.find(k))
		case occ&(1<<s) == 0 || t == 0:
			return fmt.Errorf("cell %d, %v: its tile's entry (mask %#x, tile %d) misses it", c, k, occ, t)
		case g.tiles[t-1].key != tileKey(k) || g.tiles[t-1].cell[s] != int32(c) || g.tiles[t-1].head[s] != g.cells[c].head:
			return fmt.Errorf("cell %d, %v: tile %d has key %v, cell %d, head %d; the cell's head is %d",
				c, k, t-1, g.tiles[t-1].key, g.tiles[t-1].cell[s], g.tiles[t-1].head[s], g.cells[c].head)
		}
	}
	cells, tiles := 0, 0
	for i := range g.table {
		e := &g.table[i]
		if e.tile == 0 {
			continue
		}
		tiles++
		cells += mathbits.OnesCount64(e.occ)
		if w := g.inWindow(e.key); w != nil && (w.occ != e.occ || w.tile != e.tile) {
			return fmt.Errorf("tile %v: window entry (%#x, %d), table entry (%#x, %d)", e.key, w.occ, w.tile, e.occ, e.tile)
		}
	}
	if cells != len(g.cells) || tiles != len(g.tiles) {
		return fmt.Errorf("the table names %d cells in %d tiles; there are %d cells, %d tiles", cells, tiles, len(g.cells), len(g.tiles))
	}
	for l := range g.windows {
		d := &g.windows[l]
		for i := range d.at[:d.w*d.h] {
			key := cellKey{d.x0 + int32(i)%d.w, d.y0 + int32(i)/d.w, int16(l + minLevel)}
			if e := &d.at[i]; e.tile != 0 && (g.tiles[e.tile-1].key != key || g.findEntry(key) < 0) {
				return fmt.Errorf("window entry of tile %v names tile %d, of key %v", key, e.tile-1, g.tiles[e.tile-1].key)
			}
		}
	}
	return nil
}

// fatRules returns an error naming the first box of w that the candidates
// (fat.go) would lose, or nil, for a World whose last call was Pairs
// (questions between do not count): while the candidates are complete
// (valid), every box in a grid that no step since they were made has left
// pending has fat bounds for its handle, and its bounds lie in them, so
// that every pair it could make is among the candidates; a box that left
// them in the step escaped and was given new ones (refreshFat).
// It then checks the candidates' lists (candRules) and, whether or not
// they are complete, the kernel's records (recordRules).
func (w *World) fatRules() error {
	v := &w.fat
	if !v.valid {
		return w.recordRules()
	}
	for i := range w.slots {
		if !w.settled(i) {
			continue
		}
		s := &w.slots[i]
		h := makeHandle(int32(i), s.gen)
		if i >= len(v.box) || v.box[i].h != h {
			return fmt.Errorf("box %#x: no fat bounds while the candidates are complete", h)
		}
		f := &v.box[i]
		lo, hi, _ := bound.Box(s.box)
		if !(f.lo.X <= lo.X && f.lo.Y <= lo.Y && f.hi.X >= hi.X && f.hi.Y >= hi.Y) {
			return fmt.Errorf("box %#x: bounds %v, %v outside its fat bounds %v, %v after Pairs", h, lo, hi, f.lo, f.hi)
		}
	}
	if err := w.candRules(); err != nil {
		return err
	}
	return w.recordRules()
}

// recordRules returns an error naming the first record of the candidates'
// kernel (fat_candidates.go) that disagrees with its slot, or nil, for a
// World whose last call was Pairs:
//
//   - odd counts the filters by slot that are not DefaultFilter, so that a
//     step reads no filter only when every pair is allowed (testKernel);
//   - after a step that tested the candidates with the kernel, every live
//     box in a grid, not pending, has its pose in its record bit for bit
//     and its filter by slot, unless it is dead, whose record's x is a NaN
//     so that the kernel finds none of its stale keys.
func (w *World) recordRules() error {
	v := &w.fat
	odd := 0
	for _, f := range v.filters {
		odd += int(b2u(f != DefaultFilter))
	}
	if odd != v.odd {
		return fmt.Errorf("%d filters by slot are not DefaultFilter, odd says %d", odd, v.odd)
	}
	if !v.valid || !v.kernel || !v.copied {
		return nil
	}
	for i := range w.slots {
		if !w.settled(i) {
			continue
		}
		s := &w.slots[i]
		h, r := makeHandle(int32(i), s.gen), &v.recs[i]
		if inSet(&v.dead, int32(i)) {
			if r.CX == r.CX {
				return fmt.Errorf("box %#x: dead, its record's x %v", h, r.CX)
			}
			continue
		}
		if !sameBits(r.Box(), s.box) || v.filters[i] != s.filter {
			return fmt.Errorf("box %#x: record %v and filter %v, its slot %v and %v", h, r.Box(), v.filters[i], s.box, s.filter)
		}
	}
	return nil
}

// candRules returns an error naming the first broken rule of the
// candidates' lists, or nil, for a World whose candidates are complete
// (valid) after Pairs. The candidates in use are the keys of cand with
// neither box dead and those of extra (fat_refresh.go).
//
//   - cand and extra ascend, and no key of extra is one of cand in use:
//     the step joins their pairs by merging the two lists.
//   - Every key in use names two live boxes by their current handles,
//     unless one is pending: a box changed in a step that queried (a
//     removed one among them) is checked by the next step that uses the
//     candidates, before it reads them (fatEscapes).
//   - Every two boxes in the grids, neither pending nor both Static, whose
//     fat bounds meet as batch.Meets tells (what a query of the candidates
//     finds, fatQuery) are a key in use: fatRules' boxes in their fat
//     bounds keep their pairs among the candidates only if the candidates
//     hold every pair of fat bounds that meet.
func (w *World) candRules() error {
	v := &w.fat
	inUse := make(map[uint64]bool, len(v.cand)+len(v.extra))
	for _, list := range []struct {
		name string
		keys []uint64
	}{{"cand", v.cand}, {"extra", v.extra}} {
		for j, k := range list.keys {
			if j > 0 && list.keys[j-1] >= k {
				return fmt.Errorf("%s: key %d (%#x) after %#x", list.name, j, k, list.keys[j-1])
			}
			if list.name == "cand" && (inSet(&v.dead, int32(k>>40)) || inSet(&v.dead, int32(uint32(k)>>8))) {
				continue // stale, not in use
			}
			if inSet(&v.pending, int32(k>>40)) || inSet(&v.pending, int32(uint32(k)>>8)) {
				continue // changed in a step that queried, checked by the next that uses the candidates
			}
			if inUse[k] {
				return fmt.Errorf("key %#x in cand and in extra", k)
			}
			if a, b := Handle(k>>32), Handle(k); !w.Contains(a) || !w.Contains(b) || a >= b {
				return fmt.Errorf("%s: candidate %#x: handles %#x, %#x not two live boxes in order", list.name, k, a, b)
			}
			inUse[k] = true
		}
	}
	var in []int32
	for i := range w.slots {
		if w.settled(i) {
			in = append(in, int32(i))
		}
	}
	slices.SortFunc(in, func(a, b int32) int { return cmp.Compare(v.box[a].lo.X, v.box[b].lo.X) })
	for x, i := range in {
		f := &v.box[i]
		for _, j := range in[x+1:] {
			g := &v.box[j]
			if g.lo.X > f.hi.X {
				break
			}
			if w.slots[i].kind == Static && w.slots[j].kind == Static || f.lo.X > g.hi.X || f.lo.Y > g.hi.Y || g.lo.Y > f.hi.Y {
				continue
			}
			if !inUse[key(f.h, g.h)] {
				return fmt.Errorf("boxes %#x and %#x: fat bounds %v, %v and %v, %v meet, not a candidate", f.h, g.h, f.lo, f.hi, g.lo, g.hi)
			}
		}
	}
	return nil
}

// settled reports whether slot i holds a live box in a grid that no step
// since the candidates were made has left pending: a box the candidates
// answer for.
func (w *World) settled(i int) bool {
	s := &w.slots[i]
	return s.live && s.where == inGrid && !inSet(&w.fat.pending, int32(i))
}

// inSet reports whether s holds slot i, which may lie past its bitset.
func inSet(s *slotSet, i int32) bool { return int(i>>6) < len(s.bits) && s.has(i) }

// nearRule returns an error when box x of cell k breaks the rule that its
// bounds lie within the level's reach of a point of the cell (nearShift).
func (g *grid) nearRule(k cellKey, x obb.Box) error {
	if !inner(k.x) || !inner(k.y) {
		return nil // a clamped cell holds centers beyond its square
	}
	r, _ := sizes(int(k.level))
	if reach := g.reach[int(k.level)-minLevel]; reach > r {
		return fmt.Errorf("cell %v: the level's reach %g passes its R, %g", k, reach, r)
	}
	d := offFrom(k, x.Center)
	if d == 0 {
		return nil
	}
	rx, ry, ok := bound.Reach(x)
	switch {
	case g.static || !ok:
		return fmt.Errorf("center %v outside its cell %v", x.Center, k)
	case d > pow2(int(k.level)-nearShift):
		return fmt.Errorf("center %v %g from its cell %v", x.Center, d, k)
	case max(rx, ry)+d > g.reach[int(k.level)-minLevel]:
		return fmt.Errorf("center %v %g from its cell %v, reach %g, the level's %g", x.Center, d, k, max(rx, ry), g.reach[int(k.level)-minLevel])
	}
	return nil
}
