package world

// A step where few boxes changed (fewer than one Dynamic box in
// fullStepShare) queries each changed box in the grid: a chain of loads
// through its slot, its tile, the heads of its cells and their blocks,
// some 18 cache lines a box on the uniform scene (BenchmarkStepFloor),
// each a miss once the world outgrows the caches. While the candidates of
// fat bounds are in use (fat.go), the step instead tests the changed
// boxes' candidates only, found through an index of the candidates by
// slot: the box's run of the index, a line or two, then the slot of each
// candidate's other box, which the test reads.
//
// The candidates in use are the keys of cand with no dead box and the keys
// of extra (fat_refresh.go), and every key of extra has a dead box, so the
// two sets are disjoint. A changed box that is live, in a grid and not
// dead takes its keys of cand from the index, less those with a dead box
// and those whose other box is also changed and has the lower slot, which
// that box takes; the keys of extra with a changed box are taken from a
// pass over extra, which holds at most a sixteenth of cand's room. Each
// key is then taken once. The keys taken are every candidate of a changed
// box, and a pair of boxes whose test reports an overlap is a candidate
// (fat.go), so the test of the keys taken finds every pair of the step's
// changed boxes, as the queries would; the pairs of the unchanged boxes are
// kept from the last step (keep).
//
// The boxes outside the grids are not candidates: with any, the step
// queries. So it does where the candidates are tested by the slots'
// test (chooseTest), which merges extra into cand each step that a box
// escapes and would rebuild the index each time.
//
// While the candidates are dropped, the few-moves step feeds the sample
// with its changed boxes, as a full step does, and builds the candidates
// when the sample calls for it: that step then tests every candidate, as
// a full step that builds them does, and recomputes every pair.

// fewState is the index of cand by slot: for slot i, the other boxes of
// its keys are other[off[i]:off[i+1]], by the handles the keys name, and
// it was made from the cand of candGen gen. A box that is not dead has the
// handle its keys name: a box removed, or whose slot was given to another
// box, escaped (escaped), and an escaped box is dead until the next merge.
type fewState struct {
	gen    int
	off    []int32
	other  []Handle
	keys   []uint64 // the step's keys to test
	spare  []uint64 // sortSparse's other buffer for the pairs found
	counts []int32  // sortSparse's buckets

	// Moving sums of the boxes that escaped and of the boxes changed in
	// these steps (fewEscapes): each step adds 16 times its count and
	// takes off a rateSteps-th of the sum.
	escaped, moved int
}

// fewEscapes: the steps with few changed boxes drop the candidates when
// more than one changed box in fewEscapes escapes, on a moving average.
// An escaped box costs its query with its new fat bounds, and the merges
// its new candidates bring, where the step would have queried it alone.
// With every hundredth box travelling (BenchmarkWorldDriftFew, uniform,
// 100,000 and 1,000,000 boxes, one worker), the steps with the candidates
// took less time than with queries at 0.01 a step, and, kept whatever
// escaped, longer at 0.3, where most of the moving boxes escape each step;
// dropped when a quarter escaped, longer at 0.1, built and dropped again;
// dropped when half escaped, no longer at any speed. A variable for the
// tests (export_test.go).
var fewEscapes = 2

