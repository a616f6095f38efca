package app

import (
	"math"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/character"
	"kinelab/assets"
)

// The view's scale follows the character's size: 1 for any human-sized
// figure (the default's view unchanged), in proportion beyond, continuous
// at both ends, never 0 or NaN; the wheel's range covers the fitted
// distance with room both ways, whatever the size.
func TestViewScaleAndZoom(t *testing.T) {
	if s := ViewScale(assets.Character()); s != 1 {
		t.Errorf("the default character's view scale is %v, want 1", s)
	}
	for _, c := range []struct{ size, want float32 }{
		{0.5, 0.5 / humanSizeLo}, {humanSizeLo, 1}, {1.5, 1}, {humanSizeHi, 1}, {50, 50 / humanSizeHi}, {71, 71 / humanSizeHi},
		{0, 1}, {float32(math.NaN()), 1}, {float32(math.Inf(1)), 1}, {1e-9, 1e-3},
	} {
		ch := &character.Character{Size: c.size}
		got := ViewScale(ch)
		if math.Abs(float64(got-c.want)) > 1e-5*float64(c.want) {
			t.Errorf("ViewScale of size %v = %v, want %v", c.size, got, c.want)
		}
		cam := CameraFor(ch)
		fit := cam.Distance
		cam.Zoom(-100)
		far := cam.Distance
		cam.Zoom(200)
		near := cam.Distance
		if !(far >= 10*fit && near <= fit/5 && near > 0) {
			t.Errorf("size %v: fitted at %v, the wheel reaches %v-%v; want at least 10x out and 5x in", c.size, fit, near, far)
		}
	}
}

// KeepIn slides the camera the least that brings a point, with its half
// size, inside a part of the screen: a figure teleported 3 m to the
// right, which the camera's easing left behind the plot, is at once at
// the part's right edge, as far in as its half width; one inside is left
// where it is, and so is the camera of a user who panned.
func TestKeepIn(t *testing.T) {
	const w, h = 1024, 600
	r := rl.Rectangle{X: 258, Y: 40, Width: 340, Height: 500} // left of a plot
	half := mgl32.Vec2{0.35, 0.85}
	project := func(c OrbitCamera, p mgl32.Vec3) (float32, float32) {
		e := c.Eye()
		fwd := c.Target.Sub(e).Normalize()
		right := fwd.Cross(mgl32.Vec3{0, 1, 0}).Normalize()
		up := right.Cross(fwd)
		rel := p.Sub(e)
		k := h / (2 * rel.Dot(fwd) * float32(math.Tan(float64(c.FovY)*math.Pi/360)))
		return w/2 + rel.Dot(right)*k, h/2 - rel.Dot(up)*k
	}
	c := DefaultCamera()
	in := c.Target
	c.KeepIn(in, half, r, w, h)
	if x, _ := project(c, in); c.Target != DefaultCamera().Target {
		t.Errorf("a point inside (x %.0f) moved the camera to %v", x, c.Target)
	}
	jumped := in.Add(DefaultCameraRight().Mul(3))
	if x, _ := project(c, jumped); x < r.X+r.Width {
		t.Fatalf("the test's jump lands at x %.0f, inside", x)
	}
	c.KeepIn(jumped, half, r, w, h)
	x, y := project(c, jumped)
	k := (r.X + r.Width - x) / half[0] // units per metre at the point: the margin's
	if math.Abs(float64(x+half[0]*k-(r.X+r.Width))) > 0.5 || k <= 0 || y < r.Y || y > r.Y+r.Height {
		t.Errorf("after KeepIn the point is at (%.1f, %.1f), want its right edge at %.0f", x, y, r.X+r.Width)
	}
	d := DefaultCamera()
	if e := c.Eye().Sub(c.Target).Sub(d.Eye().Sub(d.Target)); e.Len() > 1e-4 {
		t.Errorf("the camera turned or moved away: %v", e)
	}
	p := DefaultCamera()
	p.Follow = false
	p.KeepIn(jumped, half, r, w, h)
	if p.Target != DefaultCamera().Target {
		t.Error("a camera that does not follow moved")
	}
}
