package matching

import (
	"fmt"
	"math"
)

// Result is a found frame and its cost.
type Result struct {
	Frame int
	Cost  float32
}

// Query is one search: the query features (len dims), how many best frames
// to keep (N >= 1), the frames to skip [SkipLo, SkipHi) (empty when
// SkipHi <= SkipLo) and the bound: only frames whose cost is strictly below
// Bound are returned (+Inf for no bound).
type Query struct {
	Features       []float32
	N              int
	SkipLo, SkipHi int
	Bound          float32
}

// defaultBlocks are NewIndex's box sizes, in frames, smallest first.
var defaultBlocks = [...]int{16, 128}

// maxLevels bounds the nesting of boxes, so Search walks them with a stack
// of fixed size and allocates nothing.
const maxLevels = 6

// Index answers nearest-frame searches over a feature matrix, pruning
// blocks of consecutive frames by their bounding boxes. Search returns
// exactly what SearchBrute returns: the same frames, bit-identical costs.
//
// The cost of frame i is Σ_d (q[d]-f[d])², summed in dimension order in
// float32 with every square rounded before it is added (never fused), as
// Cost computes it. Results are ordered by ascending cost, ties by lower
// frame. A query with a NaN or infinite feature, a NaN or non-positive
// Bound, or N < 1 matches nothing: the result is empty (brute force agrees,
// since every cost is then NaN or +Inf, or no cost is below the bound).
//
// An Index is read-only after NewIndex: searches may run concurrently.
type Index struct {
	feat       []float32
	dims       int
	frames     int
	searchable []bool
	levels     []searchLevel // smallest boxes first
}

// searchLevel is one level of boxes: block b covers frames
// [b*size, (b+1)*size) and its box is boxes[b*2*dims:(b+1)*2*dims], the
// dims lows then the dims highs of its searchable frames. A block of no
// searchable frame has lows +Inf, highs -Inf, so its distance is +Inf and
// it is always pruned.
type searchLevel struct {
	size  int
	boxes []float32
}

// NewIndex builds the search structure over feat (frames x dims, row-major;
// kept, not copied) with searchable[i] telling whether frame i may be
// returned (copied; nil means every frame). Its boxes cover 16 frames,
// nested in boxes of 128: on a synthetic 52,000-frame database
// (search_bench_test.go) within noise of the fastest bounded searches
// (16/64/256 was ~7% faster) and the fastest unbounded ones.
func NewIndex(feat []float32, dims int, searchable []bool) *Index {
	return NewIndexBlocks(feat, dims, searchable, defaultBlocks[:]...)
}

// NewIndexBlocks is NewIndex with boxes of the given sizes in frames,
// smallest first, each a multiple of the one before (1 to 6 levels).
func NewIndexBlocks(feat []float32, dims int, searchable []bool, blocks ...int) *Index {
	if dims < 1 || len(feat)%dims != 0 {
		panic(fmt.Sprintf("matching: %d features do not make frames of %d dims", len(feat), dims))
	}
	if len(blocks) < 1 || len(blocks) > maxLevels || blocks[0] < 1 {
		panic(fmt.Sprintf("matching: blocks %v: need 1 to %d sizes >= 1", blocks, maxLevels))
	}
	for i := 1; i < len(blocks); i++ {
		if blocks[i] < blocks[i-1] || blocks[i]%blocks[i-1] != 0 {
			panic(fmt.Sprintf("matching: blocks %v: each must be a multiple of the one before", blocks))
		}
	}
	frames := len(feat) / dims
	s := make([]bool, frames)
	if searchable == nil {
		for i := range s {
			s[i] = true
		}
	} else {
		if len(searchable) != frames {
			panic(fmt.Sprintf("matching: %d searchable flags for %d frames", len(searchable), frames))
		}
		// Copied: a flag changed after the boxes are built would break
		// the pruning's guarantee.
		copy(s, searchable)
	}
	x := &Index{feat: feat, dims: dims, frames: frames, searchable: s}
	for _, size := range blocks {
		x.levels = append(x.levels, searchLevel{size, x.buildBoxes(size)})
	}
	return x
}

