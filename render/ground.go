package render

import (
	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/shaders"
)

// Ground is the checkerboard floor at y = 0 (1 m cells), drawn by the
// shader in shaders/ground.fs and faded into the background far from focus.
type Ground struct {
	shader                rl.Shader
	locFocus              int32
	Size                  float32 // edge length of the drawn square (m)
	FadeStart, FadeEnd    float32 // fade distance from the focus (m)
	locFadeStart, locFade int32
}

// NewGround compiles the ground shader; call after the window is open.
func NewGround() *Ground {
	g := &Ground{Size: 200, FadeStart: 12, FadeEnd: 40}
	g.shader = rl.LoadShaderFromMemory(shaders.GroundVS, shaders.GroundFS)
	setColor := func(name string, c [4]float32) {
		rl.SetShaderValue(g.shader, rl.GetShaderLocation(g.shader, name), c[:], rl.ShaderUniformVec4)
	}
	setColor("colorA", norm(GroundA.R, GroundA.G, GroundA.B))
	setColor("colorB", norm(GroundB.R, GroundB.G, GroundB.B))
	setColor("background", norm(Background.R, Background.G, Background.B))
	g.locFocus = rl.GetShaderLocation(g.shader, "focus")
	g.locFadeStart = rl.GetShaderLocation(g.shader, "fadeStart")
	g.locFade = rl.GetShaderLocation(g.shader, "fadeEnd")
	return g
}

func norm(r, g, b uint8) [4]float32 {
	return [4]float32{float32(r) / 255, float32(g) / 255, float32(b) / 255, 1}
}

// Draw draws the ground centred under focus (snapped to whole cells so the
// pattern does not swim) and flushes it to the driver (see Flush); call
// inside BeginMode3D.
func (g *Ground) Draw(focus mgl32.Vec3) {
	rl.SetShaderValue(g.shader, g.locFocus, []float32{focus[0], 0, focus[2]}, rl.ShaderUniformVec3)
	rl.SetShaderValue(g.shader, g.locFadeStart, []float32{g.FadeStart}, rl.ShaderUniformFloat)
	rl.SetShaderValue(g.shader, g.locFade, []float32{g.FadeEnd}, rl.ShaderUniformFloat)
	c := rl.Vector3{X: float32(int(focus[0])), Y: 0, Z: float32(int(focus[2]))}
	rl.BeginShaderMode(g.shader)
	// The floor is opaque (its shader writes alpha 1): without blending,
	// a software renderer does not read back the screen under it.
	rl.DisableColorBlend()
	rl.DrawPlane(c, rl.Vector2{X: g.Size, Y: g.Size}, rl.White)
	rl.DrawRenderBatchActive()
	rl.EnableColorBlend()
	rl.EndShaderMode()
	// The floor comes first and covers most of the screen: a software
	// renderer rasterises it while the rest of the scene is submitted.
	Flush()
}

// Unload frees the shader.
func (g *Ground) Unload() { rl.UnloadShader(g.shader) }
