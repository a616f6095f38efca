package cost

import (
	"fmt"
	"path/filepath"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/app"
	"kinelab/internal/apptest"
	"kinelab/internal/gltftest"
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
	dir := t.TempDir()
	cases := []struct {
		name string
		rig  gltftest.Rig
	}{
		{"doll", gltftest.MixamoRig(0.5)},
		{"human", gltftest.MixamoRig(1.7)},
		{"giant", gltftest.MixamoRig(50)},
		{"quadruped", gltftest.QuadrupedRig(71)},
	}
	defer apptest.Resize(a, 960, 540)
	for _, size := range [][2]int32{{1024, 600}, {1280, 720}} {
		if !apptest.Resize(a, size[0], size[1]) {
			t.Fatalf("the window did not take %dx%d", size[0], size[1])
		}
		for _, c := range cases {
			path := filepath.Join(dir, c.name+".gltf")
			if err := gltftest.WriteRig(path, c.rig, gltftest.Options{}); err != nil {
				t.Fatal(err)
			}
			if !a.Load([]string{path}) {
				t.Fatalf("%s did not load", path)
			}
			lab := a.Lab().(*Lab)
			lab.S.Auto = false
			at := fmt.Sprintf("%s at %dx%d", c.name, size[0], size[1])
			var worst float32 = 1
			for f := range 60 {
				a.Frame(nil)
				if f < 20 || f%5 != 4 { // the camera eases onto the focus first
					continue
				}
				v := a.View()
				lay := costMapLayout(float32(v.Width), float32(v.Height))
				// As the lab's ui draws them (not costSpot, which the
				// lab frames by).
				spot := rl.Rectangle{X: v.Area.X, Y: lay.bottom, Width: v.Plot.X - v.Area.X, Height: v.Area.Y + v.Area.Height - lay.bottom}
				eye, target := v.Camera.Position, v.Camera.Target
				fwd := [3]float32{target.X - eye.X, target.Y - eye.Y, target.Z - eye.Z}
				first := true
				var lo, hi rl.Vector2
				for j, p := range lab.global.Pos {
					if j < len(lab.ground) && lab.ground[j] {
						continue
					}
					if (p[0]-eye.X)*fwd[0]+(p[1]-eye.Y)*fwd[1]+(p[2]-eye.Z)*fwd[2] <= 0 {
						t.Fatalf("%s, frame %d: joint %s is behind the camera", at, f, lab.skel.Names[j])
					}
					s := v.Project(p)
					if first {
						lo, hi, first = s, s, false
					}
					lo = rl.Vector2{X: min(lo.X, s.X), Y: min(lo.Y, s.Y)}
					hi = rl.Vector2{X: max(hi.X, s.X), Y: max(hi.Y, s.Y)}
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
		}
	}
}
