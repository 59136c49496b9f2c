package world

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// crowdedMap is the mixed scene, one box in a hundred a hundred times
// larger, with the boxes of every fifth row of 100 units piled at the
// row's middle: cells of both levels that hold many blocks.
func crowdedMap(r *rand.Rand, n int) *soa.Boxes {
	var b soa.Boxes
	scene.Uniform(r, n, &b)
	for i := range b.Len() {
		switch {
		case r.IntN(100) == 0:
			b.HX[i], b.HY[i] = 100*b.HX[i], 100*b.HY[i]
		case int(b.CY[i]/100)%5 == 0:
			b.CX[i] = b.CX[i]/20 + 200
		}
	}
	return &b
}

// checkBlockRects checks what the Static grid's block rectangles promise,
// with the rest of w's layout (invariants_test.go): each holds its boxes'
// bounds and lies within its cell's rectangle, and a cell's first block is
// its only partly full one. Its callers ask after a question or Pairs, so
// the lanes hold their slots' poses.
func checkBlockRects(t *testing.T, w *World, what string) {
	t.Helper()
	if err := w.invariants(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// TestBlockRectsLayOut checks that a load lays a crowded cell's boxes out
// in blocks that each cover a part of the cell: the mean area of a block's
// rectangle is under a quarter of its cell's, where blocks filled in the
// caller's order each cover most of it.
func TestBlockRectsLayOut(t *testing.T) {
	b := crowdedMap(rand.New(rand.NewPCG(3, 3)), 20000)
	w := New()
	w.InsertBoxes(nil, b, Static, DefaultFilter)
	checkBlockRects(t, w, "load")
	g := &w.grids[Static]
	area := func(r *cellBounds) float64 { return float64(r[2]-r[0]) * float64(r[3]-r[1]) }
	var share float64
	crowded := 0
	for c := range g.cells {
		if g.cells[c].boxes <= 4*blockLanes {
			continue
		}
		crowded++
		cell, sum, blocks := area(g.rect(g.cells[c].key)), 0.0, 0
		for b := g.cells[c].head; b >= 0; b = g.blocks[b].next {
			sum += area(&g.blocks[b].rect)
			blocks++
		}
		share += sum / float64(blocks) / cell
	}
	if crowded < 10 {
		t.Fatalf("only %d cells of more than 4 blocks", crowded)
	}
	if share /= float64(crowded); share > 0.25 {
		t.Fatalf("a crowded cell's block covers %.2f of its cell on average", share)
	}
}

// TestBlockRects runs Inserts, Moves, MoveBoxes and Removes of Static
// boxes in crowded cells, and Dynamic boxes among them, checking the
// block rectangles and every question that skips blocks by them (Query,
// Any, QueryPoint, RayCastAll, Pairs) against brute force.
func TestBlockRects(t *testing.T) {
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprint("workers=", workers), func(t *testing.T) {
			r := rand.New(rand.NewPCG(5, uint64(workers)))
			src := crowdedMap(r, 2000)
			w := New()
			w.Workers = workers
			live := map[Handle]Kind{}
			for _, h := range w.InsertBoxes(nil, src, Static, DefaultFilter) {
				live[h] = Static
			}
			var units []Handle // Dynamic boxes, a few of which move in a step
			for range 400 {
				h := w.Insert(src.At(r.IntN(src.Len())), Dynamic, DefaultFilter)
				live[h] = Dynamic
				units = append(units, h)
			}
			var order []Handle // the live handles, for picking
			for h := range live {
				order = append(order, h)
			}
			slices.Sort(order)
			pick := func() Handle { return order[r.IntN(len(order))] }
			jitter := func(x obb.Box, d float64) obb.Box {
				x.Center = x.Center.Add(obb.Vec2{X: float32(d * r.NormFloat64()), Y: float32(d * r.NormFloat64())})
				return x
			}
			rounds := 12
			if testing.Short() {
				rounds = 4
			}
			for round := range rounds {
				for range 60 {
					switch op := r.IntN(10); {
					case op < 3:
						h := pick()
						w.Move(h, jitter(w.Box(h), []float64{0.01, 1, 50}[r.IntN(3)]))
					case op < 5:
						var hs []Handle
						var bs soa.Boxes
						for range 1 + r.IntN(20) {
							h := pick()
							if !slices.Contains(hs, h) {
								hs = append(hs, h)
								bs.Append(jitter(w.Box(h), 0.3))
							}
						}
						w.MoveBoxes(hs, &bs)
					case op < 7:
						i := r.IntN(len(order))
						w.Remove(order[i])
						delete(live, order[i])
						order[i] = order[len(order)-1]
						order = order[:len(order)-1]
					default:
						k := Static
						if r.IntN(3) == 0 {
							k = Dynamic
						}
						h := w.Insert(jitter(src.At(r.IntN(src.Len())), 2), k, DefaultFilter)
						live[h] = k
						order = append(order, h)
					}
				}
				what := fmt.Sprint("round ", round)
				w.Pairs(nil) // lays out pending moves
				checkBlockRects(t, w, what)
				hs := make([]Handle, 0, len(live))
				for h := range live {
					hs = append(hs, h)
				}
				slices.Sort(hs)
				for range 40 {
					q := jitter(src.At(r.IntN(src.Len())), 20)
					q.Half = obb.Vec2{X: q.Half.X * float32(r.Float64()), Y: q.Half.Y * float32(r.Float64())}
					var want, wantPoint []Handle
					for _, h := range hs {
						if q.Overlaps(w.Box(h)) {
							want = append(want, h)
						}
						if w.Box(h).ContainsPoint(q.Center) {
							wantPoint = append(wantPoint, h)
						}
					}
					if got := w.Query(nil, q, ^uint32(0)); !slices.Equal(got, want) {
						t.Fatalf("%s: Query(%v) = %v, want %v", what, q, got, want)
					}
					if got := w.Any(q, ^uint32(0)); got != (len(want) > 0) {
						t.Fatalf("%s: Any(%v) = %v, want %v", what, q, got, len(want) > 0)
					}
					if got := w.QueryPoint(nil, q.Center, ^uint32(0)); !slices.Equal(got, wantPoint) {
						t.Fatalf("%s: QueryPoint(%v) = %v, want %v", what, q.Center, got, wantPoint)
					}
					d := obb.Vec2{X: float32(r.NormFloat64() * 40), Y: float32(r.NormFloat64() * 40)}
					var rays []RayHit
					for _, h := range hs {
						if t, n, hit := w.Box(h).RayCast(q.Center, d); hit {
							rays = append(rays, RayHit{h, t, n})
						}
					}
					slices.SortStableFunc(rays, func(a, b RayHit) int { return cmp.Compare(a.T, b.T) })
					if got := w.RayCastAll(nil, q.Center, d, ^uint32(0)); !slices.Equal(got, rays) {
						t.Fatalf("%s: RayCastAll(%v, %v) = %v, want %v", what, q.Center, d, got, rays)
					}
				}
				// Pairs after this round's changes, then after a step
				// that moved three units: found from the moved boxes.
				for step := range 2 {
					if step == 1 {
						for range 3 {
							h := units[r.IntN(len(units))]
							if k, ok := live[h]; ok && k == Dynamic {
								w.Move(h, jitter(w.Box(h), 5))
							}
						}
					}
					var want []Pair
					for i, a := range hs {
						for _, b := range hs[i+1:] {
							if (live[a] == Dynamic || live[b] == Dynamic) && w.Box(a).Overlaps(w.Box(b)) {
								want = append(want, Pair{a, b})
							}
						}
					}
					if got := w.Pairs(nil); !slices.Equal(got, want) {
						t.Fatalf("%s, step %d: Pairs has %d pairs, want %d", what, step, len(got), len(want))
					}
				}
			}
		})
	}
}

