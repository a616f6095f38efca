package labs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/app"
	"kinelab/app/apptest"
	"kinelab/ui"
)

// fitSizes are the window sizes the UI must fit (px).
var fitSizes = [][2]int32{{1024, 600}, {1280, 720}, {1920, 1080}, {3840, 2160}}

// TestUIFits renders every lab at every size in fitSizes, with every panel
// section open, with the help closed and open, with a message in the list
// and with the file browser open, and fails on cut text, overlapping
// panels, plots or readouts, and panel rows that cannot be scrolled into
// view (apptest.Fit). The window is resized between sizes: one window per
// process, all GL work on this goroutine's thread.
func TestUIFits(t *testing.T) {
	t.Setenv(app.ConfigDirEnv, t.TempDir())
	a := apptest.OpenWindow(t, app.Config{Lab: "velocities", Frames: 1 << 30, Width: 1024, Height: 600, DT: 1.0 / 60}, All())
	ui.OpenAllSections(true)
	defer ui.OpenAllSections(false)
	// A character from a file with a long name (the labs' titles, the
	// Mocap section and the timeline name it), and an error with a long
	// path: the message list shows it, wrapped.
	dir := t.TempDir()
	long := filepath.Join(dir, "motion_capture_session_2026_take_0042_walk_forward_then_turn.bvh")
	if err := os.Rename(apptest.WriteDefaultBVH(t, dir, "walk"), long); err != nil {
		t.Fatal(err)
	}
	if !a.Load([]string{long}) {
		t.Fatalf("%s did not load", long)
	}
	a.Load([]string{"/no/such/folder/with/a/rather/long/name/motion_capture_take_0042_walk_and_run.bvh"})
	if len(a.Messages()) < 2 {
		t.Fatalf("loading two files left %d messages", len(a.Messages()))
	}
	problems := 0
	check := func(what string) {
		t.Helper()
		ui.Record(true)
		a.Frame(nil)
		items := ui.Record(false)
		if len(items) < 20 {
			t.Fatalf("%s: only %d items recorded", what, len(items))
		}
		for _, p := range apptest.Fit(items, ui.Width(), ui.Height()) {
			if problems < 60 {
				t.Errorf("%s: %s", what, p)
			}
			problems++
		}
	}
	for _, sz := range fitSizes {
		if !apptest.Resize(a, sz[0], sz[1]) {
			t.Fatalf("the window did not take the size %dx%d (is the X screen big enough?)", sz[0], sz[1])
		}
		for _, e := range All() {
			if !a.SwitchLab(e.Name) {
				t.Fatalf("no lab %s", e.Name)
			}
			a.ShowUI(true)
			a.ShowHelp(false)
			for range 3 {
				a.Frame(nil)
			}
			at := fmt.Sprintf("%s at %dx%d (UI scale %.2f)", e.Name, sz[0], sz[1], ui.Scale())
			check(at)
			a.ShowHelp(true)
			check(at + " with the help")
			a.ShowHelp(false)
			// Scrolled to the end: the last rows are really in view.
			a.ScrollPanels(-1e4)
			a.Frame(nil)
			check(at + " scrolled down")
			a.ScrollPanels(1e4)
		}
		a.OpenBrowser()
		a.Frame(nil)
		check(fmt.Sprintf("file browser at %dx%d", sz[0], sz[1]))
		a.CloseBrowser()
	}
	if problems > 0 {
		t.Errorf("%d problems in all", problems)
	}
}

// The checks themselves fail on what they are for.
func TestFitCatches(t *testing.T) {
	r := func(x, y, w, h float32) rl.Rectangle { return rl.Rectangle{X: x, Y: y, Width: w, Height: h} }
	cases := []struct {
		items []ui.Item
		want  string
	}{
		{[]ui.Item{{Kind: ui.KindWidget, Name: "Cubic inertialization", Rect: r(0, 0, 80, 26), TextW: 150}}, "cut: widget"},
		{[]ui.Item{{Kind: ui.KindText, Name: "Telep", Rect: r(10, 10, 90, 18), Box: r(0, 0, 60, 40), HasBox: true}}, "cut: text"},
		{[]ui.Item{{Kind: ui.KindText, Name: "label", Rect: r(1250, 10, 90, 18)}}, "cut: text"},
		{[]ui.Item{{Kind: ui.KindPanel, Name: "a", Rect: r(0, 0, 100, 100)}, {Kind: ui.KindReadout, Name: "b", Rect: r(50, 50, 100, 100)}}, "overlap"},
		{[]ui.Item{{Kind: ui.KindPlot, Name: "a", Rect: r(0, 0, 100, 100)}, {Kind: ui.KindText, Name: "x", Rect: r(50, 50, 10, 10)}}, "overlap: label"},
		{[]ui.Item{{Kind: ui.KindPanel, Name: "a", Rect: r(0, 600, 100, 200)}}, "off screen"},
		{[]ui.Item{{Kind: ui.KindOverlay, Name: "help", Rect: r(0, 0, 100, 900)}}, "off screen"},
		{[]ui.Item{{Kind: ui.KindRow, Name: "p", Rect: r(0, 700, 100, 20), Box: r(0, 0, 100, 600), Down: 50}}, "unreachable"},
		{[]ui.Item{{Kind: ui.KindRow, Name: "p", Rect: r(0, -100, 100, 20), Box: r(0, 0, 100, 600), Up: 50}}, "unreachable"},
	}
	for _, c := range cases {
		got := apptest.Fit(c.items, 1280, 720)
		if len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), c.want) {
			t.Errorf("Fit(%+v) = %q, want a %q", c.items, got, c.want)
		}
	}
	fine := []ui.Item{
		{Kind: ui.KindPanel, Name: "a", Rect: r(0, 0, 100, 100)},
		{Kind: ui.KindText, Name: "t", Rect: r(5, 5, 80, 18), Box: r(0, 0, 100, 100), HasBox: true, Depth: 1},
		{Kind: ui.KindPlot, Name: "b", Rect: r(100, 0, 100, 100)},
		{Kind: ui.KindRow, Name: "p", Rect: r(0, 700, 100, 20), Box: r(0, 0, 100, 600), Down: 200},
	}
	if got := apptest.Fit(fine, 1280, 720); len(got) > 0 {
		t.Errorf("Fit of a layout that fits = %q", got)
	}
}
