package gltf

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"kinelab/animsys/mathx/mathx64"
)

// Fixtures are glTF documents built in memory with the library's API and
// written to a test's temporary folder.

// fx builds a document.
type fx struct {
	doc *gltf.Document
	rng *rand.Rand
}

func newFx(seed uint64) *fx {
	return &fx{doc: gltf.NewDocument(), rng: rand.New(rand.NewPCG(seed, 7))}
}

// node adds a node and returns its index.
func (f *fx) node(n *gltf.Node) int {
	if n.Matrix == [16]float64{} {
		n.Matrix = gltf.DefaultMatrix
	}
	if n.Rotation == [4]float64{} {
		n.Rotation = gltf.DefaultRotation
	}
	if n.Scale == [3]float64{} {
		n.Scale = gltf.DefaultScale
	}
	f.doc.Nodes = append(f.doc.Nodes, n)
	return len(f.doc.Nodes) - 1
}

func (f *fx) child(parent, child int) {
	f.doc.Nodes[parent].Children = append(f.doc.Nodes[parent].Children, child)
}

func (f *fx) acc(data any) int { return modeler.WriteAccessor(f.doc, gltf.TargetNone, data) }

// channel adds a channel on node's path to animation a (created on first
// use), with the sampler's output written as values.
func (f *fx) channel(a int, node int, path gltf.TRSProperty, interp gltf.Interpolation, times []float32, values any) {
	for len(f.doc.Animations) <= a {
		f.doc.Animations = append(f.doc.Animations, &gltf.Animation{Name: "anim" + string(rune('A'+len(f.doc.Animations)))})
	}
	an := f.doc.Animations[a]
	an.Samplers = append(an.Samplers, &gltf.AnimationSampler{Input: f.acc(times), Output: f.acc(values), Interpolation: interp})
	an.Channels = append(an.Channels, &gltf.AnimationChannel{Sampler: len(an.Samplers) - 1,
		Target: gltf.AnimationChannelTarget{Node: gltf.Index(node), Path: path}})
}

// randQuat is a random unit quaternion (x, y, z, w) within about angle
// rad of prev, on prev's side, or anywhere for a nil prev.
func (f *fx) randQuat(prev *[4]float32, angle float64) [4]float32 {
	var q mathx64.Quat
	if prev == nil {
		q = mathx64.Quat{W: f.rng.NormFloat64(), X: f.rng.NormFloat64(), Y: f.rng.NormFloat64(), Z: f.rng.NormFloat64()}.Normalize()
	} else {
		p := mathx64.Quat{W: float64(prev[3]), X: float64(prev[0]), Y: float64(prev[1]), Z: float64(prev[2])}
		d := mathx64.Vec3{f.rng.NormFloat64(), f.rng.NormFloat64(), f.rng.NormFloat64()}.Scale(angle / 2)
		q = mathx64.QuatExp(d).Mul(p)
	}
	return [4]float32{float32(q.X), float32(q.Y), float32(q.Z), float32(q.W)}
}

func (f *fx) randVec(lo, hi float64) [3]float32 {
	var v [3]float32
	for i := range v {
		v[i] = float32(lo + (hi-lo)*f.rng.Float64())
	}
	return v
}

// keys is the fixtures' non-uniform key times (s): intervals from 0.05 s
// to 0.5 s.
var keys = []float32{0, 0.1, 0.35, 0.4, 0.9, 1.3}