// fewFatPairs puts in w.step.found the pairs of the step's dirty boxes,
// sorted, from the candidates, and reports whether it could; or, when the
// sample calls for building the candidates, builds them, puts every pair
// in w.step.found, and makes the step full.
func (w *World) fewFatPairs() bool {
	st, v := &w.step, &w.fat
	v.size(len(w.slots))
	v.esc = v.esc[:0]
	if !v.valid {
		if !w.buildDue() {
			return false
		}
		st.full = true // first: the test's queries of the boxes outside the grids read it (pairsOf)
		w.build()
		v.used++
		v.fewBuilds++
		w.testCandidates()
		return true
	}
	if !w.fewUse() || !w.fatEscapes() || !w.fewUse() {
		return false
	}
	f := &v.few
	f.escaped += 16*len(v.esc) - f.escaped/rateSteps
	f.moved += 16*len(w.dirty.list) - f.moved/rateSteps
	if fewEscapes*f.escaped > f.moved {
		w.dropCandidates()
		return false
	}
	// The dead boxes' records hold a NaN after every step that uses the
	// candidates, as after one whose kernel tests them: a Move since may
	// have written one.
	v.nanDead()
	if f.gen != v.candGen {
		// A slot past the index's end was filled since cand was made, so
		// its box escaped, and is dead, or was merged into a new cand.
		w.indexCandidates()
	}
	keys := f.keys[:0]
	for _, i := range w.dirty.list {
		s := &w.slots[i]
		if !s.live || s.where != inGrid || v.dead.has(i) {
			continue
		}
		h := makeHandle(i, s.gen)
		for _, x := range f.other[f.off[i]:f.off[i+1]] {
			if j := int32(x >> 8); v.dead.has(j) || j < i && w.isDirty(j) {
				continue
			}
			keys = append(keys, key(h, x))
		}
	}
	if len(v.extra) > 0 {
		v.fewExtras++
	}
	for _, k := range v.extra {
		if w.isDirty(int32(k>>40)) || w.isDirty(int32(uint32(k)>>8)) {
			keys = append(keys, k)
		}
	}
	// The keys are tested in the order taken, and only the pairs found are
	// sorted, six keys in ten on the uniform scene: by sortSparse, as the
	// keys of a step with few changed boxes are far fewer than the slots
	// (BenchmarkWorldStep, world=uniform/moved=1%).
	st.found = w.testSlots(st.found[:0], keys)
	st.found, f.spare, f.counts = sortSparse(st.found, f.spare, f.counts, len(w.slots))
	f.keys = keys
	v.fewUsed++
	v.fewEscaped += len(v.esc)
	return true
}

// fewUse reports whether a step with few changed boxes can test their
// candidates: with no box outside the grids, the candidates tested by the
// kernel (chooseTest), and fewer than fewCandidates candidates a Dynamic
// box. A candidate's test reads its other box's slot, anywhere in memory;
// with many candidates a box the query's walk of the box's cells, laid out
// in spatial order, reads fewer lines: on the mixed scene, 15 candidates
// a box inserted in no spatial order, the 1% step took a fifth longer with
// the candidates than with queries (BenchmarkWorldStep,
// world=mixed/moved=1%/workers=1, n=1000000), and as long on the RTS scene,
// where the uniform scene's, half a candidate a box, took half as long.
func (w *World) fewUse() bool {
	v := &w.fat
	return v.kernel && len(w.infinite) == 0 && len(v.cand)/fewLimit < w.dynamic // len(cand) < fewLimit·dynamic, with no overflow
}

// fewLimit is fewCandidates, a variable for the tests, which raise it so
// that every scene's steps test their candidates (export_test.go).
var fewLimit = fewCandidates

// indexCandidates makes v.few the index of cand by slot: a count of each
// slot's keys, their running sum, and the keys placed from each slot's end
// back, which leaves off[i] at the start of slot i's run.
func (w *World) indexCandidates() {
	v := &w.fat
	f := &v.few
	n := len(w.slots)
	if cap(f.off) < n+1 {
		f.off = make([]int32, n+1, n+1+n/4)
	}
	f.off = f.off[:n+1]
	clear(f.off)
	if cap(f.other) < 2*len(v.cand) {
		f.other = make([]Handle, 0, 2*cap(v.cand))
	}
	f.other = f.other[:2*len(v.cand)]
	for _, k := range v.cand {
		f.off[k>>40]++
		f.off[uint32(k)>>8]++
	}
	sum := int32(0)
	for i, c := range f.off[:n] {
		sum += c
		f.off[i] = sum
	}
	f.off[n] = sum
	for _, k := range v.cand {
		a, b := int32(k>>40), int32(uint32(k)>>8)
		f.off[a]--
		f.other[f.off[a]] = Handle(uint32(k))
		f.off[b]--
		f.other[f.off[b]] = Handle(k >> 32)
	}
	f.gen = v.candGen
	v.fewIndexes++
}
