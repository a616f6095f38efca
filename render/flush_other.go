//go:build !linux

package render

import rl "github.com/gen2brain/raylib-go/raylib"

// Flush submits raylib's batch; elsewhere than Linux kinelab does not link
// libGL itself for glFlush (see flush.go), and the driver flushes at the
// swap.
func Flush() { rl.DrawRenderBatchActive() }
