package matching

import "testing"

// BenchmarkMatchingSearch times the searches of a 60 s random run on the
// embedded set mirrored, each query searched once per iteration with the
// index (sub-benchmark "index") and by brute force ("brute"); ns/op is per
// search. Queries are those the matcher made (the bound is the cost of
// carrying on, the frames near the playing one skipped).
func BenchmarkMatchingSearch(b *testing.B) {
	db := testDB(b, true) // the 50,000-frame database
	if db.Frames < 50000 {
		b.Fatalf("the mirrored embedded set has %d frames, under 50,000", db.Frames)
	}
	for _, set := range []Set{Standard, InertialSet} {
		qs := RecordQueries(db, set, Random, 60)
		idx := db.Index(set)
		out := make([]Result, 0, MaxCandidates)
		b.Run(set.String()+"/index", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				out = idx.Search(qs[i%len(qs)], out[:0])
			}
		})
		b.Run(set.String()+"/brute", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				out = idx.SearchBrute(qs[i%len(qs)], out[:0])
			}
		})
	}
}
