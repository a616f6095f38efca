package apptest

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/app"
)

// Near reports whether two colours differ by at most tol per channel.
func Near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { v := int(x) - int(y); return v >= -tol && v <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}

// CountNear counts the pixels of img inside r within tol per channel of c.
func CountNear(img *image.RGBA, r rl.Rectangle, c color.RGBA, tol int) int {
	n := 0
	for y := int(r.Y); y < int(r.Y+r.Height); y++ {
		for x := int(r.X); x < int(r.X+r.Width); x++ {
			if image.Pt(x, y).In(img.Rect) && Near(img.RGBAAt(x, y), c, tol) {
				n++
			}
		}
	}
	return n
}

// KeepOnFailure saves what the test saw when it fails, for a person to look
// at (defer it after taking the picture).
func KeepOnFailure(t *testing.T, img *image.RGBA, name string) {
	if !t.Failed() || img == nil {
		return
	}
	path := filepath.Join(os.TempDir(), "kinelab-render-test-"+name+".png")
	if err := app.SavePNG(path, img); err == nil {
		t.Logf("the frame the test saw is in %s", path)
	}
}
