package gltf

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
)

// Mesh is a skinned triangle mesh in bind space: vertex v of skin
// influence i moves by global(Joints[v][i]) InverseBind[k] where Joints
// holds skeleton indices and k is the skin joint with Asset.Joint[k] =
// Joints[v][i] (section 3.7.3 "Skins"). The skinned node's own transform
// does not apply, as the spec says.
type Mesh struct {
	Pos    []mgl32.Vec3 // m
	Normal []mgl32.Vec3 // unit; computed from the triangles where the file has none
	UV     []mgl32.Vec2 // TEXCOORD_0 as in the file (origin at the image's top left), zero where absent
	// Color is each vertex's primitive's material base colour factor
	// (linear RGBA), so that primitives of different materials keep their
	// colours once merged.
	Color   []mgl32.Vec4
	Joints  [][4]uint16  // skeleton indices (JOINTS_0 remapped)
	Weights [][4]float32 // WEIGHTS_0, normalised to sum to 1
	Indices []uint32     // triangle list
	// BaseColor is the base colour factor of the first primitive's
	// material (1, 1, 1, 1 without one).
	BaseColor mgl32.Vec4
	// Image is the first base colour texture's image (PNG or JPEG bytes)
	// and ImageMime its type; nil if no material has one.
	Image     []byte
	ImageMime string
}

// mesh merges every triangle primitive of the nodes skinned by skin 0.
func (b *builder) mesh() error {
	doc := b.doc
	if len(doc.Skins) == 0 {
		return nil
	}
	m := &Mesh{}
	seen := map[int]bool{}
	skipped, noSkin, zero, extra := 0, 0, 0, false
	for ni, n := range doc.Nodes {
		if n.Mesh == nil || n.Skin == nil || *n.Skin != 0 {
			continue
		}
		mi := *n.Mesh
		if mi < 0 || mi >= len(doc.Meshes) || doc.Meshes[mi] == nil {
			return fmt.Errorf("node %d: mesh %d does not exist", ni, mi)
		}
		if seen[mi] {
			continue // the same geometry on the same skin: once
		}
		seen[mi] = true
		for pi, p := range doc.Meshes[mi].Primitives {
			if p == nil || p.Mode != gltf.PrimitiveTriangles {
				skipped++
				continue
			}
			if _, ok := p.Attributes[gltf.JOINTS_0]; !ok {
				noSkin++
				continue
			}
			_, j1 := p.Attributes["JOINTS_1"]
			extra = extra || j1
			z, err := b.primitive(m, p)
			if err != nil {
				return fmt.Errorf("mesh %d primitive %d: %w", mi, pi, err)
			}
			zero += z
		}
	}
	if len(m.Pos) == 0 {
		return nil
	}
	if skipped > 0 {
		b.a.Notes = append(b.a.Notes, fmt.Sprintf("mesh: %d primitives that are not triangle lists skipped", skipped))
	}
	if noSkin > 0 {
		b.a.Notes = append(b.a.Notes, fmt.Sprintf("mesh: %d primitives without JOINTS_0 skipped", noSkin))
	}
	if zero > 0 {
		b.a.Notes = append(b.a.Notes, fmt.Sprintf("mesh: %d vertices with no weight bound to their first joint", zero))
	}
	if extra {
		b.a.Notes = append(b.a.Notes, "mesh: JOINTS_1/WEIGHTS_1 ignored: 4 influences per vertex")
	}
	b.a.Mesh = m
	return nil
}