// buildBoxes returns the boxes of the searchable frames of each block of
// size frames. NaN features are left out of a box: their frame's cost is
// NaN, which is never below a bound, so no box needs to cover them.
func (x *Index) buildBoxes(size int) []float32 {
	n := (x.frames + size - 1) / size
	boxes := make([]float32, n*2*x.dims)
	inf := float32(math.Inf(1))
	for b := 0; b < n; b++ {
		lo, hi := boxes[2*b*x.dims:(2*b+1)*x.dims], boxes[(2*b+1)*x.dims:(2*b+2)*x.dims]
		for d := range lo {
			lo[d], hi[d] = inf, -inf
		}
		for i := b * size; i < min((b+1)*size, x.frames); i++ {
			if !x.searchable[i] {
				continue
			}
			for d, v := range x.feat[i*x.dims : (i+1)*x.dims] {
				if v < lo[d] {
					lo[d] = v
				}
				if v > hi[d] {
					hi[d] = v
				}
			}
		}
	}
	return boxes
}

// Frames is the number of frames of the index.
func (x *Index) Frames() int { return x.frames }

// Dims is the number of features per frame.
func (x *Index) Dims() int { return x.dims }

// Blocks appends the box sizes, smallest first, to dst.
func (x *Index) Blocks(dst []int) []int {
	for _, l := range x.levels {
		dst = append(dst, l.size)
	}
	return dst
}

// Cost is frame's cost for the query features, bit-identical to the costs
// Search returns: compute a bound with it (e.g. the cost of carrying on
// playing) so that "strictly below the bound" compares like with like.
func (x *Index) Cost(features []float32, frame int) float32 {
	x.checkLen(features)
	return searchCost(features, x.feat[frame*x.dims:(frame+1)*x.dims])
}

func (x *Index) checkLen(features []float32) {
	if len(features) != x.dims {
		panic(fmt.Sprintf("matching: query of %d features for an index of %d dims", len(features), x.dims))
	}
}

// matchesNothing tells whether q can match no frame whatever the database:
// N < 1, a bound no cost can be below (NaN, <= 0), or a non-finite query
// feature (every cost NaN or +Inf). Search needs it for NaN, which would
// otherwise defeat the pruning and scan everything.
func (x *Index) matchesNothing(q *Query) bool {
	x.checkLen(q.Features)
	if q.N < 1 || !(q.Bound > 0) {
		return true
	}
	for _, v := range q.Features {
		if v-v != 0 { // NaN or ±Inf
			return true
		}
	}
	return false
}

// Search returns the N best frames (ascending cost, ties by lower frame
// index), using the boxes, appended to out[:0]; out's capacity is reused,
// so a search with cap(out) >= N allocates nothing.
//
// It walks the boxes depth first in frame order, pruning every box whose
// distance reaches the threshold; with no bound (+Inf) it first seeds the
// threshold from the frames of a block near the query (searchSeed).
//
// It matches SearchBrute exactly because (1) frames are visited in
// ascending order, as brute force does, so a frame whose cost ties the
// worst kept one always loses, and a kept frame's cost is computed by the
// same sums; (2) a block is pruned only when its lower bound is >= the
// threshold (the bound, or the N-th best cost once N are kept), and a frame
// is kept only when its cost is < the threshold, so a pruned block held no
// frame that would have been kept; (3) the lower bound never exceeds a
// frame's cost in float32: per dimension the gap to the box rounds to no
// more than the gap to any frame inside it (rounding is monotonic), and the
// squares are summed in the same order, as is the early-exit partial sum;
// (4) the seed only lowers the bound to just above the N-th best cost among
// N eligible frames, which every frame of the result is at or below.
func (x *Index) Search(q Query, out []Result) []Result {
	out = out[:0]
	if x.matchesNothing(&q) {
		return out
	}
	thr := q.Bound
	if math.IsInf(float64(thr), 1) {
		out, thr = x.searchSeed(&q, out)
	}
	box2 := 2 * x.dims
	// A depth-first walk of the boxes, largest first: at each level, the
	// next block to visit and the end of its parent's.
	var next, end [maxLevels]int
	lv := len(x.levels) - 1
	next[lv], end[lv] = 0, (x.frames+x.levels[lv].size-1)/x.levels[lv].size
	for {
		if next[lv] == end[lv] {
			if lv++; lv == len(x.levels) {
				return out
			}
			continue
		}
		l := &x.levels[lv]
		b := next[lv]
		next[lv]++
		f0, f1 := b*l.size, min((b+1)*l.size, x.frames)
		if f0 >= q.SkipLo && f1 <= q.SkipHi {
			continue
		}
		if searchBoxDist(q.Features, l.boxes[b*box2:(b+1)*box2], thr) >= thr {
			continue
		}
		if lv > 0 {
			lv--
			next[lv] = f0 / x.levels[lv].size
			end[lv] = (f1 + x.levels[lv].size - 1) / x.levels[lv].size
			continue
		}
		out, thr = x.searchFrames(&q, f0, f1, out, thr)
	}
}

