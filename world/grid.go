package world

import (
	"math"
	mathbits "math/bits"
	"unsafe"

	"github.com/obb2d/obb2d/internal/batch"
	"github.com/obb2d/obb2d/internal/bound"
	"github.com/obb2d/obb2d/internal/f32"
	"github.com/obb2d/obb2d/internal/hugepage"
	"github.com/obb2d/obb2d/obb"
)

// The grid is a loose hierarchical grid (Ericson, Real-Time Collision
// Detection, §7.2: hierarchical grids; Ulrich's loose octrees): a box goes to
// one cell, the one holding its center, on a level of boxes about its size.
// Level k holds boxes whose bound.Box reaches at most R = 2ᵏ from the center
// along each coordinate, in square cells of side S = 4R; a box's bounds then
// lie within R of its center, and within the level's reach r ≤ R, a bound on
// its boxes' reaches that the grid keeps (levelReach). So a question with
// bounds [lo, hi] needs, on each level with boxes, only the cells whose
// centers' range [lo - r, hi + r] touches: two to four cells when the
// question is the size of the level's boxes, whatever the size of the world.
// Cell coordinates are floor(center/S), found through a hash table of tiles
// of cells (tiles.go), so coordinates are unbounded. A Dynamic box whose
// center moves just past its cell's edge may stay in the cell; the ranges
// hold for it too (nearShift).
//
// Every level costs a question a few cells more, and a level of small cells
// among boxes that are sparse for them costs a lookup per empty neighbour,
// so a box joins the highest level that already has boxes and whose R is at
// least its reach r and at most 8 times the smallest power of two not below
// r; only when none exists does it start a level, at that power of two.
// Boxes whose sizes spread over a factor of a few, as in most scenes, then
// share one level wherever the powers of two fall among them (the level of
// the largest; World.lift moves up the first arrivals that founded a level
// below it), while boxes a hundred times larger get a level of their own.
//
// A cell keeps its boxes in blocks of 16, two groups of 8 as float32
// columns, the layout the batch kernels read: one kernel call tests a
// query against a whole block, 16 boxes in one AVX-512 instruction or two
// AVX2 ones, or against its first group alone when it holds at most 8, as
// most do (batch.Block). The cell's first block is the only one that may be
// partly full, so adding and removing a box is O(1).

const (
	blockLanes = batch.BlockLanes
	groupLanes = batch.GroupLanes
	minLevel   = -160 // R = 2⁻¹⁶⁰: every smaller box, zero-size ones included, shares it
	maxLevel   = 130  // R = 2¹³⁰: above the largest float32
	levelSpan  = maxLevel - minLevel + 1
	levelSlack = 3       // a box joins levels up to 2³ times its own size class
	maxCoord   = 1 << 30 // cell coordinates are clamped to ±maxCoord
)

// block holds up to 16 boxes of one cell: the columns the kernels read,
// their handles, how many lanes are used and the cell's next block, and in
// the Static grid a rectangle that holds the boxes' bounds (block_rects.go).
//
// common is the AND of the used lanes' categories (all ones for no lane),
// kept by put, remove and SetFilter. A lane's Category holds every bit of
// common, so when common&mask != 0 every hit of the block passes a
// question's mask, and the question reads no filter: the filters lie two
// or three cache lines past the lane count, and a hit's read of its filter
// was a miss the kernel's answer had to wait for. common, n, next, the
// rectangle and the first 9 handles share one line, so a question that
// walks a crowded cell's blocks reads one line of a block it skips. It pays
// where the world outgrows the cache and the boxes share their filters, as
// the uniform map's do (BenchmarkWorldQuery, world=uniform, n=1000000 and
// n=4000000).
type block struct {
	cols   batch.Block
	n      int32
	next   int32      // the cell's next block, -1 for none
	common uint32     // the category bits of every used lane
	rect   cellBounds // the Static grid's: holds its boxes' bounds (block_rects.go)
	h      [blockLanes]Handle
	f      [blockLanes]Filter
	cell   int32
	_      [32]byte // to a whole number of cache lines: see the check below
}

