package world

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/internal/testkit/scene"
	"github.com/obb2d/obb2d/obb"
	"github.com/obb2d/obb2d/soa"
)

// TestLevelArithmetic checks sizeClass, sizes and coord, which work on
// float64 bits, against the math package's Frexp, Ldexp and a division, on
// powers of two, their neighbours and random values over every level.
func TestLevelArithmetic(t *testing.T) {
	refClass := func(r float64) int {
		if r <= 0 {
			return minLevel
		}
		f, e := math.Frexp(r)
		if f == 0.5 {
			e--
		}
		return min(max(e, minLevel), maxLevel)
	}
	r := rand.New(rand.NewPCG(8, 8))
	var values []float64
	for e := -1074; e <= 1023; e++ {
		p := math.Ldexp(1, e)
		values = append(values, p, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1)), p*(1+r.Float64()))
	}
	values = append(values, 0, math.SmallestNonzeroFloat64, math.MaxFloat64)
	for _, v := range values {
		if got, want := sizeClass(v), refClass(v); got != want {
			t.Fatalf("sizeClass(%g) = %d, want %d", v, got, want)
		}
	}
	for k := minLevel; k <= maxLevel; k++ {
		rr, s := sizes(k)
		if rr != math.Ldexp(1, k) || s != math.Ldexp(1, k+2) {
			t.Fatalf("sizes(%d) = %g, %g", k, rr, s)
		}
		cases := []float64{-2.5, -1, -0.25, math.Copysign(0, -1), 0.25, 1, 2.5, -maxCoord - 0.5, -maxCoord + 0.5, maxCoord - 0.5, maxCoord + 0.5}
		for i := range 50 + len(cases) {
			var v float64
			if i < len(cases) {
				v = cases[i] * s
			} else if v = values[r.IntN(len(values))]; r.IntN(2) == 0 {
				v = -v
			}
			want := int32(min(max(math.Floor(v/s), -maxCoord), maxCoord))
			if got := coord(v, s); got != want {
				t.Fatalf("coord(%g, %g) = %d, want %d", v, s, got, want)
			}
		}
	}
}