// primitive appends one primitive to m, returning how many of its
// vertices had no weight.
func (b *builder) primitive(m *Mesh, p *gltf.Primitive) (int, error) {
	d, err := b.readPrimitive(p)
	if err != nil {
		return 0, err
	}
	base := uint32(len(m.Pos))
	for t := 0; t+2 < len(d.idx); t += 3 { // a trailing partial triangle is dropped
		m.Indices = append(m.Indices, base+d.idx[t], base+d.idx[t+1], base+d.idx[t+2])
	}
	color := b.baseColor(m, p)
	if len(m.Pos) == 0 {
		m.BaseColor = color
	}
	zero := 0
	for v := 0; v < d.nv; v++ {
		m.Pos = append(m.Pos, mgl32.Vec3{d.pos[3*v], d.pos[3*v+1], d.pos[3*v+2]})
		if d.nrm != nil {
			n := mgl32.Vec3{d.nrm[3*v], d.nrm[3*v+1], d.nrm[3*v+2]}
			if l := n.Len(); l > 0 {
				n = n.Mul(1 / l)
			}
			m.Normal = append(m.Normal, n)
		} else {
			m.Normal = append(m.Normal, mgl32.Vec3{})
		}
		if d.uv != nil {
			m.UV = append(m.UV, mgl32.Vec2{d.uv[2*v], d.uv[2*v+1]})
		} else {
			m.UV = append(m.UV, mgl32.Vec2{})
		}
		m.Color = append(m.Color, color)
		j, w, weighted, err := b.influences(d, v)
		if err != nil {
			return 0, err
		}
		if !weighted {
			zero++
		}
		m.Joints = append(m.Joints, j)
		m.Weights = append(m.Weights, w)
	}
	if d.nrm == nil {
		smoothNormals(m, base, m.Indices[len(m.Indices)-len(d.idx)/3*3:])
	}
	return zero, nil
}

// primitiveData is what a primitive's accessors hold: nv vertices'
// positions, normals, texture coordinates, weights (nil when absent) and
// joints (skin indices, four per vertex), and the triangles' vertex
// indices.
type primitiveData struct {
	nv                int
	pos, nrm, uv, wts []float32
	jts, idx          []uint32
}

// readPrimitive reads primitive p's attributes and indices, checking
// that each has one value per vertex and every index names a vertex.
func (b *builder) readPrimitive(p *gltf.Primitive) (*primitiveData, error) {
	doc := b.doc
	pi, ok := p.Attributes[gltf.POSITION]
	if !ok {
		return nil, fmt.Errorf("no POSITION")
	}
	pos, _, err := readFloats(doc, pi, "", floatOnly, 3)
	if err != nil {
		return nil, fmt.Errorf("POSITION: %w", err)
	}
	d := &primitiveData{nv: len(pos) / 3, pos: pos}
	if d.nrm, err = d.attr(doc, p, gltf.NORMAL, floatOnly, 3); err != nil {
		return nil, err
	}
	if d.uv, err = d.attr(doc, p, gltf.TEXCOORD_0, normFloat, 2); err != nil {
		return nil, err
	}
	if d.wts, err = d.attr(doc, p, gltf.WEIGHTS_0, normFloat, 4); err != nil {
		return nil, err
	}
	ji := p.Attributes[gltf.JOINTS_0]
	d.jts, _, err = readUints(doc, ji, "", 4)
	if err == nil && len(d.jts) != 4*d.nv {
		err = fmt.Errorf("%d values for %d vertices", len(d.jts)/4, d.nv)
	}
	if err != nil {
		return nil, fmt.Errorf("JOINTS_0: %w", err)
	}
	if p.Indices != nil {
		if d.idx, _, err = readUints(doc, *p.Indices, "", 1); err != nil {
			return nil, fmt.Errorf("indices: %w", err)
		}
	} else {
		d.idx = make([]uint32, d.nv)
		for i := range d.idx {
			d.idx[i] = uint32(i)
		}
	}
	for _, i := range d.idx {
		if int(i) >= d.nv {
			return nil, fmt.Errorf("index %d for %d vertices", i, d.nv)
		}
	}
	return d, nil
}

