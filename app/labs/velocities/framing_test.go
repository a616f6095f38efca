package velocities

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/app"
	"kinelab/internal/apptest"
	"kinelab/internal/gltftest"
	"kinelab/ui"
)

// checkFraming loads characters of very different sizes — a 0.5 m doll,
// a 1.7 m human, a 50 m giant (humans named as Mixamo names them) and a
// four-legged animal 71 units long with no unit — and checks, on frames
// through its walk, at 1024x600 and 1280x720, that the camera frames the
// figure: every body joint in front of the camera and projected inside the
// lab's area, and the figure's projected box at least a fifth of the
// area's height (it is not a speck) in every frame.
func checkFraming(t *testing.T, a *app.App) {
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
			at := fmt.Sprintf("%s (size %.3g) at %dx%d", c.name, lab.ch.Size, size[0], size[1])
			worst := float32(1)
			for f := range 40 {
				a.Frame(nil)
				if f%4 != 3 {
					continue
				}
				v := a.View()
				eye := v.Camera.Position
				target := v.Camera.Target
				fwd := [3]float32{target.X - eye.X, target.Y - eye.Y, target.Z - eye.Z}
				first := true
				var lo, hi [2]float32
				for j, p := range lab.global.Pos {
					if lab.ch.Figure.Ground[j] {
						continue
					}
					if (p[0]-eye.X)*fwd[0]+(p[1]-eye.Y)*fwd[1]+(p[2]-eye.Z)*fwd[2] <= 0 {
						t.Fatalf("%s, frame %d: joint %s is behind the camera", at, f, lab.skel.Names[j])
					}
					s := v.Project(p)
					if first {
						lo, hi, first = [2]float32{s.X, s.Y}, [2]float32{s.X, s.Y}, false
					}
					lo = [2]float32{min(lo[0], s.X), min(lo[1], s.Y)}
					hi = [2]float32{max(hi[0], s.X), max(hi[1], s.Y)}
				}
				ar := v.Area
				if lo[0] < ar.X || lo[1] < ar.Y || hi[0] > ar.X+ar.Width || hi[1] > ar.Y+ar.Height {
					t.Errorf("%s, frame %d: the figure's joints span [%.0f,%.0f]-[%.0f,%.0f], outside the lab's area [%.0f,%.0f]-[%.0f,%.0f]",
						at, f, lo[0], lo[1], hi[0], hi[1], ar.X, ar.Y, ar.X+ar.Width, ar.Y+ar.Height)
				}
				worst = min(worst, (hi[1]-lo[1])/ar.Height)
			}
			checkNote(t, a, at, lab.notHuman != "")
			t.Logf("%s: the figure spans at least %.0f%% of the area's height", at, 100*worst)
			if worst < 0.2 {
				t.Errorf("%s: the figure spans only %.0f%% of the area's height, want 20%% or more", at, 100*worst)
			}
		}
	}
}

// checkNote checks a frame of the lab: the figure note there for a figure
// that is no human (want), naming it so and what is off, and not for a
// human; nothing cut or overlapping (apptest.Fit).
func checkNote(t *testing.T, a *app.App, at string, want bool) {
	t.Helper()
	a.ShowUI(true)
	defer a.ShowUI(false) // as checkFrame left it
	// The panels take their sizes over the first frames shown.
	for range 3 {
		a.Frame(nil)
	}
	ui.Record(true)
	a.Frame(nil)
	items := ui.Record(false)
	var note []string
	for _, it := range items {
		if it.Kind == ui.KindText && it.Owner == "figure note" {
			note = append(note, it.Name)
		}
	}
	text := strings.Join(note, " ")
	if got := strings.HasPrefix(text, "Not a human figure") && strings.HasSuffix(text, "look-at and IK are off"); got != want {
		t.Errorf("%s: the figure note reads %q; want one: %v", at, text, want)
	}
	for _, p := range apptest.Fit(items, ui.Width(), ui.Height()) {
		t.Errorf("%s: %s", at, p)
	}
}
