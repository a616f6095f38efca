package ui

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// fakeMeasure stands in for the font (no window): 8 units a rune, digits
// 9, narrow 'i', 'l', '.' 4, the ellipsis 10.
func fakeMeasure(s string) float32 {
	w := float32(0)
	for _, c := range s {
		switch {
		case c == '…':
			w += 10
		case c >= '0' && c <= '9':
			w += 9
		case strings.ContainsRune("il.", c):
			w += 4
		default:
			w += 8
		}
	}
	return w
}

var longNames = []string{
	"01_cmu_cgspeed_12_01_walk_tpose_frame0",
	"03_rokoko_bones_along_x_root_offset_fingers",
	"motion_capture_session_2026_take_0042_walk_forward_then_turn",
	"bandai1_walk_normal",
	"averyveryverylongnamewithnobreaksatallinit",
	"a-b",
}

// shorten keeps the start and the end with one ellipsis between, fits the
// width, keeps within three runes of as many as fit, and returns a name
// that fits whole.
func TestShorten(t *testing.T) {
	for _, name := range longNames {
		full := fakeMeasure(name)
		for width := float32(0); width < full+20; width += 3 {
			got := shorten(name, width, fakeMeasure)
			if width >= full {
				if got != name {
					t.Errorf("shorten(%q, %g) = %q: cut a name that fits (%g units)", name, width, got, full)
				}
				continue
			}
			if fakeMeasure(got) > width {
				t.Errorf("shorten(%q, %g) = %q: %g units wide", name, width, got, fakeMeasure(got))
			}
			if width < fakeMeasure("…") {
				if got != "" {
					t.Errorf("shorten(%q, %g) = %q, want nothing (no room for the ellipsis)", name, width, got)
				}
				continue
			}
			head, tail, ok := strings.Cut(got, "…")
			if !ok || strings.Contains(tail, "…") || !strings.HasPrefix(name, head) || !strings.HasSuffix(name, tail) {
				t.Errorf("shorten(%q, %g) = %q: not the name's start, an ellipsis and its end", name, width, got)
				continue
			}
			// No cut keeping four runes more (split evenly) would fit.
			n := utf8.RuneCountInString(head+tail) + 4
			if r := []rune(name); n < len(r) {
				if more := string(r[:(n+1)/2]) + "…" + string(r[len(r)-n/2:]); fakeMeasure(more) <= width {
					t.Errorf("shorten(%q, %g) = %q keeps too little: %q fits", name, width, got, more)
				}
			}
			if width > 100 && (head == "" || tail == "") {
				t.Errorf("shorten(%q, %g) = %q: lost the start or the end", name, width, got)
			}
		}
	}
	// The cut falls at word breaks where it can.
	for _, c := range []struct {
		name  string
		width float32
		want  string
	}{
		{"03_rokoko_bones_along_x_root_offset_fingers", fakeMeasure("03_rokoko…offset_fingers"), "03_rokoko…offset_fingers"},
		{"01_cmu_cgspeed_12_01_walk_tpose_frame0", fakeMeasure("01_cmu_cgspeed…tpose_frame0"), "01_cmu_cgspeed…tpose_frame0"},
	} {
		if got := shorten(c.name, c.width, fakeMeasure); got != c.want {
			t.Errorf("shorten(%q, %g) = %q, want %q", c.name, c.width, got, c.want)
		}
	}
}

// wrapLines never breaks inside a word: a path breaks after its slashes,
// and a name too long for a line is shortened in its middle with the
// whole kept for its tip; every line fits.
func TestWrapLines(t *testing.T) {
	const width = 200 // about 25 runes
	cases := []struct {
		text string
		want []line
	}{
		{"loaded 01_cmu_cgspeed_12_01_walk_tpose_frame0.bvh: 39 joints, 1 clip", []line{
			{text: "loaded"},
			{text: shorten("01_cmu_cgspeed_12_01_walk_tpose_frame0.bvh:", width, fakeMeasure), full: "01_cmu_cgspeed_12_01_walk_tpose_frame0.bvh:"},
			{text: "39 joints, 1 clip"},
		}},
		{"/no/such/folder/with/a/rather/long/name/motion_capture_take_0042_walk_and_run.bvh: no such file", []line{
			{text: "/no/such/folder/with/a/"},
			{text: "rather/long/name/"},
			{text: shorten("motion_capture_take_0042_walk_and_run.bvh:", width, fakeMeasure), full: "motion_capture_take_0042_walk_and_run.bvh:"},
			{text: "no such file"},
		}},
		{"a short message that wraps at its spaces", []line{{text: "a short message that"}, {text: "wraps at its spaces"}}},
	}
	for _, c := range cases {
		got := wrapLines(c.text, width, fakeMeasure)
		if len(got) != len(c.want) {
			t.Errorf("wrapLines(%q) = %q, want %q", c.text, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("wrapLines(%q) line %d = %q, want %q", c.text, i, got[i], c.want[i])
			}
			if w := fakeMeasure(got[i].text); w > width {
				t.Errorf("wrapLines(%q) line %q is %g units wide, more than %d", c.text, got[i].text, w, width)
			}
		}
	}
}