// Blocks are a whole number of cache lines long (640 bytes), and the
// runtime puts a large array at the start of a page, so in a world of more
// than a few blocks each block's columns start on a line, a group's six
// columns take three lines, and no load of a group's column, 32 bytes,
// straddles two. Unpadded, at under 600 bytes, a block's columns began
// anywhere in a line, and the kernels' loads split across lines
// (BenchmarkWorldQuery; BenchmarkWorldStep, moved=100%). Of the steps only
// the RTS scene's moved=1% one, whose pairs outnumber its boxes ten to one,
// is slower padded.
var _ [0]struct{} = [unsafe.Sizeof(block{}) % 64]struct{}{}

// blockHead is how many bytes of a block a question may read whatever the
// answer: the columns, then the lane count, the next block and common. The
// handles and filters are read for hits only, and the second group's
// columns only when the lane count is above 8, which a prefetch cannot
// know yet.
const blockHead = unsafe.Offsetof(block{}.h)

func (b *block) set(lane int32, x obb.Box) { b.cols.Put(int(lane), x) }

// at returns the box in lane.
func (b *block) at(lane int32) obb.Box { return b.cols.Box(int(lane)) }

// each calls fn with the handle, filter and box of each lane of b whose bit
// is set in bits: the lanes a question's filter of a block kept.
func (b *block) each(bits uint64, fn func(Handle, Filter, obb.Box)) {
	for ; bits != 0; bits &= bits - 1 {
		lane := int32(mathbits.TrailingZeros64(bits))
		fn(b.h[lane], b.f[lane], b.at(lane))
	}
}

// recommon sets b.common from its used lanes' filters.
func (b *block) recommon() {
	c := ^uint32(0)
	for _, f := range b.f[:b.n] {
		c &= f.Category
	}
	b.common = c
}

// used returns the bits of b's lanes that hold boxes.
func (b *block) used() uint64 { return 1<<b.n - 1 }

// fatBlock holds the fat bounds (fat.go) of a block's boxes by lane, lo.X,
// lo.Y, hi.X and hi.Y, so that a query for candidates reads them in
// columns, not from each box's slot: kept in an array beside the blocks,
// they leave the blocks, which every question reads, as they were.
type fatBlock = batch.Bounds

// indexOf returns the index of block b in g.blocks.
func (g *grid) indexOf(b *block) int32 {
	return int32((uintptr(unsafe.Pointer(b)) - uintptr(unsafe.Pointer(&g.blocks[0]))) / unsafe.Sizeof(block{}))
}

// setFat puts fat bounds lo, hi in lane of block b.
func (g *grid) setFat(b, lane int32, lo, hi obb.Vec2) {
	f := &g.fat[b]
	f[0][lane], f[1][lane], f[2][lane], f[3][lane] = lo.X, lo.Y, hi.X, hi.Y
}

// cellKey names a cell: its level and its coordinates on the level.
type cellKey struct {
	x, y  int32
	level int16
}

type cell struct {
	key   cellKey
	head  int32 // first block
	boxes int32 // how many: a full step's packing reads it, not every block's count
}

// grid is one Kind's boxes.
type grid struct {
	cells      []cell
	tiles      []tile      // the cells' index (tiles.go)
	rects      []tileRects // the Static grid's: by tile, its cells' rectangles
	table      []tileEntry // the tiles' hash table
	blocks     []block
	fat        []fatBlock         // by block: its boxes' fat bounds (fat.go)
	free       []int32            // unused blocks
	fatWidth   [levelSpan]float64 // by level: at least the width of its boxes' fat bounds (fat.go)
	keepFat    bool               // the candidates are in use: fat follows the boxes' lanes
	spareCells []cell             // and its other cell array
	order      []int32            // compact's order of cells
	to         []int32            // compact's new place of each block
	crowd      crowd              // compact's scratch for a crowded cell (block_rects.go)
	churn      int                // boxes added to cells since the last compact
	boxes      int                // boxes in the cells
	laid       int                // boxes at the last compact
	count      [levelSpan]int32
	reach      [levelSpan]float64    // by level: at least the reach of each of its boxes (levelReach)
	levels     []int16               // the levels with boxes, ascending
	band       [levelSpan][4]float64 // by level with boxes: the reaches (lo, hi] levelFor places there, and 1/S (stays)
	static     bool                  // the Static grid: its cells have rectangles (cellBounds)
	windows    []tileWindow          // by level: its window index of tiles (tiles_window.go)
}

