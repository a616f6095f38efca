package words

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 clips"}, {1, "1 clip"}, {2, "2 clips"}, {-1, "-1 clips"}, {11, "11 clips"}} {
		if got := Count(tc.n, "clip"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
	if got := Count(2, "search"); got != "2 searches" {
		t.Errorf("Count(2, search) = %q", got)
	}
	if got := Count(1, "search"); got != "1 search" {
		t.Errorf("Count(1, search) = %q", got)
	}
}
