package cost

import (
	"fmt"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/app"
	"kinelab/internal/apptest"
)

// checkFraming (called by TestRender) loads figures of very different
// sizes and shapes — a 0.5 m doll, a 1.7 m human, a 50 m giant and a
// four-legged animal 71 units long whose hips are at its back end — and
// checks at 1024x600 and 1280x720, over frames of its walk, that every
// body joint is in front of the camera and projected into the lab's spot
// for the character: right of the panels, left of the finder's table and
// the plot, under the heat maps. The animal stood half under the panel
// when the spot was laid out for a standing human's hips.
func checkFraming(t *testing.T, a *app.App) {
	a.SwitchLab("cost")
	a.ShowUI(true)
	defer a.ShowUI(false)
	apptest.EachFigure(t, a, func(name string, w, h int32) {
		lab := a.Lab().(*Lab)
		lab.S.Auto = false
		at := fmt.Sprintf("%s at %dx%d", name, w, h)
		var worst float32 = 1
		for f := range 60 {
			if f < 20 || f%5 != 4 { // the camera eases onto the focus first
				// Undrawn (Step): the lab and the camera move as in a
				// drawn frame, and where the joints are is what counts;
				// drawing all 480 frames took 14 s of Mesa's time.
				a.Step()
				continue
			}
			a.Frame(nil)
			v := a.View()
			lay := costMapLayout(float32(v.Width), float32(v.Height))
			// As the lab's ui draws them (not costSpot, which the
			// lab frames by).
			spot := rl.Rectangle{X: v.Area.X, Y: lay.bottom, Width: v.Plot.X - v.Area.X, Height: v.Area.Y + v.Area.Height - lay.bottom}
			lo, hi, behind := apptest.ProjectedBox(&v, lab.global.Pos, func(j int) bool { return j < len(lab.ground) && lab.ground[j] })
			if behind >= 0 {
				t.Fatalf("%s, frame %d: joint %s is behind the camera", at, f, lab.skel.Names[behind])
			}
			if lo.X < spot.X || lo.Y < spot.Y || hi.X > spot.X+spot.Width || hi.Y > spot.Y+spot.Height {
				t.Errorf("%s, frame %d: the figure's joints span [%.0f,%.0f]-[%.0f,%.0f], outside the character's spot [%.0f,%.0f]-[%.0f,%.0f]",
					at, f, lo.X, lo.Y, hi.X, hi.Y, spot.X, spot.Y, spot.X+spot.Width, spot.Y+spot.Height)
			}
			worst = min(worst, (hi.Y-lo.Y)/spot.Height)
		}
		t.Logf("%s: the figure spans at least %.0f%% of its spot's height", at, 100*worst)
		if worst < 0.25 {
			t.Errorf("%s: the figure spans only %.0f%% of its spot's height, want 25%% or more", at, 100*worst)
		}
	})
}
