package render

import (
	"math"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/shaders"
)

// Ground is the checkerboard floor at y = 0 (1 m cells at scale 1), drawn
// by the shader in shaders/ground.fs and faded into the background far
// from focus.
type Ground struct {
	shader                rl.Shader
	locFocus, locCell     int32
	Size                  float32 // edge length of the drawn square (m) at scale 1
	FadeStart, FadeEnd    float32 // fade distance from the focus (m) at scale 1
	locFadeStart, locFade int32
}

// GridCell is the ground's cell (m) for a view at scale s: a power of ten
// near s (1 m for a human, 10 units for a 71-unit animal, 0.1 m for a
// 0.5 m doll), so cells stay whole units and a few of them span the
// figure.
func GridCell(s float32) float32 {
	if !(s > 0) || math.IsInf(float64(s), 0) {
		return 1
	}
	return float32(math.Pow(10, math.Floor(math.Log10(2*float64(s)))))
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
	g.locCell = rl.GetShaderLocation(g.shader, "cell")
	g.locFadeStart = rl.GetShaderLocation(g.shader, "fadeStart")
	g.locFade = rl.GetShaderLocation(g.shader, "fadeEnd")
	return g
}

func norm(r, g, b uint8) [4]float32 {
	return [4]float32{float32(r) / 255, float32(g) / 255, float32(b) / 255, 1}
}

// Draw draws the ground centred under focus (snapped to whole cells so the
// pattern does not swim) for a view at scale s (its cells GridCell(s), its
// size and fade s times theirs), and flushes it to the driver (see Flush);
// call inside BeginMode3D.
func (g *Ground) Draw(focus mgl32.Vec3, s float32) {
	if !(s > 0) || math.IsInf(float64(s), 0) {
		s = 1
	}
	cell := GridCell(s)
	rl.SetShaderValue(g.shader, g.locFocus, []float32{focus[0], 0, focus[2]}, rl.ShaderUniformVec3)
	rl.SetShaderValue(g.shader, g.locCell, []float32{cell}, rl.ShaderUniformFloat)
	rl.SetShaderValue(g.shader, g.locFadeStart, []float32{g.FadeStart * s}, rl.ShaderUniformFloat)
	rl.SetShaderValue(g.shader, g.locFade, []float32{g.FadeEnd * s}, rl.ShaderUniformFloat)
	snap := func(x float32) float32 { return float32(math.Trunc(float64(x/cell))) * cell }
	c := rl.Vector3{X: snap(focus[0]), Y: 0, Z: snap(focus[2])}
	rl.BeginShaderMode(g.shader)
	// The floor is opaque (its shader writes alpha 1): without blending,
	// a software renderer does not read back the screen under it.
	rl.DisableColorBlend()
	rl.DrawPlane(c, rl.Vector2{X: g.Size * s, Y: g.Size * s}, rl.White)
	rl.DrawRenderBatchActive()
	rl.EnableColorBlend()
	rl.EndShaderMode()
	// The floor comes first and covers most of the screen: a software
	// renderer rasterises it while the rest of the scene is submitted.
	Flush()
}

// Unload frees the shader.
func (g *Ground) Unload() { rl.UnloadShader(g.shader) }
