package matching

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// searchSynth is a motion-like feature matrix: clips of smooth signals,
// mostly a few shared latent ones (a gait phase scaled by a speed, a turn
// rate, slow drifts) mixed into every dimension, so that, as in real
// locomotion, far apart frames of different clips look alike; plus a
// smooth walk of each dimension of its own. Dimensions are normalised to
// mean 0, deviation 1, then weighted. searchable is false on the last
// clipEnd frames of each clip, as a database marks clip ends.
func searchSynth(seed uint64, frames, dims, minClip, maxClip, clipEnd int) (feat []float32, searchable []bool) {
	rng := rand.New(rand.NewPCG(seed, 7))
	const latent = 9
	mix := make([]float64, dims*latent)
	for i := range mix {
		mix[i] = rng.NormFloat64()
	}
	feat = make([]float32, frames*dims)
	searchable = make([]bool, frames)
	own := make([]float64, 2*dims) // position, velocity of each own walk
	var z [latent]float64
	for start := 0; start < frames; {
		n := min(minClip+rng.IntN(maxClip-minClip+1), frames-start)
		phase, speed, speedVel, turn, turnVel := rng.Float64()*2*math.Pi, rng.Float64()*2, 0.0, 0.0, 0.0
		drift := [3]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		for d := range own {
			own[d] = rng.NormFloat64() * 0.5
		}
		for i := start; i < start+n; i++ {
			speedVel = 0.95*speedVel + 0.02*rng.NormFloat64()
			speed = math.Max(0, math.Min(3, speed+speedVel))
			turnVel = 0.95*turnVel + 0.01*rng.NormFloat64()
			turn = 0.995*turn + turnVel
			phase += (0.08 + 0.05*speed)
			for k := range drift {
				drift[k] = 0.999*drift[k] + 0.02*rng.NormFloat64()
			}
			z = [latent]float64{speed * math.Sin(phase), speed * math.Cos(phase), math.Sin(2 * phase), math.Cos(2 * phase),
				speed, turn, drift[0], drift[1], drift[2]}
			for d := 0; d < dims; d++ {
				own[dims+d] = 0.9*own[dims+d] + 0.01*rng.NormFloat64()
				own[d] = 0.995*own[d] + own[dims+d]
				v := own[d]
				for k, zk := range z {
					v += mix[d*latent+k] * zk
				}
				feat[i*dims+d] = float32(v)
			}
			searchable[i] = i < start+n-clipEnd
		}
		start += n
	}
	for d := 0; d < dims; d++ {
		var sum, sq float64
		for i := 0; i < frames; i++ {
			v := float64(feat[i*dims+d])
			sum += v
			sq += v * v
		}
		mean := sum / float64(frames)
		dev := math.Sqrt(math.Max(sq/float64(frames)-mean*mean, 1e-12))
		w := 0.5 + rng.Float64()
		for i := 0; i < frames; i++ {
			feat[i*dims+d] = float32((float64(feat[i*dims+d]) - mean) / dev * w)
		}
	}
	return feat, searchable
}

// searchNear is frame's features plus Gaussian noise of deviation sigma.
func searchNear(rng *rand.Rand, feat []float32, dims, frame int, sigma float64, q []float32) {
	for d := range q {
		q[d] = feat[frame*dims+d] + float32(sigma*rng.NormFloat64())
	}
}

// searchSortRef is the search by definition: every candidate's cost,
// sorted by (cost, frame), cut at N.
func searchSortRef(x *Index, q Query) []Result {
	var all []Result
	for i := 0; i < x.Frames(); i++ {
		if !x.isSearchable(i) || (i >= q.SkipLo && i < q.SkipHi) {
			continue
		}
		if c := x.Cost(q.Features, i); c < q.Bound {
			all = append(all, Result{i, c})
		}
	}
	slices.SortFunc(all, func(a, b Result) int {
		if a.Cost != b.Cost {
			if a.Cost < b.Cost {
				return -1
			}
			return 1
		}
		return a.Frame - b.Frame
	})
	return all[:min(len(all), max(q.N, 0))]
}

// searchSame reports whether a and b hold the same frames with
// bit-identical costs.
func searchSame(a, b []Result) bool {
	return slices.EqualFunc(a, b, func(r, s Result) bool {
		return r.Frame == s.Frame && math.Float32bits(r.Cost) == math.Float32bits(s.Cost)
	})
}

// searchBoxesOf are the boxes of the nodes from the root to the leaf
// holding frame f (none for an unsearchable frame).
func searchBoxesOf(x *Index, f int) [][]float32 {
	if !x.isSearchable(f) {
		return nil
	}
	r := x.row[f]
	var boxes [][]float32
	for k := 0; ; {
		boxes = append(boxes, x.box(k))
		nd := x.nodes[k]
		if nd.kids < 0 {
			return boxes
		}
		if k = int(nd.kids); r >= x.nodes[k+1].lo {
			k++
		}
	}
}

