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

// TestUTF8: valid UTF-8 is kept (a U+FFFD of its own too), and each byte
// of invalid UTF-8 becomes one U+FFFD, as range and encoding/json do.
func TestUTF8(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"LeftArm", "LeftArm", true},
		{"Épaule_gauche", "Épaule_gauche", true},
		{"a\uFFFDb", "a\uFFFDb", true},
		{"Left\xe9paule", "Left\uFFFDpaule", false}, // Latin-1 é
		{"\xff\xfeArm", "\uFFFD\uFFFDArm", false},   // two bytes, two marks
		{"cut\xe2\x82", "cut\uFFFD\uFFFD", false},   // a rune cut short
	} {
		got, ok := UTF8(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("UTF8(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
