package app_test

import (
	"path/filepath"
	"testing"
	"time"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/app"
	"kinelab/app/apptest"
	"kinelab/render"
)

// A screenshot of the largest window --width and --height allow,
// 7680x4320 (33 million pixels, past the 16.7 million raylib-go's
// LoadImageColors can return), is read whole and saved. The window is
// real: it is larger than Xvfb's screen, which X allows, and Mesa renders
// all of it.
func TestScreenshot8K(t *testing.T) {
	t.Setenv(app.ConfigDirEnv, t.TempDir())
	a := apptest.OpenWindow(t, app.Config{Lab: "springs", Frames: 1 << 30, Width: 1280, Height: 720, DT: 1.0 / 60},
		[]app.LabEntry{{Name: "springs", New: func() app.Lab { return plainLab{} }}})
	if !apptest.Resize(a, 7680, 4320) {
		t.Skipf("SKIPPED: the X server gave the window %dx%d, not 7680x4320", rl.GetScreenWidth(), rl.GetScreenHeight())
	}
	path := filepath.Join(t.TempDir(), "big.png")
	start := time.Now()
	var err error
	a.Frame(func() {
		img := a.ReadPixels()
		if img == nil {
			t.Fatal("ReadPixels gave nothing")
		}
		if b := img.Bounds(); b.Dx() != 7680 || b.Dy() != 4320 {
			t.Fatalf("screenshot is %v, want 7680x4320", b)
		}
		// The last row is the scene's background, not left empty.
		if c := img.RGBAAt(7000, 4319); !apptest.Near(c, render.Background, 40) && c.A != 255 {
			t.Errorf("bottom-right pixel %v", c)
		}
		err = app.SavePNG(path, img)
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("7680x4320 frame read and saved in %v", time.Since(start))
}