// sizeClass returns the smallest k with 2ᵏ ≥ r, within the levels' range,
// for a finite r. It reads r's exponent from its bits: a Move computes it
// for every box, and math.Frexp and math.Ldexp (in sizes) took a fifth of
// Move's time (BenchmarkWorldStep, moved=100%).
func sizeClass(r float64) int {
	if r <= 0 {
		return minLevel
	}
	b := math.Float64bits(r)
	e := int(b>>52) - 1023 // 2ᵉ ≤ r < 2ᵉ⁺¹ for a normal r; below every level for a subnormal one
	if b&(1<<52-1) != 0 {
		e++ // not a power of two
	}
	return min(max(e, minLevel), maxLevel)
}

// levelFor returns the level for a box of reach r: see the grid's rule
// above.
func (g *grid) levelFor(r float64) int {
	c := sizeClass(r)
	for i := len(g.levels) - 1; i >= 0; i-- {
		if k := int(g.levels[i]); k >= c && k <= c+levelSlack {
			return k
		}
	}
	return c
}

// sizes returns level k's reach R and cell side S, exact powers of two.
func sizes(k int) (r, s float64) { return pow2(k), pow2(k + 2) }

// pow2 returns 2ᵏ for k in the levels' range, whose powers of two are all
// normal float64s, from its bits.
func pow2(k int) float64 { return math.Float64frombits(uint64(k+1023) << 52) }

// coord returns the cell coordinate of v on a level of cell side s:
// floor(v/s), clamped to ±maxCoord. v/s is computed as v times 1/s, which
// rounds the same exact product once, as the division would (s is a power
// of two, and so is 1/s, made from s's bits); so coord is monotonic in v,
// which the proof of the cell ranges needs.
func coord(v, s float64) int32 {
	inv := math.Float64frombits(0x7fe0000000000000 - math.Float64bits(s)) // 2⁻ᵉ for s = 2ᵉ
	// Clamping before the floor gives the same as after it, the bounds
	// being integers; the conversion then truncates toward zero, which is
	// the floor except for a negative non-integer. (math.Floor is a call the
	// compiler does not inline.) The clamp, Go's min and max with their NaN
	// and signed-zero cases, is skipped when c is inside the bounds, as it
	// is for every box the grid holds but the farthest. The clamp on every
	// call costs the all-moved step (BenchmarkWorldStep, moved=100%,
	// n=10000).
	c := v * inv
	if !(c > -maxCoord && c < maxCoord) {
		c = min(max(c, -maxCoord), maxCoord)
	}
	i := int32(c)
	if float64(i) > c {
		i--
	}
	return i
}

// reach returns a float64 at least the distance from c to lo and to hi.
// A difference of two float32 values may round in float64, by at most 2⁻⁵³
// of it; the factor covers that.
func reach(c, lo, hi float32) float64 {
	return max(float64(c)-float64(lo), float64(hi)-float64(c)) * (1 + 0x1p-50)
}

// cellOf returns the cell of a box, or false when the box has no finite
// bounds (a NaN or an infinity in a field, a zero axis) or an axis with a
// component of magnitude farAxis or more.
func (g *grid) cellOf(b obb.Box) (cellKey, bool) {
	k, _, _, _, ok := g.cellReach(b)
	return k, ok
}

// gridCell returns the cell and reach of a box the grid holds, one whose
// fields are all finite (bound.Classify) and whose cell cellReach finds;
// false for a box kept elsewhere (place).
func (g *grid) gridCell(x obb.Box) (cellKey, float64, bool) {
	if bound.Classify(x) != bound.Finite {
		return cellKey{}, 0, false
	}
	k, r, _, _, ok := g.cellReach(x)
	return k, r, ok
}

