package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/body"
	"kinelab/animsys/humanoid"
	"kinelab/shaders"
)

// requireDisplay skips a render test where no X server can be had, and
// fails it instead when KINELAB_REQUIRE_DISPLAY is set (make test starts
// Xvfb): a render test must never pass by not running.
func requireDisplay(t *testing.T) {
	t.Helper()
	if os.Getenv("DISPLAY") != "" {
		return
	}
	if os.Getenv("KINELAB_REQUIRE_DISPLAY") != "" {
		t.Fatal("no DISPLAY although KINELAB_REQUIRE_DISPLAY is set: run under xvfb-run")
	}
	t.Skip("SKIPPED: no X display; run under xvfb-run to check rendering")
}

// bentPose is the bench skeleton's global pose with the left arm lowered
// and bent, the right forearm pointing forward, the left leg stepping, the
// spine leaning and the head turned.
func bentPose(s animsys.Skeleton) animsys.Pose {
	local := animsys.NewPose(s.Len())
	copy(local.Pos, s.Offsets)
	rot := func(j int, deg float32, axis mgl32.Vec3) {
		local.Rot[j] = mgl32.QuatRotate(mgl32.DegToRad(deg), axis)
	}
	x, y, z := mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 0, 1}
	rot(16, -75, z) // LeftArm down
	rot(17, -25, y) // LeftForeArm forward a little
	rot(21, 80, y)  // RightForeArm forward
	rot(2, -40, x)  // LeftUpLeg forward
	rot(3, 60, x)   // LeftLeg knee bent
	rot(11, 8, z)   // Spine1 lean
	rot(14, 25, y)  // Head turned
	global := animsys.NewPose(s.Len())
	animsys.FKStatic(&global, &local, s.Parents)
	return global
}

// readScreen copies the back buffer into an image.
func readScreen() *image.RGBA {
	rl.DrawRenderBatchActive()
	img := rl.LoadImageFromScreen()
	defer rl.UnloadImage(img)
	cols := rl.LoadImageColors(img)
	out := image.NewRGBA(image.Rect(0, 0, int(img.Width), int(img.Height)))
	for i, c := range cols {
		out.Pix[4*i], out.Pix[4*i+1], out.Pix[4*i+2], out.Pix[4*i+3] = c.R, c.G, c.B, 255
	}
	rl.UnloadImageColors(cols)
	return out
}

func savePNG(t *testing.T, img *image.RGBA, name string) string {
	path := filepath.Join(os.TempDir(), name)
	f, err := os.Create(path)
	if err == nil {
		err = png.Encode(f, img)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		t.Logf("saving %s: %v", path, err)
	}
	return path
}

var bodyTint = color.RGBA{R: 214, G: 150, B: 108, A: 255}

// isBody: a lit pixel of the warm tint, not the cool background.
func isBody(c color.RGBA) bool {
	return !near(c, Background, 24) && int(c.R) > int(c.B)+20 && c.R > 60
}

func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { v := int(x) - int(y); return v >= -tol && v <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}

// openWindow opens a w x h window for a render test (or skips it, see
// requireDisplay), on the test goroutine's thread, locked to it until the
// test ends and the window closes. All the test's GL work must stay on
// this goroutine (no subtests).
func openWindow(t *testing.T, w, h int32, title string) {
	t.Helper()
	requireDisplay(t)
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
	rl.SetTraceLogLevel(rl.LogWarning)
	rl.InitWindow(w, h, title)
	if !rl.IsWindowReady() {
		t.Fatal("InitWindow failed although a display is set")
	}
	t.Cleanup(rl.CloseWindow)
}

// bentBodyScene uploads the bench skeleton's body (the window must be
// open) and returns it with the bent pose and a camera framing it.
func bentBodyScene(tb testing.TB) (*SkinnedMesh, animsys.Pose, rl.Camera3D) {
	s := animsys.BenchSkeleton()
	rest := s.RestPose()
	fig, err := humanoid.Read(s.Parents, s.Names, [][]mgl32.Vec3{rest.Pos})
	if err != nil {
		tb.Fatal(err)
	}
	mesh := body.Generate(&fig, rest.Pos, rest.Rot)
	sm, err := NewSkinnedMesh(&mesh)
	if err != nil {
		tb.Fatal(err)
	}
	cam := rl.Camera3D{Position: rl.Vector3{X: 0.4, Y: 1.2, Z: 3.2}, Target: rl.Vector3{Y: 0.85},
		Up: rl.Vector3{Y: 1}, Fovy: 45, Projection: rl.CameraPerspective}
	return sm, bentPose(s), cam
}

