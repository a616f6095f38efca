package render

import (
	"errors"
	"fmt"
	"image/color"
	"unsafe"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/body"
	"kinelab/shaders"
)

// MaxBones is the most joints a SkinnedMesh can have: the length of the
// boneMatrices array in shaders/skin.vs (128 mat4 fit the uniform space of
// any desktop GL 3.3 driver).
const MaxBones = 128

// Vertex attribute locations raylib binds for the bone data and colours.
const (
	attribColor       = 3 // vertexColor
	attribBoneIDs     = 7 // vertexBoneIndices
	attribBoneWeights = 8 // vertexBoneWeights
)

// SkinnedMesh is a body.Mesh uploaded to the GPU with the skinning shader
// (shaders/skin.vs, skin.fs). raylib 6.0's own GPU skinning is compiled
// out, so the bone data go into two extra vertex buffers in the mesh's
// VAO and the bone matrices are uploaded by Draw.
//
// A mesh's own colours (body.Mesh UVs with Image, and Colors) are drawn
// too: base colour = texture(uv) * vertex colour * mix(white, tint,
// TintMix), alpha = texture alpha * vertex alpha * tint alpha. Without
// them the texture is a 1x1 white one and the vertex colour white, so a
// mesh with neither is drawn by the tint alone, as before.
type SkinnedMesh struct {
	// GroundY is the floor height (world) under the fake contact shadow.
	GroundY float32
	// Opaque says every tint drawn has alpha 255: batches are then drawn
	// without blending, which under a software renderer saves reading
	// back every covered pixel (about 1 ms a frame for the Crowd lab's
	// 200 bodies under llvmpipe). The mesh's texture and vertex colours
	// must then be opaque too.
	Opaque bool
	// TintMix is how far the tint replaces white in the base colour, 0 to
	// 1 (the tint's alpha applies whatever it is). New meshes get 1 when
	// they draw no colours of their own (the tint alone colours them, as
	// the generated body, and as a mesh whose Image failed), and 0 when
	// their texture or vertex colours show; a lab may set e.g. 0.4 to
	// highlight a picked character. Each Draw and DrawBatched reads it.
	TintMix float32

	mesh        *rl.Mesh // allocated on its own: cgo refuses UploadMesh a pointer into a struct holding Go pointers
	shader      rl.Shader
	boneIDs     uint32 // VBOs
	boneWeights uint32
	indexCount  int32
	height      float32 // rest height, scales the contact shadow
	bindInv     []mgl32.Mat4
	bones       []rl.Matrix  // per-frame bone matrices, reused
	tex         rl.Texture2D // the mesh's Image, or 1x1 white
	textured    bool         // tex is the mesh's Image
	hasColors   bool         // vertex colours uploaded; else the white default is set
	note        string

	locMVP, locBones, locTint, locView, locGround, locHeight, locTintMix int32
	// Uniform scratch, reused. Each is its own allocation: cgo refuses a
	// pointer into a struct that holds Go pointers.
	vec4, vec3, scalar []float32
	white              []float32 // the vertex colour where the mesh has none
}

// NewSkinnedMesh checks b and uploads it; call with the window open, on
// the main thread.
func NewSkinnedMesh(b *body.Mesh) (*SkinnedMesh, error) {
	return newSkinnedMesh(b, shaders.SkinVS, shaders.SkinFS,
		"skinned mesh: shaders/skin.vs or skin.fs failed to compile (see the GL log)")
}

// NewSkinnedMeshShaders is NewSkinnedMesh with other skinning shaders:
// vs and fs must take the same attributes and uniforms as shaders/skin.vs
// and skin.fs (mvp and boneMatrices at least), as shaders.SkinCrowdVS and
// SkinCrowdFS do.
func NewSkinnedMeshShaders(b *body.Mesh, vs, fs string) (*SkinnedMesh, error) {
	return newSkinnedMesh(b, vs, fs, "skinned mesh: the skinning shaders failed to compile (see the GL log)")
}

