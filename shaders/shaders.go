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

// SkinVS and SkinFS draw a skinned mesh: linear blend skinning with up to
// four bones per vertex (boneMatrices, at most 128), lit by a key, fill and
// rim light over a hemisphere ambient, darkened near the floor. The base
// colour is the mesh's texture (texture0 at vertexTexCoord) times its
// vertex colour times the tint mixed in by tintMix; alpha is the product
// of the texture's, the vertex colour's and the tint's.
var (
	//go:embed skin.vs
	SkinVS string
	//go:embed skin.fs
	SkinFS string
)

// SkinCrowdVS and SkinCrowdFS are a cheaper variant of SkinVS and SkinFS
// for crowds: the same skinning and the same lights, evaluated per vertex
// (Gouraud shading) instead of per pixel; only the texture is sampled per
// pixel.
var (
	//go:embed skin_crowd.vs
	SkinCrowdVS string
	//go:embed skin_crowd.fs
	SkinCrowdFS string
)
