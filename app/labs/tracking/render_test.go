package tracking

import (
	"math"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/app"
	"kinelab/app/labs/signals"
	"kinelab/internal/apptest"
	"kinelab/ui"
)

// TestRender runs the app's real render path in a window with the tracking lab
// (one window per test binary: raylib is single-window) and checks its
// pixels. All GL work stays on this goroutine's locked thread, so no t.Run
// subtests.
func TestRender(t *testing.T) {
	a := apptest.OpenWindow(t, app.Config{UIScale: 1, Lab: "tracking", Frames: 60, Width: 960, Height: 540}, []app.LabEntry{Entry()})
	checkFrame(t, a)
	checkPanel(t, a)
}

// checkPanel (called by TestRender): the panel draws with every section
// open in each input signal, so every slider it draws is a row of the lab's
// table (ui.Ranges.Of panics on one that is not).
func checkPanel(t *testing.T, a *app.App) {
	ui.OpenAllSections(true)
	defer ui.OpenAllSections(false)
	apptest.RenderLab(t, a, "tracking", 3, func(f int) { a.Lab().(*Lab).S.Signal = int32(f) })
}

// checkFrame (called by TestRender): every series of both plots
// shows in its colour inside its plot's data area, and the raw and
// filtered skeletons show in the 3D view between panels and plots.
func checkFrame(t *testing.T, a *app.App) {
	var lab *Lab
	img := apptest.RenderLab(t, a, "tracking", 150, func(f int) {
		lab = a.Lab().(*Lab)
		if f == 40 || f == 100 {
			lab.Jump()
		}
	})
	defer apptest.KeepOnFailure(t, img, "tracking")
	v := a.View()
	top, bottom := signals.StackedPlots(v.Width, v.Height)
	const tol, want = 6, 40
	got := map[string]int{"input": apptest.CountNear(img, lab.plot.Area(top), InputColor, tol)}
	for k := range numVariants {
		got["x "+trackVariantLabels[k]] = apptest.CountNear(img, lab.plot.Area(top), Colors[k], tol)
		got["error "+trackVariantLabels[k]] = apptest.CountNear(img, lab.errs.Area(bottom), Colors[k], tol)
	}
	view3D := rl.Rectangle{X: 320, Y: 40, Width: top.X - 330, Height: float32(v.Height) - 50}
	got["raw skeleton"] = apptest.CountNear(img, view3D, InputColor, tol)
	got["filtered skeleton"] = apptest.CountNear(img, view3D, Colors[lab.S.CharVariant], tol)
	for name, n := range got {
		if n < want {
			t.Errorf("tracking: %s: %d pixels of its colour where it is drawn, want >= %d", name, n, want)
		}
	}
	t.Logf("tracking frame: pixels of each series' colour in its plot and of the skeletons: %v", got)

	// Drawing the input: a Ctrl+drag a quarter of the way down the top
	// plot's data area switches to the drawn signal at that plot value.
	area := lab.plot.Area(top)
	y := area.Y + area.Height/4
	lab.Input(&app.Input{Pointer: app.Pointer{Down: true, Mouse: rl.Vector2{X: area.X + area.Width/2, Y: y}}})
	lab.Update(1.0 / 60)
	lo, hi := lab.plot.ValueAt(top, area.Y+area.Height), lab.plot.ValueAt(top, area.Y)
	drawn := lo + 0.75*(hi-lo)
	if lab.S.Signal != SignalDrawn || math.Abs(float64(lab.input-drawn)) > float64((hi-lo)/area.Height*2) {
		t.Errorf("tracking: Ctrl+drag at y %.0f px: signal %d, input %.3f m; want the drawn signal (%d) at %.3f m (plot range %.2f..%.2f)",
			y, lab.S.Signal, lab.input, SignalDrawn, drawn, lo, hi)
	}
	lab.Input(&app.Input{Pointer: app.Pointer{}})
	if lab.draw.Down {
		t.Errorf("tracking: the drag did not end with the button")
	}
}