// searchRandomQuery draws a query as a matcher would make one and some it
// would not: near a frame (exactly on it, or with small or larger noise),
// far from everything, or traps set for the pruning and the early exits;
// skip ranges around the frame, random, empty, inverted or out of range;
// bounds +Inf, a frame's exact cost (which must then be excluded) or a
// random value.
func searchRandomQuery(rng *rand.Rand, x *Index, q []float32) Query {
	frames, dims := x.Frames(), x.Dims()
	f := rng.IntN(frames)
	kind := rng.IntN(9)
	switch kind {
	case 8:
		// Far from f in the first dimensions, a hair off elsewhere: with
		// the bound just above the first four's partial sum, f is just
		// out, so an early exit must not take a partial sum for a cost.
		for d := range q {
			sigma := 1e-3
			if d < 4 {
				sigma = 0.5
			}
			q[d] = x.Row(f)[d] + float32(sigma*rng.NormFloat64())
		}
	case 6, 7:
		// Outside one of f's boxes by a little wherever f is on its edge,
		// equal to f elsewhere: the box's lower bound (and its children's
		// holding f) is then exactly f's cost, so a pruning a hair too
		// eager would lose f. (An unsearchable f is in no box: q is f.)
		box := make([]float32, 2*dims)
		if boxes := searchBoxesOf(x, f); len(boxes) > 0 {
			box = boxes[rng.IntN(len(boxes))]
		}
		for d := range q {
			v, delta := x.Row(f)[d], float32(rng.ExpFloat64()*0.05)
			switch v {
			case box[d]:
				v -= delta
			case box[dims+d]:
				v += delta
			}
			q[d] = v
		}
	case 0:
		copy(q, x.Row(f))
	case 1, 2:
		searchNear(rng, x.Row(f), dims, 0, 0.02, q)
	case 3:
		searchNear(rng, x.Row(f), dims, 0, 0.3, q)
	default:
		for d := range q {
			q[d] = float32(3 * rng.NormFloat64())
		}
	}
	qu := Query{Features: q, N: []int{1, 5, 16}[rng.IntN(3)]}
	switch rng.IntN(5) {
	case 0:
		// nothing skipped
	case 1:
		w := rng.IntN(frames/4 + 1)
		qu.SkipLo = rng.IntN(frames+20) - 10
		qu.SkipHi = qu.SkipLo + w
	case 2:
		qu.SkipLo, qu.SkipHi = f+5, f-5 // inverted: empty
	default:
		qu.SkipLo, qu.SkipHi = f-20, f+20
	}
	switch rng.IntN(5) {
	case 0, 1:
		qu.Bound = float32(math.Inf(1))
	case 2:
		qu.Bound = x.Cost(q, min(f+1, frames-1))
	case 3:
		qu.Bound = x.Cost(q, rng.IntN(frames))
	default:
		qu.Bound = float32(rng.Float64() * 5)
	}
	if kind == 8 {
		k := min(4, dims)
		qu.Bound = math.Nextafter32(searchCost(q[:k], x.Row(f)[:k]), float32(math.Inf(1)))
	}
	if (kind == 6 || kind == 7) && rng.IntN(2) == 0 {
		// Just above f's cost: f (if searchable, not skipped, and not
		// crowded out by N better frames) must be found.
		qu.Bound = math.Nextafter32(x.Cost(q, f), float32(math.Inf(1)))
	}
	return qu
}

// searchDuplicate copies frames over others to make exact ties: single
// frames and whole stretches, within and across leaves.
func searchDuplicate(rng *rand.Rand, feat []float32, dims int) {
	frames := len(feat) / dims
	for k := 0; k < frames/50; k++ {
		src, dst := rng.IntN(frames), rng.IntN(frames)
		n := 1
		if k%4 == 0 {
			n = 1 + rng.IntN(40)
		}
		for j := 0; j < n && src+j < frames && dst+j < frames; j++ {
			copy(feat[(dst+j)*dims:(dst+j+1)*dims], feat[(src+j)*dims:(src+j+1)*dims])
		}
	}
}