// searchSeed finds a threshold for Search's walk below q.Bound when it
// can: without one, a search keeps whatever frames come first and prunes
// little until it happens on good ones. It goes down the boxes, at each
// level into the child nearest the query, to a block of the second
// smallest size, and costs its frames. If N of them are eligible and below
// the bound, the N-th best of the result costs at most the N-th of these,
// cN: the walk may look only for costs <= cN, i.e. < nextafter(cN, +Inf).
// out is scratch, returned empty.
//
// Search uses it for unbounded searches only (a clip's end): a matcher's
// bound, the cost of playing on, is usually tighter than the seed's, which
// then costs ~2 µs for nothing. Unbounded, it saved ~20% for N=1 and
// little for N=16: on the benchmark data the nearest box is a poor guide
// to the nearest frames (a beam of 2-16 boxes did no better).
func (x *Index) searchSeed(q *Query, out []Result) ([]Result, float32) {
	thr := q.Bound
	box2 := 2 * x.dims
	lv := len(x.levels) - 1
	stop := min(lv, 1)
	b0, b1 := 0, (x.frames+x.levels[lv].size-1)/x.levels[lv].size
	for {
		l := &x.levels[lv]
		best, bestDist := -1, thr
		for b := b0; b < b1; b++ {
			f0, f1 := b*l.size, min((b+1)*l.size, x.frames)
			if f0 >= q.SkipLo && f1 <= q.SkipHi {
				continue
			}
			if d := searchBoxDist(q.Features, l.boxes[b*box2:(b+1)*box2], bestDist); d < bestDist {
				best, bestDist = b, d
			}
		}
		if best < 0 {
			return out, thr // nothing can be below the bound
		}
		f0, f1 := best*l.size, min((best+1)*l.size, x.frames)
		if lv == stop {
			out, _ = x.searchFrames(q, f0, f1, out, thr)
			if len(out) == q.N {
				thr = math.Nextafter32(out[q.N-1].Cost, thr)
			}
			return out[:0], thr
		}
		lv--
		b0, b1 = f0/x.levels[lv].size, (f1+x.levels[lv].size-1)/x.levels[lv].size
	}
}

// searchFrames adds the eligible frames of [f0, f1) whose cost is below
// thr to out (at most q.N, best first), lowering thr to the N-th best cost
// once out is full. Frames must come in ascending order from call to call.
func (x *Index) searchFrames(q *Query, f0, f1 int, out []Result, thr float32) ([]Result, float32) {
	dims, n := x.dims, q.N
	for i := f0; i < f1; i++ {
		if !x.searchable[i] || (i >= q.SkipLo && i < q.SkipHi) {
			continue
		}
		c := searchCostBounded(q.Features, x.feat[i*dims:(i+1)*dims], thr)
		if c < thr {
			out = searchInsert(out, n, Result{Frame: i, Cost: c})
			if len(out) == n {
				thr = out[n-1].Cost
			}
		}
	}
	return out, thr
}

// SearchBrute is the same search by brute force over every frame, the
// reference Search is tested against: it computes every candidate's full
// cost and uses no box.
func (x *Index) SearchBrute(q Query, out []Result) []Result {
	out = out[:0]
	x.checkLen(q.Features)
	if q.N < 1 {
		return out
	}
	n, dims := q.N, x.dims
	thr := q.Bound
	for i := 0; i < x.frames; i++ {
		if !x.searchable[i] || (i >= q.SkipLo && i < q.SkipHi) {
			continue
		}
		c := searchCost(q.Features, x.feat[i*dims:(i+1)*dims])
		if c < thr {
			out = searchInsert(out, n, Result{Frame: i, Cost: c})
			if len(out) == n {
				thr = out[n-1].Cost
			}
		}
	}
	return out
}