// TestStays checks stays, the shortcut a move takes for a box that keeps
// its cell, against cellAt: over random sets of levels with boxes, reaches
// at and around the powers of two and centers at and around the cells'
// edges, stays must never answer true where cellAt finds another cell, nor
// for a center with a NaN or an infinity, and must answer true wherever
// cellAt finds the cell, the center lies within 2²⁰ cells of the origin
// and the cell is not the one below 0 (beyond 2²⁰ cells a clamped
// coordinate, and just below 0 a rounded difference, may send a box the
// long way, which is still right).
func TestStays(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	var g grid
	reaches := []float64{0, math.SmallestNonzeroFloat64, math.MaxFloat64}
	for e := -12; e <= 14; e++ {
		p := math.Ldexp(1, e)
		reaches = append(reaches, p, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1)), p*0.75)
	}
	reaches = append(reaches, math.Ldexp(1, minLevel), math.Ldexp(1, minLevel-3), math.Ldexp(1.5, maxLevel-1), math.Ldexp(1, maxLevel+2))
	centers := func(k cellKey) []obb.Vec2 {
		_, side := sizes(int(k.level))
		edge := func(i int32) []float32 {
			v := float32(float64(i) * side)
			return []float32{v, math.Nextafter32(v, float32(math.Inf(-1))), math.Nextafter32(v, float32(math.Inf(1))), float32((float64(i) + r.Float64()) * side)}
		}
		var out []obb.Vec2
		for _, x := range edge(k.x + int32(r.IntN(2))) {
			for _, y := range edge(k.y + int32(r.IntN(2))) {
				out = append(out, obb.Vec2{X: x, Y: y})
			}
		}
		return append(out, obb.Vec2{X: float32(math.NaN()), Y: 0}, obb.Vec2{X: 0, Y: float32(math.Inf(1))})
	}
	checked := 0
	for range 400 {
		g.count = [levelSpan]int32{}
		for range 1 + r.IntN(4) {
			g.count[r.IntN(24)-10-minLevel] = 1
		}
		if r.IntN(8) == 0 {
			g.count[0] = 1
		}
		if r.IntN(8) == 0 {
			g.count[levelSpan-1] = 1
		}
		g.relevel()
		for _, lv := range g.levels {
			for _, rr := range reaches {
				far := int32(1) << 20
				if r.IntN(4) == 0 {
					far = maxCoord + 2
				}
				k := cellKey{x: int32(r.Int64N(2*int64(far))) - far, y: int32(r.Int64N(2*int64(far))) - far, level: lv}
				if r.IntN(4) == 0 {
					k.x, k.y = int32(r.IntN(3))-2, int32(r.IntN(3))-2 // the cells around 0
				}
				for _, c := range centers(k) {
					got := g.stays(k, rr, c)
					if !f32.Finite(c.X) || !f32.Finite(c.Y) {
						// No caller asks either function about such a center
						// (bound.Reach and bound.Box decline it), and cellAt's
						// answer for it depends on the platform's conversion
						// of a NaN or an infinity to an integer.
						if got {
							t.Fatalf("levels %v: stays(%v, %g, %v) is true", g.levels, k, rr, c)
						}
						continue
					}
					at := g.cellAt(c, rr)
					if got && at != k {
						t.Fatalf("levels %v: stays(%v, %g, %v) is true, cellAt gives %v", g.levels, k, rr, c, at)
					}
					if inner := k.x > -1<<20 && k.x < 1<<20 && k.y > -1<<20 && k.y < 1<<20 && k.x != -1 && k.y != -1; inner && at == k {
						checked++
						if !got {
							t.Fatalf("levels %v: stays(%v, %g, %v) is false, cellAt gives the cell", g.levels, k, rr, c)
						}
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d cases where cellAt found the cell: the test no longer covers stays' true answers", checked)
	}
	t.Logf("%d cases stay", checked)
}

// TestLift builds a world whose first box founds a level of its own below
// the one 2,000 larger boxes share, with InsertBoxes and with Insert alone,
// and checks that compact lifts it into theirs, where queries still find
// it.
func TestLift(t *testing.T) {
	for _, bulk := range []bool{true, false} {
		t.Run(fmt.Sprintf("bulk=%v", bulk), func(t *testing.T) { testLift(t, bulk) })
	}
}

func testLift(t *testing.T, bulk bool) {
	r := rand.New(rand.NewPCG(3, 4))
	var boxes soa.Boxes
	boxes.Append(obb.New(obb.Vec2{X: 1, Y: 1}, 0.5, 0.5, 0)) // reach 0.25√2: class -1
	for range 2000 {
		c := obb.Vec2{X: float32(r.Float64() * 300), Y: float32(r.Float64() * 300)}
		boxes.Append(obb.New(c, 5, 5, 0)) // reach 2.5: class 2
	}
	w := New()
	var hs []Handle
	if bulk {
		hs = w.InsertBoxes(nil, &boxes, Dynamic, DefaultFilter)
	} else {
		for i := range boxes.Len() {
			hs = append(hs, w.Insert(boxes.At(i), Dynamic, DefaultFilter))
		}
	}
	if g := &w.grids[Dynamic]; fmt.Sprint(g.levels) != "[2]" {
		t.Fatalf("levels %v after inserting, want [2]", g.levels)
	}
	for i := range boxes.Len() {
		b := boxes.At(i)
		var want []Handle
		for j := range boxes.Len() {
			if b.Overlaps(boxes.At(j)) {
				want = append(want, hs[j])
			}
		}
		if got := w.Query(nil, b, ^uint32(0)); !slices.Equal(got, want) {
			t.Fatalf("Query(box %d) = %v, want %v", i, got, want)
		}
	}
}

// TestUniformSceneHasOneLevel checks lift on the benchmarks' uniform scene
// (BenchmarkWorldQuery's, 10,000 boxes in their order): its first boxes
// found levels below the one the others share, and after InsertBoxes every
// box is on that one.
func TestUniformSceneHasOneLevel(t *testing.T) {
	var boxes soa.Boxes
	scene.Uniform(rand.New(rand.NewPCG(10000, 5)), 10000, &boxes)
	w := New()
	w.InsertBoxes(nil, &boxes, Static, DefaultFilter)
	g := &w.grids[Static]
	for _, k := range g.levels {
		t.Logf("level %d: %d boxes", k, g.count[int(k)-minLevel])
	}
	if len(g.levels) != 1 {
		t.Fatalf("levels %v, want one", g.levels)
	}
}

// TestBuffersHaveRoom checks that after a step on two workers, each
// worker's list and each buffer Pairs passes around has room for all of
// the step's pairs, and each worker's scratch columns the room of the
// roomiest's, so that a later step like it allocates nothing whichever
// worker takes the most or the largest cell and whichever buffer holds
// what.
func TestBuffersHaveRoom(t *testing.T) {
	var b soa.Boxes
	scene.Uniform(rand.New(rand.NewPCG(6, 6)), 20000, &b)
	for i := 0; i < b.Len(); i += 100 {
		b.HX[i], b.HY[i] = 30*b.HX[i], 30*b.HY[i]
	}
	w := New()
	w.Workers = 2
	w.InsertBoxes(nil, &b, Dynamic, DefaultFilter)
	for i := 0; i < b.Len(); i += 100 {
		w.Insert(b.At(i), Static, DefaultFilter)
	}
	w.Pairs(nil)
	st := &w.step
	if len(st.wk) < 2 {
		t.Fatalf("the step ran on %d workers", len(st.wk))
	}
	for i, l := range st.wk[:2] {
		if cap(l) < len(st.prev) || len(st.prev) == 0 {
			t.Fatalf("worker %d's list has room for %d pairs, the step found %d", i, cap(l), len(st.prev))
		}
	}
	for name, b := range map[string][]uint64{"found": st.found, "spare": st.spare, "cur": st.cur} {
		if cap(b) < len(st.prev) {
			t.Fatalf("%s has room for %d pairs, the step found %d", name, cap(b), len(st.prev))
		}
	}
	// The large boxes are a level of their own, in both grids, four above
	// the small boxes' and far (cells_far.go), so the workers gathered the
	// large Dynamic boxes into their far sets and the Static boxes into
	// their columns. (The ranges of the packed columns that the levels
	// less far above are tested in, columns.ranges, are not used here.)
	// Both workers' far sets can come out with the same room without
	// shareRoom; TestShareRoomCoversEveryBuffer checks every buffer.
	first := columnsRoom(&st.cols[0])
	if slices.Contains(first, 0) {
		t.Fatalf("worker 0's columns have room %v: some were never used", first)
	}
	if second := columnsRoom(&st.cols[1]); !slices.Equal(first, second) {
		t.Fatalf("the workers' columns have room %v and %v", first, second)
	}
}

// columnsRoom returns the capacities of c's slices.
func columnsRoom(c *columns) []int {
	return append(append([]int{cap(c.runs), cap(c.bits)}, gatheredRoom(&c.gathered)...), gatheredRoom(&c.far.gathered)...)
}

// gatheredRoom returns the capacities of g's slices.
func gatheredRoom(g *gathered) []int {
	return []int{cap(g.rch), cap(g.h), cap(g.f), cap(g.b.CX), cap(g.b.CY), cap(g.b.UX), cap(g.b.UY), cap(g.b.HX), cap(g.b.HY)}
}

// TestShareRoomCoversEveryBuffer gives each slice of one worker's columns,
// found by reflection so that a buffer added later is covered too, a
// capacity of its own, and checks that shareRoom gives the other worker's
// the same.
func TestShareRoomCoversEveryBuffer(t *testing.T) {
	cols := make([]columns, 2)
	var fill func(v reflect.Value, path string)
	var names []string
	fill = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				fill(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		case reflect.Slice:
			v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
			v.Set(reflect.MakeSlice(v.Type(), 0, 5+len(names)))
			names = append(names, path)
		}
	}
	fill(reflect.ValueOf(&cols[0]).Elem(), "columns")
	shareRoom(cols)
	i := 0
	var check func(v reflect.Value)
	check = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Struct:
			for f := range v.NumField() {
				check(v.Field(f))
			}
		case reflect.Slice:
			if v.Cap() != 5+i {
				t.Errorf("%s: the other worker has room %d, want %d", names[i], v.Cap(), 5+i)
			}
			i++
		}
	}
	check(reflect.ValueOf(&cols[1]).Elem())
	if len(names) < 20 {
		t.Fatalf("found %d slices in columns: %v", len(names), names)
	}
}

