// Package gltf reads glTF 2.0 characters (.gltf with embedded or external
// buffers, and .glb) into kinelab's skeleton, rest pose, skinned mesh and
// animations, and samples those animations exactly as the glTF 2.0
// specification defines them, with the analytic time derivatives kinelab
// poses carry (propagating-velocities: velocities sampled, not guessed).
//
// The skeleton is joint 0, the Entity (an identity root at the ground, as
// every kinelab character has), then the first skin's joints, parents
// before children, each hanging from its nearest ancestor node that is a
// joint, else from the Entity. The transforms of the nodes between a
// joint and that ancestor (an Armature node with a Z-up to Y-up rotation
// or a 0.01 scale, a file's root node, a group) are folded into the
// joint's local transform, left-multiplied in order, so the skeleton's
// global transforms are the file's world transforms. Folded nodes must
// have a uniform scale: kinelab's kineforms scale per axis without
// rotating the scale (animsys.KformMul), which agrees with matrix
// composition only for uniform scales, so a non-uniform scale on a folded
// node is refused with an error. Channels that animate a folded node are
// folded too: sampled, and composed with velocities (a moving parent frame
// adds its angular velocity, the leverage and the expansion of its
// scale). Channels on other nodes (cameras, lights, meshes, a second
// skin), morph-target weights and KHR_animation_pointer are ignored, and
// Notes say how many.
//
// A file with no skin (node animation only) reads every node as a joint,
// with no mesh.
package gltf

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"kinelab/animsys/words"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"

	"kinelab/animsys"
	"kinelab/animsys/internal/regular"
	"kinelab/animsys/mathx/mathx64"
)

// maxChainNodes bounds the nodes of all the joints' chains together (each
// joint and the non-joint nodes above it up to its parent joint): far more
// than any character, and a bound on the work a corrupt hierarchy makes.
const maxChainNodes = 1 << 20

// minKeyInterval (s) bounds the interval between two keys at different
// times from below, 10 times finer than the finest BVH frame time kinelab
// reads (bvh.MinFrameTime): a velocity is a difference of values over the
// interval, and values within maxValue over a shorter one (float32 times
// near 0 can differ by 1e-45 s) would reach Inf.
const minKeyInterval = 1e-5

// maxKeyTime bounds key times (s): an hour of animation, far beyond any
// clip, so that a corrupt time cannot make Clip allocate without bound.
const maxKeyTime = 3600

// Asset is a glTF character.
type Asset struct {
	Name string // the file's base name without extension
	// Skel is the Entity at 0, then the skin's joints; Offsets are the
	// rest local translations (m), Names the nodes' names, Bind the rest
	// pose (the node transforms: a glTF rest pose has its rotations).
	Skel animsys.Skeleton
	// Node is each skeleton joint's glTF node, -1 for the Entity.
	Node []int
	// Joint[k] is the skeleton index of skin joint k: skinning matrix k
	// is global(Joint[k]) InverseBind[k]. Nil without a skin.
	Joint []int
	// InverseBind holds each skin joint's inverse bind matrix (column
	// major), as in the file; the identity where the file has none (section
	// 3.7.3.1).
	InverseBind []mgl32.Mat4
	// Rest is the local rest pose: each joint's folded node transform
	// (velocities 0).
	Rest  animsys.Pose
	Anims []*Anim
	// Mesh is the first skin's mesh (every primitive of every node skinned
	// by it, merged), nil if none.
	Mesh  *Mesh
	Notes []string

	// How each joint's local transform was read from its node, which
	// writing undoes (NodeLocal): fold is the rest transform of the
	// non-joint nodes above the joint's node, below its parent joint;
	// units and roots the uniform scale baked out (builder.units).
	fold  []kf
	units []float64
	roots []bool
}

// Open reads a glTF or GLB file. External buffers and images resolve
// beside it. Errors are "path: what"; a path that is no regular file (a
// FIFO, a device), or a file, buffer or image over its limit (package
// regular), is refused by name, and so is a GLB file whose header says it
// is longer than it is.
func Open(path string) (*Asset, error) {
	f, err := regular.OpenLimit(path, regular.MaxGLTF, "a glTF file")
	if err != nil {
		return nil, err // *PathError: "open path: ..."
	}
	defer f.Close()
	if err := checkGLB(f, path); err != nil {
		return nil, err
	}
	return Read(f, path, filepath.Dir(path))
}