// TestSegmentMeets checks segment.meets, which lets RayCast skip a block,
// against exact arithmetic: whenever the segment passes within round of
// the rectangle on each coordinate, computed with math/big on the float32
// and float64 inputs, meets must say it may. Each round is about the
// distance of a random rectangle or point from the segment, within a few
// units of 2⁻⁵² or 2⁻²⁴ of it, or half or twice it, at scales from 10⁻³ to 10⁶;
// some rectangles have an infinite side.
func TestSegmentMeets(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 17))
	rat := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	// exact reports whether p + t·d, t in [0, 1], comes within round of
	// rectangle b on each coordinate (Liang-Barsky on rationals).
	exact := func(s *segment, b *cellBounds, round float64) bool {
		lo, hi := rat(0), rat(1)
		// keep narrows [lo, hi] to the t with p + t·d >= x (above) or
		// <= x, and reports whether it is not empty.
		keep := func(p, d, x *big.Rat, above bool) bool {
			if d.Sign() == 0 {
				c := p.Cmp(x)
				return c == 0 || (c > 0) == above
			}
			t := new(big.Rat).Quo(new(big.Rat).Sub(x, p), d)
			if (d.Sign() > 0) == above { // t is a lower bound
				if t.Cmp(lo) > 0 {
					lo = t
				}
			} else if t.Cmp(hi) < 0 {
				hi = t
			}
			return lo.Cmp(hi) <= 0
		}
		for axis := range 2 {
			p, d := rat(s.px), rat(s.dx)
			if axis == 1 {
				p, d = rat(s.py), rat(s.dy)
			}
			a, c := float64(b[axis]), float64(b[axis+2])
			if math.IsInf(a, 1) || math.IsInf(c, -1) {
				return false
			}
			if !math.IsInf(a, -1) && !keep(p, d, new(big.Rat).Sub(rat(a), rat(round)), true) {
				return false
			}
			if !math.IsInf(c, 1) && !keep(p, d, new(big.Rat).Add(rat(c), rat(round)), false) {
				return false
			}
		}
		return true
	}
	f32 := func(x float64) float32 { return scene.Nudge(r, float32(x), 3) }
	met, missed := 0, 0
	for i := range 60000 {
		scale := []float64{1e-3, 1, 1e3, 1e6}[r.IntN(4)]
		p := obb.Vec2{X: f32(r.NormFloat64() * scale), Y: f32(r.NormFloat64() * scale)}
		d := obb.Vec2{X: f32(r.NormFloat64() * scale), Y: f32(r.NormFloat64() * scale)}
		switch r.IntN(6) {
		case 0:
			d.X = 0
		case 1:
			d.Y = 0
		case 2:
			d = obb.Vec2{}
		}
		s := newSegment(p, d)
		cx, cy := s.px+r.NormFloat64()*scale, s.py+r.NormFloat64()*scale
		w, h := r.ExpFloat64()*scale/4, r.ExpFloat64()*scale/4
		b := cellBounds{f32(cx - w), f32(cy - h), f32(cx + w), f32(cy + h)}
		if r.IntN(2) == 0 {
			b = cellBounds{b[0], b[1], b[0], b[1]} // a point
		}
		// The distance, on the farther coordinate, from the segment's
		// nearest point to the rectangle, convex in t: golden-section
		// search in float64, to set round about it.
		gap := func(t float64) float64 {
			x, y := s.px+t*s.dx, s.py+t*s.dy
			return max(float64(b[0])-x, x-float64(b[2]), float64(b[1])-y, y-float64(b[3]), 0)
		}
		lo, hi := 0.0, 1.0
		for range 80 {
			m1, m2 := lo+(hi-lo)*0.382, hi-(hi-lo)*0.382
			if gap(m1) < gap(m2) {
				hi = m2
			} else {
				lo = m1
			}
		}
		round := min(gap(0), gap(1), gap(lo))
		switch r.IntN(3) {
		case 0: // at the edge, to float64's precision
			round *= 1 + float64(r.IntN(17)-8)*0x1p-52
		case 1:
			round *= 1 + (r.Float64()-0.5)*0x1p-20
		case 2:
			round *= []float64{0.5, 2}[r.IntN(2)]
		}
		if i%50 == 0 {
			b[r.IntN(4)] = float32([]float64{math.Inf(-1), math.Inf(-1), math.Inf(1), math.Inf(1)}[r.IntN(4)])
			if b[0] > b[2] || b[1] > b[3] {
				continue
			}
		}
		want := exact(&s, &b, round)
		if want {
			met++
		} else {
			missed++
		}
		if want && !s.meets(&b, round) {
			t.Fatalf("segment %v + t·%v passes within %g of rectangle %v, but meets says it does not", p, d, round, b)
		}
	}
	if met < 20000 || missed < 5000 {
		t.Fatalf("%d cases within round, %d not: too few of either", met, missed)
	}
}

