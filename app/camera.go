package app

import (
	"math"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/character"
)

// OrbitCamera circles a target point: yaw and pitch in radians, distance in
// metres. Dragging changes the angles, the wheel the distance; with Follow
// the target eases toward the lab's focus each frame.
type OrbitCamera struct {
	Yaw, Pitch, Distance float32
	Target               mgl32.Vec3
	Follow               bool
	FovY                 float32 // degrees
	// Scale is the size of what the camera shows against a human's (see
	// ViewScale; 0 reads as 1): the zoom's range, the ground's cells and
	// the widths of drawn lines and markers grow with it.
	Scale float32
}

// DefaultCamera looks at a standing character from its front-left.
func DefaultCamera() OrbitCamera {
	return OrbitCamera{Yaw: 0.6, Pitch: 0.25, Distance: 4.2, Target: mgl32.Vec3{0, 0.9, 0}, Follow: true, FovY: 45, Scale: 1}
}

// The sizes (m) of figures the labs were drawn for: a figure between them
// is seen at scale 1 (the views as designed, for any human); a larger or
// smaller one in proportion to its size beyond them.
const (
	humanSizeLo = 1.2
	humanSizeHi = 1.8
)

// ViewScale is how much larger than a human's character ch's view is: 1
// for a figure humanSizeLo-humanSizeHi in size (character.Size), else its
// size over the nearer end (27.8 for a 50 m giant, 39 for a 71-unit
// animal, 0.42 for a 0.5 m doll). Distances, zoom limits, grid cells,
// marker sizes and joint radii are multiplied by it; it is continuous in
// the size and never 0.
func ViewScale(ch *character.Character) float32 {
	if ch == nil || !(ch.Size > 0) || math.IsInf(float64(ch.Size), 0) {
		return 1
	}
	switch {
	case ch.Size > humanSizeHi:
		return ch.Size / humanSizeHi
	case ch.Size < humanSizeLo:
		return max(ch.Size/humanSizeLo, 1e-3)
	}
	return 1
}

// FitDistance is how far (m) the camera stands from character ch to
// frame it: the default distance times its ViewScale.
func FitDistance(ch *character.Character) float32 {
	return DefaultCamera().Distance * ViewScale(ch)
}

// CameraFor is the default camera as far back as character ch asks
// (FitDistance), at its scale: the camera of a lab that shows the
// character.
func CameraFor(ch *character.Character) OrbitCamera {
	c := DefaultCamera()
	c.Scale = ViewScale(ch)
	c.Distance = FitDistance(ch)
	c.Target = c.Target.Mul(c.Scale)
	return c
}

// scale is Scale, 1 when unset.
func (c *OrbitCamera) scale() float32 {
	if !(c.Scale > 0) {
		return 1
	}
	return c.Scale
}

// DefaultCameraRight is the default camera's screen-right direction on the
// ground (m, unit length): labs lay out side-by-side objects along it.
func DefaultCameraRight() mgl32.Vec3 {
	y := float64(DefaultCamera().Yaw)
	return mgl32.Vec3{float32(math.Cos(y)), 0, float32(-math.Sin(y))}
}

// Orbit turns the camera by a mouse drag of (dx, dy) pixels.
func (c *OrbitCamera) Orbit(dx, dy float32) {
	c.Yaw -= dx * 0.008
	c.Pitch += dy * 0.008
	c.Pitch = max(-1.45, min(1.45, c.Pitch))
}

// Zoom scales the distance by a wheel movement (notches), within 0.5-60 m
// times Scale: a tenth of the default distance to 14 times it.
func (c *OrbitCamera) Zoom(wheel float32) {
	c.Distance *= float32(math.Pow(0.88, float64(wheel)))
	s := c.scale()
	c.Distance = max(0.5*s, min(60*s, c.Distance))
}

// Track eases the target toward focus (m) over dt seconds (damper with a
// 0.1 s half-life: exact for any dt, so the frame rate does not change it).
func (c *OrbitCamera) Track(focus mgl32.Vec3, dt float32) {
	if !c.Follow || !(dt > 0) {
		return
	}
	a := 1 - float32(math.Exp(-math.Ln2*float64(dt)/0.1))
	c.Target = c.Target.Add(focus.Sub(c.Target).Mul(a))
}

// KeepIn slides the camera (target and eye together, no turn) the least
// that puts point p (m), and half (m: across, up) around it, inside rect
// r of a w x h screen (any unit; r in the same), as the camera projects
// them; along an axis where it cannot fit, p goes to r's middle. A
// camera that does not follow (the user panned) is left alone.
func (c *OrbitCamera) KeepIn(p mgl32.Vec3, half mgl32.Vec2, r rl.Rectangle, w, h float32) {
	if !c.Follow || !(w > 0 && h > 0) {
		return
	}
	e := c.Eye()
	fwd := c.Target.Sub(e)
	if fwd.Len() == 0 {
		return
	}
	fwd = fwd.Normalize()
	right := fwd.Cross(mgl32.Vec3{0, 1, 0})
	if right.Len() < 1e-6 { // looking straight down or up
		return
	}
	right = right.Normalize()
	up := right.Cross(fwd)
	rel := p.Sub(e)
	depth := rel.Dot(fwd)
	if !(depth > 0) {
		return
	}
	k := h / (2 * depth * float32(math.Tan(float64(c.FovY)*math.Pi/360))) // units per metre at p
	x, y := w/2+rel.Dot(right)*k, h/2-rel.Dot(up)*k
	fit := func(v, lo, hi, m float32) float32 {
		if hi-lo < 2*m {
			return (lo + hi) / 2
		}
		return max(lo+m, min(hi-m, v))
	}
	dx := fit(x, r.X, r.X+r.Width, half[0]*k) - x
	dy := fit(y, r.Y, r.Y+r.Height, half[1]*k) - y
	// The camera moved right by d shows p d*k units further left.
	c.Target = c.Target.Add(right.Mul(-dx / k)).Add(up.Mul(dy / k))
}

// Eye is the camera position (m).
func (c *OrbitCamera) Eye() mgl32.Vec3 {
	cp, sp := math.Cos(float64(c.Pitch)), math.Sin(float64(c.Pitch))
	cy, sy := math.Cos(float64(c.Yaw)), math.Sin(float64(c.Yaw))
	d := mgl32.Vec3{float32(cp * sy), float32(sp), float32(cp * cy)}
	return c.Target.Add(d.Mul(c.Distance))
}

// Raylib returns the raylib camera.
func (c *OrbitCamera) Raylib() rl.Camera3D {
	e := c.Eye()
	return rl.Camera3D{
		Position:   rl.Vector3{X: e[0], Y: e[1], Z: e[2]},
		Target:     rl.Vector3{X: c.Target[0], Y: c.Target[1], Z: c.Target[2]},
		Up:         rl.Vector3{Y: 1},
		Fovy:       c.FovY,
		Projection: rl.CameraPerspective,
	}
}

// Pan slides the target across the view by a mouse drag of (dx, dy)
// pixels, scaled with distance; it stops following the lab's focus.
func (c *OrbitCamera) Pan(dx, dy float32) {
	c.Follow = false
	e := c.Eye()
	fwd := c.Target.Sub(e).Normalize()
	right := fwd.Cross(mgl32.Vec3{0, 1, 0}).Normalize()
	up := right.Cross(fwd)
	s := c.Distance * 0.0015
	c.Target = c.Target.Add(right.Mul(-dx * s)).Add(up.Mul(dy * s))
}