// TestBlocksCommon checks that each block's common is the AND of its used
// lanes' categories, all ones for an empty one, through inserts, loads,
// moves within and across cells, removals, SetFilter and steps.
func TestBlocksCommon(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 7))
	box := func() obb.Box {
		return obb.New(obb.Vec2{X: float32(r.Float64() * 20), Y: float32(r.Float64() * 20)}, float32(0.5+r.Float64()), float32(0.5+r.Float64()), r.Float64()*6)
	}
	// Mostly one category, so a block's AND is often not zero and a lane
	// leaving it changes it.
	filter := func() Filter {
		c := uint32(1)
		if i := r.IntN(40); i < 3 {
			c = []uint32{0, 2, 3}[i]
		}
		return Filter{Category: c, Mask: ^uint32(0)}
	}
	w := New()
	var live []Handle
	check := func(what string) {
		t.Helper()
		for k := range w.grids {
			for i := range w.grids[k].blocks {
				b := &w.grids[k].blocks[i]
				want := ^uint32(0)
				for _, f := range b.f[:b.n] {
					want &= f.Category
				}
				if b.common != want {
					t.Fatalf("%s: grid %d block %d (%d lanes): common %#x, want %#x", what, k, i, b.n, b.common, want)
				}
			}
		}
	}
	var load soa.Boxes
	for range 200 {
		load.Append(box())
	}
	live = w.InsertBoxes(live, &load, Dynamic, filter())
	check("load")
	for step := range 4000 {
		switch op := r.IntN(6); {
		case op == 0 || len(live) < 50:
			live = append(live, w.Insert(box(), Kind(r.IntN(2)), filter()))
		case op == 1:
			i := r.IntN(len(live))
			w.Remove(live[i])
			live[i] = live[len(live)-1]
			live = live[:len(live)-1]
		case op == 2:
			w.SetFilter(live[r.IntN(len(live))], filter())
		case op == 3:
			h := live[r.IntN(len(live))]
			b := w.Box(h)
			b.Center = b.Center.Add(obb.Vec2{X: 0.01, Y: -0.01})
			w.Move(h, b)
		case op == 4:
			w.Move(live[r.IntN(len(live))], box())
		default:
			w.Pairs(nil)
		}
		check(fmt.Sprint("step ", step))
	}
}