// checkGLB refuses a file that starts as a GLB file (the magic "glTF") but
// is shorter than its header, or than the length the header gives: a
// truncated file, which the decoder would otherwise read as JSON
// ("invalid character 'g'") or as a short chunk; and one whose JSON chunk,
// or the chunk after it, says it is longer than the file. It leaves f at
// its start.
func checkGLB(f *os.File, path string) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	var h [20]byte
	n, _ := io.ReadFull(f, h[:])
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if n < 4 || string(h[:4]) != "glTF" {
		return nil
	}
	if n < len(h) {
		return fmt.Errorf("%s: a GLB file of %d bytes: %w; expected a 12-byte header and a JSON chunk", path, st.Size(), errTruncated)
	}
	length := int64(binary.LittleEndian.Uint32(h[8:]))
	jsonLen := int64(binary.LittleEndian.Uint32(h[12:]))
	switch {
	case length > st.Size():
		return fmt.Errorf("%s: the GLB header says %d bytes, the file has %d: %w", path, length, st.Size(), errTruncated)
	case 20+jsonLen > length:
		return fmt.Errorf("%s: the GLB JSON chunk says %d bytes, past the file's %d", path, jsonLen, length)
	}
	// The binary chunk after it, if any, within the file too.
	var bh [8]byte
	if at := 20 + jsonLen; at+8 <= length {
		if _, err := f.ReadAt(bh[:], at); err != nil {
			return err
		}
		if binLen := int64(binary.LittleEndian.Uint32(bh[:])); at+8+binLen > length {
			return fmt.Errorf("%s: the GLB chunk at byte %d says %d bytes, past the file's %d", path, at, binLen, length)
		}
	}
	return nil
}

// Read reads a glTF or GLB document from r; name names it in errors
// ("name: what") and Asset.Name, and dir resolves external buffers and
// images ("" to allow none). Corrupt input gives an error, never a panic.
func Read(r io.Reader, name string, dir string) (*Asset, error) {
	doc, err := decode(r, dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	a, err := build(doc, dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	a.Name = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	return a, nil
}

// decode is the library's decoder (JSON or GLB, embedded, GLB-chunk or
// external buffers), a panic in it an error, and every buffer checked to
// hold its byteLength.
func decode(r io.Reader, dir string) (doc *gltf.Document, err error) {
	defer func() {
		if p := recover(); p != nil {
			doc, err = nil, fmt.Errorf("unreadable: %v", p)
		}
	}()
	r, err = trimGLBJSON(r)
	if err != nil {
		return nil, err
	}
	var dec *gltf.Decoder
	if dir != "" {
		dec = gltf.NewDecoderFS(r, regular.DirFS(dir, regular.MaxURI, "a glTF buffer"))
	} else {
		dec = gltf.NewDecoder(r)
	}
	doc = new(gltf.Document)
	if err := dec.Decode(doc); err != nil {
		return nil, jsonError(err)
	}
	if err := checkRequired(doc.ExtensionsRequired); err != nil {
		return nil, err
	}
	for i, b := range doc.Buffers {
		switch {
		case b == nil:
			return nil, fmt.Errorf("buffer %d is null", i)
		case len(b.Data) < b.ByteLength && !b.IsEmbeddedResource() && b.URI != "" && dir == "":
			return nil, fmt.Errorf("buffer %d: external %q and no folder to read it from", i, b.URI)
		case len(b.Data) < b.ByteLength:
			return nil, fmt.Errorf("buffer %d: %d bytes, byteLength says %d", i, len(b.Data), b.ByteLength)
		}
	}
	return doc, nil
}

// readsExtension lists the extensions kinelab reads, which a file may
// require: none yet. A required extension changes what the data means
// (Draco- or meshopt-compressed buffers, quantized integer attributes,
// Basis textures): read without it, a file gives wrong geometry or none,
// so the spec (section 3.12) says a loader that lacks one must refuse the
// file.
var readsExtension = map[string]bool{}

// checkRequired refuses the required extensions kinelab does not read,
// by name.
func checkRequired(required []string) error {
	var missing []string
	for _, e := range required {
		if !readsExtension[e] && !slices.Contains(missing, e) {
			missing = append(missing, e)
		}
	}
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("requires extension %s, which kinelab does not read", missing[0])
	}
	return fmt.Errorf("requires extensions %s, which kinelab does not read", strings.Join(missing, ", "))
}

// errTruncated is a file cut short: "truncated", and io.ErrUnexpectedEOF
// to errors.Is.
var errTruncated = truncated{}

type truncated struct{}

func (truncated) Error() string { return "truncated" }
func (truncated) Unwrap() error { return io.ErrUnexpectedEOF }

// jsonError says what the decoder's bare errors mean for a glTF file: an
// EOF is a file cut short (or empty), a syntax error is at a byte.
func jsonError(err error) error {
	var syn *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF):
		return errors.New("empty: expected a glTF JSON document or GLB data")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%w: the JSON ends before the document does", errTruncated)
	case errors.As(err, &syn):
		return fmt.Errorf("not glTF JSON: at byte %d: %v", syn.Offset, err)
	}
	return err
}

