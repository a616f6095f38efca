package scalar

import (
	"image"
	"image/color"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/app"
	"kinelab/internal/apptest"
	"kinelab/render"
	"kinelab/ui"
)

// TestRender runs the app's real render path in a window with the scalar lab
// (one window per test binary: raylib is single-window) and checks its
// pixels. All GL work stays on this goroutine's locked thread, so no t.Run
// subtests.
func TestRender(t *testing.T) {
	a := apptest.OpenWindow(t, app.Config{UIScale: 1, Lab: "scalar", Frames: 60, Width: 960, Height: 540}, []app.LabEntry{Entry()})
	checkFrame(t, a)
	checkPanel(t, a)
}

// checkPanel (called by TestRender): the panel draws with every section
// open for each source of the hierarchy's scale, so every slider it draws
// is a row of the lab's table (ui.Ranges.Of panics on one that is not).
func checkPanel(t *testing.T, a *app.App) {
	ui.OpenAllSections(true)
	defer ui.OpenAllSections(false)
	apptest.RenderLab(t, a, "scalar", 2, func(f int) { a.Lab().(*Lab).S.Source = int32(f) })
}

// checkFrame: the hierarchy plot shows its red (FK, wide, under),
// blue (finite difference) and orange (no expansion) lines, the growth
// plot its two series, and the front row's boxes their colours.
func checkFrame(t *testing.T, a *app.App) {
	a.SwitchLab("scalar")
	a.ShowUI(true) // plots and maps are part of the UI
	a.ShowHelp(false)
	a.ResetCamera()
	var img *image.RGBA
	for i := 0; i < 90; i++ {
		a.Frame(nil)
	}
	a.Frame(func() { img = a.ReadPixels() })
	defer apptest.KeepOnFailure(t, img, "scalar")
	lab := a.Lab().(*Lab)
	v := a.View()
	demo, hier := scalarPlotRects(&v)
	counts := map[string]int{}
	in := func(r rl.Rectangle, c color.RGBA) int { return apptest.CountNear(img, lab.hierPlot.Area(r), c, 30) }
	for _, c := range []struct {
		name string
		col  color.RGBA
		rect rl.Rectangle
	}{
		{"FK (red)", render.Propagated, hier}, {"finite difference (blue)", render.FiniteDiff, hier},
		{"no expansion (orange)", scalarNoExpColor, hier},
		{"naive", scalarNaiveColor, demo}, {"natural", scalarNaturalColor, demo},
	} {
		n := in(c.rect, c.col)
		counts[c.name] = n
		if n < 40 {
			t.Errorf("%s: %d pixels of its colour in its plot, want >= 40", c.name, n)
		}
	}
	t.Logf("scalar frame: pixels of each series' colour in its plot: %v", counts)

	// The front row's boxes: the pixel at a box's centre is one of its
	// shaded faces.
	for _, b := range []struct {
		name string
		pos  mgl32.Vec3
		s    float32
		col  color.RGBA
	}{{"naive", scalarNaivePos, lab.growth.Naive, scalarNaiveColor}} {
		e := scalarUnit * b.s
		p := v.Project(b.pos.Add(mgl32.Vec3{0, e / 2, 0}))
		got := img.RGBAAt(int(p.X+0.5), int(p.Y+0.5))
		ok := false
		for k := 0; k <= 10; k++ {
			f := 0.5 + 0.05*float32(k)
			want := color.RGBA{R: uint8(float32(b.col.R) * f), G: uint8(float32(b.col.G) * f), B: uint8(float32(b.col.B) * f)}
			ok = ok || apptest.Near(got, want, 6)
		}
		if !ok {
			t.Errorf("%s box centre at %v shows %v, not a shade of %v", b.name, p, got, b.col)
		}
	}
}
