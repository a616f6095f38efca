package app

import (
	"os"
	"runtime"
	"testing"
)

func TestKLEDebugRender(t *testing.T) {
	if os.Getenv("KLE_DEBUG") == "" {
		t.Skip()
	}
	runtime.LockOSThread()
	a := newApp(Config{Lab: os.Getenv("KLE_FIRST"), Frames: 60, Width: 960, Height: 540})
	if err := a.open(); err != nil {
		t.Fatal(err)
	}
	defer a.close()
	checkScalarFrame(t, a)
	checkCostFrame(t, a)
}
