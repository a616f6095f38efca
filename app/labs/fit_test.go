package labs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/app"
	"kinelab/internal/animtest"
	"kinelab/internal/apptest"
	"kinelab/ui"
)

// fitSizes are the window sizes the UI must fit (px).
var fitSizes = [][2]int32{{1024, 600}, {1280, 720}, {1920, 1080}, {3840, 2160}}

// TestUIFits renders every lab at every size in fitSizes, with every panel
// section open, with the help closed and open, with a message in the list
// and with the file browser open, and fails on cut text, overlapping
// panels, plots or readouts, and panel rows that cannot be scrolled into
// view (apptest.Fit). The window is resized between sizes: one window per
// process, all GL work on this goroutine's thread; so the window then
// checks switching between glTF and BVH characters too (checkGLTFSwitch).
func TestUIFits(t *testing.T) {
	t.Setenv(app.ConfigDirEnv, t.TempDir())
	a := apptest.OpenWindow(t, app.Config{Lab: "velocities", Frames: 1 << 30, Width: 1024, Height: 600, DT: 1.0 / 60}, All())
	ui.OpenAllSections(true)
	defer ui.OpenAllSections(false)
	// A character from two files with long names (the labs' titles, the
	// Mocap section, the clip lists and the timeline name them), and an
	// error with a long path: the message list shows it, wrapped.
	dir := t.TempDir()
	clips := []string{"motion_capture_session_2026_take_0042_walk_forward_then_turn", "motion_capture_session_2026_take_0043_run_forward_and_stop"}
	var files []string
	for i, gait := range []string{"walk", "run"} {
		files = append(files, filepath.Join(dir, clips[i]+".bvh"))
		if err := os.Rename(animtest.WriteDefaultBVH(t, dir, gait), files[i]); err != nil {
			t.Fatal(err)
		}
	}
	if !a.Load(files) {
		t.Fatalf("%s did not load", files)
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
		for _, p := range append(apptest.Fit(items, ui.Width(), ui.Height()), namesShown(a.Lab(), items, clips)...) {
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
			// One frame before the checks, not three: a scripted run
			// draws a frame whose layout moved again before showing it
			// (App.draw), and the panels, rows, plots and overlays of
			// the first frame after the switch were those of the third
			// for every lab at every size. Each 3840x2160 frame costs
			// Mesa 0.3 s.
			a.Frame(nil)
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
	checkTip(t, a, clips)
	ui.OpenAllSections(false)
	checkGLTFSwitch(t, a)
}

// shortFor reports whether text is name, or name shortened in the middle
// (its start, an ellipsis, its end).
func shortFor(text, name string) bool {
	head, tail, cut := strings.Cut(text, "…")
	return text == name || cut && len(head) >= 3 && len(tail) >= 3 && strings.HasPrefix(name, head) && strings.HasSuffix(name, tail)
}

// namesShown checks that a frame of lab (its recorded items) names the
// loaded clips (names) as it should: the timeline with the playing clip's
// name, whole or shortened in the middle, and the time and total; the
// clip list with every clip in the order loaded, the playing one (the one
// the title names) on and no other.
func namesShown(lab app.Lab, items []ui.Item, names []string) (bad []string) {
	playing := ""
	for _, n := range names {
		if strings.HasSuffix(lab.Title(), n) {
			playing = n
		}
	}
	if _, ok := lab.Timeline(); ok {
		found := false
		for _, it := range items {
			if it.Kind != ui.KindText || it.Owner != "timeline" || !strings.Contains(it.Name, " s") {
				continue
			}
			found = true
			name, rest, _ := strings.Cut(it.Name, "  ")
			if !shortFor(name, playing) || !strings.Contains(rest, " / ") {
				bad = append(bad, fmt.Sprintf("names: the timeline reads %q, want %q (or shortened in its middle) and the time / total", it.Name, playing))
			}
		}
		if !found {
			bad = append(bad, "names: no clip and time on the timeline")
		}
	}
	if playing == "" { // a lab whose title names no clip has no clip list
		return bad
	}
	var list []ui.Item
	for _, it := range items {
		if it.Kind == ui.KindWidget && it.Owner == lab.Title() && (shortFor(it.Name, names[0]) || shortFor(it.Name, names[1])) {
			list = append(list, it)
		}
	}
	if len(list) < len(names) {
		return append(bad, fmt.Sprintf("names: the clip list shows %d of %d clips", len(list), len(names)))
	}
	for i, n := range names {
		it := list[i]
		if !shortFor(it.Name, n) || it.On != (n == playing) {
			bad = append(bad, fmt.Sprintf("names: clip %d of the list reads %q (on %v), want %q (on %v: %q plays)", i, it.Name, it.On, n, n == playing, playing))
		}
	}
	return bad
}

// checkTip: hovering the timeline's shortened clip name shows the whole
// name in a tip over everything, on the screen.
func checkTip(t *testing.T, a *app.App, names []string) {
	if !apptest.Resize(a, 1024, 600) || !a.SwitchLab("velocities") {
		t.Fatal("no velocities lab at 1024x600")
	}
	playing := ""
	for _, n := range names {
		if strings.HasSuffix(a.Lab().Title(), n) {
			playing = n
		}
	}
	a.ShowUI(true)
	ui.Record(true)
	a.Frame(nil)
	var name rl.Rectangle
	for _, it := range ui.Record(false) {
		if it.Kind == ui.KindText && it.Owner == "timeline" && strings.Contains(it.Name, "…") {
			name = it.Rect
		}
	}
	if name.Width == 0 {
		t.Fatalf("the timeline does not shorten %q at 1024x600", playing)
	}
	s := ui.Scale()
	rl.SetMousePosition(int((name.X+20)*s), int((name.Y+name.Height/2)*s))
	a.Frame(nil)
	ui.Record(true)
	a.Frame(nil)
	items := ui.Record(false)
	tip := false
	for _, it := range items {
		tip = tip || it.Kind == ui.KindText && it.Owner == "tip" && it.Name == playing
	}
	if !tip {
		t.Errorf("the mouse over the timeline's shortened name shows no tip reading %q", playing)
	}
	for _, p := range apptest.Fit(items, ui.Width(), ui.Height()) {
		t.Errorf("with the tip: %s", p)
	}
	rl.SetMousePosition(-100, -100)
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
