// Package shaders embeds kinelab's GLSL 330 shaders so the binary needs no
// files at run time.
package shaders

import _ "embed"

// GroundVS and GroundFS draw the checkerboard ground plane.
var (
	//go:embed ground.vs
	GroundVS string
	//go:embed ground.fs
	GroundFS string
)
