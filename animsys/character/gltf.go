package character

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/body"
	"kinelab/animsys/gltf"
	"kinelab/animsys/humanoid"

	"kinelab/animsys/words"
)

// GLTFFPS is the rate (frames/s) a glTF clip's curves are resampled at
// for what reads frames; sampling itself is exact (animsys.Clip.Curves).
const GLTFFPS = 60

// IsGLTF says whether path names a glTF file (.gltf or .glb), which Load
// reads as a character of its own; a file with no known extension is
// one if its content starts as GLB or JSON.
func IsGLTF(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".gltf", ".glb":
		return true
	case ".bvh":
		return false
	}
	return sniff(path) == "gltf"
}

// LoadGLTF reads a glTF 2.0 file (gltf.Open) into a character: its
// skeleton, every animation as a clip sampled exactly from its curves,
// and its own skinned mesh (Character.Mesh). As for a BVH file, the
// Entity (joint 0) carries the hips' ground projection as root motion,
// exactly: position and velocity taken from the hips' global kineform
// (rootedCurves). The clip the labs open on is the first whose name says
// walk, else move, run or idle, else the first.
func LoadGLTF(path string) (*Character, error) {
	a, err := gltf.Open(path)
	if err != nil {
		return nil, err
	}
	ch, err := fromGLTF(a, path)
	if err != nil {
		return nil, err
	}
	ch.Files = []string{path}
	return ch, nil
}

// FromGLTF is LoadGLTF of a read asset; its errors name the asset.
func FromGLTF(a *gltf.Asset) (*Character, error) { return fromGLTF(a, a.Name) }

// fromGLTF builds the character; its errors begin "file: ". Each clip is
// built once: the hips the Entity follows are found first (gltfHips), on
// frames sampled from the start animation's curves, then each clip is
// made from its curves, re-rooted (rootedCurves) when there are hips to
// follow. The figure read there is the character's: re-rooting moves
// only the Entity, a root on the floor either way, so the figure is read
// once.
func fromGLTF(a *gltf.Asset, file string) (*Character, error) {
	if len(a.Anims) == 0 {
		return nil, fmt.Errorf("%s: no animation: kinelab's labs play clips", file)
	}
	ch := &Character{Name: a.Name, Skel: a.Skel, root: -1}
	n := a.Skel.Len()
	names := make([]string, len(a.Anims))
	for i, an := range a.Anims {
		names[i] = cmp.Or(an.Name, fmt.Sprintf("%s %d", a.Name, i))
	}
	ch.Start = startClip(names)
	fig, hips := ch.gltfHips(a.Anims[ch.Start])
	var chain []int // the joints from the Entity's child down to the hips
	if hips > 0 {
		chain = chainTo(a.Skel.Parents, hips)
	}
	for i, an := range a.Anims {
		var cv animsys.Curves = an
		if chain != nil {
			cv = &rootedCurves{src: an, parents: a.Skel.Parents, chain: chain}
		}
		ch.Clips = append(ch.Clips, animsys.CurvesClip(names[i], cv, n, an.Duration, GLTFFPS))
	}
	ch.Figure = &fig
	ch.Notes = append(ch.Notes, "glTF: "+words.Count(len(ch.Clips), "clip")+" sampled exactly from their curves ("+curveKinds(a)+")")
	if !fig.Human {
		ch.Notes = append(ch.Notes, ch.NotHuman())
	}
	ch.Notes = append(ch.Notes, a.Notes...)
	if a.Mesh != nil {
		m, err := ownMesh(a)
		if err != nil {
			ch.Notes = append(ch.Notes, "its mesh is not drawn, a generated body is: "+err.Error())
		} else {
			ch.Mesh = m
		}
	}
	ch.roles()
	ch.Additive = nodAdditive(ch)
	ch.standing()
	if ch.Size > maxMetreFigure || ch.Size < minMetreFigure {
		ch.Unit = "units"
		ch.Notes = append(ch.Notes, fmt.Sprintf("the figure is %.3g long: no body in metres, as glTF's lengths are meant; lengths are shown in the file's units", ch.Size))
	}
	ch.fitPaths()
	return ch, nil
}

