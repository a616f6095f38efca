package gltf

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/body"
	"kinelab/animsys/mathx/mathx64"
)

// Writing glTF: animations added to a character's GLB file, leaving every
// byte of what it held (AddAnimations), and a GLB file of a skeleton and
// its skinned body to add them to (SkinnedGLB).

// Animation is an animation of an Asset's skeleton to add to its file:
// Sample writes the skeleton's local pose, with velocities, at key k of
// Times (s, increasing from 0, at least two), as Anim.SampleCurves gives
// poses: the Entity (joint 0) carrying the root motion, in metres.
type Animation struct {
	Name   string
	Times  []float32
	Sample func(k int, local *animsys.Pose)
}

// NodeLocal is skeleton joint j's own node's local transform, with its
// velocities (m/s, rad/s on the parent's side, 1/s of log scale), for the
// local pose local of the skeleton: the inverse of what reading the file
// folds into the joint. The Entity, which is no node, is composed into
// the joints that hang from it; the uniform scale above the skeleton
// that reading baked out is put back; and the nodes between the joint
// and its parent joint (an Armature) are taken at their rest transforms
// and divided out (kform_div). A file animating those nodes plays its
// own animations with them moved, and the added ones with them at rest.
func (a *Asset) NodeLocal(j int, local *animsys.Pose) animsys.Kform {
	return a.nodeLocal(j, local).kform()
}

func (a *Asset) nodeLocal(j int, local *animsys.Pose) kf {
	k := fromKform(local.Kform(j))
	if a.Skel.Parents[j] == 0 {
		k = fromKform(local.Kform(0)).mul(k)
	}
	if u := a.units[j]; u != 1 {
		if a.roots[j] {
			k.scl = k.scl.Scale(u)
		} else {
			k.pos, k.vel = k.pos.Scale(1/u), k.vel.Scale(1/u)
		}
	}
	return a.fold[j].div(k)
}

func fromKform(k animsys.Kform) kf {
	return kf{pos: mathx64.FromVec32(k.Pos), rot: mathx64.FromQuat32(k.Rot).Normalize(), scl: mathx64.FromVec32(k.Scl),
		vel: mathx64.FromVec32(k.Vel), ang: mathx64.FromVec32(k.Ang), svl: mathx64.FromVec32(k.Svl)}
}

// AddAnimations returns the GLB file glb, read as a (its JSON document and
// binary chunk as they are), with anims added: each an animation of its
// name whose samplers key every skin joint's node at the animation's
// Times. A property that moves gets a CUBICSPLINE curve through the
// sampled values with their sampled rates as tangents (glTF 2.0 appendix
// C: the tangents are per second), so the file carries the exact
// velocities, and a glTF reader's pose at a key is the sampled one; a
// property that holds gets a LINEAR curve of two keys at the ends. The
// new data is appended to the binary chunk, and the new accessors, buffer
// views and animations to the document's lists: every other object, and
// every byte of the data already there (meshes, skin, materials,
// textures), is left as it was. The file must be GLB with its data in a
// binary chunk (buffer 0), and no joint node may be given by a matrix
// (an animated node has TRS properties only).
func (a *Asset) AddAnimations(glb []byte, anims []Animation) ([]byte, error) {
	doc, bin, err := splitGLB(glb)
	if err != nil {
		return nil, err
	}
	top, err := readObject(doc)
	if err != nil {
		return nil, fmt.Errorf("the JSON document: %w", err)
	}
	w := &docWriter{top: top, bin: bin}
	if err := w.lists("accessors", "bufferViews", "animations", "buffers", "nodes"); err != nil {
		return nil, err
	}
	if len(w.list["buffers"]) == 0 {
		return nil, errors.New("no buffer: the file has no binary chunk to add the animations' data to")
	}
	var buf0 struct {
		URI string `json:"uri"`
	}
	if err := json.Unmarshal(w.list["buffers"][0], &buf0); err != nil || buf0.URI != "" || bin == nil {
		return nil, errors.New("buffer 0 is not the GLB binary chunk: kinelab adds animations to GLB files with their data inside")
	}
	for j := 1; j < a.Skel.Len(); j++ {
		n := a.Node[j]
		var node struct {
			Matrix []float64 `json:"matrix"`
		}
		if n < len(w.list["nodes"]) && json.Unmarshal(w.list["nodes"][n], &node) == nil && node.Matrix != nil && !identity(node.Matrix) {
			return nil, fmt.Errorf("joint %s is given by a matrix; glTF animates nodes given by translation, rotation and scale", a.Skel.Names[j])
		}
	}
	for _, an := range anims {
		if err := w.animation(a, an); err != nil {
			return nil, fmt.Errorf("animation %q: %w", an.Name, err)
		}
	}
	return w.glb()
}