// TestBlockRectsKeepFat lays crowded Static cells out while Pairs serves
// its steps from the candidates of fat bounds, and then sends units onto
// Static boxes, so that the escaped units' queries read the fat bounds
// layOut copied: steps that move every unit a little until the candidates
// are built, one step of Static boxes inserted and removed until an Insert
// runs compact, then steps in which a few units jump onto a Static box,
// with Pairs against brute force after each step.
func TestBlockRectsKeepFat(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	src := crowdedMap(r, 1500)
	w := New()
	all := w.InsertBoxes(nil, src, Static, DefaultFilter)
	kind := map[Handle]Kind{}
	for _, h := range all {
		kind[h] = Static
	}
	var units []Handle
	var poses soa.Boxes
	for range 600 {
		b := src.At(r.IntN(src.Len()))
		b.Half = obb.Vec2{X: 0.5 + float32(r.Float64()), Y: 0.5 + float32(r.Float64())}
		h := w.Insert(b, Dynamic, DefaultFilter)
		units, all, kind[h] = append(units, h), append(all, h), Dynamic
		poses.Append(b)
	}
	g := &w.grids[Static]
	laidOut, jumped := false, 0
	for step := range 40 {
		for i := range units {
			poses.CX[i] += float32(0.02 * r.NormFloat64())
			poses.CY[i] += float32(0.02 * r.NormFloat64())
		}
		if laidOut {
			// Fewer than one unit in escapeShare, so the candidates stay.
			for range 12 {
				i, x := r.IntN(len(units)), all[r.IntN(len(all))]
				if kind[x] == Static {
					b := w.Box(x)
					poses.CX[i], poses.CY[i] = b.Center.X, b.Center.Y
					jumped++
				}
			}
		}
		w.MoveBoxes(units, &poses)
		if w.fat.valid && !laidOut {
			// A Static box in, another out: the grid's churn grows, its
			// count does not, until an Insert lays it out.
			for !laidOut {
				b := src.At(r.IntN(src.Len()))
				b.Center.X += float32(r.NormFloat64())
				before := g.churn
				h := w.Insert(b, Static, DefaultFilter)
				laidOut = g.keepFat && g.churn < before
				i := r.IntN(len(all))
				for kind[all[i]] != Static {
					i = r.IntN(len(all))
				}
				w.Remove(all[i])
				delete(kind, all[i])
				all[i] = h
				kind[h] = Static
			}
		}
		var want []Pair
		for _, u := range units {
			for _, x := range all {
				if x != u && (kind[x] == Static || x > u) && w.Box(u).Overlaps(w.Box(x)) {
					want = append(want, Pair{min(u, x), max(u, x)})
				}
			}
		}
		slices.SortFunc(want, func(a, b Pair) int { return cmp.Or(cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B)) })
		if got := w.Pairs(nil); !slices.Equal(got, want) {
			t.Fatalf("step %d: Pairs has %d pairs, want %d", step, len(got), len(want))
		}
		if laidOut && !w.fat.valid {
			t.Fatalf("step %d: the candidates were dropped", step)
		}
	}
	if !laidOut || jumped == 0 {
		t.Fatalf("laid out %v, %d units jumped: the test tested nothing", laidOut, jumped)
	}
}