// The sizes (m) of a figure glTF's metres fit: a mouse to a giraffe. A
// figure outside them was authored in other units, which the file does not
// say.
const (
	minMetreFigure = 0.05
	maxMetreFigure = 10
)

// gltfHips reads the skeleton as a figure (as read does) on animation
// an as it is in the file, with the Entity at the identity, and returns
// it with its hips, 0 when it does not read as a human (the Entity then
// carries no root motion). The frames are those read would measure on
// an.Clip(GLTFFPS) (humanoid.ClipFrames, up to 48 of them), sampled from
// an's curves at their times without building the clip.
func (c *Character) gltfHips(an *gltf.Anim) (humanoid.Figure, int) {
	var at frameTimes
	animsys.CurvesClip("", &at, 0, an.Duration, GLTFFPS) // no joints: the clip's frame times only
	n := c.Skel.Len()
	local, global := animsys.NewPose(n), animsys.NewPose(n)
	k := min(figureFrames, len(at))
	frames := make([][]mgl32.Vec3, k)
	for i := range frames {
		fr := 0
		if k > 1 {
			fr = i * (len(at) - 1) / (k - 1)
		}
		an.SampleCurves(&local, at[fr])
		animsys.FKStatic(&global, &local, c.Skel.Parents)
		frames[i] = append([]mgl32.Vec3(nil), global.Pos...)
	}
	fig := c.readFrames(frames)
	if !fig.Human {
		return fig, 0
	}
	return fig, fig.Hips
}

// frameTimes records the times (s) curves are sampled at: made the
// curves of a clip of no joints, it learns the times of the frames
// animsys.CurvesClip would sample, at no cost and exactly.
type frameTimes []float64

// SampleCurves implements animsys.Curves for a clip of no joints.
func (ts *frameTimes) SampleCurves(_ *animsys.Pose, t float64) { *ts = append(*ts, t) }

// startClip is the clip a glTF character opens on: the first whose name
// says walk, else move, run or idle (case aside), else the first.
func startClip(names []string) int {
	for _, word := range []string{"walk", "move", "run", "idle"} {
		for i, name := range names {
			if strings.Contains(strings.ToLower(name), word) {
				return i
			}
		}
	}
	return 0
}

// curveKinds says which interpolations the asset's channels use.
func curveKinds(a *gltf.Asset) string {
	count := map[string]int{}
	var order []string
	for _, an := range a.Anims {
		for _, c := range an.Channels {
			k := c.Interp.String()
			if count[k] == 0 {
				order = append(order, k)
			}
			count[k]++
		}
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = fmt.Sprintf("%d %s", count[k], k)
	}
	return strings.Join(parts, ", ") + " channels"
}

// rootedCurves are a glTF animation on a character whose Entity (joint 0,
// the identity in the file) carries the hips' ground projection exactly,
// position and velocity (reroot on every sample).
type rootedCurves struct {
	src     animsys.CurvesEnd
	parents []int
	chain   []int // the joints from the Entity's child down to the hips
}

// SampleCurves implements animsys.Curves. It reads only its fields, so
// goroutines may share it.
func (r *rootedCurves) SampleCurves(out *animsys.Pose, t float64) {
	r.src.SampleCurves(out, t)
	reroot(out, r.parents, r.chain)
}

// reroot makes local pose p's Entity (joint 0, at the identity) carry the
// hips' ground projection as root motion, for BVH frames (rootedClip) and
// glTF curves (rootedCurves) alike: the hips' global kineform (kform_mul
// down chain, the joints from the Entity's child to the hips) with y
// zeroed, position and velocity; the joints hanging from the Entity move
// back by as much, so every global transform and velocity is unchanged.
func reroot(p *animsys.Pose, parents, chain []int) {
	g := p.Kform(0)
	for _, j := range chain {
		g = animsys.KformMul(g, p.Kform(j))
	}
	e := mgl32.Vec3{g.Pos[0], 0, g.Pos[2]}
	ev := mgl32.Vec3{g.Vel[0], 0, g.Vel[2]}
	for j, pj := range parents {
		if pj == 0 {
			p.Pos[j], p.Vel[j] = p.Pos[j].Sub(e), p.Vel[j].Sub(ev)
		}
	}
	p.Pos[0], p.Vel[0] = e, ev
}