// identity reports whether a node's matrix is the identity (the default,
// written out).
func identity(m []float64) bool {
	for i, x := range m {
		want := 0.0
		if i%5 == 0 {
			want = 1
		}
		if x != want {
			return false
		}
	}
	return len(m) == 16
}

// splitGLB returns a GLB file's JSON chunk and binary chunk (nil for
// none), checking its header (glTF 2.0 section 4.4).
func splitGLB(glb []byte) (doc, bin []byte, err error) {
	if len(glb) < glbHeader+glbChunkHead || string(glb[:4]) != "glTF" {
		return nil, nil, errors.New("not a GLB file (no \"glTF\" header)")
	}
	if v := binary.LittleEndian.Uint32(glb[4:]); v != 2 {
		return nil, nil, fmt.Errorf("GLB version %d; kinelab writes glTF 2", v)
	}
	total := int(binary.LittleEndian.Uint32(glb[8:]))
	if total > len(glb) {
		return nil, nil, fmt.Errorf("%w: the GLB header says %d bytes, there are %d", errTruncated, total, len(glb))
	}
	at := glbHeader
	for at+glbChunkHead <= total {
		n := int(binary.LittleEndian.Uint32(glb[at:]))
		typ := binary.LittleEndian.Uint32(glb[at+4:])
		if n < 0 || at+glbChunkHead+n > total {
			return nil, nil, fmt.Errorf("%w: a GLB chunk of %d bytes past the file's end", errTruncated, n)
		}
		data := glb[at+glbChunkHead : at+glbChunkHead+n]
		switch {
		case typ == glbJSON && doc == nil:
			doc = data
		case typ == glbBIN && bin == nil:
			bin = data
		}
		at += glbChunkHead + n
	}
	if doc == nil {
		return nil, nil, errors.New("a GLB file with no JSON chunk")
	}
	return doc, bin, nil
}

// glbBIN is the binary chunk's type, "BIN\x00".
const glbBIN = 0x004E4942

// member is one member of a JSON object, its value as written.
type member struct {
	key string
	raw json.RawMessage
}

// readObject reads a JSON object's members in order, each value's bytes
// as they are.
func readObject(data []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var out []member
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		out = append(out, member{key, raw})
	}
	return out, nil
}

// docWriter adds to a document's lists and its binary chunk.
type docWriter struct {
	top  []member
	list map[string][]json.RawMessage
	bin  []byte
	// target is the buffer views' target while vertex data is written
	// (34962, ARRAY_BUFFER), 0 for none (animation data).
	target int
}

// lists reads the document's lists called names (absent: empty).
func (w *docWriter) lists(names ...string) error {
	w.list = map[string][]json.RawMessage{}
	for _, name := range names {
		for _, m := range w.top {
			if m.key == name {
				var l []json.RawMessage
				if err := json.Unmarshal(m.raw, &l); err != nil {
					return fmt.Errorf("the document's %s: %w", name, err)
				}
				w.list[name] = l
			}
		}
	}
	return nil
}

// add appends v to list name and returns its index.
func (w *docWriter) add(name string, v any) (int, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return 0, err
	}
	w.list[name] = append(w.list[name], raw)
	return len(w.list[name]) - 1, nil
}

// floats appends the float32s xs to the binary chunk (4-byte aligned) as
// a buffer view and an accessor of type typ, with min and max when given;
// it returns the accessor's index.
func (w *docWriter) floats(xs []float32, typ string, count int, bounds bool) (int, error) {
	for len(w.bin)%4 != 0 {
		w.bin = append(w.bin, 0)
	}
	off := len(w.bin)
	for _, x := range xs {
		w.bin = binary.LittleEndian.AppendUint32(w.bin, math.Float32bits(x))
	}
	bv := map[string]any{"buffer": 0, "byteOffset": off, "byteLength": 4 * len(xs)}
	if w.target != 0 {
		bv["target"] = w.target
	}
	view, err := w.add("bufferViews", bv)
	if err != nil {
		return 0, err
	}
	acc := map[string]any{"bufferView": view, "componentType": 5126, "count": count, "type": typ}
	if bounds && len(xs) > 0 {
		acc["min"], acc["max"] = []float32{slices.Min(xs)}, []float32{slices.Max(xs)}
	}
	return w.add("accessors", acc)
}

// curve is one node property's keys: values (3 or 4 floats a key) and
// their rates per second.
type curve struct {
	node  int
	path  string
	width int
	val   []float64
	rate  []float64
}