func newSkinnedMesh(b *body.Mesh, vs, fs, compileErr string) (*SkinnedMesh, error) {
	if err := checkBody(b); err != nil {
		return nil, err
	}
	if !rl.IsWindowReady() {
		return nil, errors.New("skinned mesh: no window (GL context) open")
	}
	nv := b.VertexCount()
	m := &SkinnedMesh{
		indexCount: int32(len(b.Indices)),
		bindInv:    append([]mgl32.Mat4(nil), b.BindInv...),
		bones:      make([]rl.Matrix, len(b.BindInv)),
		vec4:       make([]float32, 4),
		vec3:       make([]float32, 3),
		scalar:     make([]float32, 1),
		white:      []float32{1, 1, 1, 1},
		hasColors:  b.Colors != nil,
	}
	lo, hi := float32(0), float32(0)
	for v := 0; v < nv; v++ {
		y := b.Positions[3*v+1]
		if v == 0 || y < lo {
			lo = y
		}
		if v == 0 || y > hi {
			hi = y
		}
	}
	m.height = hi - lo

	m.shader = rl.LoadShaderFromMemory(vs, fs)
	if m.shader.ID == 0 || m.shader.ID == rl.GetShaderIdDefault() {
		return nil, errors.New(compileErr)
	}
	loc := func(name string) int32 { return rl.GetShaderLocation(m.shader, name) }
	m.locMVP, m.locBones, m.locTint = loc("mvp"), loc("boneMatrices"), loc("tint")
	m.locView, m.locGround, m.locHeight = loc("viewPos"), loc("groundY"), loc("bodyHeight")
	m.locTintMix = loc("tintMix")
	if m.locMVP < 0 || m.locBones < 0 {
		rl.UnloadShader(m.shader)
		return nil, errors.New("skinned mesh: shader has no mvp or boneMatrices uniform")
	}
	if texLoc := loc("texture0"); texLoc >= 0 {
		rl.EnableShader(m.shader.ID)
		rl.SetUniform(texLoc, []int32{0}, int32(rl.ShaderUniformSampler2d), 1) // BeginBatch binds unit 0
		rl.DisableShader()
	}

	// The texture: a bad one is not fatal, the mesh is drawn without it
	// and Note says why (the app shows it).
	switch {
	case b.Image == nil:
	case b.UVs == nil:
		m.note = "texture not drawn: the mesh has no texture coordinates"
	default:
		img, err := decodeTexture(b.Image)
		if err == nil {
			m.tex, err = loadTexture(img)
		}
		if err != nil {
			m.note = "texture not drawn: " + err.Error()
		}
		m.textured = err == nil
	}
	if !m.textured {
		if m.tex = whiteTexture(); m.tex.ID == 0 {
			rl.UnloadShader(m.shader)
			return nil, errors.New("skinned mesh: the GL driver refused a 1x1 texture")
		}
	}
	m.TintMix = 1
	if m.textured || m.hasColors {
		m.TintMix = 0
	}

	// Positions, normals, texture coordinates, colours and indices go
	// through raylib's UploadMesh; the mesh points into b only for the
	// upload. Texture coordinates without a texture would go unused.
	m.mesh = &rl.Mesh{
		VertexCount:   int32(nv),
		TriangleCount: int32(b.TriangleCount()),
		Vertices:      &b.Positions[0],
		Normals:       &b.Normals[0],
		Indices:       &b.Indices[0],
	}
	if m.textured {
		m.mesh.Texcoords = &b.UVs[0]
	}
	if m.hasColors {
		m.mesh.Colors = &b.Colors[0]
	}
	rl.UploadMesh(m.mesh, false)
	m.mesh.Vertices, m.mesh.Normals, m.mesh.Indices, m.mesh.Texcoords, m.mesh.Colors = nil, nil, nil, nil, nil
	if m.mesh.VaoID == 0 {
		rl.UnloadTexture(m.tex)
		rl.UnloadShader(m.shader)
		return nil, errors.New("skinned mesh: UploadMesh made no vertex array")
	}
	rl.EnableVertexArray(m.mesh.VaoID)
	m.boneIDs = rl.LoadVertexBuffer(b.BoneIDs, false)
	rl.SetVertexAttribute(attribBoneIDs, 4, rl.Float, false, 0, 0)
	rl.EnableVertexAttribute(attribBoneIDs)
	m.boneWeights = rl.LoadVertexBuffer(b.BoneWeights, false)
	rl.SetVertexAttribute(attribBoneWeights, 4, rl.Float, false, 0, 0)
	rl.EnableVertexAttribute(attribBoneWeights)
	rl.DisableVertexArray()
	return m, nil
}