// TestSkinnedMeshRender draws the default skeleton's body in a bent pose
// and checks pixels: every joint shows the body, the corners and the
// places beside it show the background, and where the rest-pose left arm
// would be there is background too, so the vertices really were skinned.
// All GL work stays on this goroutine's locked thread (no subtests).
func TestSkinnedMeshRender(t *testing.T) {
	const w, h = 640, 480
	openWindow(t, w, h, "kinelab skin test")

	sm, pose, cam := bentBodyScene(t)
	defer sm.Unload()
	s := animsys.BenchSkeleton()
	restPos := s.RestPose().Pos

	var img *image.RGBA
	for frame := 0; frame < 2; frame++ {
		rl.BeginDrawing()
		rl.ClearBackground(Background)
		rl.BeginMode3D(cam)
		if frame == 0 {
			// Skinning a frame allocates nothing.
			if n := testing.AllocsPerRun(10, func() { sm.Draw(pose.Pos, pose.Rot, pose.Scl, bodyTint) }); n != 0 {
				t.Errorf("Draw allocates %v times per call", n)
			}
		} else {
			sm.Draw(pose.Pos, pose.Rot, pose.Scl, bodyTint)
		}
		rl.EndMode3D()
		if frame == 1 {
			img = readScreen()
		}
		rl.EndDrawing()
	}
	defer func() {
		if t.Failed() {
			t.Logf("the frame the test saw is in %s", savePNG(t, img, "kinelab-skin-test.png"))
		}
	}()
	at := func(p mgl32.Vec3) (color.RGBA, int, int) {
		s := rl.GetWorldToScreenEx(V3(p), cam, w, h)
		x, y := int(s.X+0.5), int(s.Y+0.5)
		if x < 0 || y < 0 || x >= w || y >= h {
			t.Fatalf("point %v projects off screen at (%d, %d)", p, x, y)
		}
		return img.RGBAAt(x, y), x, y
	}
	for j := 1; j < s.Len(); j++ {
		if c, x, y := at(pose.Pos[j]); !isBody(c) {
			t.Errorf("joint %s at (%d, %d) shows %v, not the body", s.Names[j], x, y, c)
		}
	}
	// Background: the corners, and well to each side of the body at chest
	// and knee height.
	for _, p := range [][2]int{{4, 4}, {w - 5, 4}, {4, h - 5}, {w - 5, h - 5}} {
		if c := img.RGBAAt(p[0], p[1]); !near(c, Background, 3) {
			t.Errorf("corner %v shows %v, want the background", p, c)
		}
	}
	for _, p := range []mgl32.Vec3{{1.4, 1.3, 0}, {-1.4, 1.3, 0}, {0.7, 0.45, 0}, {-0.7, 0.45, 0}, {0, 2.0, 0}} {
		if c, x, y := at(p); !near(c, Background, 3) {
			t.Errorf("(%d, %d), beside the body, shows %v, want the background", x, y, c)
		}
	}
	// Skinning moved the left arm down: where its rest elbow, forearm and
	// hand were is empty now.
	for _, p := range []mgl32.Vec3{restPos[17], restPos[17].Add(restPos[18]).Mul(0.5), restPos[18]} {
		if c, x, y := at(p); !near(c, Background, 3) {
			t.Errorf("(%d, %d), where the rest-pose left arm was, shows %v: the arm did not move", x, y, c)
		}
	}
	// Lit, not flat: the body's pixels span a range of brightness, and on
	// average keep the tint's hue (red over green over blue).
	lo, hi, n := 255, 0, 0
	var sum [3]int
	for i := 0; i < len(img.Pix); i += 4 {
		c := color.RGBA{R: img.Pix[i], G: img.Pix[i+1], B: img.Pix[i+2], A: 255}
		if !isBody(c) {
			continue
		}
		n++
		lo, hi = min(lo, int(c.R)), max(hi, int(c.R))
		sum[0], sum[1], sum[2] = sum[0]+int(c.R), sum[1]+int(c.G), sum[2]+int(c.B)
	}
	if n < 5000 || hi-lo < 80 || !(sum[0] > sum[1] && sum[1] > sum[2]) {
		t.Errorf("%d body pixels, red from %d to %d, mean RGB sums %v: want a shaded body of the tint", n, lo, hi, sum)
	}
}

// BenchmarkSkinnedMeshDraw times a 640x480 frame that clears and draws the
// bench body (bone matrices, uniforms, the draw call, and the GPU work, as
// the swap waits for it), and reports an empty frame and the CPU time of
// Draw alone beside it.
func BenchmarkSkinnedMeshDraw(b *testing.B) {
	if os.Getenv("DISPLAY") == "" {
		b.Skip("SKIPPED: no X display; run under xvfb-run")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	rl.SetTraceLogLevel(rl.LogWarning)
	rl.InitWindow(640, 480, "kinelab skin bench")
	defer rl.CloseWindow()
	sm, pose, cam := bentBodyScene(b)
	defer sm.Unload()
	frame := func(draw bool) time.Duration {
		rl.BeginDrawing()
		rl.ClearBackground(Background)
		rl.BeginMode3D(cam)
		var d time.Duration
		if draw {
			t0 := time.Now()
			sm.Draw(pose.Pos, pose.Rot, pose.Scl, bodyTint)
			d = time.Since(t0)
		}
		rl.EndMode3D()
		rl.EndDrawing()
		return d
	}
	const empties = 200
	t0 := time.Now()
	for i := 0; i < empties; i++ {
		frame(false)
	}
	empty := time.Since(t0) / empties
	var cpu time.Duration
	n := 0
	for b.Loop() {
		cpu += frame(true)
		n++
	}
	b.ReportMetric(float64(empty.Nanoseconds()), "empty-frame-ns")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "draw-call-cpu-ns")
}