// builder holds what build works out about a document.
type builder struct {
	doc    *gltf.Document
	dir    string
	a      *Asset
	parent []int // per node: its parent node, -1 for a root
	skel   []int // per node: its skeleton index, -1 if not a joint
	chain  [][]int
	folded []bool // per node: folded into a joint's chain
	// units holds, per joint, the constant uniform scale of the folded
	// nodes above its root joint (an Armature's 0.01 for a rig in
	// centimetres), baked out so that the skeleton is in metres: each
	// root's scale is divided by it and every translation below the root
	// multiplied by it (Anim.SampleCurves, the rest pose, the inverse
	// binds). The world transforms are unchanged. 1 where there is none,
	// or where a folded node's scale is animated.
	units []float64
	// roots marks the joints whose scale units divides (roots hanging
	// from the Entity).
	roots []bool
}

func build(doc *gltf.Document, dir string) (*Asset, error) {
	b := &builder{doc: doc, dir: dir, a: &Asset{}}
	if err := b.hierarchy(); err != nil {
		return nil, err
	}
	if err := b.skeleton(); err != nil {
		return nil, err
	}
	if err := b.inverseBinds(); err != nil {
		return nil, err
	}
	b.bakeUnits()
	a := b.a
	a.units, a.roots = b.units, b.roots
	a.fold = make([]kf, a.Skel.Len())
	for j := range a.fold {
		a.fold[j] = kfIdentity()
		if ch := b.chain[j]; len(ch) > 1 {
			for _, m := range ch[:len(ch)-1] {
				k, _ := nodeRest(doc.Nodes[m]) // checked by skeleton
				a.fold[j] = a.fold[j].mul(k)
			}
		}
	}
	for i, an := range doc.Animations {
		if an == nil {
			return nil, fmt.Errorf("animation %d is null", i)
		}
		anim, err := b.anim(an, i)
		var ae *AccessorError
		if errors.As(err, &ae) {
			return nil, err // its use names the animation
		}
		if err != nil {
			name := an.Name
			if name == "" {
				name = fmt.Sprint(i)
			}
			return nil, fmt.Errorf("animation %s: %w", name, err)
		}
		b.a.Anims = append(b.a.Anims, anim)
	}
	if err := b.checkScales(); err != nil {
		return nil, err
	}
	if err := b.mesh(); err != nil {
		return nil, err
	}
	return b.a, nil
}

// checkScales refuses a skeleton whose scales, multiplied down a chain
// from the Entity, could exceed maxValue: each value is bounded, but a
// scale of 1000 on ten joints in a row makes 1e30, and the offsets below
// it overflow float32. A node's scale is bounded by its rest scale and
// every key of the channels animating it (a CUBICSPLINE curve strays from
// its values by at most 4/27 of an interval times its tangents).
func (b *builder) checkScales() error {
	bound := make(map[int]float64) // per node with a scale channel: its largest scale
	for _, an := range b.a.Anims {
		for _, c := range an.Channels {
			if c.Path != Scale {
				continue
			}
			m := 0.0
			for k := range c.Times {
				v := c.Value(k)
				m = max(m, math.Abs(v[0]), math.Abs(v[1]), math.Abs(v[2]))
			}
			if c.Interp == CubicSpline {
				tan, td := 0.0, 0.0
				for i, x := range c.Values {
					if i/3%3 != 1 { // in- and out-tangents
						tan = max(tan, math.Abs(float64(x)))
					}
				}
				for k := 1; k < len(c.Times); k++ {
					td = max(td, float64(c.Times[k])-float64(c.Times[k-1]))
				}
				m += 8.0 / 27 * td * tan
			}
			bound[c.Node] = max(bound[c.Node], m)
		}
	}
	a := b.a
	scale := make([]float64, a.Skel.Len())
	scale[0] = 1
	for j := 1; j < len(scale); j++ {
		s := scale[a.Skel.Parents[j]]
		for _, n := range b.chain[j] {
			k, _ := nodeRest(b.doc.Nodes[n]) // checked by skeleton
			m := max(math.Abs(k.scl[0]), math.Abs(k.scl[1]), math.Abs(k.scl[2]))
			s *= max(m, bound[n])
		}
		if scale[j] = s; s > maxValue {
			return fmt.Errorf("node %q: its scale times its ancestors' reaches %.3g, beyond the ±%g kinelab reads", a.Skel.Names[j], s, float32(maxValue))
		}
	}
	return nil
}