// TestCompactInPlace checks that the compaction, which moves the blocks
// within their own array, lays a grid out as it does when the grid's
// blocks were in the order of its cells' lists already: the same blocks,
// fat bounds (kept while the candidates are in use), cells and slots,
// from a grid whose blocks Scatter put in a random order. The Static
// grid's crowded cells, laid out in STR order, and free blocks left by
// removals are among them.
func TestCompactInPlace(t *testing.T) {
	var b soa.Boxes
	scene.RTS(rand.New(rand.NewPCG(12, 12)), 6000, &b)
	newWorld := func() *World {
		w := New()
		hs := w.InsertBoxes(nil, &b, Static, DefaultFilter)
		hs = append(hs, w.InsertBoxes(nil, &b, Dynamic, DefaultFilter)...)
		for i := 0; i < len(hs); i += 7 {
			w.Remove(hs[i])
		}
		w.Pairs(nil)
		w.build()
		return w
	}
	for _, k := range []Kind{Dynamic, Static} {
		w, ref := newWorld(), newWorld()
		if g := &w.grids[k]; !g.keepFat || len(g.free) == 0 {
			t.Fatalf("kind %d: the candidates in use %v, %d free blocks: the test needs both", k, g.keepFat, len(g.free))
		}
		Scatter(w, k, rand.New(rand.NewPCG(1, uint64(k))))
		if slices.Equal(w.grids[k].blocks, ref.grids[k].blocks) {
			t.Fatalf("kind %d: Scatter left the blocks in order", k)
		}
		Compact(w, k)
		Compact(ref, k)
		g, rg := &w.grids[k], &ref.grids[k]
		if !slices.Equal(g.blocks, rg.blocks) || !slices.Equal(g.fat, rg.fat) || !slices.Equal(g.cells, rg.cells) {
			t.Fatalf("kind %d: the compaction of the scattered grid differs", k)
		}
		if !slices.Equal(w.slots, ref.slots) {
			t.Fatalf("kind %d: the slots differ", k)
		}
	}
}

