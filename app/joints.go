package app

import (
	"image/color"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/render"
	"kinelab/ui"
)

// Joints of a drawn character: hover one to see its name, click to pick it
// (the lab shows its values), and label them all on request (the View
// section's "Label every joint").

// pickRadius is how near (units) the mouse must be to a joint's screen
// point to hover or pick it.
const pickRadius = 14

// JointAt returns the index of the joint of pos (m, each shifted by shift)
// whose screen point is nearest to at (units) within the pick radius, or
// -1. Joint 0, the ground-level root, is left out.
func (v *View) JointAt(pos []mgl32.Vec3, shift mgl32.Vec3, at rl.Vector2) int {
	best, bestD := -1, float32(pickRadius*pickRadius)
	if at.X < 0 || at.Y < 0 {
		return -1
	}
	for i := 1; i < len(pos); i++ {
		p := pos[i].Add(shift)
		if !v.inFront(p) {
			continue
		}
		s := v.Project(p)
		dx, dy := s.X-at.X, s.Y-at.Y
		if d := dx*dx + dy*dy; d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

// inFront reports whether world point p is in front of the camera.
func (v *View) inFront(p mgl32.Vec3) bool {
	e, t := v.Camera.Position, v.Camera.Target
	fwd := mgl32.Vec3{t.X - e.X, t.Y - e.Y, t.Z - e.Z}
	return p.Sub(mgl32.Vec3{e.X, e.Y, e.Z}).Dot(fwd) > 0
}

// DrawJointLabels names the joints of a character (positions pos in m,
// shifted by shift): the one under the mouse, the picked one (ringed), or
// every one when the user asked for all labels. It returns the joint under
// the mouse, or -1.
func (v *View) DrawJointLabels(pos []mgl32.Vec3, shift mgl32.Vec3, names []string, picked int) int {
	hover := v.JointAt(pos, shift, v.Mouse)
	label := func(i int, col color.RGBA) {
		if i <= 0 || i >= len(pos) || i >= len(names) || !v.inFront(pos[i].Add(shift)) {
			return
		}
		s := v.Project(pos[i].Add(shift))
		size := float32(ui.SmallText)
		ui.DrawText(names[i], s.X+8, s.Y-size-2, size, col)
	}
	if v.LabelJoints {
		for i := 1; i < len(pos); i++ {
			if i != hover && i != picked {
				label(i, render.DimText)
			}
		}
	}
	if picked > 0 && picked < len(pos) && v.inFront(pos[picked].Add(shift)) {
		s := v.Project(pos[picked].Add(shift))
		rl.DrawCircleLinesV(s, 9, render.TargetColor)
		label(picked, render.TargetColor)
	}
	if hover != picked {
		label(hover, render.TextColor)
	}
	return hover
}

// JointAt returns the joint of pos (m, shifted by shift) the click is on,
// or -1 (see View.JointAt); -1 when the pointer is not a click.
func (ptr Pointer) JointAt(pos []mgl32.Vec3, shift mgl32.Vec3) int {
	if !ptr.Click || ptr.view == nil {
		return -1
	}
	return ptr.view.JointAt(pos, shift, ptr.At)
}
