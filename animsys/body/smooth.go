package body

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// SmoothNormals returns a copy of b with the vertices that differ only in
// their normal made one, whose normal is the mean of the normals of the
// faces around it, each weighted by its angle at the vertex (so a face
// split in two counts as it did whole); faces left with two corners on one
// vertex are dropped. A flat-shaded mesh (a vertex per face corner for its
// hard edges) then has a vertex per point, as a smooth one does: about a
// third of the vertices for the same triangles, which is what a level of
// detail seen from afar wants (Decimate then counts its vertices as the
// generated bodies').
func SmoothNormals(b *Mesh) Mesh {
	type key struct {
		pos      [3]float32
		ids, wts [4]float32
		uv       [2]float32
		col      [4]uint8
	}
	nv := b.VertexCount()
	out := Mesh{BindInv: append(b.BindInv[:0:0], b.BindInv...), Image: b.Image}
	index := make(map[key]uint16, nv)
	remap := make([]uint16, nv)
	for v := 0; v < nv; v++ {
		k := key{pos: [3]float32(b.Positions[3*v : 3*v+3]), ids: [4]float32(b.BoneIDs[4*v : 4*v+4]), wts: [4]float32(b.BoneWeights[4*v : 4*v+4])}
		if b.UVs != nil {
			k.uv = [2]float32(b.UVs[2*v : 2*v+2])
		}
		if b.Colors != nil {
			k.col = [4]uint8(b.Colors[4*v : 4*v+4])
		}
		i, ok := index[k]
		if !ok {
			i = uint16(out.VertexCount())
			index[k] = i
			out.Positions = append(out.Positions, k.pos[:]...)
			out.Normals = append(out.Normals, b.Normals[3*v:3*v+3]...)
			out.BoneIDs = append(out.BoneIDs, k.ids[:]...)
			out.BoneWeights = append(out.BoneWeights, k.wts[:]...)
			if b.UVs != nil {
				out.UVs = append(out.UVs, k.uv[:]...)
			}
			if b.Colors != nil {
				out.Colors = append(out.Colors, k.col[:]...)
			}
		}
		remap[v] = i
	}
	sum := make([]mgl32.Vec3, out.VertexCount())
	at := func(i uint16) mgl32.Vec3 { return mgl32.Vec3(out.Positions[3*int(i) : 3*int(i)+3]) }
	for f := 0; 3*f+2 < len(b.Indices); f++ {
		i0, i1, i2 := remap[b.Indices[3*f]], remap[b.Indices[3*f+1]], remap[b.Indices[3*f+2]]
		if i0 == i1 || i1 == i2 || i2 == i0 {
			continue
		}
		out.Indices = append(out.Indices, i0, i1, i2)
		c := [3]uint16{i0, i1, i2}
		n := at(i1).Sub(at(i0)).Cross(at(i2).Sub(at(i0)))
		if l := n.Len(); l > 0 {
			n = n.Mul(1 / l)
		}
		for k, i := range c {
			a, b := at(c[(k+1)%3]).Sub(at(i)), at(c[(k+2)%3]).Sub(at(i))
			angle := math.Atan2(float64(a.Cross(b).Len()), float64(a.Dot(b)))
			sum[i] = sum[i].Add(n.Mul(float32(angle)))
		}
	}
	for i, n := range sum {
		if l := n.Len(); l > 0 && !math.IsInf(float64(l), 0) {
			u := n.Mul(1 / l)
			copy(out.Normals[3*i:3*i+3], u[:])
		}
	}
	return out
}
