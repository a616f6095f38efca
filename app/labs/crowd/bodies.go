package crowd

import (
	"fmt"

	"kinelab/animsys"
	"kinelab/animsys/body"
	"kinelab/animsys/humanoid"
)

// crowdLevels is the number of levels of detail of the crowd's body.
const crowdLevels = 3

// crowdVertices are the vertex counts of the crowd's bodies by level of
// detail: the finest near the camera, the coarsest far away. Each is a
// fine body (crowdSourceCell) simplified by body.Decimate, which keeps
// forearms and feet whole down to about 100 vertices, where a coarse
// surface grid broke them apart below about 500. Under a software
// renderer drawing costs about in proportion to vertices.
var crowdVertices = [crowdLevels]int{250, 150, 100}

// crowdSourceCell (m) is the surface grid cell of the body the crowd's are
// simplified from: about 3,800 vertices, within a few millimetres of the
// default body's 9,000 and three times faster to make and simplify (0.1 s
// against 0.33 s when the lab first draws).
const crowdSourceCell = 0.025

// bodiesText says how many skinned bodies of how many vertices were drawn
// in the last frame, e.g. "40 bodies x 250 + 120 x 150 + 40 x 100 vertices".
func (d *crowdDraw) bodiesText() string {
	s := ""
	for k, c := range d.perLevel {
		if d.bodies[k] == nil {
			continue
		}
		if k == 0 {
			s = fmt.Sprintf("%d bodies x %d", c, d.vertices[k])
		} else {
			s += fmt.Sprintf(" + %d x %d", c, d.vertices[k])
		}
	}
	return s + " vertices"
}

// crowdBodies makes the crowd's bodies for skeleton sk, read as figure
// fig, in its bind pose: one per level of crowdVertices, each simplified
// by body.Decimate from the one before, with two influences per vertex.
// The first is simplified from a character's own mesh (own not nil) with
// its normals smoothed (a flat-shaded mesh has a vertex per face corner,
// three times the vertices of the same triangles smooth; from the crowd's
// distances the facets do not show), else from a body generated for the
// figure: both at the generated bodies' vertex counts, so a crowd of own
// meshes draws as fast. A level Decimate cannot make coarser than the one
// before is left empty (drawn with the finer one).
func crowdBodies(fig *humanoid.Figure, sk *animsys.Skeleton, own *body.Mesh) [crowdLevels]body.Mesh {
	var prev body.Mesh
	if own != nil {
		prev = body.SmoothNormals(own)
	} else {
		bind := sk.BindPose()
		prev = body.GenerateCell(fig, bind.Pos, bind.Rot, crowdSourceCell)
	}
	var out [crowdLevels]body.Mesh
	for k, n := range crowdVertices {
		next := body.Decimate(&prev, n)
		if k > 0 && next.VertexCount() >= prev.VertexCount() {
			break
		}
		out[k], prev = next, next
	}
	for k := range out {
		twoInfluences(&out[k])
	}
	return out
}

// twoInfluences keeps each vertex's two heaviest bone influences, first
// and second, renormalised (the other two get weight 0), as
// shaders/skin_crowd.vs reads only those two: half the bone-matrix reads
// of four, which dominate skinning under a software renderer.
func twoInfluences(b *body.Mesh) {
	for v := 0; 4*v+3 < len(b.BoneWeights); v++ {
		id, w := b.BoneIDs[4*v:4*v+4], b.BoneWeights[4*v:4*v+4]
		for i := 1; i < 4; i++ { // insertion sort, heaviest first
			for j := i; j > 0 && w[j] > w[j-1]; j-- {
				w[j], w[j-1] = w[j-1], w[j]
				id[j], id[j-1] = id[j-1], id[j]
			}
		}
		if sum := w[0] + w[1]; sum > 0 {
			w[0], w[1] = w[0]/sum, w[1]/sum
		}
		w[2], w[3] = 0, 0
	}
}
