package app

import (
	"os"
	"runtime"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/render"
)

func TestKLEDebugShots(t *testing.T) {
	if os.Getenv("KLE_DEBUG") == "" {
		t.Skip()
	}
	runtime.LockOSThread()
	w, h := 1280, 720
	if os.Getenv("KLE_SMALL") != "" {
		w, h = 960, 540
	}
	a := newApp(Config{Lab: "cost", Frames: 60, Width: w, Height: h})
	if err := a.open(); err != nil {
		t.Fatal(err)
	}
	defer a.close()
	for i := 0; i < 130; i++ {
		a.frame(nil)
	}
	a.frame(func() { savePNG("/tmp/kl-e/dbg_cost.png", a.readPixels()) })
	lab := a.lab().(*CostLab)
	lay := costMapLayout(float32(w), float32(h))
	m := lay.maps[2]
	v := a.view()
	v.Mouse = rl.Vector2{X: m.X + m.Width*0.55, Y: m.Y + m.Height*0.2}
	rl.BeginDrawing()
	rl.ClearBackground(render.Background)
	lab.Draw2D(&v)
	savePNG("/tmp/kl-e/dbg_hover.png", a.readPixels())
	rl.EndDrawing()
	lab.Unload()
	for i, n := range LabNames() {
		if n == "scalar" {
			a.switchLab(i)
		}
	}
	for i := 0; i < 200; i++ {
		a.frame(nil)
	}
	a.frame(func() { savePNG("/tmp/kl-e/dbg_scalar.png", a.readPixels()) })
}