// cellReach is cellOf that also returns the box's reach r, the level's
// measure of it (levelReach), and slack of bound.Reach's rx and ry for b,
// or +Inf for both where Reach declines b, for a Move's check against the
// box's fat bounds (fat_unsure.go).
func (g *grid) cellReach(b obb.Box) (k cellKey, r, tx, ty float64, ok bool) {
	rx, ry, ok := bound.Reach(b)
	if !ok {
		return g.cellIrregular(b)
	}
	r = max(rx, ry)
	level := g.levelFor(r) // cellAt's body, written out: every box inserted comes here
	_, side := sizes(level)
	return cellKey{coord(float64(b.Center.X), side), coord(float64(b.Center.Y), side), int16(level)}, r, slack(rx), slack(ry), true
}

// recell is cellReach for a box in cell k, which it returns without
// finding the cell when the box stays there (stays), as most moved boxes
// do.
func (g *grid) recell(k cellKey, b obb.Box) (cellKey, float64, float64, float64, bool) {
	rx, ry, ok := bound.Reach(b)
	if !ok {
		return g.cellIrregular(b)
	}
	r := max(rx, ry)
	if !g.stays(k, r, b.Center) {
		k = g.cellNear(k, r, b.Center)
	}
	return k, r, slack(rx), slack(ry), true
}

// cellIrregular is cellReach for a box that bound.Reach declines: its
// reach comes from its bounds, where they are finite, and its slacks are
// +Inf, so that no move of it counts as inside its fat bounds.
func (g *grid) cellIrregular(b obb.Box) (k cellKey, r, tx, ty float64, ok bool) {
	inf := math.Inf(1)
	if f32.Abs(b.Axis.X) >= farAxis || f32.Abs(b.Axis.Y) >= farAxis {
		return cellKey{}, 0, inf, inf, false
	}
	lo, hi, ok := bound.Box(b)
	if !ok { // NaN and infinite fields give bounds that are not finite
		return cellKey{}, 0, inf, inf, false
	}
	r = max(reach(b.Center.X, lo.X, hi.X), reach(b.Center.Y, lo.Y, hi.Y))
	return g.cellAt(b.Center, r), r, inf, inf, true
}

// levelReach: a question on level k widens its bounds by the reach the grid
// keeps for the level, reach[k], instead of the level's R, which is at least
// the reach of every box the level can hold but up to 2^(levelSlack+1) times
// that of a box it holds (a box joins a level up to 2^levelSlack times its
// size class, which is under twice its reach): the uniform scene's boxes
// reach at most 2.1 and share the level of R = 4. A question's range of
// cells is then narrower, as the proof in visit allows for any bound on the
// reach of the level's boxes. The reach of a box is max(rx, ry) of
// bound.Reach, or that of its bounds for a box Reach declines
// (cellIrregular): what levelFor places it by, so never above R.
//
// reach[k] only grows while level k has boxes, and is 0 once it has none.
// add raises it to the reach of the box it adds. A move that keeps a box in
// its cell but gives it a reach above reach[k] (a turn or a growth) counts
// as leaving the cell (holds), and is filed afresh by add: the passes that
// find the moved boxes' cells on several workers (sortMoves, checkCells)
// then only read reach (and the Static grid's rectangles), which change
// only on the caller's goroutine
// (TestTurnedBoxStaysFound). On the uniform scene a query then tests three
// blocks where widening by R tests four, and on every scene queries take
// less time (BenchmarkWorldQuery).
//
// holds reports whether box x, of reach r, found in cell k and block blk
// may stay there: its reach within the level's, and in the Static grid its
// bounds within the block's rectangle (block_rects.go), and so within the
// cell's (cellBounds), which a write in place then keeps true; a box that
// would widen it is filed afresh by add, which widens both on the caller's
// goroutine.
func (g *grid) holds(k cellKey, blk int32, r float64, x obb.Box) bool {
	return r <= g.reach[int(k.level)-minLevel] && (!g.static || g.within(blk, x))
}

