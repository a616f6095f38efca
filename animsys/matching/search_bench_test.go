package matching

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"
)

// The benchmark database: 52,000 frames of 27 features, as the real one,
// in clips of 300 to 3,000 frames whose last 20 are not searchable.
const (
	searchBenchFrames  = 52000
	searchBenchDims    = 27
	searchBenchQueries = 1024
	searchBenchSkip    = 20   // frames skipped either side of the playing one
	searchBenchNoise   = 0.05 // query noise, in normalised feature units
)

var searchBenchData = sync.OnceValues(func() ([]float32, []bool) {
	return searchSynth(42, searchBenchFrames, searchBenchDims, 300, 3000, 20)
})

// searchBenchQuerySet is what a matcher asks while playing frame k: k's
// features plus noise, frames near k skipped, bounded by the cost of
// carrying on (frame k+1).
func searchBenchQuerySet(x *Index, n int) []Query {
	feat, _ := searchBenchData()
	rng := rand.New(rand.NewPCG(1, 2))
	qs := make([]Query, searchBenchQueries)
	for i := range qs {
		k := rng.IntN(searchBenchFrames - 1)
		q := make([]float32, searchBenchDims)
		searchNear(rng, feat, searchBenchDims, k, searchBenchNoise, q)
		qs[i] = Query{Features: q, N: n, SkipLo: k - searchBenchSkip, SkipHi: k + searchBenchSkip + 1,
			Bound: x.Cost(q, k+1)}
	}
	return qs
}

// runSearchBench times each search too, to report the median and the 99th
// percentile: a matcher's frame budget cares about both, not the mean.
func runSearchBench(b *testing.B, x *Index, n int, search func(*Index, Query, []Result) []Result) {
	qs := searchBenchQuerySet(x, n)
	out := make([]Result, 0, n)
	times := make([]time.Duration, 0, searchBenchQueries)
	found := 0
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		out = search(x, qs[i%len(qs)], out)
		if len(times) < cap(times) {
			times = append(times, time.Since(t0))
		}
		found += len(out)
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns")
	b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns")
	b.ReportMetric(float64(found)/float64(b.N), "found/op")
}

func BenchmarkSearch(b *testing.B) {
	feat, searchable := searchBenchData()
	x := NewIndex(feat, searchBenchDims, searchable)
	for _, n := range []int{1, 16} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) { runSearchBench(b, x, n, (*Index).Search) })
	}
	// A forced search (at a clip's end, where playing on is impossible):
	// no bound, so until good frames are found little is pruned.
	for _, n := range []int{1, 16} {
		b.Run(fmt.Sprintf("N=%d/unbounded", n), func(b *testing.B) {
			runSearchBench(b, x, n, searchUnbounded)
		})
	}
}

func BenchmarkSearchBrute(b *testing.B) {
	feat, searchable := searchBenchData()
	x := NewIndex(feat, searchBenchDims, searchable)
	for _, n := range []int{1, 16} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) { runSearchBench(b, x, n, (*Index).SearchBrute) })
	}
}

// BenchmarkSearchLeaf compares leaf sizes (frames).
func BenchmarkSearchLeaf(b *testing.B) {
	feat, searchable := searchBenchData()
	for _, leaf := range []int{4, 8, 16, 32, 64} {
		x := NewIndexLeaf(feat, searchBenchDims, searchable, leaf)
		for _, n := range []int{1, 16} {
			b.Run(fmt.Sprintf("%d/N=%d", leaf, n), func(b *testing.B) { runSearchBench(b, x, n, (*Index).Search) })
			b.Run(fmt.Sprintf("%d/N=%d/unbounded", leaf, n), func(b *testing.B) {
				runSearchBench(b, x, n, searchUnbounded)
			})
		}
	}
}

// searchUnbounded is Search with no bound, as at a clip's end.
func searchUnbounded(x *Index, q Query, out []Result) []Result {
	q.Bound = float32(math.Inf(1))
	return x.Search(q, out)
}
