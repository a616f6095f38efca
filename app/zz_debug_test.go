package app

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
)

func TestZZDebugShots(t *testing.T) {
	if os.Getenv("KL_DEBUG") == "" {
		t.Skip()
	}
	runtime.LockOSThread()
	a := newApp(Config{Lab: "velocities", Frames: 60, Width: 960, Height: 540})
	if err := a.open(); err != nil {
		t.Fatal(err)
	}
	defer a.close()
	lab := a.lab().(*VelocitiesLab)
	clip, _ := strconv.Atoi(os.Getenv("KL_CLIP"))
	lab.cur, lab.prev = clip, clip
	lab.S.TurnRate = 0
	a.showUI = os.Getenv("KL_UI") != ""
	yaw, _ := strconv.ParseFloat(os.Getenv("KL_YAW"), 32)
	for f := 0; f < 80; f++ {
		a.cam.Yaw, a.cam.Pitch, a.cam.Distance = float32(yaw), 0.1, 3.2
		a.frame(func() {
			if f%8 == 0 && f >= 32 {
				savePNG(fmt.Sprintf("/tmp/dbg_%02d.png", f), a.readPixels())
			}
		})
	}
}