// animate gives node a channel of each listed path with random keys in
// interpolation interp. Rotations turn up to about 2 rad between keys; one
// key is negated (the same rotation: LINEAR must still take the short
// way); scales stay in [0.5, 1.5].
func (f *fx) animate(a, node int, interp gltf.Interpolation, paths ...gltf.TRSProperty) {
	n := len(keys)
	per := 1
	if interp == gltf.InterpolationCubicSpline {
		per = 3
	}
	for _, p := range paths {
		switch p {
		case gltf.TRSRotation:
			out := make([][4]float32, 0, per*n)
			var prev *[4]float32
			for k := 0; k < n; k++ {
				q := f.randQuat(prev, 1.5)
				prev = &q
				v := q
				if k == 2 && interp != gltf.InterpolationCubicSpline {
					v = [4]float32{-q[0], -q[1], -q[2], -q[3]}
				}
				if per == 3 {
					out = append(out, f.randQuat4(0.8), v, f.randQuat4(0.8))
				} else {
					out = append(out, v)
				}
			}
			f.channel(a, node, p, interp, keys, out)
		default:
			lo, hi := float64(-0.5), 0.5
			if p == gltf.TRSScale {
				lo, hi = 0.5, 1.5
			}
			out := make([][3]float32, 0, per*n)
			for k := 0; k < n; k++ {
				v := f.randVec(lo, hi)
				if per == 3 {
					out = append(out, f.randVec(-1, 1), v, f.randVec(-1, 1))
				} else {
					out = append(out, v)
				}
			}
			f.channel(a, node, p, interp, keys, out)
		}
	}
}

// randQuat4 is a random tangent: four components in [-s, s] (per second).
func (f *fx) randQuat4(s float64) [4]float32 {
	var v [4]float32
	for i := range v {
		v[i] = float32(s * (2*f.rng.Float64() - 1))
	}
	return v
}

// nodeMatrix is node n's local matrix (column major) from its TRS or
// matrix, by mgl32: independent of the package's kineform algebra.
func nodeMatrix(n *gltf.Node, t, r, s *[4]float64) mgl32.Mat4 {
	if n.Matrix != gltf.DefaultMatrix && n.Matrix != [16]float64{} && t == nil && r == nil && s == nil {
		var m mgl32.Mat4
		for i := range m {
			m[i] = float32(n.Matrix[i])
		}
		return m
	}
	tr, rot, scl := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
	if n.Matrix != gltf.DefaultMatrix && n.Matrix != [16]float64{} {
		k, _ := decompose(n.Matrix)
		tr, scl = k.pos, k.scl
		rot = [4]float64{k.rot.X, k.rot.Y, k.rot.Z, k.rot.W}
	}
	if t != nil {
		tr = [3]float64{t[0], t[1], t[2]}
	}
	if r != nil {
		rot = *r
	}
	if s != nil {
		scl = [3]float64{s[0], s[1], s[2]}
	}
	q := mgl32.Quat{W: float32(rot[3]), V: mgl32.Vec3{float32(rot[0]), float32(rot[1]), float32(rot[2])}}.Normalize()
	return mgl32.Translate3D(float32(tr[0]), float32(tr[1]), float32(tr[2])).
		Mul4(q.Mat4()).Mul4(mgl32.Scale3D(float32(scl[0]), float32(scl[1]), float32(scl[2])))
}

// skinned adds skin 0 over joints (node indices) with inverse bind
// matrices the inverse of their rest world matrices (unless noIBM), and a
// mesh node using it: a triangle per joint, each vertex weighted between
// joints.
func (f *fx) skinned(joints []int, noIBM bool) {
	sk := &gltf.Skin{Name: "skin", Joints: joints}
	if !noIBM {
		ibm := make([][4][4]float32, len(joints))
		for k, n := range joints {
			w := f.world(n, nil).Inv()
			for r := 0; r < 4; r++ {
				for c := 0; c < 4; c++ {
					ibm[k][r][c] = w.At(r, c) // the library's [row][column]
				}
			}
		}
		sk.InverseBindMatrices = gltf.Index(f.acc(ibm))
	}
	f.doc.Skins = append(f.doc.Skins, sk)
	var pos [][3]float32
	var jts [][4]uint16
	var wts [][4]float32
	var idx []uint16
	for k := range joints {
		for v := 0; v < 3; v++ {
			pos = append(pos, f.randVec(-1, 1))
			jts = append(jts, [4]uint16{uint16(k), uint16((k + 1) % len(joints)), 0, 0})
			wts = append(wts, [4]float32{0.75, 0.5, 0, 0}) // sums to 1.25: normalised on load
			idx = append(idx, uint16(len(idx)))
		}
	}
	prim := &gltf.Primitive{Attributes: gltf.PrimitiveAttributes{
		gltf.POSITION: f.acc(pos), gltf.JOINTS_0: f.acc(jts), gltf.WEIGHTS_0: f.acc(wts)},
		Indices: gltf.Index(f.acc(idx))}
	f.doc.Meshes = append(f.doc.Meshes, &gltf.Mesh{Name: "body", Primitives: []*gltf.Primitive{prim}})
	f.doc.Materials = append(f.doc.Materials, &gltf.Material{Name: "m",
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &[4]float64{0.5, 0.25, 1, 1}}})
	prim.Material = gltf.Index(0)
	m := f.node(&gltf.Node{Name: "body", Mesh: gltf.Index(0), Skin: gltf.Index(0)})
	f.doc.Scenes[0].Nodes = append(f.doc.Scenes[0].Nodes, m)
}