// hierarchy finds every node's parent, refusing a node with two parents
// or a cycle (section 3.5.1: the nodes form disjoint strict trees).
func (b *builder) hierarchy() error {
	nodes := b.doc.Nodes
	b.parent = make([]int, len(nodes))
	for i := range b.parent {
		b.parent[i] = -1
	}
	for i, n := range nodes {
		if n == nil {
			return fmt.Errorf("node %d is null", i)
		}
		for _, c := range n.Children {
			if c < 0 || c >= len(nodes) {
				return fmt.Errorf("node %d: child %d does not exist", i, c)
			}
			if b.parent[c] >= 0 || c == i {
				return fmt.Errorf("node %d: a child of two nodes, or of itself", c)
			}
			b.parent[c] = i
		}
	}
	// Walk up from each node until a node already known to reach a root;
	// meeting the current walk again is a cycle. Each node is walked once.
	state := make([]uint8, len(nodes)) // 0 unseen, 1 on this walk, 2 reaches a root
	var walk []int
	for i := range nodes {
		walk = walk[:0]
		for n := i; n >= 0 && state[n] != 2; n = b.parent[n] {
			if state[n] == 1 {
				return fmt.Errorf("node %d: its ancestors form a cycle", n)
			}
			state[n] = 1
			walk = append(walk, n)
		}
		for _, n := range walk {
			state[n] = 2
		}
	}
	return nil
}

// name is node n's name, or "node n".
func (b *builder) name(n int) string {
	if s := b.doc.Nodes[n].Name; s != "" {
		return s
	}
	return fmt.Sprintf("node %d", n)
}

// skeleton orders the joints (skin order, each joint's joint ancestor
// first), and folds each joint's chain of non-joint ancestors into its
// rest transform.
func (b *builder) skeleton() error {
	doc, a := b.doc, b.a
	joints, err := b.skinJoints()
	if err != nil {
		return err
	}
	isJoint, err := markJoints(len(doc.Nodes), joints)
	if err != nil {
		return err
	}
	jointParent := b.jointParents(isJoint)
	order := b.orderJoints(joints, jointParent)
	nj := len(order)
	a.Node = order
	a.Skel = animsys.Skeleton{Names: make([]string, nj), Parents: make([]int, nj), Offsets: make([]mgl32.Vec3, nj)}
	a.Skel.Names[0], a.Skel.Parents[0] = "Entity", -1
	if len(doc.Skins) > 0 {
		a.Joint = make([]int, len(joints))
		for k, n := range joints {
			a.Joint[k] = b.skel[n]
		}
	}
	a.Rest = animsys.NewPose(nj)
	b.chain = make([][]int, nj)
	b.folded = make([]bool, len(doc.Nodes))
	var foldedNames, sheared []string
	budget := maxChainNodes
	for j := 1; j < nj; j++ {
		n := order[j]
		a.Skel.Names[j] = b.name(n)
		a.Skel.Parents[j] = 0
		if p := jointParent(n); p >= 0 {
			a.Skel.Parents[j] = b.skel[p]
		}
		ch := b.nodeChain(n, isJoint)
		if budget -= len(ch); budget < 0 {
			return fmt.Errorf("more than %d nodes between joints: not a character", maxChainNodes)
		}
		b.chain[j] = ch
		rest, err := b.foldChain(j, ch, &foldedNames)
		if err != nil {
			return err
		}
		a.Rest.SetKform(j, rest.kform())
		a.Skel.Offsets[j] = a.Rest.Pos[j]
		if p := a.Skel.Parents[j]; p > 0 && !uniform(mathx64.FromVec32(a.Rest.Scl[p])) && !slices.Contains(sheared, a.Skel.Names[p]) {
			sheared = append(sheared, a.Skel.Names[p])
		}
	}
	if len(sheared) > 0 {
		a.Notes = append(a.Notes, fmt.Sprintf("non-uniform rest scale on %s: kinelab scales the joints below without shear, unlike a matrix", strings.Join(sheared, ", ")))
	}
	if len(foldedNames) > 0 {
		a.Notes = append(a.Notes, fmt.Sprintf("node transforms folded into the joints below them: %s", strings.Join(foldedNames, ", ")))
	}
	bind := animsys.NewPose(nj)
	bind.CopyFrom(&a.Rest)
	a.Skel.Bind = &bind
	return a.Skel.Validate()
}

