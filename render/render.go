// Package render draws kinelab's scenes with raylib: the ground, skeletons,
// velocity lines and plots. It reads animsys poses and never changes them;
// every function here must be called on the main (window) thread between
// raylib's BeginDrawing and EndDrawing.
package render

import (
	"image/color"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"
)

// The palette, shared by the 3D view, the plots and the render tests.
var (
	Background = color.RGBA{R: 32, G: 34, B: 40, A: 255}
	GroundA    = color.RGBA{R: 86, G: 90, B: 98, A: 255}
	GroundB    = color.RGBA{R: 66, G: 69, B: 76, A: 255}
	BoneColor  = color.RGBA{R: 235, G: 196, B: 92, A: 255}
	JointColor = color.RGBA{R: 250, G: 245, B: 230, A: 255}
	// Propagated velocities are red, finite-difference ones blue, in every lab.
	Propagated = color.RGBA{R: 230, G: 50, B: 50, A: 255}
	FiniteDiff = color.RGBA{R: 60, G: 120, B: 240, A: 255}
	// Plot series that are neither propagated nor finite difference.
	PlotMean    = color.RGBA{R: 240, G: 170, B: 60, A: 255}
	PlotMax     = color.RGBA{R: 190, G: 110, B: 230, A: 255}
	TargetColor = color.RGBA{R: 80, G: 220, B: 140, A: 255}
	SkinColor   = color.RGBA{R: 176, G: 184, B: 198, A: 255}
	TextColor   = color.RGBA{R: 230, G: 232, B: 236, A: 255}
	DimText     = color.RGBA{R: 160, G: 164, B: 172, A: 255}
)

// V3 converts an mgl32 vector to raylib's.
func V3(v mgl32.Vec3) rl.Vector3 { return rl.Vector3{X: v[0], Y: v[1], Z: v[2]} }

// worldScale is the size of the view against a human's (SetWorldScale).
var worldScale float32 = 1

// SetWorldScale sets the scale s of the 3D view the next drawing is for
// (app.ViewScale: 1 for a human-sized figure, 39 for a 71-unit animal): the
// fixed widths and marker sizes of the drawing helpers (VectorLine's
// rods, Root's and Skeleton's ground markers) are multiplied by it, so a
// line stays as thick on screen on any figure. Not positive or not finite
// reads as 1. Call from the drawing goroutine before Draw3D.
func SetWorldScale(s float32) {
	if !(s > 0) || s > 1e6 {
		s = 1
	}
	worldScale = s
}

// WorldScale is the scale SetWorldScale set.
func WorldScale() float32 { return worldScale }