// cellAt returns the cell of a box centered at c of finite reach r. The
// passes over moved boxes (sortMoves, checkCells, Move's recell) call it
// only for a box that stays does not keep in its cell: called for every box,
// before stays, it would be a call the compiler does not inline (its cost is
// above the budget of 80) that spills the loop's registers; called after
// stays, as often as boxes leave their cells, it costs nothing measurable
// (BenchmarkWorldStep, moved=100%).
func (g *grid) cellAt(c obb.Vec2, r float64) cellKey {
	level := g.levelFor(r)
	_, s := sizes(level)
	return cellKey{coord(float64(c.X), s), coord(float64(c.Y), s), int16(level)}
}

// farAxis: a box whose axis has a component this large stays out of the
// grid and is tested against every question, as a box with an infinity
// is. obb.Box.RayCast multiplies the axis by the segment's delta and by
// its origin's offset from the box's center. With an axis this large a
// product with the delta can overflow while those with the offset do not,
// and the slab test then reports a hit, at t = 0, far from the box's
// bounds (TestRayCastFarAxes). Below farAxis the delta's products overflow
// only for a segment of scale 2¹¹² or more, which RayCast tests against
// every box; an offset's product that overflows makes the origin's
// coordinate in the box's frame infinite or NaN, and the test a miss.
const farAxis = 0x1p16

func hash(k cellKey) uint64 {
	h := uint64(uint32(k.x))*0x9e3779b97f4a7c15 ^ uint64(uint32(k.y))*0xc2b2ae3d27d4eb4f ^ uint64(uint16(k.level))*0x165667b19e3779f9
	return h ^ h>>29
}

// add puts box x with handle h in the cell k, making the cell if need be,
// and returns where it went.
func (g *grid) add(k cellKey, r float64, h Handle, f Filter, x obb.Box) (blk, lane int32) {
	g.enter(k, r)
	return g.put(g.cellFor(k), k, h, f, x)
}

// cellFor returns the cell with key k, making it if need be.
func (g *grid) cellFor(k cellKey) int32 {
	c := g.find(k)
	if c < 0 {
		c = g.newCell(k)
	}
	return c
}

// enter counts a box of reach r into cell k's level: the level's reach and
// count, and the list of levels, which levelFor reads for the next box.
func (g *grid) enter(k cellKey, r float64) {
	lv := int(k.level) - minLevel
	g.reach[lv] = max(g.reach[lv], r)
	if g.count[lv]++; g.count[lv] == 1 {
		g.relevel()
	}
}

// put is the rest of add: it writes the box into cell c, whose key is k.
func (g *grid) put(c int32, k cellKey, h Handle, f Filter, x obb.Box) (blk, lane int32) {
	head := g.cells[c].head
	if head < 0 || g.blocks[head].n == blockLanes {
		nb := g.newBlock()
		g.blocks[nb].next, g.blocks[nb].cell = head, c
		g.cells[c].head, head = nb, nb
		g.setHead(k, nb)
	}
	b := &g.blocks[head]
	lane = b.n
	b.n++
	g.cells[c].boxes++
	b.set(lane, x)
	b.h[lane] = h
	b.f[lane] = f
	b.common &= f.Category
	if g.static {
		g.widen(k, b, x)
	}
	g.churn++
	g.boxes++
	return head, lane
}

// remove takes out the box at blk and lane, filling its place with the
// handle, filter and fat bounds of the last box of the cell's first block,
// and returns that box's handle when it moved; the caller then gives the
// lane the box's pose (refill).
func (g *grid) remove(blk, lane int32) (moved Handle, ok bool) {
	c := g.blocks[blk].cell
	head := g.cells[c].head
	hb := &g.blocks[head]
	last := hb.n - 1
	k := g.cells[c].key
	if head != blk || last != lane {
		b := &g.blocks[blk]
		b.h[lane] = hb.h[last]
		b.f[lane] = hb.f[last]
		if g.keepFat {
			f, hf := &g.fat[blk], &g.fat[head]
			f[0][lane], f[1][lane], f[2][lane], f[3][lane] = hf[0][last], hf[1][last], hf[2][last], hf[3][last]
		}
		moved, ok = b.h[lane], true
	}
	hb.n = last
	hb.recommon()
	if blk != head {
		g.blocks[blk].recommon() // its lane took another category
	}
	g.cells[c].boxes--
	g.boxes--
	if last == 0 {
		g.cells[c].head = hb.next
		g.free = append(g.free, head)
		if hb.next < 0 {
			g.deleteCell(c)
		} else {
			g.setHead(k, hb.next)
		}
	}
	if lv := int(k.level) - minLevel; g.count[lv] == 1 {
		g.count[lv], g.reach[lv] = 0, 0
		g.relevel()
	} else {
		g.count[lv]--
	}
	return moved, ok
}

