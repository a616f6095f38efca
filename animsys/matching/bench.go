package matching

import (
	"time"
)

// SearchBench is what BenchSearch measures: search times (µs) of the
// queries of a scripted run, with the index and by brute force.
type SearchBench struct {
	Set         string  `json:"set"`
	Frames      int     `json:"database_frames"`
	Queries     int     `json:"queries"`
	Median      float64 `json:"median_us"`
	P99         float64 `json:"p99_us"`
	BruteMedian float64 `json:"brute_median_us"`
	BruteP99    float64 `json:"brute_p99_us"`
}

// BenchSearch records every query a matcher with set makes over seconds
// of path (at EvalTick), then times each again, passes times over, with
// the index and by brute force, on the calling goroutine (one core).
func BenchSearch(db *Database, set Set, path Path, seconds float32, passes int) SearchBench {
	qs := RecordQueries(db, set, path, seconds)
	idx := db.Index(set)
	out := make([]Result, 0, MaxCandidates)
	var fast, brute []int64
	for p := 0; p < passes; p++ {
		for _, q := range qs {
			t0 := time.Now()
			out = idx.Search(q, out[:0])
			fast = append(fast, time.Since(t0).Nanoseconds())
			t0 = time.Now()
			out = idx.SearchBrute(q, out[:0])
			brute = append(brute, time.Since(t0).Nanoseconds())
		}
	}
	return SearchBench{Set: set.String(), Frames: db.Frames, Queries: len(qs),
		Median: Percentile(fast, 0.5) / 1e3, P99: Percentile(fast, 0.99) / 1e3,
		BruteMedian: Percentile(brute, 0.5) / 1e3, BruteP99: Percentile(brute, 0.99) / 1e3}
}

// RecordQueries are the searches a matcher with set makes over seconds of
// path (seed 1, at EvalTick), each with its own copy of the features: the
// queries the search benchmarks time.
func RecordQueries(db *Database, set Set, path Path, seconds float32) []Query {
	s := DefaultSettings()
	s.Set = set
	m := NewMatcher(db, s)
	var qs []Query
	for k := 0; k < int(seconds/EvalTick+0.5); k++ {
		m.Update(path.Input(float32(k)*EvalTick, 1), EvalTick)
		if m.Search.Searched {
			q := m.Search.LastQuery
			q.Features = append([]float32(nil), q.Features...)
			qs = append(qs, q)
		}
	}
	return qs
}