// TestStaticRectsAfterLaterWrites moves crowded Static boxes, a third of
// them to other cells and the rest a little, in the ways that leave their
// lanes behind their slots for a while: MoveBoxes writing after it has
// found every box's cell (writeSorted, writeSettle), and Moves leaving
// their writes to the catch-up (lag.go), on one worker and on two. A box
// that leaves a cell hands its lane to another box of the cell, and the
// block's rectangle must take that box's new pose, not the older one its
// lane held then; a compaction must lay out the new poses. Queries and
// Pairs are checked against brute force, and the rectangles by
// checkBlockRects, after every step.
func TestStaticRectsAfterLaterWrites(t *testing.T) {
	defer func() { largeBytes, laterBytes, forcedWrites = defaultLargeBytes, defaultLaterBytes, -1 }()
	for _, c := range []struct {
		writes  string // MoveBoxes' writeMode, or "later": Move one by one, writing later
		workers int
	}{{"direct", 1}, {"sorted", 1}, {"settle", 2}, {"later", 1}, {"later", 2}} {
		t.Run(fmt.Sprint("writes=", c.writes, "/workers=", c.workers), func(t *testing.T) {
			largeBytes, laterBytes, forcedWrites = defaultLargeBytes, defaultLaterBytes, -1
			switch c.writes {
			case "later":
				largeBytes, laterBytes = -1, -1
			default:
				forcedWrites = map[string]int{"direct": int(writeDirect), "sorted": int(writeSorted), "settle": int(writeSettle)}[c.writes]
			}
			for seed := range uint64(24) {
				staticRectsAfterLaterWrites(t, c.workers, c.writes == "later", rand.New(rand.NewPCG(seed, 9)))
			}
		})
	}
}

