// Package gltftest writes kinelab characters as glTF 2.0 files, so that
// tests of what reads glTF (character loading, `kinelab verify`, `kinelab
// export`, the labs) can load a human character whose every pose is known
// exactly, in each interpolation mode and with the quirks real exporters
// produce: a Z-up Armature node, a centimetre scale, uneven and per-channel
// key times, joints and properties with no channel, a texture, GLB.
//
// The file's curves pass through the source clip's poses at the keys
// (animsys.SampleCubic of the clip at the key times), and for CUBICSPLINE
// also with the clip's velocities there, so a reader's pose at a key time
// (Keys) can be compared with the clip's exactly; between keys the file's
// interpolation, not the clip's, applies.
package gltftest

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"kinelab/animsys"
	"kinelab/animsys/body"
	"kinelab/animsys/humanoid"
	"kinelab/assets"
)

// Options say how Write writes a character.
type Options struct {
	// Interp is the interpolation of every channel: "STEP", "LINEAR" or
	// "CUBICSPLINE" ("" is LINEAR, glTF's default).
	Interp string
	// FPS is the key rate (keys/s): keys at 0, 1/FPS, 2/FPS, ... and at
	// the clip's end. 0 keys the clip's own frames.
	FPS float32
	// Uneven gives each channel its own key times: every fourth key and
	// the last (Keys) are kept in every channel, the others are dropped
	// or moved by up to 30% of their interval, differently per channel
	// and deterministically. It exercises readers' key search and
	// CUBICSPLINE's scaling of tangents by the interval.
	Uneven bool
	// Partial writes a channel only where the property leaves the node's
	// rest value in some frame or at some key: joints that hold their
	// bind rotation (the default's Entity, shoulders and hands) get no
	// channel at all, so readers must fall back on node rest values.
	// Without it every joint has a rotation channel and every root a
	// translation channel. Either way translations and scales that never
	// leave their rest value get none (the default's only scale channel
	// is the breathing Spine2's), and the animation is the clip's: a
	// channel the clip needs is never dropped.
	Partial bool
	// ZUp puts the skeleton under a non-joint "Armature" node turning Z
	// up to Y up (-90 degrees about X), as Blender exports, with the
	// roots' translations and rotations stored in the Z-up frame: the
	// world is the Y-up skeleton's. The skinned mesh node hangs from the
	// Armature too, whose transform the spec says must not move it.
	ZUp bool
	// Scale, unless 0 or 1, is a uniform scale on the Armature node (made
	// for it without ZUp) with every translation divided by it: 0.01
	// stores centimetres. World positions and velocities are unchanged;
	// world scales are multiplied by it, and the inverse binds undo it.
	Scale float32
	// Texture adds TEXCOORD_0 (the mesh's own UVs, else a cylindrical
	// projection with the head at the image's top) and an embedded PNG
	// base-colour texture: the mesh's own image, else a generated 64x64
	// one with a warm top half and a blue bottom half (TextureImage).
	Texture bool
	// GLB writes a binary .glb (images in buffer views) instead of a
	// .gltf with its buffer and images as data URIs.
	GLB bool
}

// BaseColor is the base colour factor (linear RGBA) of the material
// Write gives the mesh.
var BaseColor = [4]float64{0.9, 0.8, 0.7, 1}

// zUp is the Armature's rotation with ZUp: -90 degrees about X, taking
// Z-up data (0, 0, 1) to Y-up (0, 1, 0).
var zUp = mgl64.QuatRotate(-math.Pi/2, mgl64.Vec3{1, 0, 0})

// maxKeys bounds a channel's keys: far more than any test wants, and a
// bound on what a mistaken FPS allocates.
const maxKeys = 1 << 20

// restTol is how far (quaternion components, m, scale) a clip's value may
// be from a node's rest value for Partial to leave the property without
// a channel: float32 rounding, far below what the tests resolve.
const restTol = 1e-6

