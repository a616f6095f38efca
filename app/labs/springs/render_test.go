package springs

import (
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/app"
	"kinelab/app/labs/signals"
	"kinelab/internal/apptest"
	"kinelab/ui"
)

// TestRender runs the app's real render path in a window with the springs lab
// (one window per test binary: raylib is single-window) and checks its
// pixels. All GL work stays on this goroutine's locked thread, so no t.Run
// subtests.
func TestRender(t *testing.T) {
	a := apptest.OpenWindow(t, app.Config{UIScale: 1, Lab: "springs", Frames: 60, Width: 960, Height: 540}, []app.LabEntry{Entry()})
	checkFrame(t, a)
	checkPanel(t, a)
}

// checkPanel (called by TestRender): the panel draws with every section
// open in each goal motion, so every slider it draws is a row of the lab's
// table (ui.Ranges.Of panics on one that is not).
func checkPanel(t *testing.T, a *app.App) {
	ui.OpenAllSections(true)
	defer ui.OpenAllSections(false)
	apptest.RenderLab(t, a, "springs", 3, func(f int) { a.Lab().(*Lab).S.Goal = int32(f) })
}

// checkFrame (called by TestRender): the goal and every spring
// show in their colours in the position and velocity plots, and every
// spring's ball in the 3D view.
func checkFrame(t *testing.T, a *app.App) {
	var lab *Lab
	img := apptest.RenderLab(t, a, "springs", 150, func(f int) {
		lab = a.Lab().(*Lab)
		if f == 30 {
			lab.Step()
		}
	})
	defer apptest.KeepOnFailure(t, img, "springs")
	v := a.View()
	top, bottom := signals.StackedPlots(v.Width, v.Height)
	const tol, want = 6, 40
	got := map[string]int{"x goal": apptest.CountNear(img, lab.pos.Area(top), GoalColor, tol)}
	view3D := rl.Rectangle{X: 320, Y: 40, Width: top.X - 330, Height: float32(v.Height) - 50}
	for k, id := range springIDs {
		got["x "+id] = apptest.CountNear(img, lab.pos.Area(top), Colors[k], tol)
		got["v "+id] = apptest.CountNear(img, lab.vel.Area(bottom), Colors[k], tol)
		got["ball "+id] = apptest.CountNear(img, view3D, Colors[k], tol)
	}
	for name, n := range got {
		if n < want {
			t.Errorf("springs: %s: %d pixels of its colour where it is drawn, want >= %d", name, n, want)
		}
	}
	t.Logf("springs frame: pixels of each series' colour in its plot and of the balls: %v", got)
}
