package app

import (
	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"
)

// Pointer is the mouse as a world ray, given to labs that let the user
// drag things (Ctrl + left button, so plain drags still orbit).
type Pointer struct {
	Origin, Dir mgl32.Vec3 // ray (m), Dir unit length
	Down        bool       // Ctrl + left button held outside the UI
	// Click is a left click in the 3D view (pressed and released without
	// a drag, not over the UI) at At (units): labs pick joints with it
	// (JointAt).
	Click bool
	At    rl.Vector2
	view  *View // the last frame's, to find what was clicked
}

// Pointable is a lab that takes the pointer each frame before Update.
type Pointable interface {
	Point(p Pointer)
}

// Steerer is a lab the player steers with held keys or a gamepad: the App
// calls Steer once a frame before the updates (after Point), with the
// camera's view direction on the ground (x, z; not normalised), so the
// lab can read the keys held down and take directions relative to the
// view. A Steerer's own Keys take their codes from the framework's while
// it is shown (W, A, S and D steer instead of toggling the fixed dt).
type Steerer interface {
	Steer(view mgl32.Vec2)
}

// OnPlaneThrough intersects the ray with the vertical plane through p that
// faces the ray; false when the ray is parallel to it or points away.
func (ptr Pointer) OnPlaneThrough(p mgl32.Vec3) (mgl32.Vec3, bool) {
	n := mgl32.Vec3{ptr.Dir[0], 0, ptr.Dir[2]}
	if n.Len() < 1e-4 {
		return p, false
	}
	n = n.Normalize()
	den := ptr.Dir.Dot(n)
	if den < 1e-4 {
		return p, false
	}
	t := p.Sub(ptr.Origin).Dot(n) / den
	if !(t > 0) {
		return p, false
	}
	return ptr.Origin.Add(ptr.Dir.Mul(t)), true
}