func (g *grid) newBlock() int32 {
	if n := len(g.free); n > 0 {
		b := g.free[n-1]
		g.free = g.free[:n-1]
		g.blocks[b].n = 0 // and common all ones: remove emptied it
		g.blocks[b].rect = noBounds
		return b
	}
	g.blocks = append(hugepage.Grow(g.blocks, 1), block{common: ^uint32(0), rect: noBounds})
	g.fat = append(hugepage.Grow(g.fat, 1), fatBlock{})
	return int32(len(g.blocks) - 1)
}

func (g *grid) newCell(k cellKey) int32 {
	c := int32(len(g.cells))
	g.cells = append(g.cells, cell{key: k, head: -1})
	g.link(c)
	return c
}

// deleteCell drops the empty cell c from its tile and from the list, where
// the last cell takes its place.
func (g *grid) deleteCell(c int32) {
	g.unlink(g.cells[c].key)
	last := int32(len(g.cells) - 1)
	if c != last {
		g.cells[c] = g.cells[last]
		g.relink(g.cells[c].key, c)
		for b := g.cells[c].head; b >= 0; b = g.blocks[b].next {
			g.blocks[b].cell = c
		}
	}
	g.cells = g.cells[:last]
}

// relevel rebuilds the list of levels with boxes and their bands.
func (g *grid) relevel() {
	for _, k := range g.levels {
		g.band[int(k)-minLevel] = emptyBand
	}
	g.levels = g.levels[:0]
	for i, n := range g.count {
		if n > 0 {
			g.levels = append(g.levels, int16(i+minLevel))
		}
	}
	for i, k := range g.levels {
		next := maxLevel + levelSlack + 1
		if i+1 < len(g.levels) {
			next = int(g.levels[i+1])
		}
		g.band[int(k)-minLevel] = band(int(k), next)
	}
}

// band returns the reaches (lo, hi] that levelFor places on level k when
// the next level above k with boxes is next: those of the size classes c
// with k the highest such level in [c, c+levelSlack], which are c from
// k-levelSlack to k, and below next-levelSlack. A class c above the
// lowest, minLevel, holds the reaches (2ᶜ⁻¹, 2ᶜ] (sizeClass), the lowest
// every reach up to 2^minLevel, and the highest, maxLevel, every reach
// above 2^(maxLevel-1). An empty band is (+Inf, -Inf].
func band(k, next int) [4]float64 {
	lo, hi := max(k-levelSlack, minLevel), min(k, next-levelSlack-1)
	if lo > hi {
		return emptyBand
	}
	b := [4]float64{math.Inf(-1), math.Inf(1), pow2(-k - 2)}
	if lo > minLevel {
		b[0] = pow2(lo - 1)
	}
	if hi < maxLevel {
		b[1] = pow2(hi)
	}
	return b
}

// emptyBand holds no reach.
var emptyBand = [4]float64{math.Inf(1), math.Inf(-1)}

