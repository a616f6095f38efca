package matching

import (
	"fmt"
	"math"
	"slices"
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

// defaultLeaf is NewIndex's leaf size, in frames.
const defaultLeaf = 16

// maxDepth bounds the depth of the tree (rows are int32, and each level
// halves the leaves), so Search walks it with a stack of fixed size and
// allocates nothing.
const maxDepth = 64

// Index answers nearest-frame searches over a feature matrix, pruning
// the frames by bounding boxes in a k-d tree. Search returns exactly what
// SearchBrute returns: the same frames, bit-identical costs.
//
// The cost of frame i is Σ_d (q[d]-f[d])², summed in dimension order in
// float32 with every square rounded before it is added (never fused), as
// Cost computes it. Results are ordered by ascending cost, ties by lower
// frame. A query with a NaN or infinite feature, a NaN or non-positive
// Bound, or N < 1 matches nothing: the result is empty (brute force agrees,
// since every cost is then NaN or +Inf, or no cost is below the bound).
//
// The index holds its own copy of the features, its rows in the tree's
// order: the searchable frames, leaf by leaf, then the others in frame
// order (Row reads a frame's). Each node of the tree covers a run of the
// searchable rows and holds their bounding box; a node of more than a
// leaf's frames splits in two along its widest dimension (by variance),
// the left child taking the lower values, as many as the first half of
// its leaves (rounded up) hold, so every leaf but the last is full.
//
// An Index is read-only after NewIndex: searches may run concurrently.
type Index struct {
	dims       int
	frames     int
	leaf       int
	searchable int       // rows [0, searchable) are the tree's
	feat       []float32 // rows x dims
	frame      []int32   // row -> frame
	row        []int32   // frame -> row
	nodes      []searchNode
	boxes      []float32 // per node: dims lows then dims highs
}

// searchNode covers rows [lo, hi). A leaf has kids -1; an inner node's
// children are nodes kids (the left, rows [lo, mid)) and kids+1 (rows
// [mid, hi)): side by side, so a step down the tree reads both boxes from
// one run of memory.
type searchNode struct {
	lo, hi, kids int32
}

// NewIndex builds the search structure over feat (frames x dims, row-major;
// copied) with searchable[i] telling whether frame i may be returned (nil
// means every frame). Its leaves hold 16 frames: on the 500,000-frame
// generated set (scale_test.go) within noise of 8 and 32, the fastest.
func NewIndex(feat []float32, dims int, searchable []bool) *Index {
	return NewIndexLeaf(feat, dims, searchable, defaultLeaf)
}

// NewIndexLeaf is NewIndex with leaves of at most leaf frames (>= 1).
func NewIndexLeaf(feat []float32, dims int, searchable []bool, leaf int) *Index {
	if dims < 1 || len(feat)%dims != 0 {
		panic(fmt.Sprintf("matching: %d features do not make frames of %d dims", len(feat), dims))
	}
	if leaf < 1 {
		panic(fmt.Sprintf("matching: leaf size %d: need >= 1", leaf))
	}
	frames := len(feat) / dims
	if frames > math.MaxInt32 {
		panic(fmt.Sprintf("matching: %d frames: over an index's 2^31-1", frames))
	}
	if searchable != nil && len(searchable) != frames {
		panic(fmt.Sprintf("matching: %d searchable flags for %d frames", len(searchable), frames))
	}
	x := &Index{dims: dims, frames: frames, leaf: leaf, frame: make([]int32, 0, frames)}
	for i := 0; i < frames; i++ {
		if searchable == nil || searchable[i] {
			x.frame = append(x.frame, int32(i))
		}
	}
	x.searchable = len(x.frame)
	for i := 0; i < frames; i++ {
		if searchable != nil && !searchable[i] {
			x.frame = append(x.frame, int32(i))
		}
	}
	if x.searchable > 0 {
		b := treeBuilder{x: x, feat: feat, keys: make([]float32, x.searchable),
			sum: make([]float64, dims), sq: make([]float64, dims)}
		x.nodes = make([]searchNode, 1, 2*((x.searchable+leaf-1)/leaf))
		x.nodes[0] = searchNode{lo: 0, hi: int32(x.searchable)}
		b.split(x.frame[:x.searchable], 0)
	}
	x.feat = make([]float32, len(feat))
	x.row = make([]int32, frames)
	for r, f := range x.frame {
		copy(x.feat[r*dims:(r+1)*dims], feat[int(f)*dims:(int(f)+1)*dims])
		x.row[f] = int32(r)
	}
	x.buildBoxes()
	return x
}

// treeBuilder is NewIndexLeaf's scratch.
type treeBuilder struct {
	x       *Index
	feat    []float32 // in frame order
	keys    []float32 // the split dimension's values of a node's frames
	sum, sq []float64 // per dimension, over a node's sample
}

// split makes node k, of frames idx (its rows), a leaf or splits it,
// adding its subtree; it reorders idx into the rows' order.
func (b *treeBuilder) split(idx []int32, k int) {
	x := b.x
	if len(idx) <= x.leaf {
		x.nodes[k].kids = -1
		slices.Sort(idx) // frame order within a leaf: the cheapest to read
		return
	}
	d := b.widest(idx)
	keys := b.keys[:len(idx)]
	for j, f := range idx {
		v := b.feat[int(f)*x.dims+d]
		if v != v { // NaN: last, so the keys are ordered
			v = float32(math.Inf(1))
		}
		keys[j] = v
	}
	// The left child takes the first half of the leaves, rounded up.
	mid := ((len(idx)+x.leaf-1)/x.leaf + 1) / 2 * x.leaf
	selectNth(keys, idx, mid)
	lo, kids := x.nodes[k].lo, len(x.nodes)
	x.nodes[k].kids = int32(kids)
	x.nodes = append(x.nodes, searchNode{lo: lo, hi: lo + int32(mid)}, searchNode{lo: lo + int32(mid), hi: x.nodes[k].hi})
	b.split(idx[:mid], kids)
	b.split(idx[mid:], kids+1)
}

// widest is the dimension of the largest variance over a sample of up to
// 256 of frames idx (all of them when fewer): the one to split. NaN
// features make their dimension's variance NaN, which never wins.
func (b *treeBuilder) widest(idx []int32) int {
	dims := b.x.dims
	clear(b.sum)
	clear(b.sq)
	step := max(1, len(idx)/256)
	n := 0
	for j := 0; j < len(idx); j += step {
		row := b.feat[int(idx[j])*dims : (int(idx[j])+1)*dims]
		for d, v := range row {
			b.sum[d] += float64(v)
			b.sq[d] += float64(v) * float64(v)
		}
		n++
	}
	best, bestVar := 0, -1.0
	for d := 0; d < dims; d++ {
		m := b.sum[d] / float64(n)
		if v := b.sq[d]/float64(n) - m*m; v > bestVar {
			best, bestVar = d, v
		}
	}
	return best
}

// selectNth reorders keys, and idx alike, so that keys[j] <= keys[m] for
// j < m and keys[j] >= keys[m] for j > m (quickselect with Hoare's
// partition and a median-of-three pivot: deterministic, and balanced on
// runs of equal keys). The keys hold no NaN.
func selectNth(keys []float32, idx []int32, m int) {
	swap := func(i, j int) {
		keys[i], keys[j] = keys[j], keys[i]
		idx[i], idx[j] = idx[j], idx[i]
	}
	lo, hi := 0, len(keys)-1
	for hi > lo {
		mid := lo + (hi-lo)/2
		if keys[mid] < keys[lo] {
			swap(lo, mid)
		}
		if keys[hi] < keys[lo] {
			swap(lo, hi)
		}
		if keys[hi] < keys[mid] {
			swap(mid, hi)
		}
		p := keys[mid]
		i, j := lo, hi
		for i <= j {
			for keys[i] < p {
				i++
			}
			for keys[j] > p {
				j--
			}
			if i <= j {
				swap(i, j)
				i++
				j--
			}
		}
		switch {
		case m <= j:
			hi = j
		case m >= i:
			lo = i
		default:
			return
		}
	}
}

// buildBoxes makes every node's box: a leaf's from its rows, an inner
// node's from its children's (which come after it). NaN features are left
// out of a box: their frame's cost is NaN, which is never below a bound,
// so no box needs to cover them.
func (x *Index) buildBoxes() {
	dims := x.dims
	x.boxes = make([]float32, len(x.nodes)*2*dims)
	inf := float32(math.Inf(1))
	for k := len(x.nodes) - 1; k >= 0; k-- {
		nd := x.nodes[k]
		lo, hi := x.boxes[2*k*dims:(2*k+1)*dims], x.boxes[(2*k+1)*dims:(2*k+2)*dims]
		if nd.kids >= 0 {
			a, b := x.box(int(nd.kids)), x.box(int(nd.kids)+1)
			for d := range lo {
				lo[d], hi[d] = min(a[d], b[d]), max(a[dims+d], b[dims+d])
			}
			continue
		}
		for d := range lo {
			lo[d], hi[d] = inf, -inf
		}
		for r := nd.lo; r < nd.hi; r++ {
			for d, v := range x.feat[int(r)*dims : int(r+1)*dims] {
				if v < lo[d] {
					lo[d] = v
				}
				if v > hi[d] {
					hi[d] = v
				}
			}
		}
	}
}

// box is node k's box: dims lows, then dims highs.
func (x *Index) box(k int) []float32 { return x.boxes[2*k*x.dims : 2*(k+1)*x.dims] }

// Frames is the number of frames of the index.
func (x *Index) Frames() int { return x.frames }

// Dims is the number of features per frame.
func (x *Index) Dims() int { return x.dims }

// Leaf is the most frames a leaf of the tree holds.
func (x *Index) Leaf() int { return x.leaf }

// Row is frame's features (the index's copy: read, do not change).
func (x *Index) Row(frame int) []float32 {
	r := int(x.row[frame])
	return x.feat[r*x.dims : (r+1)*x.dims : (r+1)*x.dims]
}

// isSearchable reports whether a search may return frame.
func (x *Index) isSearchable(frame int) bool { return int(x.row[frame]) < x.searchable }

// Cost is frame's cost for the query features, bit-identical to the costs
// Search returns: compute a bound with it (e.g. the cost of carrying on
// playing) so that "strictly below the bound" compares like with like.
func (x *Index) Cost(features []float32, frame int) float32 {
	x.checkLen(features)
	return searchCost(features, x.Row(frame))
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

// searchState is what a search keeps beside its results: the threshold a
// cost must be under (the bound, then once N are kept the N-th best cost)
// and, once N are kept, the N-th best frame, which a frame of exactly
// that cost displaces if its index is lower.
type searchState struct {
	thr   float32
	full  bool
	worst int
}

// admits tells whether frame f of cost c goes into the results: below the
// threshold, or tying the N-th best with a lower frame index.
func (s *searchState) admits(c float32, f int) bool {
	return c < s.thr || (s.full && c == s.thr && f < s.worst)
}

// prunes tells whether a box whose lower bound is d can hold no frame
// that would be admitted.
func (s *searchState) prunes(d float32) bool { return d > s.thr || (d == s.thr && !s.full) }

// add inserts r into out (at most n, by cost then frame) and updates the
// threshold.
func (s *searchState) add(out []Result, n int, r Result) []Result {
	out = searchInsert(out, n, r)
	if len(out) == n {
		s.thr, s.full, s.worst = out[n-1].Cost, true, out[n-1].Frame
	}
	return out
}

// Search returns the N best frames (ascending cost, ties by lower frame
// index), using the tree, appended to out[:0]; out's capacity is reused,
// so a search with cap(out) >= N allocates nothing.
//
// It walks the tree depth first, into the nearer child first (by box
// distance), the farther one stacked with its distance; a node is pruned
// when its distance shows no frame under it can be admitted, checked again
// when it comes off the stack (the threshold may have fallen since). The
// first leaf reached is near the query, so an unbounded search soon has N
// frames and a threshold.
//
// It matches SearchBrute exactly because (1) a frame is admitted by the
// same rule (searchState.admits: below the threshold, or tying the N-th
// best with a lower frame) and kept in the same order (cost, then frame),
// so the order frames are visited in does not matter, and a kept frame's
// cost is computed by the same sums (the early exit gives up only on a
// partial sum above the threshold, so any cost at or below it is summed in
// full); (2) a node is pruned only when its lower bound is above the
// threshold, or equal to it while fewer than N are kept (the bound is
// strict), so a pruned node held no frame that would have been admitted;
// (3) the lower bound never exceeds a frame's cost in float32: per
// dimension the gap to the box rounds to no more than the gap to any frame
// inside it (rounding is monotonic), and the squares are summed in the
// same order, as is the early-exit partial sum.
func (x *Index) Search(q Query, out []Result) []Result {
	out = out[:0]
	if x.matchesNothing(&q) || len(x.nodes) == 0 {
		return out
	}
	s := searchState{thr: q.Bound}
	var stack [maxDepth]struct {
		node int32
		dist float32
	}
	stack[0].node, stack[0].dist = 0, searchBoxDist(q.Features, x.box(0), s.thr)
	for sp := 1; sp > 0; {
		sp--
		k, d := int(stack[sp].node), stack[sp].dist
		for !s.prunes(d) {
			nd := &x.nodes[k]
			if nd.kids < 0 {
				out = x.searchRows(&q, int(nd.lo), int(nd.hi), out, &s)
				break
			}
			l, r := int(nd.kids), int(nd.kids)+1
			dl := searchBoxDist(q.Features, x.box(l), s.thr)
			dr := searchBoxDist(q.Features, x.box(r), s.thr)
			if dr < dl {
				l, r, dl, dr = r, l, dr, dl
			}
			if !s.prunes(dr) {
				stack[sp].node, stack[sp].dist = int32(r), dr
				sp++
			}
			k, d = l, dl
		}
	}
	return out
}

// searchRows adds the admitted frames of rows [r0, r1) to out.
func (x *Index) searchRows(q *Query, r0, r1 int, out []Result, s *searchState) []Result {
	dims, n := x.dims, q.N
	for r := r0; r < r1; r++ {
		f := int(x.frame[r])
		if f >= q.SkipLo && f < q.SkipHi {
			continue
		}
		c := searchCostBounded(q.Features, x.feat[r*dims:(r+1)*dims], s.thr)
		if s.admits(c, f) {
			out = s.add(out, n, Result{Frame: f, Cost: c})
		}
	}
	return out
}

// SearchBrute is the same search by brute force over every frame, the
// reference Search is tested against: it computes every candidate's full
// cost, row by row, and uses no box.
func (x *Index) SearchBrute(q Query, out []Result) []Result {
	out = out[:0]
	x.checkLen(q.Features)
	if q.N < 1 {
		return out
	}
	dims := x.dims
	s := searchState{thr: q.Bound}
	for r := 0; r < x.searchable; r++ {
		f := int(x.frame[r])
		if f >= q.SkipLo && f < q.SkipHi {
			continue
		}
		if c := searchCost(q.Features, x.feat[r*dims:(r+1)*dims]); s.admits(c, f) {
			out = s.add(out, q.N, Result{Frame: f, Cost: c})
		}
	}
	return out
}

// searchInsert adds r to best, sorted by cost then frame, keeping at most
// n; when best is full, r comes before its last (the caller admitted it),
// which it pushes out.
func searchInsert(best []Result, n int, r Result) []Result {
	j := len(best)
	if j < n {
		best = append(best, r)
	} else {
		j = n - 1
	}
	for ; j > 0 && (best[j-1].Cost > r.Cost || (best[j-1].Cost == r.Cost && best[j-1].Frame > r.Frame)); j-- {
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

// searchCostBounded is searchCost, given up once the partial sum exceeds
// thr: the terms are >= 0, so the full cost would exceed thr too and the
// frame is rejected either way. A cost at or below thr is summed exactly
// as searchCost sums it (a tie with the threshold may be admitted).
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
		if s > thr {
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

// bytes is the memory of x (bytes): its rows, and its tree (the boxes,
// the nodes and the row-frame maps).
func (x *Index) bytes() (rows, tree int) {
	return 4 * len(x.feat), 4*len(x.boxes) + 12*len(x.nodes) + 4*len(x.frame) + 4*len(x.row)
}