func TestSearchMatchesBrute(t *testing.T) {
	cases := []struct {
		name                 string
		frames, dims         int
		leaf                 int
		maskClipEnds, random bool
		queries              int
	}{
		{"27d-16-clipends", 5000, 27, 16, true, false, 400},
		{"27d-16-randommask", 4001, 27, 16, false, true, 400},
		{"24d-8", 3000, 24, 8, true, true, 300},
		{"21d-32-odd", 2999, 21, 32, true, false, 300},
		{"3d-4", 1500, 3, 4, true, true, 300},
		{"1d-16", 1000, 1, 16, false, true, 300},
		{"30d-1", 700, 30, 1, true, true, 100},
		{"27d-16-clipends-more", 5000, 27, 16, true, false, 400},
		{"27d-8-random", 4001, 27, 8, true, true, 300},
		{"5d-7", 3000, 5, 7, true, true, 300},
		{"27d-frames", 1500, 27, 1, true, true, 200},
		{"27d-64", 1500, 27, 64, true, true, 200},
		{"27d-5000", 1500, 27, 5000, true, false, 100}, // one leaf
	}
	out := make([]Result, 0, 16)
	var ref []Result
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(ci), 99))
			feat, searchable := searchSynth(uint64(ci)+1, c.frames, c.dims, 60, 600, 10)
			searchDuplicate(rng, feat, c.dims)
			if !c.maskClipEnds {
				for i := range searchable {
					searchable[i] = true
				}
			}
			if c.random {
				// Random runs of unsearchable frames, some longer than a
				// leaf, some of hundreds.
				for i := 0; i < c.frames; {
					n, off := 1+rng.IntN(max(3*c.leaf, 300)), rng.IntN(3) == 0
					for ; n > 0 && i < c.frames; n, i = n-1, i+1 {
						searchable[i] = searchable[i] && !off
					}
				}
			}
			x := NewIndexLeaf(feat, c.dims, searchable, c.leaf)
			q := make([]float32, c.dims)
			found, tied := 0, 0
			for k := 0; k < c.queries; k++ {
				qu := searchRandomQuery(rng, x, q)
				if k%7 == 0 {
					// Bound exactly at the N-th best unbounded cost: the
					// frames at that cost must all be left out.
					b := qu
					b.Bound = float32(math.Inf(1))
					if r := x.SearchBrute(b, out); len(r) > 0 {
						qu.Bound = r[len(r)-1].Cost
					}
				}
				ref = x.SearchBrute(qu, ref)
				out = x.Search(qu, out)
				if !searchSame(out, ref) {
					t.Fatalf("query %d %+v:\nSearch      %v\nSearchBrute %v", k, qu, out, ref)
				}
				found += len(out)
				for j := 1; j < len(out); j++ {
					if out[j].Cost == out[j-1].Cost {
						tied++
					}
				}
			}
			if found == 0 || (c.dims > 1 && tied == 0) {
				t.Errorf("weak test: %d results, %d ties", found, tied)
			}
		})
	}
}

func TestSearchBruteMatchesSortRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	feat, searchable := searchSynth(5, 2000, 27, 50, 400, 10)
	searchDuplicate(rng, feat, 27)
	x := NewIndex(feat, 27, searchable)
	q := make([]float32, 27)
	var out []Result
	for k := 0; k < 200; k++ {
		qu := searchRandomQuery(rng, x, q)
		out = x.SearchBrute(qu, out)
		if want := searchSortRef(x, qu); !searchSame(out, want) {
			t.Fatalf("query %d %+v:\nSearchBrute %v\nsorted      %v", k, qu, out, want)
		}
		for _, r := range out {
			if r.Cost != x.Cost(q, r.Frame) {
				t.Fatalf("frame %d cost %v, Cost says %v", r.Frame, r.Cost, x.Cost(q, r.Frame))
			}
		}
	}
}