// checkBody validates a body mesh before upload: its own consistency,
// and no more joints than the skinning shader takes.
func checkBody(b *body.Mesh) error {
	if err := b.Validate(); err != nil {
		return fmt.Errorf("skinned mesh: %w", err)
	}
	if len(b.BindInv) > MaxBones {
		return fmt.Errorf("skinned mesh: %d joints; the skinning shader takes 1 to %d", len(b.BindInv), MaxBones)
	}
	return nil
}

// Draw skins and draws the mesh with the joints' world (global) transforms,
// in the tint colour; call inside BeginMode3D. The slices need one entry
// per joint of the body (Draw does nothing if they are shorter). Nothing is
// allocated.
func (m *SkinnedMesh) Draw(globalPos []mgl32.Vec3, globalRot []mgl32.Quat, globalScl []mgl32.Vec3, tint color.RGBA) {
	n := len(m.bindInv)
	if len(globalPos) < n || len(globalRot) < n || len(globalScl) < n {
		return
	}
	m.BeginBatch()
	m.DrawBatched(globalPos, globalRot, globalScl, tint)
	m.EndBatch()
}

// BeginBatch starts drawing many copies of the mesh with DrawBatched: it
// flushes raylib's batch, binds the shader and the vertex array and sets
// the uniforms every copy shares (view, projection, floor), once. Call it
// inside BeginMode3D; between BeginBatch and EndBatch make no other
// raylib drawing calls. Nothing is allocated.
func (m *SkinnedMesh) BeginBatch() {
	rl.DrawRenderBatchActive() // what was batched before draws first
	view := rl.GetMatrixModelview()
	mvp := rl.MatrixMultiply(rl.MatrixMultiply(rl.GetMatrixTransform(), view), rl.GetMatrixProjection())
	eye := rl.MatrixInvert(view)

	rl.EnableShader(m.shader.ID)
	rl.SetUniformMatrix(m.locMVP, mvp)
	m.vec3[0], m.vec3[1], m.vec3[2] = eye.M12, eye.M13, eye.M14
	rl.SetUniform(m.locView, m.vec3, int32(rl.ShaderUniformVec3), 1)
	m.scalar[0] = m.GroundY
	rl.SetUniform(m.locGround, m.scalar, int32(rl.ShaderUniformFloat), 1)
	m.scalar[0] = m.height
	rl.SetUniform(m.locHeight, m.scalar, int32(rl.ShaderUniformFloat), 1)
	rl.EnableVertexArray(m.mesh.VaoID)
	// A disabled attribute reads the context's current value, which
	// raylib sets white in UploadMesh and DrawMesh but which any GL code
	// may change: set it.
	if !m.hasColors {
		rl.SetVertexAttributeDefault(attribColor, unsafe.Pointer(&m.white[0]), rl.ShaderAttribVec4, 4)
	}
	// raylib's batch rebinds unit 0 for each of its draws, so borrowing
	// it here disturbs nothing.
	rl.ActiveTextureSlot(0)
	rl.EnableTexture(m.tex.ID)
	if m.Opaque {
		rl.DisableColorBlend()
	}
}