// world is node n's world matrix, with each node's TRS overridden by
// trs(node) where it gives one (nil: the rest pose).
func (f *fx) world(n int, trs func(node int) (t, r, s *[4]float64)) mgl32.Mat4 {
	parent := map[int]int{}
	for i, nd := range f.doc.Nodes {
		for _, c := range nd.Children {
			parent[c] = i
		}
	}
	local := func(i int) mgl32.Mat4 {
		var t, r, s *[4]float64
		if trs != nil {
			t, r, s = trs(i)
		}
		return nodeMatrix(f.doc.Nodes[i], t, r, s)
	}
	m := local(n)
	for {
		p, ok := parent[n]
		if !ok {
			return m
		}
		n = p
		m = local(n).Mul4(m)
	}
}

// save writes the document as name (.gltf with the buffer embedded,
// .glb, or .gltf with an external .bin when bin is set) in dir.
func (f *fx) save(t testing.TB, dir, name string, bin bool) string {
	t.Helper()
	path := filepath.Join(dir, name)
	b := f.doc.Buffers[0]
	switch {
	case filepath.Ext(name) == ".glb":
		b.URI = ""
		if err := gltf.SaveBinary(f.doc, path); err != nil {
			t.Fatal(err)
		}
		return path
	case bin:
		b.URI = name[:len(name)-len(filepath.Ext(name))] + ".bin"
	default:
		b.EmbeddedResource()
	}
	if err := gltf.Save(f.doc, path); err != nil {
		t.Fatal(err)
	}
	b.URI = ""
	return path
}

// chain3 adds the fixtures' usual figure: a root node "Armature" holding
// joints Hips > Spine > Head, in the scene. It returns the node indices.
func (f *fx) chain3() (arm, hips, spine, head int) {
	arm = f.node(&gltf.Node{Name: "Armature"})
	hips = f.node(&gltf.Node{Name: "Hips", Translation: [3]float64{0, 1, 0}})
	spine = f.node(&gltf.Node{Name: "Spine", Translation: [3]float64{0, 0.3, 0.01}})
	head = f.node(&gltf.Node{Name: "Head", Translation: [3]float64{0.02, 0.4, 0}, Rotation: [4]float64{0, 0.3826834, 0, 0.9238795}})
	f.child(arm, hips)
	f.child(hips, spine)
	f.child(spine, head)
	f.doc.Scenes[0].Nodes = []int{arm}
	return
}

// fixture is a named document and what it exercises.
type fixture struct {
	name string
	f    *fx
	mode string // the interpolation its channels use, for reporting
}

var interps = []struct {
	name string
	i    gltf.Interpolation
}{{"STEP", gltf.InterpolationStep}, {"LINEAR", gltf.InterpolationLinear}, {"CUBICSPLINE", gltf.InterpolationCubicSpline}}

