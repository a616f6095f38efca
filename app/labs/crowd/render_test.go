package crowd

import (
	"image"
	"testing"

	"kinelab/app"
	"kinelab/assets"
	"kinelab/internal/apptest"
	"kinelab/render"
)

// TestRender runs the app's real render path in a window with the crowd lab
// (one window per test binary: raylib is single-window) and checks its
// pixels. All GL work stays on this goroutine's locked thread, so no t.Run
// subtests.
func TestRender(t *testing.T) {
	a := apptest.OpenWindow(t, app.Config{UIScale: 1, Lab: "crowd", Frames: 60, Width: 960, Height: 540}, []app.LabEntry{Entry()})
	checkFrame(t, a)
}

// checkFrame: a crowd of 50 shows lit bodies (not the ground's
// checker, not the background) at the projected chests of its characters.
func checkFrame(t *testing.T, a *app.App) {
	a.SwitchLab("crowd")
	a.ShowUI(false)
	lab := a.Lab().(*Lab)
	lab.S.Count, lab.S.Lines = 50, false
	for i := 0; i < 30; i++ {
		a.Frame(nil)
	}
	var img *image.RGBA
	a.Clock().Paused = true
	a.Frame(func() { img = a.ReadPixels() })
	a.Clock().Paused = false
	defer apptest.KeepOnFailure(t, img, "crowd")
	if lab.builtN != 50 || lab.draw.meshes != 50 {
		t.Fatalf("crowd: %d characters, %d drawn with bodies; want 50 and 50", lab.builtN, lab.draw.meshes)
	}
	v := a.View()
	checked, lit := 0, 0
	for i := 0; i < lab.builtN; i += 3 {
		pos, _, _, shift := lab.Character(i)
		chest := pos[assets.Spine1].Add(pos[assets.Spine2]).Mul(0.5).Add(shift)
		s := v.Project(chest)
		x, y := int(s.X+0.5), int(s.Y+0.5)
		if x < 2 || y < 2 || x >= img.Rect.Dx()-2 || y >= img.Rect.Dy()-2 {
			continue
		}
		checked++
		c := img.RGBAAt(x, y)
		if !apptest.Near(c, render.GroundA, 12) && !apptest.Near(c, render.GroundB, 12) && !apptest.Near(c, render.Background, 12) &&
			int(c.R)+int(c.G)+int(c.B) > 3*90 {
			lit++
		}
	}
	if checked < 10 || lit*5 < checked*4 {
		t.Errorf("crowd: lit body at %d of %d projected chests (want >= 80%% of >= 10)", lit, checked)
	}
}