// stays reports whether a box of finite reach r centered at c would be
// placed in cell k, as cellAt would place it, without computing its cell:
// its reach within level k's band, and c within the cell's square. It
// never answers true where cellAt gives another cell: the product p =
// c.X·2^-(k+2) is exact, as in coord, rounding is monotonic, and a
// nonzero p - x is a multiple of 2⁻²⁸¹, so never rounds to 0; so p - x
// rounds into [0, 1) only if p lies in [x, x+1), whose floor is x. It may
// answer false where cellAt gives k: for a center clamped onto k beyond
// ±maxCoord cells, and in cell -1 for a p so near 0 that p + 1 rounds to
// 1. Most moved boxes stay in their cells, and sortMoves, checkCells and
// Move (recell) ask this first, finding the cell only when it says no.
func (g *grid) stays(k cellKey, r float64, c obb.Vec2) bool {
	b := &g.band[int(k.level)-minLevel]
	x, y := float64(c.X)*b[2]-float64(k.x), float64(c.Y)*b[2]-float64(k.y)
	return r > b[0] && r <= b[1] && x >= 0 && x < 1 && y >= 0 && y < 1
}

// A Dynamic box whose center moves just out of its cell's square may stay
// in the cell, as a proxy of Box2D's dynamic tree stays in place while its
// box stays in its fat bounds: a box that jitters across a cell's edge, as
// resting bodies do, would otherwise leave the cell and come back step
// after step, and the boxes that leave their cells are moved one by one,
// each a chain of cache misses in a large world (leaveAhead;
// BenchmarkWorldStep, moved=100%/move=bulk, whose boxes alternate between
// two poses a small step apart).
//
// The proofs of the questions' cell ranges (visitLevel, cellPairs,
// squareBounds, visitSegment) say that a box's center lies in its cell and
// its bounds within the level's reach r = reach[k] of its center. They
// need less: a float64 point p whose coord is the cell's, with the box's
// bounds within r of p. near lets a box stay in cell k when its reach
// rb and the distance d from its center to such a p (offCell) have
// rb + d <= r, and d <= R/2^nearShift: its bounds lie within rb of its
// center, so within r of p, and the questions' ranges, which never read
// the center's own cell, find it as before. Its fat bounds lie within
// their width of its center (fat.go), so within that width plus
// R/2^nearShift of p, by which the queries for candidates widen their
// ranges (fatFar).
// The Static grid's boxes stay only in the cell of their centers: their
// blocks' rectangles lie in their cells' (block_rects.go).
const nearShift = 4

// cellNear returns the cell of a box of finite reach r centered at c
// that was in cell k: k when near allows it to stay, else its center's.
func (g *grid) cellNear(k cellKey, r float64, c obb.Vec2) cellKey {
	if g.near(k, r, c) {
		return k
	}
	return g.cellAt(c, r)
}

// near reports whether a box of finite reach r centered at c may stay in
// cell k of the Dynamic grid: see nearShift and nearNeed.
func (g *grid) near(k cellKey, r float64, c obb.Vec2) bool {
	need, ok := g.nearNeed(k, r, c)
	return ok && need <= g.reach[int(k.level)-minLevel]
}

// nearNeed returns at least the reach level k must have for a box of
// reach r centered at c to stay in cell k of the Dynamic grid, r plus the
// distance d from c to the cell (offFrom), and whether it may stay at all:
// r within the level's band, as stays asks, d at most R/2^nearShift, and
// the cell not at the clamp of the coordinates, whose cell holds centers
// beyond its square.
func (g *grid) nearNeed(k cellKey, r float64, c obb.Vec2) (float64, bool) {
	b := &g.band[int(k.level)-minLevel]
	if g.static || !(r > b[0] && r <= b[1]) || !inner(k.x) || !inner(k.y) {
		return 0, false
	}
	d := offFrom(k, c)
	// A rounded sum of positive terms; the factor covers its rounding.
	return (r + d) * (1 + 0x1p-50), d <= pow2(int(k.level)-nearShift)
}

// offFrom returns at least the distance from c to a point of cell k whose
// coord is the cell's on both axes (offCell), for an inner cell.
func offFrom(k cellKey, c obb.Vec2) float64 {
	_, s := sizes(int(k.level))
	return max(offCell(c.X, k.x, s), offCell(c.Y, k.y, s))
}

