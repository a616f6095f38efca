package app_test

import (
	"fmt"
	"image"
	"image/color"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/app"
	"kinelab/internal/apptest"
	"kinelab/internal/fixture"
	"kinelab/render"
	"kinelab/ui"
)

// TestWindow opens the framework's window once (one window per process)
// and checks, in turn, a screenshot past 2^24 pixels and the mouse
// and key input of the panels.
func TestWindow(t *testing.T) {
	t.Setenv(app.ConfigDirEnv, t.TempDir())
	lab, other := newPlainLab(), newPlainLab()
	other.name = "other"
	a := apptest.OpenWindow(t, app.Config{Lab: "springs", Frames: 1 << 30, Width: 1280, Height: 720, DT: 1.0 / 60, UIScale: 1},
		[]app.LabEntry{{Name: "springs", New: func() app.Lab { return lab }}, {Name: "other", New: func() app.Lab { return other }}})
	checkFirstFrame(t, a)
	checkMessagesWhole(t, a)
	checkInput(t, a, lab)
	checkTabClick(t, a, lab, other)
	checkStickyInView(t, a)
	checkScreenshotPast16M(t, a)
}

// checkFirstFrame: the window's first frame shows the UI laid out as the
// frames after it do (a --frames 1 screenshot): every panel at its size
// and every row in its place, the messages panel scrolled to the newest.
// The panels size themselves from what they drew last, so it runs before
// any other frame of the window.
func checkFirstFrame(t *testing.T, a *app.App) {
	missing := filepath.Join(t.TempDir(), "missing.bvh")
	a.Load([]string{missing, missing + "2"})
	layout := func() map[string]rl.Rectangle {
		ui.Record(true)
		a.Frame(nil)
		out := map[string]rl.Rectangle{}
		for _, it := range ui.Record(false) {
			if it.Kind == ui.KindPanel || it.Kind == ui.KindRow || strings.HasPrefix(it.Owner, "Messages") {
				out[fmt.Sprintf("%v %s/%s #%d", it.Kind, it.Owner, it.Name, len(out))] = it.Rect
			}
		}
		return out
	}
	first := layout()
	a.Frame(nil)
	third := layout()
	if len(first) < 10 || !reflect.DeepEqual(first, third) {
		t.Errorf("the first frame's layout (%d items) differs from the third's (%d):\nfirst %v\nthird %v", len(first), len(third), first, third)
	}
}

// checkMessagesWhole: a Messages panel too short for its messages shows
// each line whole or not at all, at every scroll, and a new message too
// long for it shows from its first line (which names the file).
func checkMessagesWhole(t *testing.T, a *app.App) {
	errCol := color.RGBA{255, 150, 130, 255}
	long := filepath.Join(t.TempDir(), strings.Repeat("a_capture_with_a_long_name_", 4))
	var files []string
	for i := range 12 {
		files = append(files, fmt.Sprintf("%s%d.bvh", long, i))
	}
	a.Load(files)
	defer a.DismissMessages()
	cut, whole := 0, 0
	for scroll := range 6 {
		ui.Record(true)
		var img *image.RGBA
		a.Frame(func() { img = a.ReadPixels() })
		items := ui.Record(false)
		for i := range items {
			it := &items[i]
			if it.Kind != ui.KindRow || !strings.HasPrefix(it.Name, "Messages") {
				continue
			}
			in := it.Rect.Y >= it.Box.Y && it.Rect.Y+it.Rect.Height <= it.Box.Y+it.Box.Height
			shown := rl.GetCollisionRec(it.Rect, it.Box) // the part inside the panel
			if shown.Height <= 0 {
				continue
			}
			n := apptest.CountNear(img, shown, errCol, 40)
			switch {
			case in && n > 0:
				whole++
			case !in && n > 0:
				apptest.KeepOnFailure(t, img, "messages-cut")
				t.Errorf("scroll %d: the line at %v, cut by the panel's edge at %v, shows %d pixels of its text", scroll, it.Rect, it.Box, n)
			case !in:
				cut++
			}
		}
		if scroll == 0 {
			// The newest message's first line (with its close box) shows.
			var box, newest rl.Rectangle
			for _, it := range items {
				switch {
				case it.Kind == ui.KindRow && strings.HasPrefix(it.Name, "Messages"):
					box = it.Box
				case it.Kind == ui.KindWidget && it.Name == "x" && strings.HasPrefix(it.Owner, "Messages"):
					newest = it.Rect
				}
			}
			if newest.Y < box.Y || newest.Y+newest.Height > box.Y+box.Height {
				apptest.KeepOnFailure(t, img, "messages-newest")
				t.Errorf("the newest message's close box at %v is not in the panel at %v", newest, box)
			}
		}
		a.ScrollPanels(1)
	}
	if cut == 0 || whole == 0 {
		t.Errorf("saw %d lines cut by the panel's edge and %d whole lines with text: want both, the panel too short for its messages", cut, whole)
	}
}