// DrawBatched draws one copy between BeginBatch and EndBatch, skinned by
// the joints' world transforms in the tint colour, like Draw but setting
// only the bone matrices, the tint and TintMix. Nothing is allocated.
func (m *SkinnedMesh) DrawBatched(globalPos []mgl32.Vec3, globalRot []mgl32.Quat, globalScl []mgl32.Vec3, tint color.RGBA) {
	n := len(m.bindInv)
	if len(globalPos) < n || len(globalRot) < n || len(globalScl) < n {
		return
	}
	for j := 0; j < n; j++ {
		m.bones[j] = rlMatrix(boneMatrix(globalPos[j], globalRot[j], globalScl[j], m.bindInv[j]))
	}
	rl.SetUniformMatrices(m.locBones, m.bones)
	m.vec4[0], m.vec4[1], m.vec4[2], m.vec4[3] = float32(tint.R)/255, float32(tint.G)/255, float32(tint.B)/255, float32(tint.A)/255
	rl.SetUniform(m.locTint, m.vec4, int32(rl.ShaderUniformVec4), 1)
	m.scalar[0] = m.TintMix
	rl.SetUniform(m.locTintMix, m.scalar, int32(rl.ShaderUniformFloat), 1)
	rl.DrawVertexArrayElements(0, m.indexCount, nil)
}

// EndBatch ends a BeginBatch: it unbinds the vertex array and the shader
// and hands the batch to the driver (Flush). A batch is a large piece of
// the frame, so under llvmpipe it is rasterised while the caller goes on
// (the Crowd lab's 200 bodies in three batches: a frame about 4 ms shorter).
func (m *SkinnedMesh) EndBatch() {
	if m.Opaque {
		rl.EnableColorBlend()
	}
	rl.DisableTexture()
	rl.DisableVertexArray()
	rl.DisableShader()
	Flush()
}

// VertexCount is the number of vertices uploaded.
func (m *SkinnedMesh) VertexCount() int { return int(m.mesh.VertexCount) }

// Note says what of the body mesh's own colours is not drawn and why
// (an Image that failed to decode or upload, or came without UVs), for
// the app to show; "" when everything it brought is drawn.
func (m *SkinnedMesh) Note() string { return m.note }

// Textured reports whether the mesh is drawn with its own texture.
func (m *SkinnedMesh) Textured() bool { return m.textured }

// boneMatrix is world(joint) * inverse bind(joint): translate, rotate,
// scale, then undo the rest transform.
func boneMatrix(pos mgl32.Vec3, rot mgl32.Quat, scl mgl32.Vec3, bindInv mgl32.Mat4) mgl32.Mat4 {
	w := rot.Mat4()
	for c := 0; c < 3; c++ {
		for r := 0; r < 3; r++ {
			w[4*c+r] *= scl[c]
		}
	}
	w[12], w[13], w[14] = pos[0], pos[1], pos[2]
	return w.Mul4(bindInv)
}

// rlMatrix converts a column-major mgl32 matrix to raylib's (whose field
// Mi is element i in column-major order).
func rlMatrix(a mgl32.Mat4) rl.Matrix {
	return rl.Matrix{
		M0: a[0], M1: a[1], M2: a[2], M3: a[3],
		M4: a[4], M5: a[5], M6: a[6], M7: a[7],
		M8: a[8], M9: a[9], M10: a[10], M11: a[11],
		M12: a[12], M13: a[13], M14: a[14], M15: a[15],
	}
}

// Unload frees the GPU buffers, the texture and the shader.
func (m *SkinnedMesh) Unload() {
	rl.UnloadTexture(m.tex)
	rl.UnloadVertexBuffer(m.boneIDs)
	rl.UnloadVertexBuffer(m.boneWeights)
	rl.UnloadMesh(m.mesh)
	rl.UnloadShader(m.shader)
}
