package app

import (
	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"
)

// Pointer is the mouse as a world ray, given to labs that let the user
// drag things (Ctrl + left button, so plain drags still orbit), part of
// Input.
type Pointer struct {
	Origin, Dir mgl32.Vec3 // ray (m), Dir unit length
	Down        bool       // Ctrl + left button held outside the UI
	// Click is a left click in the 3D view (pressed and released without
	// a drag, not over the UI) at At (units): labs pick joints with it
	// (JointAt).
	Click bool
	At    rl.Vector2
	// Mouse is the cursor (units), Pressed
	// whether the left button went down this frame and Held whether it is
	// down, anywhere (over the lab's UIRects too); Ctrl whether a Control
	// key is down.
	Mouse         rl.Vector2
	Pressed, Held bool
	Ctrl          bool
	view          *View // the last frame's, to find what was clicked
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
