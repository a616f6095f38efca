package cost

import (
	"image"
	"image/color"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/app"
	"kinelab/internal/apptest"
	"kinelab/render"
	"kinelab/ui"
)

// TestRender runs the app's real render path in a window with the cost lab
// (one window per test binary: raylib is single-window) and checks its
// pixels. All GL work stays on this goroutine's locked thread, so no t.Run
// subtests.
func TestRender(t *testing.T) {
	a := apptest.OpenWindow(t, app.Config{UIScale: 1, Lab: "cost", Frames: 60, Width: 960, Height: 540}, []app.LabEntry{Entry()})
	checkFrame(t, a)
	checkPanel(t, a)
	checkFraming(t, a)
}

// checkPanel (called by TestRender): the panel draws with every section
// open, so every slider it draws is a row of the lab's table
// (ui.Ranges.Of panics on one that is not).
func checkPanel(t *testing.T, a *app.App) {
	ui.OpenAllSections(true)
	defer ui.OpenAllSections(false)
	apptest.RenderLab(t, a, "cost", 2, func(int) {})
}

// checkFrame: the heat maps show the colours of their grids at grid
// points, the offset curve's two shaded lobes and its crossing marker
// appear, and the skeleton's bones are where FK puts them.
func checkFrame(t *testing.T, a *app.App) {
	a.SwitchLab("cost")
	a.ShowUI(true) // plots and maps are part of the UI
	a.ShowHelp(false)
	a.ResetCamera()
	lab := a.Lab().(*Lab)
	defer lab.Unload()
	lab.S.Auto = false
	lab.Pick(0.3, -8)
	var img *image.RGBA
	for i := 0; i < 30; i++ {
		a.Frame(nil)
	}
	a.Frame(func() { img = a.ReadPixels() })
	defer apptest.KeepOnFailure(t, img, "cost")
	v := a.View()
	lay := costMapLayout(float32(v.Width), float32(v.Height))

	// Heat maps: grid points away from the marks drawn over them.
	checked, right := 0, 0
	for m := range lay.maps {
		for _, rc := range [][2]int{{10, 10}, {10, 90}, {50, 20}, {90, 50}, {30, 70}, {70, 30}} {
			r, c := rc[0], rc[1]
			p := lab.mapPoint(lay.maps[m], lab.GridX(c), lab.GridV(r))
			got := img.RGBAAt(int(p.X), int(p.Y))
			checked++
			if apptest.Near(got, lab.pixels[m][r*costGridN+c], 24) {
				right++
			}
		}
	}
	t.Logf("cost frame: %d of %d heat-map grid points show their texel's colour", right, checked)
	if right*10 < checked*8 {
		t.Errorf("heat maps: %d of %d grid points show their colour", right, checked)
	}

	// The curve: sample a column inside each lobe, halfway between the
	// zero line and the curve, against the lobe colour over the plot's
	// own background a few pixels away.
	r := v.Plot
	area := rl.Rectangle{X: r.X + 62, Y: r.Y + 34, Width: r.Width - 74, Height: r.Height - 92}
	lo, hi := float32(0), float32(0)
	for _, x := range lab.Curve {
		lo, hi = min(lo, x), max(hi, x)
	}
	pad := (hi - lo) * 0.08
	lo, hi = lo-pad, hi+pad
	py := func(x float32) float32 { return area.Y + area.Height*(hi-x)/(hi-lo) }
	lobe := func(tt float32, c color.RGBA) bool {
		x := area.X + area.Width*tt/lab.CurveT
		k := int(tt / lab.CurveT * (costCurveN - 1))
		y := (py(lab.Curve[k]) + py(0)) / 2
		got := img.RGBAAt(int(x), int(y))
		bg := img.RGBAAt(int(x), int(area.Y+area.Height-3))
		if lab.Curve[k] < 0 {
			bg = img.RGBAAt(int(x), int(area.Y+3))
		}
		a := float32(c.A) / 255
		mix := func(f, b uint8) uint8 { return uint8(float32(f)*a + float32(b)*(1-a) + 0.5) }
		want := color.RGBA{R: mix(c.R, bg.R), G: mix(c.G, bg.G), B: mix(c.B, bg.B), A: 255}
		if !apptest.Near(got, want, 12) {
			t.Errorf("curve at %.3f s: %v, want %v (lobe %v over %v)", tt, got, want, c, bg)
			return false
		}
		return true
	}
	lobe(lab.Crossing*0.3, costLobeA)
	lobe(lab.Crossing+(lab.CurveT-lab.Crossing)*0.1, costLobeB)
	if n := apptest.CountNear(img, area, costMarkCol, 10); n < 30 {
		t.Errorf("zero-crossing marker: %d pixels of its colour", n)
	}

	// Bones at their midpoints.
	bones, hit := 0, 0
	for i, p := range lab.skel.Parents {
		if p < 0 || lab.skel.Parents[p] < 0 {
			continue
		}
		s := v.Project(lab.global.Pos[i].Add(lab.global.Pos[p]).Mul(0.5))
		bones++
		if apptest.Near(img.RGBAAt(int(s.X+0.5), int(s.Y+0.5)), render.BoneColor, 12) {
			hit++
		}
	}
	if hit*5 < bones*4 {
		t.Errorf("bone colour at %d of %d bone midpoints", hit, bones)
	}
}