// End is the animation's end (animsys.CurvesEnd).
func (r *rootedCurves) End() float64 { return r.src.End() }

// SampleCurvesEnd implements animsys.CurvesEnd: the end approached from
// inside, re-rooted.
func (r *rootedCurves) SampleCurvesEnd(out *animsys.Pose) {
	r.src.SampleCurvesEnd(out)
	reroot(out, r.parents, r.chain)
}

// Piece implements animsys.CurvePieces: the animation's pieces (the
// Entity moves with the hips, so it breaks where they do).
func (r *rootedCurves) Piece(t float64) int {
	if p, ok := r.src.(animsys.CurvePieces); ok {
		return p.Piece(t)
	}
	return 0
}

// ownMesh is the asset's skinned mesh as a body mesh: skeleton-indexed
// bones, the identity as inverse bind for joints outside the skin, its
// UVs, base colours (linear in the file, sRGB bytes here) and texture.
func ownMesh(a *gltf.Asset) (*body.Mesh, error) {
	src := a.Mesh
	nv := len(src.Pos)
	if nv > math.MaxUint16+1 {
		return nil, fmt.Errorf("%d vertices; the renderer's 16-bit indices take 65,536", nv)
	}
	m := &body.Mesh{
		Positions:   make([]float32, 0, 3*nv),
		Normals:     make([]float32, 0, 3*nv),
		Indices:     make([]uint16, len(src.Indices)),
		BoneIDs:     make([]float32, 0, 4*nv),
		BoneWeights: make([]float32, 0, 4*nv),
		BindInv:     make([]mgl32.Mat4, a.Skel.Len()),
		UVs:         make([]float32, 0, 2*nv),
		Colors:      make([]uint8, 0, 4*nv),
		Image:       src.Image,
	}
	for v := 0; v < nv; v++ {
		p, nr := src.Pos[v], src.Normal[v]
		m.Positions = append(m.Positions, p[0], p[1], p[2])
		m.Normals = append(m.Normals, nr[0], nr[1], nr[2])
		for k := 0; k < 4; k++ {
			m.BoneIDs = append(m.BoneIDs, float32(src.Joints[v][k]))
			m.BoneWeights = append(m.BoneWeights, src.Weights[v][k])
		}
		var uv mgl32.Vec2
		if v < len(src.UV) {
			uv = src.UV[v]
		}
		m.UVs = append(m.UVs, uv[0], uv[1])
		c := mgl32.Vec4{1, 1, 1, 1}
		if v < len(src.Color) {
			c = src.Color[v]
		}
		m.Colors = append(m.Colors, srgbByte(c[0]), srgbByte(c[1]), srgbByte(c[2]), unitByte(c[3]))
	}
	for i, x := range src.Indices {
		m.Indices[i] = uint16(x)
	}
	for j := range m.BindInv {
		m.BindInv[j] = mgl32.Ident4()
	}
	for k, j := range a.Joint {
		m.BindInv[j] = a.InverseBind[k]
	}
	if src.Image == nil {
		m.UVs = nil
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// srgbByte encodes a linear colour component (0 to 1) as an sRGB byte:
// glTF's base colour factors are linear, the renderer's colours are
// display values.
func srgbByte(c float32) uint8 {
	x := float64(min(max(c, 0), 1))
	if x <= 0.0031308 {
		x *= 12.92
	} else {
		x = 1.055*math.Pow(x, 1/2.4) - 0.055
	}
	return uint8(math.Round(255 * x))
}

// unitByte is an alpha (0 to 1) as a byte.
func unitByte(c float32) uint8 { return uint8(math.Round(255 * float64(min(max(c, 0), 1)))) }

// chainTo is the joints from the root's child down to j, in order.
func chainTo(parents []int, j int) []int {
	var up []int
	for ; j > 0; j = parents[j] {
		up = append(up, j)
	}
	slices.Reverse(up)
	return up
}