// checkStickyInView: a message that changes what the user sees (a file
// left out for its skeleton) is listed first and stays in view however
// many messages come after it, until it is dismissed; then the newest
// shows again.
func checkStickyInView(t *testing.T, a *app.App) {
	dir := t.TempDir()
	fixture.MixedFolder(t, dir)
	a.Load([]string{dir})
	defer a.DismissMessages()
	var missing []string
	for i := range 12 {
		missing = append(missing, filepath.Join(dir, fmt.Sprintf("missing_%d.bvh", i)))
	}
	a.Load(missing) // twelve errors after it
	shown := func() (skipped, newest bool) {
		for range 3 {
			a.Frame(nil)
		}
		ui.Record(true)
		a.Frame(nil)
		for _, it := range ui.Record(false) {
			if it.Kind == ui.KindText && strings.HasPrefix(it.Owner, "Messages") {
				skipped = skipped || strings.Contains(it.Name, "skipped: its")
				newest = newest || strings.Contains(it.Name, "missing_11")
			}
		}
		return skipped, newest
	}
	if skipped, _ := shown(); !skipped {
		t.Errorf("after twelve more messages the file left out is not in view: %v", a.Messages())
	}
	for _, m := range a.Messages() {
		if m.Sticky {
			a.Dismiss(m)
		}
	}
	if skipped, newest := shown(); skipped || !newest {
		t.Errorf("dismissed, the file left out is still shown (%v), or the newest message is not (%v)", skipped, newest)
	}
}

// checkTabClick: a click on a lab's tab switches lab before anything is
// drawn, so the frame of the click draws the new lab's panel and nothing
// of the old one's (drawing changes no lab state: the tab bar only shows
// the switch the input stage made).
func checkTabClick(t *testing.T, a *app.App, from, to *plainLab) {
	a.SwitchLab(from.Name())
	ui.Record(true)
	a.Frame(nil)
	var tab rl.Rectangle
	found := false
	for _, it := range ui.Record(false) {
		if it.Kind == ui.KindWidget && it.Name == "2 Other" {
			tab, found = it.Rect, true
		}
	}
	if !found {
		t.Fatal("no tab \"2 Other\" drawn")
	}
	play(evMouseAt, int32(tab.X+tab.Width/2), int32(tab.Y+tab.Height/2))
	a.Frame(nil)
	play(evMouseDown, int32(rl.MouseButtonLeft), 0)
	a.Frame(nil)
	ui.Record(true)
	play(evMouseUp, int32(rl.MouseButtonLeft), 0)
	a.Frame(nil)
	items := ui.Record(false)
	if a.Lab() != app.Lab(to) {
		t.Fatalf("after the click on its tab the current lab is %s", a.Lab().Name())
	}
	drew := map[string]bool{}
	for _, it := range items {
		drew[it.Owner] = true
	}
	if !drew[to.Title()] || drew[from.Title()] {
		t.Errorf("the frame of the click drew the panel of %q: %v; the new lab's %q: %v",
			from.Title(), drew[from.Title()], to.Title(), drew[to.Title()])
	}
	a.SwitchLab(from.Name())
}

