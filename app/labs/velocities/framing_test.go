package velocities

import (
	"fmt"
	"strings"
	"testing"

	"kinelab/app"
	"kinelab/internal/apptest"
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
	apptest.EachFigure(t, a, func(name string, w, h int32) {
		lab := a.Lab().(*Lab)
		at := fmt.Sprintf("%s (size %.3g) at %dx%d", name, lab.ch.Size, w, h)
		worst := float32(1)
		for f := range 40 {
			if f%4 != 3 {
				// Undrawn (Step): the lab and the camera move as in a
				// drawn frame, and where the joints are is what counts;
				// the checked frames are drawn.
				a.Step()
				continue
			}
			a.Frame(nil)
			v := a.View()
			lo, hi, behind := apptest.ProjectedBox(&v, lab.global.Pos, func(j int) bool { return lab.ch.Figure.Ground[j] })
			if behind >= 0 {
				t.Fatalf("%s, frame %d: joint %s is behind the camera", at, f, lab.skel.Names[behind])
			}
			ar := v.Area
			if lo.X < ar.X || lo.Y < ar.Y || hi.X > ar.X+ar.Width || hi.Y > ar.Y+ar.Height {
				t.Errorf("%s, frame %d: the figure's joints span [%.0f,%.0f]-[%.0f,%.0f], outside the lab's area [%.0f,%.0f]-[%.0f,%.0f]",
					at, f, lo.X, lo.Y, hi.X, hi.Y, ar.X, ar.Y, ar.X+ar.Width, ar.Y+ar.Height)
			}
			worst = min(worst, (hi.Y-lo.Y)/ar.Height)
		}
		checkNote(t, a, at, lab.notHuman != "")
		t.Logf("%s: the figure spans at least %.0f%% of the area's height", at, 100*worst)
		if worst < 0.2 {
			t.Errorf("%s: the figure spans only %.0f%% of the area's height, want 20%% or more", at, 100*worst)
		}
	})
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
	if got := strings.HasPrefix(text, "Not read as a human figure") && strings.HasSuffix(text, "look-at and IK are off"); got != want {
		t.Errorf("%s: the figure note reads %q; want one: %v", at, text, want)
	}
	for _, p := range apptest.Fit(items, ui.Width(), ui.Height()) {
		t.Errorf("%s: %s", at, p)
	}
}