// attr reads p's optional attribute name of comps components per vertex
// (nil when p has none).
func (d *primitiveData) attr(doc *gltf.Document, p *gltf.Primitive, name string, k kind, comps int) ([]float32, error) {
	i, ok := p.Attributes[name]
	if !ok {
		return nil, nil
	}
	v, _, err := readFloats(doc, i, "", k, comps)
	if err == nil && len(v) != d.nv*comps {
		err = fmt.Errorf("%d values for %d vertices", len(v)/comps, d.nv)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return v, nil
}

// baseColor is primitive p's material's base colour factor, white
// without one; the first material with a base colour texture gives m its
// image.
func (b *builder) baseColor(m *Mesh, p *gltf.Primitive) mgl32.Vec4 {
	color := mgl32.Vec4{1, 1, 1, 1}
	if mat := b.material(p); mat != nil && mat.PBRMetallicRoughness != nil {
		c := mat.PBRMetallicRoughness.BaseColorFactorOrDefault()
		color = mgl32.Vec4{float32(c[0]), float32(c[1]), float32(c[2]), float32(c[3])}
		if m.Image == nil {
			b.image(m, mat)
		}
	}
	return color
}

// influences are vertex v's four joints (skeleton indices) and weights,
// the weights normalised to sum 1. A vertex with no weight (weighted
// false) is bound to its first joint alone. A weighted influence on a
// joint the skin lacks is an error.
func (b *builder) influences(d *primitiveData, v int) (j [4]uint16, w [4]float32, weighted bool, err error) {
	sum := float32(0)
	for i := 0; i < 4; i++ {
		if d.wts != nil {
			w[i] = max(d.wts[4*v+i], 0)
		}
		k := int(d.jts[4*v+i])
		if k >= len(b.a.Joint) {
			if w[i] != 0 {
				return j, w, false, fmt.Errorf("vertex %d: joint %d of a %d-joint skin", v, k, len(b.a.Joint))
			}
			k = 0 // an unused influence: any valid joint
		}
		j[i] = uint16(b.a.Joint[k])
		sum += w[i]
	}
	if !(sum > 0) {
		return j, [4]float32{1, 0, 0, 0}, false, nil
	}
	for i := range w {
		w[i] /= sum
	}
	return j, w, true, nil
}

// smoothNormals sets the normals of the vertices from base on to the
// area-weighted sum of the normals of their triangles tri.
func smoothNormals(m *Mesh, base uint32, tri []uint32) {
	for t := 0; t+2 < len(tri); t += 3 {
		a, b, c := m.Pos[tri[t]], m.Pos[tri[t+1]], m.Pos[tri[t+2]]
		n := b.Sub(a).Cross(c.Sub(a)) // |n| is twice the area
		for _, i := range tri[t : t+3] {
			m.Normal[i] = m.Normal[i].Add(n)
		}
	}
	for i := int(base); i < len(m.Normal); i++ {
		if l := m.Normal[i].Len(); l > 0 {
			m.Normal[i] = m.Normal[i].Mul(1 / l)
		}
	}
}

// material is primitive p's material, nil for none or a bad index.
func (b *builder) material(p *gltf.Primitive) *gltf.Material {
	if p.Material == nil || *p.Material < 0 || *p.Material >= len(b.doc.Materials) {
		return nil
	}
	return b.doc.Materials[*p.Material]
}

// image sets m's image to mat's base colour texture image, if it has one
// that reads as PNG or JPEG; one that does not read is a note.
func (b *builder) image(m *Mesh, mat *gltf.Material) {
	doc := b.doc
	ti := mat.PBRMetallicRoughness.BaseColorTexture
	if ti == nil || ti.Index < 0 || ti.Index >= len(doc.Textures) || doc.Textures[ti.Index] == nil {
		return
	}
	src := doc.Textures[ti.Index].Source
	if src == nil || *src < 0 || *src >= len(doc.Images) || doc.Images[*src] == nil {
		return
	}
	im := doc.Images[*src]
	var data []byte
	var err error
	switch {
	case im.BufferView != nil:
		if *im.BufferView < 0 || *im.BufferView >= len(doc.BufferViews) {
			err = fmt.Errorf("buffer view %d does not exist", *im.BufferView)
			break
		}
		data, err = modeler.ReadBufferView(doc, doc.BufferViews[*im.BufferView])
	case im.IsEmbeddedResource():
		data, err = im.MarshalData()
	case im.URI != "":
		data, err = b.readExternal(im.URI)
	}
	mime := sniff(data)
	if err == nil && mime == "" {
		err = fmt.Errorf("neither PNG nor JPEG")
	}
	if err != nil {
		b.a.Notes = append(b.a.Notes, fmt.Sprintf("mesh: base colour image %d (%s) not read: %v", *src, im.Name, err))
		return
	}
	m.Image, m.ImageMime = append([]byte(nil), data...), mime
}