// skinJoints are the joint nodes of skin 0, or every node when there is
// no skin; either way a note says what was left out.
func (b *builder) skinJoints() ([]int, error) {
	doc, a := b.doc, b.a
	if len(doc.Skins) == 0 {
		joints := make([]int, len(doc.Nodes))
		for i := range joints {
			joints[i] = i
		}
		a.Notes = append(a.Notes, "no skin: every node is a joint, and there is no mesh")
		return joints, nil
	}
	sk := doc.Skins[0]
	if sk == nil {
		return nil, errors.New("skin 0 is null")
	}
	if len(sk.Joints) == 0 {
		return nil, errors.New("skin 0 has no joints")
	}
	if len(doc.Skins) > 1 {
		a.Notes = append(a.Notes, fmt.Sprintf("%d skins: only skin 0 (%s) is read", len(doc.Skins), sk.Name))
	}
	return sk.Joints, nil
}

// markJoints marks, per node of nodes, whether it is one of joints; a
// joint that is no node, or is listed twice, is an error.
func markJoints(nodes int, joints []int) ([]bool, error) {
	isJoint := make([]bool, nodes)
	for _, n := range joints {
		if n < 0 || n >= nodes {
			return nil, fmt.Errorf("skin joint node %d does not exist", n)
		}
		if isJoint[n] {
			return nil, fmt.Errorf("skin lists node %d twice", n)
		}
		isJoint[n] = true
	}
	return isJoint, nil
}

// jointParents returns jointParent: a node's nearest ancestor joint, -1
// for none, remembered per node so that a deep hierarchy costs its size
// once.
func (b *builder) jointParents(isJoint []bool) func(n int) int {
	jp := make([]int, len(b.doc.Nodes))
	for i := range jp {
		jp[i] = -2 // not yet known
	}
	var jointParent func(n int) int
	jointParent = func(n int) int {
		if jp[n] == -2 {
			switch p := b.parent[n]; {
			case p < 0:
				jp[n] = -1
			case isJoint[p]:
				jp[n] = p
			default:
				jp[n] = jointParent(p)
			}
		}
		return jp[n]
	}
	return jointParent
}

// orderJoints numbers the joints in skin order, each after its joint
// ancestors, the Entity (-1) first; it sets b.skel and returns the nodes
// in that order.
func (b *builder) orderJoints(joints []int, jointParent func(int) int) []int {
	b.skel = make([]int, len(b.doc.Nodes))
	for i := range b.skel {
		b.skel[i] = -1
	}
	order := []int{-1} // the Entity
	var add func(n int)
	add = func(n int) {
		if b.skel[n] >= 0 {
			return
		}
		if p := jointParent(n); p >= 0 {
			add(p)
		}
		b.skel[n] = len(order)
		order = append(order, n)
	}
	for _, n := range joints {
		add(n)
	}
	return order
}

// nodeChain is joint node n's chain: the non-joint ancestors below its
// parent joint, top down, then the joint.
func (b *builder) nodeChain(n int, isJoint []bool) []int {
	ch := []int{n}
	for p := b.parent[n]; p >= 0 && !isJoint[p]; p = b.parent[p] {
		ch = append(ch, p)
	}
	slices.Reverse(ch)
	return ch
}

// foldChain is joint j's rest transform: the rest transforms of its
// chain ch composed top down. The nodes above the joint must have uniform
// scales; it marks them folded, adding the names of those newly folded
// that move anything to foldedNames.
func (b *builder) foldChain(j int, ch []int, foldedNames *[]string) (kf, error) {
	rest := kfIdentity()
	for i, m := range ch {
		k, err := nodeRest(b.doc.Nodes[m])
		if err != nil {
			return kf{}, fmt.Errorf("node %d (%s): %w", m, b.name(m), err)
		}
		if i < len(ch)-1 {
			if !uniform(k.scl) {
				return kf{}, fmt.Errorf("node %d (%s): non-uniform scale %.4g above joint %s: only uniform scales can be folded into a joint",
					m, b.name(m), k.scl, b.a.Skel.Names[j])
			}
			if !b.folded[m] && k != kfIdentity() {
				*foldedNames = append(*foldedNames, b.name(m))
			}
			b.folded[m] = true
		}
		rest = rest.mul(k)
	}
	return rest, nil
}

