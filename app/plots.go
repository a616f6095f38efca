package app

// What the labs that plot 1-D signals beside a small 3D view share
// (Tracking, Springs): their two stacked plots in a column on the right of
// the window, the camera focus that puts the 3D view between those plots
// and the panels, and drawing a signal into a plot with Ctrl + drag.

import (
	"math"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/render"
	"kinelab/ui"
)

// StackedPlots is where the signal labs put their two stacked plots: a
// column on the right of a w x h screen (units), under the tab bar,
// leaving the middle of the screen to the 3D view.
func StackedPlots(w, h int32) (top, bottom rl.Rectangle) {
	area := LabArea(float32(w), float32(h))
	pw := min(580, area.Width-300) // keep ~300 units of 3D view beside the panels
	pw = max(pw, area.Width*0.45)
	x := area.X + area.Width - pw
	ph := (area.Height - 8) / 2
	return rl.Rectangle{X: x, Y: area.Y, Width: pw, Height: ph},
		rl.Rectangle{X: x, Y: area.Y + ph + 8, Width: pw, Height: ph}
}

// FocusBesidePlots is the camera focus that shows point p, seen by the
// default camera, in the middle of the space between the panels and the
// plot column on the right of the window.
func FocusBesidePlots(p mgl32.Vec3) mgl32.Vec3 {
	w, h := int32(ui.Width()), int32(ui.Height())
	if w <= 0 || h <= 0 { // no window (headless tests)
		w, h = 1280, 720
	}
	top, _ := StackedPlots(w, h)
	shift := float32(w)/2 - (LabArea(float32(w), float32(h)).X+top.X)/2 // units
	cam := DefaultCamera()
	pxPerM := float32(h) / (2 * cam.Distance * float32(math.Tan(float64(cam.FovY)*math.Pi/360)))
	return p.Add(DefaultCameraRight().Mul(shift / pxPerM))
}

// PlotDrag turns Ctrl + left drag inside a plot into values on its y axis
// (the framework's pointer gesture, so plain drags still orbit the camera).
type PlotDrag struct {
	Down    bool    // Ctrl + left button held, started inside the plot
	Pressed bool    // the drag began since the lab last read it; the lab clears it
	Value   float32 // the plot's value at the mouse
}

// Point reads the pointer for a drag in plot p drawn at rectangle r.
func (d *PlotDrag) Point(ptr Pointer, p *render.Plot, r rl.Rectangle) {
	if !ptr.Down {
		d.Down = false
		return
	}
	m := ptr.Mouse
	if !d.Down {
		if !rl.CheckCollisionPointRec(m, p.Area(r)) {
			return
		}
		d.Down, d.Pressed = true, true
	}
	d.Value = p.ValueAt(r, m.Y)
}