// fixtures builds every fixture.
func fixtures() []fixture {
	var out []fixture
	all := []gltf.TRSProperty{gltf.TRSTranslation, gltf.TRSRotation, gltf.TRSScale}
	for i, m := range interps {
		// One per interpolation: every path on every joint.
		f := newFx(uint64(i + 1))
		_, hips, spine, head := f.chain3()
		for _, n := range []int{hips, spine, head} {
			f.animate(0, n, m.i, all...)
		}
		f.animate(1, spine, m.i, gltf.TRSRotation) // a second clip, one joint
		f.skinned([]int{hips, spine, head}, false)
		out = append(out, fixture{"interp_" + m.name, f, m.name})
	}
	{
		// A Z-up to Y-up root with a 0.01 scale (a centimetre rig): folded
		// into Hips, whose animated translation and rotation it rotates and
		// scales.
		f := newFx(10)
		arm, hips, spine, head := f.chain3()
		f.doc.Nodes[arm].Rotation = [4]float64{-math.Sqrt2 / 2, 0, 0, math.Sqrt2 / 2}
		f.doc.Nodes[arm].Scale = [3]float64{0.01, 0.01, 0.01}
		f.doc.Nodes[hips].Translation = [3]float64{0, 0, 100}
		f.animate(0, hips, gltf.InterpolationLinear, all...)
		f.animate(0, head, gltf.InterpolationCubicSpline, gltf.TRSRotation)
		f.skinned([]int{hips, spine, head}, false)
		out = append(out, fixture{"zup_root", f, "LINEAR+CUBICSPLINE"})
	}
	{
		// Joints listed, and stored, children first.
		f := newFx(11)
		head := f.node(&gltf.Node{Name: "Head", Translation: [3]float64{0, 0.4, 0}})
		spine := f.node(&gltf.Node{Name: "Spine", Translation: [3]float64{0, 0.3, 0}, Children: []int{head}})
		hips := f.node(&gltf.Node{Name: "Hips", Translation: [3]float64{0, 1, 0}, Children: []int{spine}})
		f.doc.Scenes[0].Nodes = []int{hips}
		f.animate(0, head, gltf.InterpolationLinear, gltf.TRSRotation)
		f.animate(0, hips, gltf.InterpolationLinear, gltf.TRSTranslation)
		f.skinned([]int{head, hips, spine}, false)
		out = append(out, fixture{"joint_order", f, "LINEAR"})
	}
	{
		// Channels on non-joint nodes: the Armature above the skeleton and
		// an Offset node between Hips and Spine (both folded), and a Prop
		// hanging from Head (ignored).
		f := newFx(12)
		arm, hips, spine, head := f.chain3()
		f.doc.Nodes[hips].Children = nil
		off := f.node(&gltf.Node{Name: "Offset", Translation: [3]float64{0.1, 0, 0}, Rotation: [4]float64{0, 0, 0.258819, 0.9659258}, Children: []int{spine}})
		f.child(hips, off)
		prop := f.node(&gltf.Node{Name: "Prop"})
		f.child(head, prop)
		f.animate(0, arm, gltf.InterpolationLinear, gltf.TRSTranslation, gltf.TRSRotation)
		f.doc.Nodes[arm].Scale = [3]float64{2, 2, 2}
		f.animate(0, off, gltf.InterpolationCubicSpline, gltf.TRSRotation)
		f.animate(0, spine, gltf.InterpolationLinear, gltf.TRSRotation, gltf.TRSScale)
		f.animate(0, prop, gltf.InterpolationLinear, gltf.TRSTranslation)
		f.skinned([]int{hips, spine, head}, false)
		out = append(out, fixture{"nonjoint_channels", f, "LINEAR+CUBICSPLINE"})
	}
	{
		// Node matrices: a root with a uniform scale and a turn, a joint
		// with a non-uniform scale (allowed on a joint).
		f := newFx(13)
		arm, hips, spine, head := f.chain3()
		rot := mgl32.HomogRotate3DY(0.7)
		f.doc.Nodes[arm].Matrix = mat64(mgl32.Translate3D(0.5, 0, -1).Mul4(rot).Mul4(mgl32.Scale3D(1.5, 1.5, 1.5)))
		f.doc.Nodes[spine].Matrix = mat64(mgl32.Translate3D(0, 0.3, 0).Mul4(mgl32.HomogRotate3DX(0.4)).Mul4(mgl32.Scale3D(1, 1.2, 0.9)))
		f.doc.Nodes[spine].Translation = [3]float64{}
		f.animate(0, hips, gltf.InterpolationLinear, gltf.TRSRotation)
		f.animate(0, head, gltf.InterpolationLinear, gltf.TRSRotation)
		f.skinned([]int{hips, spine, head}, false)
		out = append(out, fixture{"matrix_nodes", f, "LINEAR"})
	}
	{
		// Rotations as normalised shorts (Hips) and bytes (Spine), and no
		// inverse bind matrices (identity).
		f := newFx(14)
		_, hips, spine, head := f.chain3()
		for _, n := range []int{hips, spine} {
			var s [][4]int16
			var b [][4]int8
			var prev *[4]float32
			for range keys {
				q := f.randQuat(prev, 1)
				prev = &q
				s = append(s, [4]int16{gltf.NormalizeShort(q[0]), gltf.NormalizeShort(q[1]), gltf.NormalizeShort(q[2]), gltf.NormalizeShort(q[3])})
				b = append(b, [4]int8{gltf.NormalizeByte(q[0]), gltf.NormalizeByte(q[1]), gltf.NormalizeByte(q[2]), gltf.NormalizeByte(q[3])})
			}
			if n == hips {
				f.channel(0, n, gltf.TRSRotation, gltf.InterpolationLinear, keys, s)
			} else {
				f.channel(0, n, gltf.TRSRotation, gltf.InterpolationLinear, keys, b)
			}
			a := f.doc.Animations[0]
			f.doc.Accessors[a.Samplers[len(a.Samplers)-1].Output].Normalized = true
		}
		f.animate(0, head, gltf.InterpolationStep, gltf.TRSScale)
		f.skinned([]int{hips, spine, head}, true)
		out = append(out, fixture{"normalised_rotations", f, "LINEAR"})
	}
	{
		// A sparse translation output: zeros but for keys 1 and 4.
		f := newFx(15)
		_, hips, spine, head := f.chain3()
		vals := modeler.WriteBufferView(f.doc, gltf.TargetNone, [][3]float32{{0.1, 0.2, 0.3}, {-0.3, 0.1, 0.5}})
		ind := modeler.WriteBufferView(f.doc, gltf.TargetNone, []uint16{1, 4})
		f.doc.Accessors = append(f.doc.Accessors, &gltf.Accessor{ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: len(keys),
			Sparse: &gltf.Sparse{Count: 2, Indices: gltf.SparseIndices{BufferView: ind, ComponentType: gltf.ComponentUshort},
				Values: gltf.SparseValues{BufferView: vals}}})
		out0 := len(f.doc.Accessors) - 1
		f.doc.Animations = []*gltf.Animation{{Name: "sparse",
			Samplers: []*gltf.AnimationSampler{{Input: f.acc(keys), Output: out0}},
			Channels: []*gltf.AnimationChannel{{Sampler: 0, Target: gltf.AnimationChannelTarget{Node: gltf.Index(spine), Path: gltf.TRSTranslation}}}}}
		f.skinned([]int{hips, spine, head}, false)
		out = append(out, fixture{"sparse", f, "LINEAR"})
	}
	return out
}

// mat64 is m as a glTF node matrix.
func mat64(m mgl32.Mat4) [16]float64 {
	var r [16]float64
	for i, x := range m {
		r[i] = float64(x)
	}
	return r
}

// loaded is a fixture written as .gltf (embedded buffer) and read back.
func (fx fixture) load(t testing.TB) *Asset {
	t.Helper()
	a, err := Open(fx.f.save(t, t.TempDir(), fx.name+".gltf", false))
	if err != nil {
		t.Fatalf("%s: %v", fx.name, err)
	}
	return a
}

// sharedFiles are the glTF files in ../shared/gltf, nil (and the test
// told why) if there are none.
func sharedFiles(t *testing.T) []string {
	dir := filepath.Join("..", "..", "..", "shared", "gltf")
	var files []string
	for _, pat := range []string{"*.gltf", "*.glb"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		files = append(files, m...)
	}
	if len(files) == 0 {
		if _, err := os.Stat(dir); err != nil {
			t.Logf("no shared glTF files: %v", err)
		} else {
			t.Logf("no shared glTF files in %s", dir)
		}
	}
	return files
}