// widenNear reports whether box x of the Dynamic grid's cell k, which near
// did not let stay there, may stay by raising the level's reach: its
// reach within the level's band, its center within R/2^nearShift of the
// cell's square (offCell), and the two summing to R or less, the bound the
// proofs of the cell ranges take for a level's reach. It then raises
// reach[k] to that sum, as add raises it for a box it files: a box as
// large as the largest of its level would otherwise leave its cell at
// each move past the cell's edge, and come back at each move back, as
// the RTS scene's did (BenchmarkWorldStep, world=rts/moved=100%). The
// reach only grows while the level has boxes, so the questions, which
// widen their ranges by it, find the box wherever it lies within it.
// Only the caller's goroutine calls it, after the passes that read the
// reach on the workers.
func (g *grid) widenNear(k cellKey, x obb.Box) bool {
	rx, ry, ok := bound.Reach(x)
	if !ok {
		return false
	}
	need, ok := g.nearNeed(k, max(rx, ry), x.Center)
	if !ok || need > pow2(int(k.level)) {
		return false
	}
	i := int(k.level) - minLevel
	g.reach[i] = max(g.reach[i], need)
	return true
}

// inner reports whether cell coordinate x is away from the clamp, so that
// coord gives x for every float64 in [x·S, (x+1)·S).
func inner(x int32) bool { return x > -maxCoord && x < maxCoord-1 }

// offCell returns at least the distance from v to a float64 p whose coord
// on cells of side s is i, for an inner i: v itself where its coord is i
// (0), i·s where v lies below it, and (i + 1 - 2⁻¹⁰)·s where v lies
// above; both are exact in float64 (|i| < 2³⁰, s a power of two) and in
// [i·s, (i+1)·s), whose product by 1/s, exact, has floor i.
func offCell(v float32, i int32, s float64) float64 {
	x, lo, hi := float64(v), float64(float64(i)*s), float64(float64(i+1)*s)
	switch {
	case x < lo:
		return (lo - x) * (1 + 0x1p-50)
	case x >= hi:
		return (x - hi + float64(s*0x1p-10)) * (1 + 0x1p-50)
	}
	return 0
}

// fatFar returns at least how far the fat bounds of level k's boxes lie
// from a point of their cell (see nearShift): the width of the widest, in
// the Dynamic grid plus R/2^nearShift.
func (g *grid) fatFar(k int16) float64 {
	w := g.fatWidth[int(k)-minLevel]
	if g.static {
		return w
	}
	r, _ := sizes(int(k))
	return (w + r/(1<<nearShift)) * (1 + 0x1p-50)
}

// refill writes box x, moved by remove to lane of block blk, into the lane
// and, in the Static grid, into the block's rectangle. x is the box's pose
// from its slot, not the one its old lane held: a lane is behind its slot
// until the catch-up (lag.go) or MoveBoxes' writes reach it, and a
// rectangle grown by that older pose need not hold the box the lane has
// once they do, so a question would skip the block and miss the box
// (TestStaticRectsAfterLaterWrites). A Static box stays in its cell only
// if its bounds lie in its block's rectangle (holds), which lies in the
// cell's; bounds outside the cell's rectangle are those of a box that the
// catch-up is about to move to another cell (checkAll), and would widen
// the block's rectangle beyond its cell's for a box it does not keep.
func (g *grid) refill(blk, lane int32, x obb.Box) {
	b := &g.blocks[blk]
	b.set(lane, x)
	if g.static {
		lo, hi, _ := bound.Box(x) // a box in the grid has no NaN
		if c := g.rect(g.cells[b.cell].key); c[0] <= lo.X && c[1] <= lo.Y && c[2] >= hi.X && c[3] >= hi.Y {
			b.rect.add(lo, hi)
		}
	}
}

// clear empties the grid, keeping its memory.
func (g *grid) clear() {
	g.cells, g.blocks, g.fat, g.free = g.cells[:0], g.blocks[:0], g.fat[:0], g.free[:0]
	g.churn, g.boxes, g.laid = 0, 0, 0
	g.tiles, g.rects = g.tiles[:0], g.rects[:0]
	clear(g.table)
	g.dropWindows()
	g.count = [levelSpan]int32{}
	g.reach = [levelSpan]float64{}
	g.relevel()
}
