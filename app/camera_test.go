package app

import (
	"math"
	"testing"

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