// holds reports whether the curve stays at its first value and rests.
func (c *curve) holds() bool {
	for k := 0; k < len(c.val); k += c.width {
		for i := range c.width {
			if c.val[k+i] != c.val[i] || c.rate[k+i] != 0 {
				return false
			}
		}
	}
	return true
}

// animation samples an and adds it.
func (w *docWriter) animation(a *Asset, an Animation) error {
	nk := len(an.Times)
	if nk < 2 || an.Sample == nil {
		return errors.New("fewer than two keys")
	}
	for k := 1; k < nk; k++ {
		if !(an.Times[k] > an.Times[k-1]) {
			return fmt.Errorf("key %d at %g s, not after key %d", k, an.Times[k], k-1)
		}
	}
	n := a.Skel.Len()
	var curves []*curve
	for j := 1; j < n; j++ {
		for _, p := range []struct {
			path  string
			width int
		}{{"translation", 3}, {"rotation", 4}, {"scale", 3}} {
			curves = append(curves, &curve{node: a.Node[j], path: p.path, width: p.width,
				val: make([]float64, 0, p.width*nk), rate: make([]float64, 0, p.width*nk)})
		}
	}
	pose := animsys.NewPose(n)
	for k := range nk {
		an.Sample(k, &pose)
		for j := 1; j < n; j++ {
			nl := a.nodeLocal(j, &pose)
			t, r, s := curves[3*(j-1)], curves[3*(j-1)+1], curves[3*(j-1)+2]
			t.val, t.rate = append(t.val, nl.pos[:]...), append(t.rate, nl.vel[:]...)
			// A unit quaternion moving at angular velocity w (parent's
			// side): dq/dt = (0, w) q / 2; sign-continuous from key to
			// key, so that the curve between keys takes the short way.
			q := nl.rot
			if k > 0 {
				at := len(r.val) - 4
				if q.X*r.val[at]+q.Y*r.val[at+1]+q.Z*r.val[at+2]+q.W*r.val[at+3] < 0 {
					q = q.Scale(-1)
				}
			}
			dq := (mathx64.Quat{X: nl.ang[0], Y: nl.ang[1], Z: nl.ang[2]}).Mul(q).Scale(0.5)
			r.val, r.rate = append(r.val, q.X, q.Y, q.Z, q.W), append(r.rate, dq.X, dq.Y, dq.Z, dq.W)
			ds := nl.scl.Mul(nl.svl) // d/dt s = s d/dt log s
			s.val, s.rate = append(s.val, nl.scl[:]...), append(s.rate, ds[:]...)
		}
	}
	times, err := w.floats(an.Times, "SCALAR", nk, true)
	if err != nil {
		return err
	}
	ends := -1 // the two-key input of the curves that hold
	var samplers, channels []map[string]any
	for _, c := range curves {
		typ := "VEC" + strconv.Itoa(c.width)
		var out []float32
		input, interp, count := times, "CUBICSPLINE", 3*nk
		if c.holds() {
			if ends < 0 {
				if ends, err = w.floats([]float32{an.Times[0], an.Times[nk-1]}, "SCALAR", 2, true); err != nil {
					return err
				}
			}
			input, interp, count = ends, "LINEAR", 2
			for range 2 {
				out = appendF32(out, c.val[:c.width])
			}
		} else {
			// In-tangent, value, out-tangent at each key: one rate, the
			// curve's derivative there, both sides.
			out = make([]float32, 0, 3*len(c.val))
			for k := 0; k < len(c.val); k += c.width {
				d, v := c.rate[k:k+c.width], c.val[k:k+c.width]
				out = appendF32(appendF32(appendF32(out, d), v), d)
			}
		}
		output, err := w.floats(out, typ, count, false)
		if err != nil {
			return err
		}
		samplers = append(samplers, map[string]any{"input": input, "output": output, "interpolation": interp})
		channels = append(channels, map[string]any{"sampler": len(samplers) - 1, "target": map[string]any{"node": c.node, "path": c.path}})
	}
	_, err = w.add("animations", map[string]any{"name": an.Name, "samplers": samplers, "channels": channels})
	return err
}

func appendF32(out []float32, xs []float64) []float32 {
	for _, x := range xs {
		out = append(out, float32(x))
	}
	return out
}