func staticRectsAfterLaterWrites(t *testing.T, workers int, each bool, r *rand.Rand) {
	t.Helper()
	w := New()
	w.Workers = workers
	var b soa.Boxes
	random := func(side float64) obb.Box {
		return obb.FromHalf(obb.Vec2{X: float32(r.Float64() * side), Y: float32(r.Float64() * side)}, obb.Vec2{X: 0.3, Y: 0.2}, r.Float64()*3)
	}
	for range 600 {
		b.Append(random(2))
	}
	hs := w.InsertBoxes(nil, &b, Static, DefaultFilter)
	var units []Handle
	for range 30 {
		units = append(units, w.Insert(random(4), Dynamic, DefaultFilter))
	}
	for step := range 4 {
		var moved soa.Boxes
		for i := range hs {
			x := b.At(i)
			d := 0.01
			if r.IntN(3) == 0 {
				d = 3
			}
			x.Center = x.Center.Add(obb.Vec2{X: float32(d * r.NormFloat64()), Y: float32(d * r.NormFloat64())})
			moved.Append(x)
		}
		b = moved
		if each {
			for i, h := range hs {
				w.Move(h, b.At(i))
			}
		} else {
			w.MoveBoxes(hs, &b)
		}
		what := fmt.Sprint("step ", step)
		for q := range 200 {
			p := random(8)
			p.Center = p.Center.Sub(obb.Vec2{X: 2, Y: 2})
			var want []Handle
			for i, h := range hs {
				if b.At(i).Overlaps(p) {
					want = append(want, h)
				}
			}
			for _, h := range units {
				if w.Box(h).Overlaps(p) {
					want = append(want, h)
				}
			}
			slices.Sort(want)
			if got := w.Query(nil, p, ^uint32(0)); !slices.Equal(got, want) {
				t.Fatalf("%s, query %d: Query(%v) = %v, want %v", what, q, p, got, want)
			}
		}
		var want []Pair
		for _, u := range units {
			for i, h := range hs {
				if w.Box(u).Overlaps(b.At(i)) {
					want = append(want, Pair{min(u, h), max(u, h)})
				}
			}
			for _, v := range units {
				if u < v && w.Box(u).Overlaps(w.Box(v)) {
					want = append(want, Pair{u, v})
				}
			}
		}
		slices.SortFunc(want, func(a, b Pair) int { return cmp.Or(cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B)) })
		if got := w.Pairs(nil); !slices.Equal(got, want) {
			t.Fatalf("%s: Pairs has %d pairs, want %d", what, len(got), len(want))
		}
		checkBlockRects(t, w, what)
	}
}