// Write writes skeleton sk, its skinned body mesh and clips to path as
// glTF 2.0 (.gltf, or .glb with opt.GLB). Joint j of sk is node j (joint
// 0, the Entity, included), named as the joint, its rest transform the
// bind pose's local (sk.Bind, else the rest pose), and skin 0 lists
// every joint in order, so a reader's joints are sk's (gltf.Open adds an
// Entity of its own before them). mesh may be nil: the skin is still
// written, its inverse binds computed from the bind pose; a mesh's own
// BindInv are written, after checking that they invert the bind pose.
// Each clip is one animation of its name, sampled as described in the
// package doc and Options.
func Write(path string, sk *animsys.Skeleton, mesh *body.Mesh, clips []animsys.Clip, opt Options) error {
	w, err := newWriter(sk, mesh, opt)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	w.skeleton()
	if err := w.skin(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for i := range clips {
		if err := w.animation(i, &clips[i]); err != nil {
			return fmt.Errorf("%s: clip %q: %w", path, clips[i].Name, err)
		}
	}
	if err := w.save(path); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// Default writes the embedded default humanoid (assets.Humanoid) with its
// generated body, bound to its bind pose as the app binds it (the rest
// T-pose: Skeleton.BindPose), and its walk, run and idle clips (the first
// three clips if those names are missing), with opt. The body is made
// once per process.
func Default(path string, opt Options) error {
	sk, mesh, clips := DefaultCharacter()
	return Write(path, &sk, mesh, clips, opt)
}

// DefaultCharacter is what Default writes: the skeleton, its body and the
// clips, in the order written. The skeleton and clips are made afresh on
// each call (about a millisecond); the body, which takes longer, is made
// once and shared: do not change it.
func DefaultCharacter() (animsys.Skeleton, *body.Mesh, []animsys.Clip) {
	sk, all := assets.Humanoid(), assets.Clips()
	var clips []animsys.Clip
	for _, name := range []string{"walk", "run", "idle"} {
		for _, c := range all {
			if c.Name == name {
				clips = append(clips, c)
				break
			}
		}
	}
	if len(clips) != 3 {
		clips = all[:min(3, len(all))]
	}
	defaultOnce.Do(func() {
		// The figure as the app reads it, on 48 frames of the walk, bound
		// as the app binds it.
		frames, _ := humanoid.ClipFrames(&sk, &clips[0], 48)
		fig, err := humanoid.Read(sk.Parents, sk.Names, frames)
		if err != nil {
			panic("gltftest: the default skeleton reads as no figure: " + err.Error())
		}
		bind := sk.BindPose()
		m := body.Generate(&fig, bind.Pos, bind.Rot)
		defaultMesh = &m
	})
	return sk, defaultMesh, clips
}

var (
	defaultOnce sync.Once
	defaultMesh *body.Mesh
)

// Keys are the key times (s) that every channel written for clip c with
// opt has: where the file's curves pass through the clip's poses (and
// for CUBICSPLINE its velocities, taken from inside the clip at its last
// key) whatever the interpolation. Without Uneven they are every key.
func Keys(c *animsys.Clip, opt Options) []float32 {
	times := baseTimes(c, opt.FPS)
	if !opt.Uneven {
		return times
	}
	var out []float32
	for i, t := range times {
		if anchor(i, len(times)) {
			out = append(out, t)
		}
	}
	return out
}

// anchor says whether base key i of n is kept in every channel.
func anchor(i, n int) bool { return i%4 == 0 || i == n-1 }

// baseTimes are the key times before Uneven: the clip's frames, or every
// 1/fps s and the end; float32, as the file stores them, increasing.
func baseTimes(c *animsys.Clip, fps float32) []float32 {
	d := float64(c.Duration())
	var ts []float64
	if !(fps > 0) || c.Frames < 2 {
		for f := 0; f < max(c.Frames, 1); f++ {
			ts = append(ts, float64(f)*float64(c.FrameTime))
		}
	} else {
		nf := d * float64(fps)
		if !(nf < maxKeys) { // also NaN: Write refuses so many keys
			nf = maxKeys
		}
		n := int(math.Floor(nf + 1e-6))
		for k := 0; k <= n; k++ {
			ts = append(ts, float64(k)/float64(fps))
		}
		if d-ts[len(ts)-1] > 1e-4 {
			ts = append(ts, d)
		}
	}
	out := make([]float32, 0, len(ts))
	for _, t := range ts {
		if t32 := float32(t); len(out) == 0 || t32 > out[len(out)-1] {
			out = append(out, t32)
		}
	}
	return out
}

// sampleAt samples clip c at time t (s) with SampleCubicFrame: at a frame
// exactly its value and the velocity leaving it, and at the clip's end
// the last frame with the velocity arriving there (SampleCubic holds the
// end at rest), so a CUBICSPLINE in-tangent at the last key is the
// clip's.
func sampleAt(out *animsys.Pose, c *animsys.Clip, t float64) {
	if c.Frames < 2 {
		animsys.SampleCubicFrame(out, c, 0, 0)
		return
	}
	x := t / float64(c.FrameTime)
	f := math.Floor(x)
	if r := math.Round(x); math.Abs(x-r) < 1e-6 {
		f = r
	}
	alpha := math.Max(0, x-f)
	switch {
	case f < 0:
		f, alpha = 0, 0
	case f >= float64(c.Frames-1):
		f, alpha = float64(c.Frames-2), 1
	}
	animsys.SampleCubicFrame(out, c, int(f), float32(alpha))
}

// xform is a joint's local transform and velocities in float64, as the
// file stores them.
type xform struct {
	pos, vel, ang, scl, svl mgl64.Vec3
	rot                     mgl64.Quat
}

// writer builds one document.
type writer struct {
	doc    *gltf.Document
	sk     *animsys.Skeleton
	mesh   *body.Mesh
	opt    Options
	interp gltf.Interpolation
	bind   animsys.Pose // local bind pose
	arm    int          // the Armature node, -1 for none
	s      float64      // the Armature's scale
	rot    mgl64.Quat   // the Armature's rotation
}

func newWriter(sk *animsys.Skeleton, mesh *body.Mesh, opt Options) (*writer, error) {
	if err := sk.Validate(); err != nil {
		return nil, err
	}
	n := sk.Len()
	if n == 0 {
		return nil, errors.New("a skeleton with no joints")
	}
	w := &writer{doc: gltf.NewDocument(), sk: sk, mesh: mesh, opt: opt, arm: -1, s: 1, rot: mgl64.QuatIdent()}
	switch strings.ToUpper(opt.Interp) {
	case "", "LINEAR":
		w.interp = gltf.InterpolationLinear
	case "STEP":
		w.interp = gltf.InterpolationStep
	case "CUBICSPLINE":
		w.interp = gltf.InterpolationCubicSpline
	default:
		return nil, fmt.Errorf("interpolation %q: want STEP, LINEAR or CUBICSPLINE", opt.Interp)
	}
	if s := float64(opt.Scale); s != 0 && s != 1 {
		if !(s > 0) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("scale %g: want a positive number", s)
		}
		w.s = s
	}
	if opt.ZUp {
		w.rot = zUp
	}
	if mesh != nil {
		if err := mesh.Validate(); err != nil {
			return nil, err
		}
		if len(mesh.BindInv) != n {
			return nil, fmt.Errorf("mesh of %d joints for a skeleton of %d", len(mesh.BindInv), n)
		}
	}
	w.bind = animsys.NewPose(n)
	if sk.Bind != nil && sk.Bind.Len() == n {
		w.bind.CopyFrom(sk.Bind)
	} else {
		copy(w.bind.Pos, sk.Offsets)
	}
	clear(w.bind.Vel)
	clear(w.bind.Ang)
	clear(w.bind.Svl)
	return w, nil
}

// node converts joint j's local kineform k into the file's frame: a root
// hangs from the Armature, so its translation and rotation (and their
// velocities) are turned into the Armature's frame; every translation is
// divided by the Armature's scale, which multiplies it back.
func (w *writer) node(j int, k animsys.Kform) xform {
	x := xform{pos: v64(k.Pos), vel: v64(k.Vel), ang: v64(k.Ang), scl: v64(k.Scl), svl: v64(k.Svl), rot: q64(k.Rot)}
	if w.sk.Parents[j] < 0 {
		inv := w.rot.Conjugate()
		x.pos, x.vel, x.ang = inv.Rotate(x.pos), inv.Rotate(x.vel), inv.Rotate(x.ang)
		x.rot = inv.Mul(x.rot)
	}
	x.pos, x.vel = x.pos.Mul(1/w.s), x.vel.Mul(1/w.s)
	return x
}

// skeleton adds the joints as nodes 0 to n-1 (and the Armature after
// them), with their bind locals as rest transforms.
func (w *writer) skeleton() {
	doc, sk := w.doc, w.sk
	for j := range sk.Parents {
		x := w.node(j, w.bind.Kform(j))
		doc.Nodes = append(doc.Nodes, &gltf.Node{Name: sk.Names[j], Translation: x.pos,
			Rotation: gltfQuat(x.rot.Normalize()), Scale: x.scl, Matrix: gltf.DefaultMatrix})
	}
	var roots []int
	for j, p := range sk.Parents {
		if p >= 0 {
			doc.Nodes[p].Children = append(doc.Nodes[p].Children, j)
		} else {
			roots = append(roots, j)
		}
	}
	if w.opt.ZUp || w.s != 1 {
		w.arm = len(doc.Nodes)
		doc.Nodes = append(doc.Nodes, &gltf.Node{Name: "Armature", Children: roots, Rotation: gltfQuat(w.rot),
			Scale: [3]float64{w.s, w.s, w.s}, Matrix: gltf.DefaultMatrix})
		roots = []int{w.arm}
	}
	doc.Scenes[0].Nodes = roots
}

// worlds are the nodes' world matrices in the rest (bind) pose, the
// Armature's included, as glTF composes them.
func (w *writer) worlds() []mgl64.Mat4 {
	arm := mgl64.Ident4()
	if w.arm >= 0 {
		arm = w.rot.Mat4().Mul4(mgl64.Scale3D(w.s, w.s, w.s))
	}
	out := make([]mgl64.Mat4, w.sk.Len())
	for j, p := range w.sk.Parents {
		nd := w.doc.Nodes[j]
		q := mgl64.Quat{W: nd.Rotation[3], V: mgl64.Vec3{nd.Rotation[0], nd.Rotation[1], nd.Rotation[2]}}
		m := mgl64.Translate3D(nd.Translation[0], nd.Translation[1], nd.Translation[2]).Mul4(q.Mat4()).
			Mul4(mgl64.Scale3D(nd.Scale[0], nd.Scale[1], nd.Scale[2]))
		if p >= 0 {
			out[j] = out[p].Mul4(m)
		} else {
			out[j] = arm.Mul4(m)
		}
	}
	return out
}

// BindTol is how far (largest entry) a mesh's inverse bind times a
// node's world bind matrix may be from the identity for Write to accept
// it: float32 rounding of a matrix of a person's size, with margin.
const BindTol = 1e-4

// skin adds skin 0 over every joint, with its inverse binds, and the mesh
// (if any) skinned by it.
func (w *writer) skin() error {
	doc, n := w.doc, w.sk.Len()
	world := w.worlds()
	ibm := make([][4][4]float32, n) // the library's [row][column]
	for j := range ibm {
		var m mgl64.Mat4
		if w.mesh != nil {
			// The Armature scales the world by s (W' = W S(s)); the mesh's
			// inverse binds invert W.
			m = mgl64.Scale3D(1/w.s, 1/w.s, 1/w.s).Mul4(m64(w.mesh.BindInv[j]))
			if e := identityError(world[j].Mul4(m)); e > BindTol {
				return fmt.Errorf("mesh: the inverse bind of joint %d (%s) does not invert its bind pose (off by %.3g)", j, w.sk.Names[j], e)
			}
		} else {
			m = world[j].Inv()
		}
		for r := 0; r < 4; r++ {
			for c := 0; c < 4; c++ {
				ibm[j][r][c] = float32(m.At(r, c))
			}
		}
	}
	joints := make([]int, n)
	for j := range joints {
		joints[j] = j
	}
	root := 0
	if w.arm >= 0 {
		root = w.arm
	}
	doc.Skins = []*gltf.Skin{{Name: "skin", Joints: joints, Skeleton: gltf.Index(root),
		// Not modeler.WriteInverseBindMatrices: it marks the buffer view a
		// vertex buffer, which the Khronos validator calls an error.
		InverseBindMatrices: gltf.Index(modeler.WriteAccessor(doc, gltf.TargetNone, ibm))}}
	if w.mesh == nil {
		return nil
	}
	return w.addMesh()
}

// identityError is the largest entry of m - I.
func identityError(m mgl64.Mat4) float64 {
	id := mgl64.Ident4()
	e := 0.0
	for i := range m {
		e = math.Max(e, math.Abs(m[i]-id[i]))
	}
	return e
}

// addMesh adds the body as one primitive of a node skinned by skin 0:
// under the Armature as Blender puts it (the Khronos validator warns
// NODE_SKINNED_MESH_NON_ROOT: readers must not apply the Armature to the
// skinned mesh), else at the scene's root.
func (w *writer) addMesh() error {
	doc, m := w.doc, w.mesh
	nv := m.VertexCount()
	pos, nrm := make([][3]float32, nv), make([][3]float32, nv)
	for v := range pos {
		copy(pos[v][:], m.Positions[3*v:])
		copy(nrm[v][:], m.Normals[3*v:])
	}
	wts := make([][4]float32, nv)
	ids := make([][4]uint16, nv)
	for v := range wts {
		copy(wts[v][:], m.BoneWeights[4*v:])
		for i := range ids[v] {
			ids[v][i] = uint16(m.BoneIDs[4*v+i])
		}
	}
	var joints any = ids
	if w.sk.Len() <= 256 { // bytes where they fit, as most exporters write
		b := make([][4]uint8, nv)
		for v := range b {
			for i := range b[v] {
				b[v][i] = uint8(ids[v][i])
			}
		}
		joints = b
	}
	attr := gltf.PrimitiveAttributes{
		gltf.POSITION:  modeler.WritePosition(doc, pos),
		gltf.NORMAL:    modeler.WriteNormal(doc, nrm),
		gltf.JOINTS_0:  modeler.WriteJoints(doc, joints),
		gltf.WEIGHTS_0: modeler.WriteWeights(doc, wts),
	}
	factor := BaseColor
	pbr := &gltf.PBRMetallicRoughness{BaseColorFactor: &factor, MetallicFactor: gltf.Float(0), RoughnessFactor: gltf.Float(0.8)}
	if w.opt.Texture {
		attr[gltf.TEXCOORD_0] = modeler.WriteTextureCoord(doc, uvs(m))
		img, err := w.image()
		if err != nil {
			return err
		}
		doc.Samplers = []*gltf.Sampler{{MagFilter: gltf.MagLinear, MinFilter: gltf.MinLinearMipMapLinear}}
		doc.Textures = []*gltf.Texture{{Name: "base colour", Sampler: gltf.Index(0), Source: gltf.Index(img)}}
		pbr.BaseColorTexture = &gltf.TextureInfo{Index: 0}
	}
	doc.Materials = []*gltf.Material{{Name: "body", PBRMetallicRoughness: pbr}}
	idx := modeler.WriteIndices(doc, m.Indices)
	doc.Meshes = []*gltf.Mesh{{Name: "body", Primitives: []*gltf.Primitive{{Attributes: attr,
		Indices: gltf.Index(idx), Material: gltf.Index(0), Mode: gltf.PrimitiveTriangles}}}}
	node := len(doc.Nodes)
	doc.Nodes = append(doc.Nodes, &gltf.Node{Name: "body", Mesh: gltf.Index(0), Skin: gltf.Index(0),
		Rotation: gltf.DefaultRotation, Scale: gltf.DefaultScale, Matrix: gltf.DefaultMatrix})
	if w.arm >= 0 {
		doc.Nodes[w.arm].Children = append(doc.Nodes[w.arm].Children, node)
	} else {
		doc.Scenes[0].Nodes = append(doc.Scenes[0].Nodes, node)
	}
	return nil
}

// uvs are the mesh's own UVs, else a cylindrical projection about +Y: u
// around the body from behind, v from 0 at the top of the mesh to 1 at
// its bottom (glTF's origin is the image's top left), so the image's top
// half dresses the upper body.
func uvs(m *body.Mesh) [][2]float32 {
	nv := m.VertexCount()
	out := make([][2]float32, nv)
	if len(m.UVs) == 2*nv {
		for v := range out {
			out[v] = [2]float32{m.UVs[2*v], m.UVs[2*v+1]}
		}
		return out
	}
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for v := 0; v < nv; v++ {
		lo, hi = min(lo, m.Positions[3*v+1]), max(hi, m.Positions[3*v+1])
	}
	h := max(hi-lo, 1e-6)
	for v := range out {
		x, y, z := m.Positions[3*v], m.Positions[3*v+1], m.Positions[3*v+2]
		u := 0.5 + math.Atan2(float64(x), float64(z))/(2*math.Pi)
		out[v] = [2]float32{float32(u), (hi - y) / h}
	}
	return out
}

// TopColor and BottomColor are the generated texture's halves (sRGB),
// distinct so that a test or a screenshot sees which half dresses what.
var (
	TopColor    = color.NRGBA{R: 230, G: 120, B: 40, A: 255}
	BottomColor = color.NRGBA{R: 40, G: 90, B: 200, A: 255}
)

// TextureImage is the generated base-colour texture as PNG bytes: 64x64,
// TopColor above BottomColor, each checkered with a darker shade every 8
// pixels so that the UV mapping shows.
func TextureImage() []byte {
	const size, check = 64, 8
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			c := TopColor
			if y >= size/2 {
				c = BottomColor
			}
			if (x/check+y/check)%2 == 1 {
				c.R, c.G, c.B = shade(c.R), shade(c.G), shade(c.B)
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic("gltftest: " + err.Error()) // encoding to memory does not fail
	}
	return b.Bytes()
}

// shade is a colour component three quarters as bright.
func shade(c uint8) uint8 { return uint8(int(c) * 3 / 4) }

// image adds the base-colour image: in a buffer view for GLB, as a data
// URI in a .gltf (the two ways readers must find an embedded image).
func (w *writer) image() (int, error) {
	data, mime := w.mesh.Image, ""
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		mime = "image/png"
	case bytes.HasPrefix(data, []byte{0xff, 0xd8, 0xff}):
		mime = "image/jpeg"
	default:
		data, mime = TextureImage(), "image/png"
	}
	if w.opt.GLB {
		return modeler.WriteImage(w.doc, "base colour", mime, bytes.NewReader(data))
	}
	w.doc.Images = append(w.doc.Images, &gltf.Image{Name: "base colour",
		URI: "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)})
	return len(w.doc.Images) - 1, nil
}

// paths are the properties a joint's channels animate, in file order.
var paths = [...]gltf.TRSProperty{gltf.TRSTranslation, gltf.TRSRotation, gltf.TRSScale}

// animation adds clip c (the i-th) as an animation of its name: per
// joint, the channels that Options say, keyed at baseTimes (each channel
// its own subset with Uneven).
func (w *writer) animation(i int, c *animsys.Clip) error {
	n := w.sk.Len()
	if c.Joints != n {
		return fmt.Errorf("%d joints for a skeleton of %d", c.Joints, n)
	}
	base := baseTimes(c, w.opt.FPS)
	if len(base) >= maxKeys {
		return fmt.Errorf("more than %d keys at %g keys/s", maxKeys, w.opt.FPS)
	}
	moves := w.moves(c, base)
	an := &gltf.Animation{Name: c.Name}
	pose := animsys.NewPose(n)
	for j := 0; j < n; j++ {
		for pi, path := range paths {
			if !moves[j][pi] && !w.always(j, path) {
				continue
			}
			times := base
			if w.opt.Uneven {
				times = uneven(base, rand.New(rand.NewPCG(uint64(i), uint64(3*j+pi))))
			}
			out := w.values(&pose, c, j, path, times)
			in := modeler.WriteAccessor(w.doc, gltf.TargetNone, times)
			w.doc.Accessors[in].Min = []float64{float64(times[0])}
			w.doc.Accessors[in].Max = []float64{float64(times[len(times)-1])}
			an.Samplers = append(an.Samplers, &gltf.AnimationSampler{Input: in,
				Output: modeler.WriteAccessor(w.doc, gltf.TargetNone, out), Interpolation: w.interp})
			an.Channels = append(an.Channels, &gltf.AnimationChannel{Sampler: len(an.Samplers) - 1,
				Target: gltf.AnimationChannelTarget{Node: gltf.Index(j), Path: path}})
		}
	}
	if len(an.Channels) == 0 {
		return errors.New("no channel: the clip holds the bind pose (glTF wants at least one)")
	}
	w.doc.Animations = append(w.doc.Animations, an)
	return nil
}

// always says whether joint j gets a channel on path even where the clip
// never leaves the node's rest value: without Partial, every rotation and
// a root's translation.
func (w *writer) always(j int, path gltf.TRSProperty) bool {
	if w.opt.Partial {
		return false
	}
	return path == gltf.TRSRotation || (path == gltf.TRSTranslation && w.sk.Parents[j] < 0)
}

// moves says, per joint and path, whether the clip leaves the bind value
// (restTol) in some frame or at some key time: where a channel is needed.
func (w *writer) moves(c *animsys.Clip, times []float32) [][3]bool {
	n := w.sk.Len()
	out := make([][3]bool, n)
	pose := animsys.NewPose(n)
	check := func() {
		for j := range out {
			b := w.bind.Kform(j)
			out[j][0] = out[j][0] || maxDiff(pose.Pos[j][:], b.Pos[:]) > restTol
			d := math.Min(maxDiff(quatSlice(pose.Rot[j]), quatSlice(b.Rot)), maxDiff(quatSlice(pose.Rot[j].Scale(-1)), quatSlice(b.Rot)))
			out[j][1] = out[j][1] || d > restTol
			out[j][2] = out[j][2] || maxDiff(pose.Scl[j][:], b.Scl[:]) > restTol
		}
	}
	for f := 0; f < c.Frames; f++ {
		c.Frame(&pose, f)
		check()
	}
	for _, t := range times {
		sampleAt(&pose, c, float64(t))
		check()
	}
	return out
}

func quatSlice(q mgl32.Quat) []float32 { return []float32{q.W, q.V[0], q.V[1], q.V[2]} }

// maxDiff is the largest |a[i] - b[i]|.
func maxDiff(a, b []float32) float64 {
	d := 0.0
	for i := range a {
		d = math.Max(d, math.Abs(float64(a[i]-b[i])))
	}
	return d
}

// uneven is a channel's own key times from base: the anchors (Keys) kept,
// each other key dropped with a probability drawn for the channel (0.1 to
// 0.6) or moved by up to 30% of the interval on its side, so keys stay
// in order.
func uneven(base []float32, r *rand.Rand) []float32 {
	drop := 0.1 + 0.5*r.Float64()
	out := make([]float32, 0, len(base))
	for i, t := range base {
		if anchor(i, len(base)) {
			out = append(out, t)
			continue
		}
		if r.Float64() < drop {
			continue
		}
		u := 0.6*r.Float64() - 0.3
		gap := float64(base[i+1] - t) // i < len-1: the last is an anchor
		if u < 0 {
			gap = float64(t - base[i-1]) // i > 0: the first is an anchor
		}
		out = append(out, float32(float64(t)+u*gap))
	}
	return out
}

// values are joint j's path values at the times, in the file's frame and
// glTF order: for CUBICSPLINE each key's in-tangent, value, out-tangent,
// the tangents the clip's velocity (per second, as the spec's Hermite
// scales tangents by the interval). Rotations stay in one hemisphere from
// key to key, so that LINEAR and CUBICSPLINE take the short way.
func (w *writer) values(pose *animsys.Pose, c *animsys.Clip, j int, path gltf.TRSProperty, times []float32) any {
	cubic := w.interp == gltf.InterpolationCubicSpline
	var v3 [][3]float32
	var v4 [][4]float32
	prev := mgl64.QuatIdent()
	for i, t := range times {
		sampleAt(pose, c, float64(t))
		x := w.node(j, pose.Kform(j))
		switch path {
		case gltf.TRSTranslation, gltf.TRSScale:
			val, tan := x.pos, x.vel
			if path == gltf.TRSScale {
				val = x.scl
				tan = mgl64.Vec3{val[0] * x.svl[0], val[1] * x.svl[1], val[2] * x.svl[2]} // ds/dt = s dlog(s)/dt
			}
			if cubic {
				v3 = append(v3, f32v(tan), f32v(val), f32v(tan))
			} else {
				v3 = append(v3, f32v(val))
			}
		case gltf.TRSRotation:
			q := x.rot.Normalize()
			if i > 0 && q.Dot(prev) < 0 {
				q = q.Scale(-1)
			}
			prev = q
			// dq/dt = (0, omega) q / 2 for omega on the world side (the
			// reader's angular velocity 2 dq/dt q^-1).
			dq := mgl64.Quat{V: x.ang}.Mul(q).Scale(0.5)
			if cubic {
				v4 = append(v4, f32q(dq), f32q(q), f32q(dq))
			} else {
				v4 = append(v4, f32q(q))
			}
		}
	}
	if path == gltf.TRSRotation {
		return v4
	}
	return v3
}

// save writes the document: GLB with its buffer as the binary chunk, or
// glTF with the buffer as a data URI.
func (w *writer) save(path string) error {
	if len(w.doc.Buffers) == 0 {
		return errors.New("nothing to write")
	}
	b := w.doc.Buffers[0]
	if w.opt.GLB {
		b.URI = ""
		return gltf.SaveBinary(w.doc, path)
	}
	b.EmbeddedResource()
	return gltf.Save(w.doc, path)
}

func v64(v mgl32.Vec3) mgl64.Vec3 { return mgl64.Vec3{float64(v[0]), float64(v[1]), float64(v[2])} }

func q64(q mgl32.Quat) mgl64.Quat {
	return mgl64.Quat{W: float64(q.W), V: v64(q.V)}
}

func m64(m mgl32.Mat4) mgl64.Mat4 {
	var r mgl64.Mat4
	for i, x := range m {
		r[i] = float64(x)
	}
	return r
}

func f32v(v mgl64.Vec3) [3]float32 { return [3]float32{float32(v[0]), float32(v[1]), float32(v[2])} }

// f32q is q in glTF order x, y, z, w.
func f32q(q mgl64.Quat) [4]float32 {
	return [4]float32{float32(q.V[0]), float32(q.V[1]), float32(q.V[2]), float32(q.W)}
}

// gltfQuat is q as a node rotation, x, y, z, w.
func gltfQuat(q mgl64.Quat) [4]float64 { return [4]float64{q.V[0], q.V[1], q.V[2], q.W} }