// glb writes the document with its lists as they now are, buffer 0's
// byteLength the binary chunk's, and the chunks (glTF 2.0 section 4.4:
// the JSON padded with spaces, the binary data with zeros, to 4 bytes).
func (w *docWriter) glb() ([]byte, error) {
	for len(w.bin)%4 != 0 {
		w.bin = append(w.bin, 0)
	}
	var b0 map[string]json.RawMessage
	if err := json.Unmarshal(w.list["buffers"][0], &b0); err != nil {
		return nil, err
	}
	b0["byteLength"] = json.RawMessage(strconv.Itoa(len(w.bin)))
	raw, err := json.Marshal(b0)
	if err != nil {
		return nil, err
	}
	w.list["buffers"][0] = raw
	var doc bytes.Buffer
	doc.WriteByte('{')
	written := map[string]bool{}
	put := func(key string, v json.RawMessage) {
		if doc.Len() > 1 {
			doc.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		doc.Write(k)
		doc.WriteByte(':')
		doc.Write(v)
	}
	list := func(name string) json.RawMessage {
		raw, _ := json.Marshal(w.list[name])
		return raw
	}
	for _, m := range w.top {
		if _, ok := w.list[m.key]; ok {
			put(m.key, list(m.key))
		} else {
			put(m.key, m.raw)
		}
		written[m.key] = true
	}
	for _, name := range []string{"accessors", "bufferViews", "animations"} {
		if !written[name] && len(w.list[name]) > 0 {
			put(name, list(name))
		}
	}
	doc.WriteByte('}')
	for doc.Len()%4 != 0 {
		doc.WriteByte(' ')
	}
	var out bytes.Buffer
	total := glbHeader + glbChunkHead + doc.Len() + glbChunkHead + len(w.bin)
	out.WriteString("glTF")
	out.Write(binary.LittleEndian.AppendUint32(nil, 2))
	out.Write(binary.LittleEndian.AppendUint32(nil, uint32(total)))
	out.Write(binary.LittleEndian.AppendUint32(nil, uint32(doc.Len())))
	out.Write(binary.LittleEndian.AppendUint32(nil, glbJSON))
	out.Write(doc.Bytes())
	out.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(w.bin))))
	out.Write(binary.LittleEndian.AppendUint32(nil, glbBIN))
	out.Write(w.bin)
	return out.Bytes(), nil
}

