//go:build linux

package render

// #cgo LDFLAGS: -lGL
// #include <GL/gl.h>
import "C"

import rl "github.com/gen2brain/raylib-go/raylib"

// Flush hands everything drawn so far (raylib's batch included) to the GL
// driver without waiting for it (glFlush; raylib has no call for it).
//
// Under a software renderer (Mesa's llvmpipe) this is what lets drawing
// run in parallel: llvmpipe transforms vertices on the calling thread but
// rasterises only what it has been handed, on its own threads. Without a
// flush, all of a frame's rasterising starts at the swap, after the last
// draw call; flushed after a large piece (the floor, a batch of bodies),
// that piece is rasterised while this thread submits the next. A GPU
// driver merely starts its work a little earlier.
func Flush() {
	rl.DrawRenderBatchActive()
	C.glFlush()
}
