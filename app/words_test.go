package app

import "testing"

// Counts in messages agree with their number: "1 clip", never "1 clips".
func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n          int
		noun, want string
	}{{1, "clip", "1 clip"}, {0, "clip", "0 clips"}, {3, "joint", "3 joints"}, {1, "search", "1 search"}, {2, "search", "2 searches"}} {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
}