// bakeUnits finds, for each root joint, the uniform scale s of the folded
// nodes above it (when none of them has an animated scale), and bakes it
// out of the rest pose and the inverse binds: the root's scale divided by
// s, every translation below it multiplied by s, each of its joints'
// inverse bind matrix left-multiplied by S(s) (the joint's world matrix
// is now its old one times S(1/s)). Animations bake it as they sample.
func (b *builder) bakeUnits() {
	a := b.a
	n := a.Skel.Len()
	b.units, b.roots = make([]float64, n), make([]bool, n)
	animated := map[int]bool{} // nodes with a scale channel
	for _, an := range b.doc.Animations {
		if an == nil {
			continue
		}
		for _, ch := range an.Channels {
			if ch != nil && ch.Target.Node != nil && ch.Target.Path == gltf.TRSScale {
				animated[*ch.Target.Node] = true
			}
		}
	}
	b.units[0] = 1
	baked := false
	for j := 1; j < n; j++ {
		if p := a.Skel.Parents[j]; p > 0 {
			b.units[j] = b.units[p]
			continue
		}
		b.units[j], b.roots[j] = 1, true
		fold, ok := kfIdentity(), true
		ch := b.chain[j]
		for _, m := range ch[:len(ch)-1] {
			k, _ := nodeRest(b.doc.Nodes[m]) // checked by skeleton
			fold = fold.mul(k)
			ok = ok && !animated[m]
		}
		if s := fold.scl[0]; ok && s > 0 && s != 1 && !math.IsInf(s, 0) {
			b.units[j] = s
			baked = true
		}
	}
	if !baked {
		return
	}
	for j := 1; j < n; j++ {
		u := b.units[j]
		if b.roots[j] {
			a.Rest.Scl[j] = a.Rest.Scl[j].Mul(float32(1 / u))
		} else {
			a.Rest.Pos[j] = a.Rest.Pos[j].Mul(float32(u))
		}
		a.Skel.Offsets[j] = a.Rest.Pos[j]
	}
	a.Skel.Bind.CopyFrom(&a.Rest)
	for k, j := range a.Joint {
		u := float32(b.units[j])
		for c := 0; c < 4; c++ {
			for r := 0; r < 3; r++ {
				a.InverseBind[k][4*c+r] *= u
			}
		}
	}
	a.Notes = append(a.Notes, "a uniform scale above the skeleton baked into it, so that its joints are in metres")
}

// inverseBinds reads skin 0's inverse bind matrices, the identity for
// each when it has none (section 3.7.3.1).
func (b *builder) inverseBinds() error {
	a := b.a
	a.InverseBind = make([]mgl32.Mat4, len(a.Joint))
	for k := range a.InverseBind {
		a.InverseBind[k] = mgl32.Ident4()
	}
	if len(b.doc.Skins) == 0 || b.doc.Skins[0].InverseBindMatrices == nil {
		return nil
	}
	m, _, err := readFloats(b.doc, *b.doc.Skins[0].InverseBindMatrices, "skin 0 inverse bind matrices", floatOnly, 16)
	if err != nil {
		return err
	}
	if len(m) < 16*len(a.Joint) {
		return fmt.Errorf("skin 0: %d inverse bind matrices for %d joints", len(m)/16, len(a.Joint))
	}
	for k := range a.InverseBind {
		copy(a.InverseBind[k][:], m[16*k:16*k+16])
	}
	return nil
}

