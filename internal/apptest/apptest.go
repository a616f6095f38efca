// Package apptest holds what the tests of kinelab's framework and labs
// share: a harness that opens the real App window with a lab and reads
// its pixels back, pixel and CSV checks, the inputs the stress tests draw
// from, and a BVH file of the default character.
//
// Render tests: raylib has one window per process and every GL call must
// stay on one OS thread, so a lab's render test opens the window with
// [OpenWindow] and does all its GL work in that one test function (no
// t.Run subtests). Run under a display (`xvfb-run`, as `make test` does);
// without one they skip, or fail when KINELAB_REQUIRE_DISPLAY is set.
package apptest

import (
	"image"
	"os"
	"runtime"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/app"
)

// NeedDisplay skips a render test where no X server can be had, and fails
// it instead under `make test` (KINELAB_REQUIRE_DISPLAY=1), where Xvfb is
// always started: a render test must never pass by not running.
func NeedDisplay(t *testing.T) {
	t.Helper()
	if os.Getenv("DISPLAY") != "" {
		return
	}
	if os.Getenv("KINELAB_REQUIRE_DISPLAY") != "" {
		t.Fatal("no DISPLAY although KINELAB_REQUIRE_DISPLAY is set: run under xvfb-run")
	}
	t.Skip("SKIPPED: no X display; run under xvfb-run (make test does) to check rendering")
}

// OpenWindow opens the App's real window (cfg's size, lab cfg.Lab of labs)
// for a render test (give cfg.UIScale 1 to compare pixels with the View's
// rectangles, which are in UI units): it skips without a display (see NeedDisplay), locks
// the test's goroutine to its OS thread for the GL calls, and closes the
// window when the test ends. Call it from the test function itself and
// keep every frame in that function.
func OpenWindow(t *testing.T, cfg app.Config, labs []app.LabEntry) *app.App {
	t.Helper()
	NeedDisplay(t)
	runtime.LockOSThread()
	a := app.New(cfg, labs)
	if err := a.Open(); err != nil {
		runtime.UnlockOSThread()
		t.Fatalf("open window: %v", err)
	}
	t.Cleanup(func() {
		a.Close()
		runtime.UnlockOSThread()
	})
	return a
}

// RenderLab switches the test window to lab name with its panels shown
// and the help hidden, runs frames frames (calling each(frame) first) and
// returns the pixels of one more.
func RenderLab(t *testing.T, a *app.App, name string, frames int, each func(int)) *image.RGBA {
	t.Helper()
	if !a.SwitchLab(name) {
		t.Fatalf("no lab %q", name)
	}
	a.ShowUI(true)
	a.ShowHelp(false)
	for f := 0; f < frames; f++ {
		each(f)
		a.Frame(nil)
	}
	var img *image.RGBA
	a.Frame(func() { img = a.ReadPixels() })
	return img
}

// Resize sets the window to w x h pixels and runs frames until raylib
// reports the new size (the X server answers asynchronously); it reports
// whether it did.
func Resize(a *app.App, w, h int32) bool {
	rl.SetWindowSize(int(w), int(h))
	for range 60 {
		a.Frame(nil)
		if int32(rl.GetScreenWidth()) == w && int32(rl.GetScreenHeight()) == h {
			a.Frame(nil) // lay out once at the new size
			return true
		}
	}
	return false
}