// searchInsert adds r to best, sorted by cost, keeping at most n. Callers
// visit frames in ascending order, so r's frame is above every kept one:
// it goes after equal costs, and when best is full its cost is below the
// last one's (the caller's threshold), which it pushes out.
func searchInsert(best []Result, n int, r Result) []Result {
	j := len(best)
	if j < n {
		best = append(best, r)
	} else {
		j = n - 1
	}
	for ; j > 0 && best[j-1].Cost > r.Cost; j-- {
		best[j] = best[j-1]
	}
	best[j] = r
	return best
}

// searchCost is the cost of frame features f for query q: the squares are
// rounded to float32 before each addition (the conversion forbids fusing
// them into an FMA), so every architecture sums them alike.
func searchCost(q, f []float32) float32 {
	f = f[:len(q)]
	var s float32
	for d, v := range q {
		e := v - f[d]
		s += float32(e * e)
	}
	return s
}

// searchCostBounded is searchCost, given up once the partial sum reaches
// thr: the terms are >= 0, so the full cost would be >= thr too and the
// frame is rejected either way. A cost below thr is summed exactly as
// searchCost sums it.
func searchCostBounded(q, f []float32, thr float32) float32 {
	f = f[:len(q)]
	var s float32
	d := 0
	for ; d+4 <= len(q); d += 4 {
		qq, ff := q[d:d+4:d+4], f[d:d+4:d+4]
		e0, e1, e2, e3 := qq[0]-ff[0], qq[1]-ff[1], qq[2]-ff[2], qq[3]-ff[3]
		s += float32(e0 * e0)
		s += float32(e1 * e1)
		s += float32(e2 * e2)
		s += float32(e3 * e3)
		if s >= thr {
			return s
		}
	}
	for ; d < len(q); d++ {
		e := q[d] - f[d]
		s += float32(e * e)
	}
	return s
}

// searchBoxDist is the squared distance from q to a box (lo then hi, dims
// each), given up once it reaches thr. Per dimension q - clamp(q, lo, hi)
// is exactly q-lo, q-hi or 0 (+Inf for an empty box), whose magnitude
// rounds to no more than that of q-f for any frame f in the box; summed in
// the same order as searchCost, it never exceeds a frame's cost. The clamp
// is branch-free (min/max): it measured faster than comparisons, whose
// outcome is unpredictable.
func searchBoxDist(q, box []float32, thr float32) float32 {
	lo, hi := box[:len(q)], box[len(q):2*len(q)]
	var s float32
	d := 0
	for ; d+4 <= len(q); d += 4 {
		qq, ll, hh := q[d:d+4:d+4], lo[d:d+4:d+4], hi[d:d+4:d+4]
		e0 := qq[0] - min(max(qq[0], ll[0]), hh[0])
		e1 := qq[1] - min(max(qq[1], ll[1]), hh[1])
		e2 := qq[2] - min(max(qq[2], ll[2]), hh[2])
		e3 := qq[3] - min(max(qq[3], ll[3]), hh[3])
		s += float32(e0 * e0)
		s += float32(e1 * e1)
		s += float32(e2 * e2)
		s += float32(e3 * e3)
		// Checked every 8 dimensions, not 4: a data-dependent exit
		// mispredicts, and the fewer exits measured faster.
		if d&4 != 0 && s >= thr {
			return s
		}
	}
	for ; d < len(q); d++ {
		e := q[d] - min(max(q[d], lo[d]), hi[d])
		s += float32(e * e)
	}
	return s
}

// boxBytes is the memory of x's boxes (bytes).
func (x *Index) boxBytes() int {
	n := 0
	for _, l := range x.levels {
		n += 4 * len(l.boxes)
	}
	return n
}

// flagBytes is the memory of x's searchable flags (bytes).
func (x *Index) flagBytes() int { return len(x.searchable) }