// anim reads one animation's channels on skeleton joints and folded
// ancestors.
func (b *builder) anim(an *gltf.Animation, ai int) (*Anim, error) {
	a := &Anim{Name: an.Name}
	type key struct {
		node int
		path Path
	}
	byTarget := map[key]*Channel{} // the last channel on each target
	var order []key                // the targets, in file order
	ignored, dup := 0, 0
	for ci, ch := range an.Channels {
		if ch == nil {
			return nil, fmt.Errorf("channel %d is null", ci)
		}
		var path Path
		switch ch.Target.Path {
		case gltf.TRSTranslation:
			path = Translation
		case gltf.TRSRotation:
			path = Rotation
		case gltf.TRSScale:
			path = Scale
		default: // weights, or a pointer
			ignored++
			continue
		}
		if ch.Target.Node == nil {
			ignored++
			continue
		}
		n := *ch.Target.Node
		if n < 0 || n >= len(b.doc.Nodes) {
			return nil, fmt.Errorf("channel %d: node %d does not exist", ci, n)
		}
		if b.skel[n] < 0 && !b.folded[n] {
			ignored++
			continue
		}
		c, err := b.channel(an, ai, ch.Sampler, n, path)
		var ae *AccessorError
		if errors.As(err, &ae) {
			return nil, err // its use names the node and the animation
		}
		if err != nil {
			return nil, fmt.Errorf("channel %d (%s %s): %w", ci, b.name(n), path, err)
		}
		c.Node, c.Joint = n, b.skel[n]
		if c.Joint < 0 && path == Scale && !uniformChannel(c) {
			return nil, fmt.Errorf("channel %d: non-uniform scale on node %s above the skeleton: only uniform scales can be folded into a joint", ci, b.name(n))
		}
		if byTarget[key{n, path}] != nil {
			dup++
		} else {
			order = append(order, key{n, path})
		}
		byTarget[key{n, path}] = c
	}
	for _, k := range order {
		a.Channels = append(a.Channels, byTarget[k])
	}
	for _, c := range a.Channels {
		a.Duration = max(a.Duration, c.Times[len(c.Times)-1])
		a.keys = append(a.keys, c.Times...)
	}
	slices.Sort(a.keys)
	a.keys = slices.Compact(a.keys)
	if ignored > 0 {
		b.a.Notes = append(b.a.Notes, fmt.Sprintf("animation %s: %s on nodes outside the skeleton, or on morph weights, ignored", an.Name, words.Count(ignored, "channel")))
	}
	if len(a.Channels) == 0 {
		b.a.Notes = append(b.a.Notes, fmt.Sprintf("animation %s: no channel moves the skeleton: it holds the rest pose", an.Name))
	}
	if dup > 0 {
		b.a.Notes = append(b.a.Notes, fmt.Sprintf("animation %s: %s a property another channel targets: the later one kept", an.Name, words.Count(dup, "channel")+map[bool]string{true: " targets", false: " target"}[dup == 1]))
	}
	// Each joint's plan: its chain's links, the leading un-animated ones
	// multiplied into one constant.
	chans := map[key]*Channel{}
	for _, c := range a.Channels {
		chans[key{c.Node, c.Path}] = c
	}
	a.units, a.roots = b.units, b.roots
	a.plans = make([]plan, len(b.chain))
	a.plans[0] = plan{pre: kfIdentity(), id: true}
	for j := 1; j < len(b.chain); j++ {
		p := plan{pre: kfIdentity(), id: true}
		for _, n := range b.chain[j] {
			rest, _ := nodeRest(b.doc.Nodes[n]) // checked by skeleton
			l := link{rest: rest, t: chans[key{n, Translation}], r: chans[key{n, Rotation}], s: chans[key{n, Scale}]}
			if len(p.links) == 0 && l.t == nil && l.r == nil && l.s == nil {
				p.pre, p.id = p.pre.mul(rest), false
				continue
			}
			p.links = append(p.links, l)
		}
		a.plans[j] = p
	}
	return a, nil
}

// uniformChannel reports whether every value (and tangent) of a scale
// channel is uniform.
func uniformChannel(c *Channel) bool {
	for i := 0; i+2 < len(c.Values); i += 3 {
		if !uniform(mathx64.Vec3{float64(c.Values[i]), float64(c.Values[i+1]), float64(c.Values[i+2])}) {
			return false
		}
	}
	return true
}