// SkinnedGLB is a GLB file of skeleton sk and its skinned body mesh, in
// its bind pose (sk.Bind, else its rest pose), for a character built in
// code (the embedded one) to add animations to: a node for each joint
// but the Entity (joint 0, kinelab's ground root: reading the file adds
// one), in the skeleton's order and named as its joints, each at its
// bind transform; skin 0 of those joints, with mesh's inverse binds; the
// mesh on a node of its own at the scene's root, with one material of
// the given base colour (linear RGBA). Read back (Read) it is a
// character of sk's joints.
func SkinnedGLB(name string, sk *animsys.Skeleton, mesh *body.Mesh, color [4]float32) ([]byte, error) {
	n := sk.Len()
	if n < 2 || sk.Parents[0] >= 0 {
		return nil, errors.New("a skeleton with no joint below its root")
	}
	for j := 1; j < n; j++ {
		if p := sk.Parents[j]; p < 0 || (p > 0 && p >= j) {
			return nil, fmt.Errorf("joint %s: its skeleton's joints must all hang from joint 0 (the Entity)", sk.Names[j])
		}
	}
	if err := mesh.Validate(); err != nil {
		return nil, err
	}
	bind := animsys.NewPose(n)
	copy(bind.Pos, sk.Offsets)
	if sk.Bind != nil && sk.Bind.Len() == n {
		bind.CopyFrom(sk.Bind)
	}
	w := &docWriter{list: map[string][]json.RawMessage{}}
	type node struct {
		Name        string     `json:"name"`
		Translation [3]float32 `json:"translation"`
		Rotation    [4]float32 `json:"rotation"`
		Scale       [3]float32 `json:"scale"`
		Children    []int      `json:"children,omitempty"`
		Mesh        *int       `json:"mesh,omitempty"`
		Skin        *int       `json:"skin,omitempty"`
	}
	nodes := make([]node, n) // node j-1 is joint j; node n-1 the mesh's
	var roots []int
	for j := 1; j < n; j++ {
		q := bind.Rot[j]
		nodes[j-1] = node{Name: sk.Names[j], Translation: bind.Pos[j], Rotation: [4]float32{q.V[0], q.V[1], q.V[2], q.W}, Scale: bind.Scl[j]}
		if p := sk.Parents[j]; p > 0 {
			nodes[p-1].Children = append(nodes[p-1].Children, j-1)
		} else {
			roots = append(roots, j-1)
		}
	}
	nv := mesh.VertexCount()
	joints := make([]float32, 0, 4*nv)
	for _, id := range mesh.BoneIDs {
		if id < 1 { // the Entity, no node: its weight is 0 (never dressed)
			id = 1
		}
		joints = append(joints, id-1)
	}
	var err error
	acc := func(xs []float32, typ string, count int, bounds bool) int {
		if err != nil {
			return -1
		}
		var i int
		i, err = w.floats(xs, typ, count, false)
		if bounds && err == nil {
			var a map[string]any
			_ = json.Unmarshal(w.list["accessors"][i], &a)
			lo, hi := []float32{xs[0], xs[1], xs[2]}, []float32{xs[0], xs[1], xs[2]}
			for v := 3; v+2 < len(xs); v += 3 {
				for c := range 3 {
					lo[c], hi[c] = min(lo[c], xs[v+c]), max(hi[c], xs[v+c])
				}
			}
			a["min"], a["max"] = lo, hi
			raw, _ := json.Marshal(a)
			w.list["accessors"][i] = raw
		}
		return i
	}
	w.target = 34962 // ARRAY_BUFFER: vertex data
	pos := acc(mesh.Positions, "VEC3", nv, true)
	nor := acc(mesh.Normals, "VEC3", nv, false)
	wts := acc(mesh.BoneWeights, "VEC4", nv, false)
	w.target = 0
	ibm := make([]float32, 0, 16*(n-1))
	for j := 1; j < n; j++ {
		m := mgl32.Ident4()
		if j < len(mesh.BindInv) {
			m = mesh.BindInv[j]
		}
		ibm = append(ibm, m[:]...)
	}
	inv := acc(ibm, "MAT4", n-1, false)
	if err != nil {
		return nil, err
	}
	// Joints and indices as unsigned shorts, each in a view of its own.
	shorts := func(xs []uint16, typ string, count, target int) (int, error) {
		for len(w.bin)%4 != 0 {
			w.bin = append(w.bin, 0)
		}
		off := len(w.bin)
		for _, x := range xs {
			w.bin = binary.LittleEndian.AppendUint16(w.bin, x)
		}
		view, err := w.add("bufferViews", map[string]any{"buffer": 0, "byteOffset": off, "byteLength": 2 * len(xs), "target": target})
		if err != nil {
			return 0, err
		}
		return w.add("accessors", map[string]any{"bufferView": view, "componentType": 5123, "count": count, "type": typ})
	}
	js := make([]uint16, len(joints))
	for i, x := range joints {
		js[i] = uint16(x)
	}
	jnt, err := shorts(js, "VEC4", nv, 34962)
	if err != nil {
		return nil, err
	}
	idx, err := shorts(mesh.Indices, "SCALAR", len(mesh.Indices), 34963) // ELEMENT_ARRAY_BUFFER
	if err != nil {
		return nil, err
	}
	meshIdx, skinIdx := 0, 0
	nodes[n-1] = node{Name: name + " body", Rotation: [4]float32{0, 0, 0, 1}, Scale: [3]float32{1, 1, 1}, Mesh: &meshIdx, Skin: &skinIdx}
	skinJoints := make([]int, n-1)
	for i := range skinJoints {
		skinJoints[i] = i
	}
	for _, v := range []struct {
		list string
		v    any
	}{
		{"meshes", map[string]any{"name": name, "primitives": []any{map[string]any{
			"attributes": map[string]int{"POSITION": pos, "NORMAL": nor, "JOINTS_0": jnt, "WEIGHTS_0": wts},
			"indices":    idx, "material": 0}}}},
		{"skins", map[string]any{"name": name, "joints": skinJoints, "inverseBindMatrices": inv, "skeleton": roots[0]}},
		{"materials", map[string]any{"name": name, "pbrMetallicRoughness": map[string]any{"baseColorFactor": color, "metallicFactor": 0, "roughnessFactor": 0.8}}},
		{"scenes", map[string]any{"nodes": append(slices.Clone(roots), n-1)}},
		{"buffers", map[string]any{"byteLength": 0}},
	} {
		if _, err := w.add(v.list, v.v); err != nil {
			return nil, err
		}
	}
	for _, nd := range nodes {
		if _, err := w.add("nodes", nd); err != nil {
			return nil, err
		}
	}
	for _, key := range []string{"asset", "scene", "scenes", "nodes", "meshes", "materials", "skins", "accessors", "bufferViews", "buffers"} {
		raw := json.RawMessage(nil)
		switch key {
		case "asset":
			raw = json.RawMessage(`{"version":"2.0","generator":"kinelab"}`)
		case "scene":
			raw = json.RawMessage(`0`)
		default:
			raw, _ = json.Marshal(w.list[key])
		}
		w.top = append(w.top, member{key, raw})
	}
	return w.glb()
}
