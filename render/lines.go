package render

import (
	"image/color"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// VectorLine draws vector v (any unit) from point p (m) as a thin rod
// (6 mm times WorldScale) of length |v| scale metres, shifted sideways by
// offset (m) so that two vectors at one joint (propagated and finite
// difference) stay visible side by side. Non-finite or zero vectors draw
// nothing.
func VectorLine(p, v, offset mgl32.Vec3, scale float32, col color.RGBA) {
	if !mathx.Vec3Finite(v) || !mathx.Vec3Finite(p) {
		return
	}
	d := v.Mul(scale)
	if d.Len() < 1e-4*worldScale {
		return
	}
	a := p.Add(offset)
	w := 0.006 * worldScale
	rl.DrawCylinderEx(V3(a), V3(a.Add(d)), w, w, 4, col)
}

// Axes draws the x (red), y (green) and z (blue) axes of rotation q at p,
// each length metres long.
func Axes(p mgl32.Vec3, q mgl32.Quat, length float32) {
	for k, c := range []color.RGBA{{230, 70, 70, 255}, {70, 210, 90, 255}, {80, 130, 240, 255}} {
		var e mgl32.Vec3
		e[k] = length
		rl.DrawLine3D(V3(p), V3(p.Add(mathx.QuatMulVec3(q, e))), c)
	}
}

// BeginOnTop starts drawing that shows through everything drawn before it
// (velocity lines and skeletons over a body). raylib batches draws and does
// not flush the batch when the depth test changes, so both ends flush.
func BeginOnTop() {
	rl.DrawRenderBatchActive()
	rl.DisableDepthTest()
}

// EndOnTop ends what BeginOnTop started.
func EndOnTop() {
	rl.DrawRenderBatchActive()
	rl.EnableDepthTest()
}