// TestSkinnedMeshOpaque: an Opaque mesh draws the same pixels as a blended
// one (its tints have alpha 255), and blending is back on after it: a
// half-transparent square drawn next still mixes with what is under it.
func TestSkinnedMeshOpaque(t *testing.T) {
	openWindow(t, 320, 240, "kinelab opaque test")
	sm, pose, cam := bentBodyScene(t)
	defer sm.Unload()
	square := color.RGBA{R: 0, G: 255, B: 0, A: 128}
	frame := func(opaque bool) *image.RGBA {
		var img *image.RGBA
		for f := 0; f < 2; f++ { // the second frame is read
			sm.Opaque = opaque
			rl.BeginDrawing()
			rl.ClearBackground(Background)
			rl.BeginMode3D(cam)
			sm.Draw(pose.Pos, pose.Rot, pose.Scl, bodyTint)
			rl.EndMode3D()
			rl.DrawRectangle(0, 0, 20, 20, square)
			if f == 1 {
				img = readScreen()
			}
			rl.EndDrawing()
		}
		return img
	}
	blended, opaque := frame(false), frame(true)
	body := 0
	for i := 0; i < len(blended.Pix); i += 4 {
		c := color.RGBA{R: blended.Pix[i], G: blended.Pix[i+1], B: blended.Pix[i+2], A: 255}
		if isBody(c) {
			body++
		}
		if blended.Pix[i] != opaque.Pix[i] || blended.Pix[i+1] != opaque.Pix[i+1] || blended.Pix[i+2] != opaque.Pix[i+2] {
			t.Fatalf("pixel %d: %v blended, %v opaque", i/4, blended.Pix[i:i+3], opaque.Pix[i:i+3])
		}
	}
	if body < 1000 {
		t.Fatalf("only %d body pixels: the scene did not draw", body)
	}
	// Half of the square's green over the background.
	if c := opaque.RGBAAt(10, 10); near(c, square, 3) || !near(c, color.RGBA{R: 16, G: 144, B: 20}, 6) {
		t.Errorf("the half-transparent square after an opaque mesh shows %v: blending is off", c)
	}
}

// BenchmarkSkinnedMeshCrowd times a 1280x720 frame of 200 crowd bodies
// (250 vertices, shaders/skin_crowd.*) in one opaque batch, as the Crowd
// lab draws them: under llvmpipe the per-pixel work of the crowd shader
// shows here.
func BenchmarkSkinnedMeshCrowd(b *testing.B) {
	if os.Getenv("DISPLAY") == "" {
		b.Skip("SKIPPED: no X display; run under xvfb-run")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	rl.SetTraceLogLevel(rl.LogWarning)
	rl.InitWindow(1280, 720, "kinelab crowd bench")
	defer rl.CloseWindow()
	s := animsys.BenchSkeleton()
	rest := s.RestPose()
	fig, err := humanoid.Read(s.Parents, s.Names, [][]mgl32.Vec3{rest.Pos})
	if err != nil {
		b.Fatal(err)
	}
	fine := body.GenerateCell(&fig, rest.Pos, rest.Rot, 0.025)
	mesh := body.Decimate(&fine, 250)
	sm, err := NewSkinnedMeshShaders(&mesh, shaders.SkinCrowdVS, shaders.SkinCrowdFS)
	if err != nil {
		b.Fatal(err)
	}
	defer sm.Unload()
	sm.Opaque = true
	pose := bentPose(s)
	const cols, rows = 20, 10
	shifted := make([][]mgl32.Vec3, cols*rows)
	for i := range shifted {
		shift := mgl32.Vec3{(float32(i%cols) - cols/2) * 1.6, 0, -float32(i/cols) * 1.6}
		shifted[i] = make([]mgl32.Vec3, len(pose.Pos))
		for j, p := range pose.Pos {
			shifted[i][j] = p.Add(shift)
		}
	}
	cam := rl.Camera3D{Position: rl.Vector3{Y: 6, Z: 9}, Target: rl.Vector3{Y: 0.5, Z: -6},
		Up: rl.Vector3{Y: 1}, Fovy: 50, Projection: rl.CameraPerspective}
	for b.Loop() {
		rl.BeginDrawing()
		rl.ClearBackground(Background)
		rl.BeginMode3D(cam)
		sm.BeginBatch()
		for i, pos := range shifted {
			sm.DrawBatched(pos, pose.Rot, pose.Scl, crowdBenchTints[i%len(crowdBenchTints)])
		}
		sm.EndBatch()
		rl.EndMode3D()
		rl.EndDrawing()
	}
}

var crowdBenchTints = []color.RGBA{SkinColor, bodyTint, {132, 168, 200, 255}, {160, 192, 146, 255}}

// quadMesh is a one-joint square, x and y in [-1, 1] at z = 0 facing +z,
// of n x n cells ((n+1)^2 vertices, row by row from the top), with
// uv = ((x+1)/2, (1-y)/2) * uvScale: (0, 0) at the top left seen from +z,
// as glTF has it.
func quadMesh(n int, uvScale float32) body.Mesh {
	var m body.Mesh
	for r := 0; r <= n; r++ {
		for c := 0; c <= n; c++ {
			u, v := float32(c)/float32(n), float32(r)/float32(n)
			m.Positions = append(m.Positions, 2*u-1, 1-2*v, 0)
			m.Normals = append(m.Normals, 0, 0, 1)
			m.UVs = append(m.UVs, u*uvScale, v*uvScale)
			m.BoneIDs = append(m.BoneIDs, 0, 0, 0, 0)
			m.BoneWeights = append(m.BoneWeights, 1, 0, 0, 0)
		}
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			a := uint16(r*(n+1) + c) // top left; then top right b, bottom left d, bottom right e
			b, d, e := a+1, a+uint16(n+1), a+uint16(n+2)
			m.Indices = append(m.Indices, a, d, e, a, e, b) // counter-clockwise from +z
		}
	}
	m.BindInv = []mgl32.Mat4{mgl32.Ident4()}
	return m
}