// TestInsertLaysOut checks that a world built by Insert one box at a time
// is laid out as it grows: after every Insert, no more than half the
// boxes of each grid (or 1,024) have entered cells since its last
// compaction.
func TestInsertLaysOut(t *testing.T) {
	for _, k := range []Kind{Dynamic, Static} {
		var b soa.Boxes
		scene.Uniform(rand.New(rand.NewPCG(5, 6)), 6000, &b)
		w := New()
		for i := range b.Len() {
			w.Insert(b.At(i), k, DefaultFilter)
			if g := &w.grids[k]; g.churn > max(g.boxes/2, 1024) {
				t.Fatalf("kind %d: %d of %d boxes entered cells since the last layout", k, g.churn, g.boxes)
			}
		}
	}
}

// TestOffCell checks offCell's promise against exact arithmetic: the point
// it names lies in the cell (its coord is the cell's) and no farther from
// the value than it says, for values in, near and far from cells at every
// scale, the half-open edges included.
func TestOffCell(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 6))
	for range 200000 {
		s := pow2(r.IntN(80) - 40)
		i := int32(r.Int64N(1<<31) - 1<<30)
		if r.IntN(2) == 0 {
			i = int32(r.IntN(9) - 4)
		}
		if !inner(i) {
			continue
		}
		// v: the cell's edges, a value near one, inside, or farther.
		edge := float64(i) * s
		if r.IntN(2) == 0 {
			edge += s
		}
		var v float32
		switch r.IntN(4) {
		case 0:
			v = float32(edge)
		case 1:
			v = math.Nextafter32(float32(edge), float32(math.Inf(2*r.IntN(2)-1)))
		case 2:
			v = float32(edge + (r.Float64()-0.5)*s/8)
		case 3:
			v = float32(edge + (r.Float64()-0.5)*s*4)
		}
		d := offCell(v, i, s)
		x, lo, hi := float64(v), float64(i)*s, float64(i+1)*s
		p := x
		switch {
		case x < lo:
			p = lo
		case x >= hi:
			p = (float64(i) + 1 - 0x1p-10) * s
		}
		if coord(p, s) != i {
			t.Fatalf("offCell(%g, %d, %g): its point %g lies in cell %d", v, i, s, p, coord(p, s))
		}
		exact := new(big.Float).Sub(new(big.Float).SetFloat64(x), new(big.Float).SetFloat64(p))
		if exact.Abs(exact).Cmp(new(big.Float).SetFloat64(d)) > 0 {
			t.Fatalf("offCell(%g, %d, %g) = %g; its point %g lies %v away", v, i, s, d, p, exact)
		}
	}
}