// A screenshot of a window past the 16.7 million pixels (2^24) that
// raylib-go's LoadImageColors can return is read whole and saved. 4800x3600
// (17.3 million) takes the path the largest window --width and --height
// allow (7680x4320, 33 million) takes: readPixels copies raylib's image
// whatever its size, so past 2^24 pixels one size proves what the other
// does, in half the pixels to draw, copy and encode. The window is real:
// it is larger than Xvfb's screen (3840x2160) both ways, which X allows,
// and Mesa renders all of it.
func checkScreenshotPast16M(t *testing.T, a *app.App) {
	const w, h = 4800, 3600
	if w*h <= 1<<24 {
		t.Fatalf("%dx%d is not past 2^24 pixels", w, h)
	}
	if !apptest.Resize(a, w, h) {
		t.Skipf("SKIPPED: the X server gave the window %dx%d, not %dx%d", rl.GetScreenWidth(), rl.GetScreenHeight(), w, h)
	}
	path := filepath.Join(t.TempDir(), "big.png")
	start := time.Now()
	var err error
	a.Frame(func() {
		img := a.ReadPixels()
		if img == nil {
			t.Fatal("ReadPixels gave nothing")
		}
		if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
			t.Fatalf("screenshot is %v, want %dx%d", b, w, h)
		}
		// The bottom row is the scene, not left empty.
		if c := img.RGBAAt(w-680, h-1); !apptest.Near(c, render.Background, 40) && c.A != 255 {
			t.Errorf("bottom-right pixel %v", c)
		}
		err = app.SavePNG(path, img)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%dx%d frame read and saved in %v", w, h, time.Since(start))
}

// raylib's input events, played into its input state as if they came
// from the window (rl.PlayAutomationEvent).
const (
	evKeyUp     = 1
	evKeyDown   = 2
	evMouseUp   = 5
	evMouseDown = 6
	evMouseAt   = 7
)

func play(typ uint32, p0, p1 int32) {
	rl.PlayAutomationEvent(rl.AutomationEvent{Type: typ, Params: [4]int32{p0, p1}})
}

// checkInput drives the panels with the mouse and keys: right-click
// resets a slider, a section's reset button resets its settings, a
// double-click types a value and Esc cancels it, O opens the file browser
// and Esc closes it, and a click in the scene reaches the lab while a
// drag does not.
func checkInput(t *testing.T, a *app.App, lab *plainLab) {
	ui.OpenAllSections(true)
	for range 3 {
		a.Frame(nil)
	}
	ui.OpenAllSections(false)
	// Where the slider and the reset button are in the lab's panel: the
	// slider's value is drawn on it, "reset" on the button.
	find := func(name string) rl.Rectangle {
		t.Helper()
		ui.Record(true)
		a.Frame(nil)
		for _, it := range ui.Record(false) {
			if it.Kind == ui.KindText && it.Name == name && it.HasBox && it.Owner == lab.Title() {
				return it.Box
			}
		}
		t.Fatalf("no text %q drawn", name)
		return rl.Rectangle{}
	}
	click := func(r rl.Rectangle, button int32) {
		x, y := int32(r.X+r.Width/2), int32(r.Y+r.Height/2)
		play(evMouseAt, x, y)
		a.Frame(nil)
		play(evMouseDown, button, 0)
		a.Frame(nil)
		play(evMouseUp, button, 0)
		a.Frame(nil)
	}
	key := func(k int32) {
		play(evKeyDown, k, 0)
		a.Frame(nil)
		play(evKeyUp, k, 0)
		a.Frame(nil)
	}

	lab.S.Value = 7
	slider := find("7.0")
	click(slider, int32(rl.MouseButtonRight))
	if lab.S.Value != 2 {
		t.Errorf("after a right-click on the slider its value is %v, want the default 2", lab.S.Value)
	}

	lab.S.Value = 7
	click(find("reset"), int32(rl.MouseButtonLeft))
	if lab.S.Value != 2 {
		t.Errorf("after the section's reset its value is %v, want the default 2", lab.S.Value)
	}

	// The double-click reads the UI's clock, which each frame steps by
	// 1/60 s here (a --frames window), however long the frames really
	// take: 3 frames between the presses are 0.05 s, a double-click; 25
	// (0.42 s) are two clicks.
	click(slider, int32(rl.MouseButtonLeft))
	for range 22 {
		a.Frame(nil)
	}
	click(slider, int32(rl.MouseButtonLeft))
	if ui.Typing() {
		t.Error("two clicks on the slider 0.42 s apart opened its text field")
		key(int32(rl.KeyEscape))
	}
	click(slider, int32(rl.MouseButtonLeft))
	if !ui.Typing() {
		t.Error("a double-click on the slider did not open its text field")
	}
	key(int32(rl.KeyEscape))
	if ui.Typing() {
		t.Error("Esc did not close the text field")
	}

	// A panel's Ask runs after the frame that drew the click, before the
	// next update; a Held key is down while the key is.
	lab.asks = 0
	ui.Record(true)
	a.Frame(nil)
	var askButton rl.Rectangle
	for _, it := range ui.Record(false) {
		if it.Kind == ui.KindWidget && it.Name == "Ask" {
			askButton = it.Rect
		}
	}
	click(askButton, int32(rl.MouseButtonLeft))
	if lab.asks != 0 {
		t.Errorf("a click on Ask ran its action in the frame that drew it")
	}
	a.Frame(nil)
	if lab.asks != 1 || lab.asksTickd != 1 || lab.asksDrawn != 1 {
		t.Errorf("the frame after a click on Ask: ran %d times, seen by the update %d, by the panel %d; want 1, 1, 1", lab.asks, lab.asksTickd, lab.asksDrawn)
	}
	play(evKeyDown, int32(rl.KeyK), 0)
	a.Frame(nil)
	if !lab.held {
		t.Error("K down: the lab's Held key is not held")
	}
	play(evKeyUp, int32(rl.KeyK), 0)
	a.Frame(nil)
	if lab.held {
		t.Error("K up: the lab's Held key is still held")
	}

	key(int32(rl.KeyO))
	if !a.BrowserOpen() {
		t.Error("O did not open the file browser")
	}
	key(int32(rl.KeyEscape))
	if a.BrowserOpen() {
		t.Error("Esc did not close the file browser")
	}

	// A click in the scene is a click; a drag is not.
	lab.click = app.Pointer{}
	click(rl.Rectangle{X: 800, Y: 400}, int32(rl.MouseButtonLeft))
	if !lab.click.Click || lab.click.At.X != 800 || lab.click.At.Y != 400 {
		t.Errorf("a click at (800, 400) reached the lab as %+v", lab.click)
	}
	lab.click = app.Pointer{}
	play(evMouseAt, 700, 300)
	a.Frame(nil)
	play(evMouseDown, int32(rl.MouseButtonLeft), 0)
	a.Frame(nil)
	play(evMouseAt, 760, 330)
	a.Frame(nil)
	play(evMouseUp, int32(rl.MouseButtonLeft), 0)
	a.Frame(nil)
	if lab.click.Click {
		t.Errorf("a drag reached the lab as a click at %v", lab.click.At)
	}
}