// pngOf encodes w x h non-premultiplied pixels, row by row from the top.
func pngOf(t *testing.T, w, h int, px ...color.NRGBA) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i, c := range px {
		img.SetNRGBA(i%w, i/w, c)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// quadrantsPNG is an 8x8 PNG, red at the top left, green top right, blue
// bottom left, white bottom right: 4x4 texels each, so bilinear filtering
// near a quadrant's centre reads that colour alone.
func quadrantsPNG(t *testing.T) []byte {
	px := make([]color.NRGBA, 64)
	for i := range px {
		px[i] = [2][2]color.NRGBA{{red, green}, {blue, white}}[i/8/4][i%8/4]
	}
	return pngOf(t, 8, 8, px...)
}

var (
	red   = color.NRGBA{R: 255, A: 255}
	green = color.NRGBA{G: 255, A: 255}
	blue  = color.NRGBA{B: 255, A: 255}
	white = color.NRGBA{R: 255, G: 255, B: 255, A: 255}
)

// litFacing is the colour skin.fs (and skin_crowd.*) give base colour
// (r, g, b in 0..1) on a surface facing a distant camera straight on, high
// above the floor: key, fill and ambient light, the highlight, no rim, no
// contact shadow, no back light.
func litFacing(r, g, b float64) color.RGBA {
	kx, ky, kz := 0.35, 0.9, 0.6
	kl := math.Sqrt(kx*kx + ky*ky + kz*kz)
	key := kz / kl
	hx, hy, hz := kx/kl, ky/kl, kz/kl+1
	spec := math.Pow(hz/math.Sqrt(hx*hx+hy*hy+hz*hz), 40) * 0.16
	light := [3]float64{0.215 + key*0.74 + 0.26, 0.225 + key*0.70 + 0.27, 0.25 + key*0.64 + 0.30}
	ch := func(base, l float64) uint8 { return uint8(math.Round(255 * min(1, base*l+spec))) }
	return color.RGBA{R: ch(r, light[0]), G: ch(g, light[1]), B: ch(b, light[2]), A: 255}
}

// over is c at alpha a (0..1) blended over the background.
func over(c color.RGBA, a float64) color.RGBA {
	mix := func(x, y uint8) uint8 { return uint8(math.Round(a*float64(x) + (1-a)*float64(y))) }
	return color.RGBA{R: mix(c.R, Background.R), G: mix(c.G, Background.G), B: mix(c.B, Background.B), A: 255}
}

// quadScene draws meshes of quadMesh (placed at their shifts) to a 2.5 m
// tall orthographic view straight down -z, and reads the frame back.
type quadScene struct {
	t    *testing.T
	w, h int32
	cam  rl.Camera3D
	rot  []mgl32.Quat
	scl  []mgl32.Vec3
	pos  []mgl32.Vec3
}

func newQuadScene(t *testing.T, w, h int32) *quadScene {
	return &quadScene{t: t, w: w, h: h,
		cam: rl.Camera3D{Position: rl.Vector3{Z: 50}, Up: rl.Vector3{Y: 1}, Fovy: 2.5, Projection: rl.CameraOrthographic},
		rot: []mgl32.Quat{mgl32.QuatIdent()}, scl: []mgl32.Vec3{{1, 1, 1}}, pos: make([]mgl32.Vec3, 1)}
}

type quadDraw struct {
	sm    *SkinnedMesh
	shift mgl32.Vec3
	tint  color.RGBA
}

// frame draws the quads in order, then calls after (2D drawing), and
// returns the frame (the second of two, as the other render tests).
func (s *quadScene) frame(after func(), quads ...quadDraw) *image.RGBA {
	var img *image.RGBA
	for f := 0; f < 2; f++ {
		rl.BeginDrawing()
		rl.ClearBackground(Background)
		rl.BeginMode3D(s.cam)
		for _, q := range quads {
			q.sm.GroundY = -10 // no contact shadow
			s.pos[0] = q.shift
			q.sm.Draw(s.pos, s.rot, s.scl, q.tint)
		}
		rl.EndMode3D()
		if after != nil {
			after()
		}
		if f == 1 {
			img = readScreen()
		}
		rl.EndDrawing()
	}
	return img
}

// uvAt is the pixel showing uv (u, v) of a quad of uvScale at shift.
func (s *quadScene) uvAt(img *image.RGBA, shift mgl32.Vec3, uvScale, u, v float32) (color.RGBA, int, int) {
	p := mgl32.Vec3{2*u/uvScale - 1, 1 - 2*v/uvScale, 0}.Add(shift)
	sc := rl.GetWorldToScreenEx(V3(p), s.cam, s.w, s.h)
	x, y := int(sc.X), int(sc.Y)
	return img.RGBAAt(x, y), x, y
}

// expect checks the pixel at uv (u, v) is want, within tol per channel.
func (s *quadScene) expect(img *image.RGBA, what string, shift mgl32.Vec3, uvScale, u, v float32, want color.RGBA, tol int) {
	s.t.Helper()
	if c, x, y := s.uvAt(img, shift, uvScale, u, v); !near(c, want, tol) {
		s.t.Errorf("%s: uv (%v, %v) at pixel (%d, %d) shows %v, want %v", what, u, v, x, y, c, want)
	}
}

// keepFrame saves img as /tmp/render-skin-NAME.png when the test failed
// or runs with -v (to look at), and logs where.
func keepFrame(t *testing.T, img *image.RGBA, name string) {
	if img != nil && (t.Failed() || testing.Verbose()) {
		t.Logf("frame saved to %s", savePNG(t, img, "render-skin-"+name+".png"))
	}
}

// skinShaders are the two shader pairs a SkinnedMesh is made with: the
// per-pixel lit one and the Crowd lab's per-vertex lit one.
var skinShaders = []struct{ name, vs, fs string }{
	{"skin", shaders.SkinVS, shaders.SkinFS},
	{"skin_crowd", shaders.SkinCrowdVS, shaders.SkinCrowdFS},
}

func newQuadMesh(t *testing.T, b *body.Mesh, vs, fs string) *SkinnedMesh {
	t.Helper()
	sm, err := NewSkinnedMeshShaders(b, vs, fs)
	if err != nil {
		t.Fatal(err)
	}
	return sm
}

// TestSkinnedMeshTexture draws a quad textured with a PNG of four coloured
// quadrants (red, green / blue, white) with both shader pairs and checks each texel lands where
// the UVs say, (0, 0) being the image's top left, and is lit as a tint of
// that colour would be; that TintMix 0 (the default) ignores the tint's
// colour but keeps its alpha, that TintMix 1 and 0.5 multiply the tint
// in, that UVs past 1 repeat the texture, that texture alpha blends, and
// that drawing allocates nothing.
func TestSkinnedMeshTexture(t *testing.T) {
	openWindow(t, 400, 200, "kinelab skin texture test")
	s := newQuadScene(t, 400, 200)
	quadrants := quadrantsPNG(t)
	left, right := mgl32.Vec3{-1.25, 0, 0}, mgl32.Vec3{1.25, 0, 0}
	for _, sh := range skinShaders {
		q := quadMesh(1, 1)
		q.Image = quadrants
		sm := newQuadMesh(t, &q, sh.vs, sh.fs)
		defer sm.Unload()
		if !sm.Textured() || sm.Note() != "" || sm.TintMix != 0 || sm.tex.Mipmaps != 4 {
			t.Errorf("%s: textured %v, note %q, TintMix %v, %d mipmap levels; want true, \"\", 0, 4",
				sh.name, sm.Textured(), sm.Note(), sm.TintMix, sm.tex.Mipmaps)
		}
		// Texture coordinates 0..2: the image repeats twice each way.
		q2 := quadMesh(1, 2)
		q2.Image = quadrants
		rep := newQuadMesh(t, &q2, sh.vs, sh.fs)
		defer rep.Unload()

		img := s.frame(nil, quadDraw{sm, left, bodyTint}, quadDraw{rep, right, bodyTint})
		if sh.name == "skin" {
			defer keepFrame(t, img, "textured")
		}
		what := sh.name + ", TintMix 0"
		for _, c := range []struct {
			u, v float32
			col  color.NRGBA
		}{{0.25, 0.25, red}, {0.75, 0.25, green}, {0.25, 0.75, blue}, {0.75, 0.75, white}} {
			want := litFacing(float64(c.col.R)/255, float64(c.col.G)/255, float64(c.col.B)/255)
			s.expect(img, what, left, 1, c.u, c.v, want, 3)
			// Repeat wrap: the same texel a whole image further on (clamping
			// would show the last column's or row's colour).
			s.expect(img, what+", repeated", right, 2, c.u+1, c.v, want, 3)
			s.expect(img, what+", repeated", right, 2, c.u+1, c.v+1, want, 3)
		}

		// TintMix 1 multiplies the tint in: blue takes the white texel to
		// blue, the red one to black; 0.5 mixes the tint halfway from white.
		blueTint := color.RGBA{B: 255, A: 255}
		sm.TintMix = 1
		img = s.frame(nil, quadDraw{sm, left, blueTint})
		s.expect(img, sh.name+", TintMix 1", left, 1, 0.75, 0.75, litFacing(0, 0, 1), 3)
		s.expect(img, sh.name+", TintMix 1", left, 1, 0.25, 0.25, litFacing(0, 0, 0), 3)
		sm.TintMix = 0.5
		img = s.frame(nil, quadDraw{sm, left, blueTint})
		s.expect(img, sh.name+", TintMix 0.5", left, 1, 0.75, 0.75, litFacing(0.5, 0.5, 1), 3)

		// The tint's alpha fades the textured body (a ghost) at any TintMix.
		sm.TintMix = 0
		img = s.frame(nil, quadDraw{sm, left, color.RGBA{R: 255, G: 255, B: 255, A: 128}})
		s.expect(img, sh.name+", tint alpha 128", left, 1, 0.25, 0.25, over(litFacing(1, 0, 0), 128.0/255), 4)

		// Drawing a textured mesh allocates nothing either.
		rl.BeginDrawing()
		rl.BeginMode3D(s.cam)
		s.pos[0] = left
		if n := testing.AllocsPerRun(10, func() { sm.Draw(s.pos, s.rot, s.scl, bodyTint) }); n != 0 {
			t.Errorf("%s: Draw of a textured mesh allocates %v times per call", sh.name, n)
		}
		rl.EndMode3D()
		rl.EndDrawing()

		// The texture's alpha blends too (a 1x1 image: bilinear, no mipmaps).
		q3 := quadMesh(1, 1)
		q3.Image = pngOf(t, 1, 1, color.NRGBA{R: 255, G: 255, B: 255, A: 128})
		half := newQuadMesh(t, &q3, sh.vs, sh.fs)
		defer half.Unload()
		img = s.frame(nil, quadDraw{half, left, bodyTint})
		s.expect(img, sh.name+", texture alpha 128", left, 1, 0.5, 0.5, over(litFacing(1, 1, 1), 128.0/255), 4)
	}
}

// TestSkinnedMeshVertexColors draws a quad coloured only by its vertices
// (red, green / blue, white, no texture) with both shader pairs: near each
// corner its colour shows, the tint does not (TintMix defaults to 0)
// until TintMix is 1, and vertex alpha blends.
func TestSkinnedMeshVertexColors(t *testing.T) {
	openWindow(t, 200, 200, "kinelab skin colour test")
	s := newQuadScene(t, 200, 200)
	var centre mgl32.Vec3
	corners := []struct {
		u, v float32
		col  color.NRGBA
	}{{0, 0, red}, {1, 0, green}, {0, 1, blue}, {1, 1, white}}
	for _, sh := range skinShaders {
		q := quadMesh(1, 1)
		q.UVs = nil
		for _, c := range corners {
			q.Colors = append(q.Colors, c.col.R, c.col.G, c.col.B, c.col.A)
		}
		sm := newQuadMesh(t, &q, sh.vs, sh.fs)
		defer sm.Unload()
		if sm.Textured() || sm.Note() != "" || sm.TintMix != 0 {
			t.Errorf("%s: textured %v, note %q, TintMix %v; want false, \"\", 0", sh.name, sm.Textured(), sm.Note(), sm.TintMix)
		}
		img := s.frame(nil, quadDraw{sm, centre, bodyTint})
		if sh.name == "skin" {
			defer keepFrame(t, img, "vertex-colours")
		}
		// 4% in from each corner the corner's colour weighs over 90%.
		for _, c := range corners {
			u, v := 0.04+0.92*c.u, 0.04+0.92*c.v
			got, x, y := s.uvAt(img, centre, 1, u, v)
			want := litFacing(float64(c.col.R)/255, float64(c.col.G)/255, float64(c.col.B)/255)
			if !near(got, want, 30) {
				t.Errorf("%s: near corner uv (%v, %v), pixel (%d, %d) shows %v, want about %v", sh.name, c.u, c.v, x, y, got, want)
			}
		}
		// TintMix 1 with a red tint: the white corner turns red, the green
		// one dark.
		sm.TintMix = 1
		img = s.frame(nil, quadDraw{sm, centre, color.RGBA{R: 255, A: 255}})
		if got, _, _ := s.uvAt(img, centre, 1, 0.96, 0.96); !near(got, litFacing(1, 0, 0), 30) {
			t.Errorf("%s, TintMix 1, red tint: white corner shows %v, want about %v", sh.name, got, litFacing(1, 0, 0))
		}
		if got, _, _ := s.uvAt(img, centre, 1, 0.96, 0.04); int(got.R)+int(got.G)+int(got.B) > 60 {
			t.Errorf("%s, TintMix 1, red tint: green corner shows %v, want about black", sh.name, got)
		}

		// Half-transparent white vertices blend halfway with the background.
		q2 := quadMesh(1, 1)
		q2.UVs = nil
		for range corners {
			q2.Colors = append(q2.Colors, 255, 255, 255, 128)
		}
		half := newQuadMesh(t, &q2, sh.vs, sh.fs)
		defer half.Unload()
		img = s.frame(nil, quadDraw{half, centre, bodyTint})
		s.expect(img, sh.name+", vertex alpha 128", centre, 1, 0.5, 0.5, over(litFacing(1, 1, 1), 128.0/255), 4)
	}
}

// TestSkinnedMeshTintOnly: a mesh without UVs, colours or image is drawn
// as before, lit in the tint colour (TintMix 1), also right after a
// textured mesh (its texture and vertex colours do not leak), faded by
// the tint's alpha; and raylib's own drawing afterwards is unchanged.
func TestSkinnedMeshTintOnly(t *testing.T) {
	openWindow(t, 400, 200, "kinelab skin tint test")
	s := newQuadScene(t, 400, 200)
	left, right := mgl32.Vec3{-1.25, 0, 0}, mgl32.Vec3{1.25, 0, 0}
	square := color.RGBA{R: 0, G: 255, B: 0, A: 128}
	for _, sh := range skinShaders {
		tex := quadMesh(1, 1)
		tex.Image = quadrantsPNG(t)
		tex.Colors = make([]uint8, 4*4)
		for i := range tex.Colors {
			tex.Colors[i] = 255
		}
		tex.Colors[0], tex.Colors[1] = 0, 0 // the top left vertex blue
		textured := newQuadMesh(t, &tex, sh.vs, sh.fs)
		defer textured.Unload()
		q := quadMesh(1, 1)
		q.UVs = nil
		plain := newQuadMesh(t, &q, sh.vs, sh.fs)
		defer plain.Unload()
		if plain.Textured() || plain.Note() != "" || plain.TintMix != 1 {
			t.Errorf("%s: textured %v, note %q, TintMix %v; want false, \"\", 1", sh.name, plain.Textured(), plain.Note(), plain.TintMix)
		}
		img := s.frame(func() { rl.DrawRectangle(0, 0, 20, 20, square) },
			quadDraw{textured, left, bodyTint}, quadDraw{plain, right, bodyTint})
		want := litFacing(float64(bodyTint.R)/255, float64(bodyTint.G)/255, float64(bodyTint.B)/255)
		for _, uv := range [][2]float32{{0.1, 0.1}, {0.25, 0.25}, {0.5, 0.5}, {0.75, 0.75}, {0.9, 0.1}} {
			s.expect(img, sh.name+", tint only", right, 1, uv[0], uv[1], want, 3)
		}
		if c := img.RGBAAt(10, 10); !near(c, over(color.RGBA{G: 255, A: 255}, 128.0/255), 4) {
			t.Errorf("%s: the half-transparent square drawn after the meshes shows %v", sh.name, c)
		}
		img = s.frame(nil, quadDraw{plain, right, color.RGBA{R: bodyTint.R, G: bodyTint.G, B: bodyTint.B, A: 100}})
		s.expect(img, sh.name+", ghost", right, 1, 0.5, 0.5, over(want, 100.0/255), 4)
	}
}

// TestSkinnedMeshBadImage: an Image that does not decode, or comes
// without UVs, is not fatal: the mesh draws in its tint as if it had no
// image (TintMix 1), and Note says why.
func TestSkinnedMeshBadImage(t *testing.T) {
	openWindow(t, 200, 200, "kinelab skin bad image test")
	s := newQuadScene(t, 200, 200)
	good := quadrantsPNG(t)
	for _, c := range []struct {
		name  string
		image []byte
		uvs   bool
		note  string
	}{
		{"corrupt", []byte("this is not an image"), true, "not a PNG or JPEG"},
		{"truncated", good[:len(good)-20], true, "texture not drawn: png image"},
		{"no UVs", good, false, "no texture coordinates"},
	} {
		q := quadMesh(1, 1)
		q.Image = c.image
		if !c.uvs {
			q.UVs = nil
		}
		sm, err := NewSkinnedMesh(&q)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		defer sm.Unload()
		if sm.Textured() || !strings.Contains(sm.Note(), c.note) || !strings.HasPrefix(sm.Note(), "texture not drawn: ") || sm.TintMix != 1 {
			t.Errorf("%s: textured %v, note %q, TintMix %v; want false, a note with %q, 1", c.name, sm.Textured(), sm.Note(), sm.TintMix, c.note)
		}
		img := s.frame(nil, quadDraw{sm, mgl32.Vec3{}, bodyTint})
		want := litFacing(float64(bodyTint.R)/255, float64(bodyTint.G)/255, float64(bodyTint.B)/255)
		for _, uv := range [][2]float32{{0.25, 0.25}, {0.75, 0.25}, {0.25, 0.75}, {0.75, 0.75}} {
			s.expect(img, c.name, mgl32.Vec3{}, 1, uv[0], uv[1], want, 3)
		}
	}
}

// TestSkinnedMeshManyVertices uploads a textured, vertex-coloured grid of
// 256 x 256 = 65536 vertices, the most 16-bit indices reach, and checks
// the texture shows right in every quadrant, the last one drawn by
// indices past 32767 and up to 65535.
func TestSkinnedMeshManyVertices(t *testing.T) {
	openWindow(t, 200, 200, "kinelab skin many vertices test")
	s := newQuadScene(t, 200, 200)
	q := quadMesh(255, 1)
	q.Image = quadrantsPNG(t)
	q.Colors = make([]uint8, 4*q.VertexCount())
	for i := range q.Colors {
		q.Colors[i] = 255
	}
	if nv := q.VertexCount(); nv != 65536 {
		t.Fatalf("grid of %d vertices, want 65536", nv)
	}
	sm, err := NewSkinnedMesh(&q)
	if err != nil {
		t.Fatal(err)
	}
	defer sm.Unload()
	if sm.VertexCount() != 65536 || !sm.Textured() {
		t.Fatalf("%d vertices uploaded, textured %v", sm.VertexCount(), sm.Textured())
	}
	img := s.frame(nil, quadDraw{sm, mgl32.Vec3{}, bodyTint})
	defer keepFrame(t, img, "many-vertices")
	for _, c := range []struct {
		u, v float32
		col  color.NRGBA
	}{{0.25, 0.25, red}, {0.75, 0.25, green}, {0.25, 0.75, blue}, {0.75, 0.75, white}, {0.9, 0.9, white}} {
		want := litFacing(float64(c.col.R)/255, float64(c.col.G)/255, float64(c.col.B)/255)
		s.expect(img, "65536 vertices", mgl32.Vec3{}, 1, c.u, c.v, want, 3)
	}
}

// TestSkinnedMeshValidate: body.Mesh.Validate's errors (texture
// coordinates or colours that disagree with the vertices, too many
// vertices) come back from NewSkinnedMesh, before any GL work (no window
// is needed).
func TestSkinnedMeshValidate(t *testing.T) {
	for _, c := range []struct {
		name  string
		mesh  func() body.Mesh
		error string
	}{
		{"short UVs", func() body.Mesh { q := quadMesh(1, 1); q.UVs = q.UVs[:7]; return q }, "7 texture coordinates for 4 vertices"},
		{"long colours", func() body.Mesh { q := quadMesh(1, 1); q.Colors = make([]uint8, 17); return q }, "17 colour bytes for 4 vertices"},
		{"65537 vertices", func() body.Mesh {
			q := quadMesh(255, 1)
			q.Positions = append(q.Positions, 0, 0, 0)
			q.Normals = append(q.Normals, 0, 0, 1)
			q.UVs = append(q.UVs, 0, 0)
			q.BoneIDs = append(q.BoneIDs, 0, 0, 0, 0)
			q.BoneWeights = append(q.BoneWeights, 1, 0, 0, 0)
			return q
		}, "65537 vertices; 16-bit indices allow 65536"},
	} {
		b := c.mesh()
		sm, err := NewSkinnedMesh(&b)
		if sm != nil || err == nil || !strings.HasPrefix(err.Error(), "skinned mesh: body mesh: ") || !strings.Contains(err.Error(), c.error) {
			t.Errorf("%s: mesh %v, error %v; want an error with %q", c.name, sm != nil, err, c.error)
		}
	}
}