// channel reads sampler si of an (animation ai) for a channel on node's
// path (section 3.11: input times, output values of the path's type,
// three per key for CUBICSPLINE).
func (b *builder) channel(an *gltf.Animation, ai, si, node int, path Path) (*Channel, error) {
	if si < 0 || si >= len(an.Samplers) || an.Samplers[si] == nil {
		return nil, fmt.Errorf("sampler %d does not exist", si)
	}
	s := an.Samplers[si]
	c := &Channel{Path: path}
	switch s.Interpolation {
	case gltf.InterpolationLinear:
		c.Interp = Linear
	case gltf.InterpolationStep:
		c.Interp = Step
	case gltf.InterpolationCubicSpline:
		c.Interp = CubicSpline
	default:
		return nil, fmt.Errorf("sampler %d: unknown interpolation %d", si, s.Interpolation)
	}
	anName := an.Name
	if anName == "" {
		anName = fmt.Sprint(ai)
	}
	use := fmt.Sprintf("node %q %s, animation %q", b.name(node), path, anName)
	times, _, err := readFloats(b.doc, s.Input, use+" key times", floatOnly, 1)
	if err != nil {
		return nil, err
	}
	for i, t := range times {
		keyErr := func(format string, args ...any) error {
			return &AccessorError{Index: s.Input, Use: use + " key times", Err: fmt.Errorf("key %d: "+format, append([]any{i}, args...)...)}
		}
		if t > maxKeyTime || t < -maxKeyTime {
			return nil, keyErr("time %g s beyond %d s", t, maxKeyTime)
		}
		if i == 0 {
			continue
		}
		if t < times[i-1] {
			return nil, keyErr("key times decrease (%g s after %g s)", t, times[i-1])
		}
		// Compared in float32, the times' precision: a key written 1e-5 s
		// after another is that far apart.
		if d := float64(t) - float64(times[i-1]); d > 0 && float32(d) < float32(minKeyInterval) {
			return nil, keyErr("%.3g s after key %d, closer than the %g s kinelab reads (keys at one time, a jump, are allowed)",
				d, i-1, minKeyInterval)
		}
	}
	k := normFloat
	if path != Rotation {
		k = floatOnly
	}
	vals, _, err := readFloats(b.doc, s.Output, use, k, c.Width())
	if err != nil {
		return nil, err
	}
	per := 1
	if c.Interp == CubicSpline {
		per = 3
	}
	if len(vals) != per*c.Width()*len(times) {
		return nil, fmt.Errorf("sampler %d: %d output values for %d key times (%s wants %d per key)",
			si, len(vals)/c.Width(), len(times), c.Interp, per)
	}
	c.Times, c.Values = times, vals
	if path == Rotation && c.Interp != CubicSpline {
		for i := 0; i < len(vals); i += 4 {
			q := mathx64.Quat{W: float64(vals[i+3]), X: float64(vals[i]), Y: float64(vals[i+1]), Z: float64(vals[i+2])}
			if q.Dot(q) < 1e-12 {
				return nil, fmt.Errorf("sampler %d: key %d is a zero quaternion", si, i/4)
			}
			q = q.Normalize()
			vals[i], vals[i+1], vals[i+2], vals[i+3] = float32(q.X), float32(q.Y), float32(q.Z), float32(q.W)
		}
	}
	return c, nil
}

// readExternal reads a file beside the document (an image), refusing
// paths that leave its folder.
func (b *builder) readExternal(uri string) ([]byte, error) {
	if b.dir == "" {
		return nil, errors.New("no folder to read it from")
	}
	uri = strings.ReplaceAll(uri, "\\", "/")
	if !filepath.IsLocal(uri) || strings.Contains(uri, ":") {
		return nil, fmt.Errorf("%q is not a file beside the document", uri)
	}
	return fs.ReadFile(regular.DirFS(b.dir, regular.MaxImage, "a glTF image"), filepath.ToSlash(filepath.Clean(uri)))
}

// sniff is the MIME type of PNG or JPEG image bytes, "" for neither.
func sniff(img []byte) string {
	switch {
	case bytes.HasPrefix(img, []byte("\x89PNG\r\n\x1a\n")):
		return "image/png"
	case bytes.HasPrefix(img, []byte{0xff, 0xd8, 0xff}):
		return "image/jpeg"
	}
	return ""
}

// mat4 turns a float64 column-major matrix into an mgl32 one.
func mat4(m [16]float64) mgl32.Mat4 {
	var r mgl32.Mat4
	for i, x := range m {
		r[i] = float32(x)
	}
	return r
}

// BindError is the largest absolute difference, over the skin's joints
// and the 16 entries, between global_rest(Joint[k]) InverseBind[k] and
// the identity: about 1e-6 for a file exported in its bind pose.
func (a *Asset) BindError() float64 {
	global := make([]kf, a.Skel.Len())
	for j := range global {
		k := kfIdentity()
		k.pos, k.scl = mathx64.FromVec32(a.Rest.Pos[j]), mathx64.FromVec32(a.Rest.Scl[j])
		k.rot = mathx64.FromQuat32(a.Rest.Rot[j])
		if p := a.Skel.Parents[j]; p >= 0 {
			k = global[p].mul(k)
		}
		global[j] = k
	}
	worst := 0.0
	for k, j := range a.Joint {
		m := mat4(global[j].matrix()).Mul4(a.InverseBind[k])
		id := mgl32.Ident4()
		for i := range m {
			worst = math.Max(worst, math.Abs(float64(m[i]-id[i])))
		}
	}
	return worst
}