func TestSearchEdgeCases(t *testing.T) {
	inf := float32(math.Inf(1))
	nan := float32(math.NaN())
	feat, searchable := searchSynth(3, 1000, 5, 50, 300, 10)
	q := make([]float32, 5)
	copy(q, feat[100*5:101*5])
	all := Query{Features: q, N: 5, Bound: inf}
	check := func(t *testing.T, x *Index, qu Query, wantLen int) {
		t.Helper()
		got := x.Search(qu, nil)
		ref := x.SearchBrute(qu, nil)
		if !searchSame(got, ref) || !searchSame(ref, searchSortRef(x, qu)) {
			t.Fatalf("Search %v\nSearchBrute %v\nsorted %v", got, ref, searchSortRef(x, qu))
		}
		if wantLen >= 0 && len(got) != wantLen {
			t.Fatalf("%d results, want %d: %v", len(got), wantLen, got)
		}
	}
	t.Run("none searchable", func(t *testing.T) {
		check(t, NewIndex(feat, 5, make([]bool, 1000)), all, 0)
	})
	t.Run("nil searchable means all", func(t *testing.T) {
		x := NewIndex(feat, 5, nil)
		qu := all
		qu.SkipLo, qu.SkipHi = 0, 999
		check(t, x, qu, 1)
	})
	t.Run("skip everything", func(t *testing.T) {
		qu := all
		qu.SkipLo, qu.SkipHi = -5, 2000
		check(t, NewIndex(feat, 5, searchable), qu, 0)
	})
	t.Run("N above searchable count", func(t *testing.T) {
		s := make([]bool, 1000)
		s[3], s[500], s[999] = true, true, true
		qu := all
		qu.N = 32
		check(t, NewIndex(feat, 5, s), qu, 3)
	})
	t.Run("N below 1", func(t *testing.T) {
		qu := all
		qu.N = 0
		check(t, NewIndex(feat, 5, searchable), qu, 0)
	})
	t.Run("dims 1", func(t *testing.T) {
		f := []float32{3, 1, 2, 2, 5, 2, 0}
		x := NewIndexLeaf(f, 1, nil, 2)
		got := x.Search(Query{Features: []float32{2}, N: 4, SkipLo: 5, SkipHi: 6, Bound: inf}, nil)
		want := []Result{{2, 0}, {3, 0}, {0, 1}, {1, 1}}
		if !searchSame(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
		check(t, x, Query{Features: []float32{2}, N: 4, Bound: 1}, 3)
	})
	t.Run("frames not a multiple of leaves", func(t *testing.T) {
		for _, frames := range []int{1, 15, 17, 63, 65, 999} {
			x := NewIndex(feat[:frames*5], 5, searchable[:frames])
			qu := all
			qu.N = 16
			copy(q, feat[(frames-1)*5:frames*5])
			check(t, x, qu, -1)
		}
		copy(q, feat[100*5:101*5])
	})
	t.Run("empty database", func(t *testing.T) {
		check(t, NewIndex(nil, 5, nil), all, 0)
	})
	t.Run("bound", func(t *testing.T) {
		x := NewIndex(feat, 5, searchable)
		for _, b := range []float32{0, -1, nan, inf} {
			qu := all
			qu.Bound = b
			want := 0
			if b == inf {
				want = 5
			}
			check(t, x, qu, want)
		}
	})
	t.Run("non-finite query matches nothing", func(t *testing.T) {
		x := NewIndex(feat, 5, searchable)
		for _, v := range []float32{nan, inf, -inf} {
			bad := slices.Clone(q)
			bad[2] = v
			qu := all
			qu.Features = bad
			check(t, x, qu, 0)
		}
	})
	t.Run("NaN features in the database", func(t *testing.T) {
		f := slices.Clone(feat)
		for i := 0; i < 1000; i += 3 {
			f[i*5+i%5] = nan
		}
		for i := 320; i < 384; i++ { // a run of NaN in one dim, leaves of it
			f[i*5+1] = nan
		}
		x := NewIndex(f, 5, searchable)
		rng := rand.New(rand.NewPCG(8, 8))
		for k := 0; k < 100; k++ {
			qu := searchRandomQuery(rng, x, q)
			check(t, x, qu, -1)
		}
	})
	t.Run("wrong query length panics", func(t *testing.T) {
		defer func() {
			if recover() == nil {
				t.Fatal("no panic")
			}
		}()
		NewIndex(feat, 5, searchable).Search(Query{Features: q[:4], N: 1, Bound: inf}, nil)
	})
}

func TestSearchAllocs(t *testing.T) {
	feat, searchable := searchSynth(4, 3000, 27, 60, 600, 10)
	x := NewIndex(feat, 27, searchable)
	q := make([]float32, 27)
	rng := rand.New(rand.NewPCG(4, 4))
	out := make([]Result, 0, 16)
	for _, search := range []struct {
		name string
		f    func(Query, []Result) []Result
	}{{"Search", x.Search}, {"SearchBrute", x.SearchBrute}} {
		allocs := testing.AllocsPerRun(50, func() {
			f := rng.IntN(3000)
			searchNear(rng, feat, 27, f, 0.05, q)
			out = search.f(Query{Features: q, N: 16, SkipLo: f - 20, SkipHi: f + 20, Bound: float32(math.Inf(1))}, out)
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per search", search.name, allocs)
		}
	}
}

func TestSearchNewIndexPanics(t *testing.T) {
	feat := make([]float32, 60)
	for _, c := range []struct {
		name       string
		dims       int
		searchable []bool
		leaf       int
	}{
		{"dims 0", 0, nil, 16},
		{"ragged features", 7, nil, 16},
		{"searchable length", 6, make([]bool, 9), 16},
		{"leaf 0", 6, nil, 0},
		{"leaf -1", 6, nil, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			NewIndexLeaf(feat, c.dims, c.searchable, c.leaf)
		})
	}
}
