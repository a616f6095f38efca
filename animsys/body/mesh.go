package body

import (
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
)

// Mesh is a skinned triangle mesh in the bind pose, world space.
type Mesh struct {
	Positions   []float32    // xyz per vertex
	Normals     []float32    // xyz per vertex, unit length
	Indices     []uint16     // three per triangle, counter-clockwise seen from outside
	BoneIDs     []float32    // four joint indices per vertex (floats for a vec4 attribute)
	BoneWeights []float32    // four weights per vertex in [0, 1], summing to 1
	BindInv     []mgl32.Mat4 // inverse bind matrix of every joint

	// A character's own mesh (a glTF skin) also has its own colours; the
	// generated body has none of these and is coloured by the tint alone.
	//
	// UVs are two texture coordinates per vertex, (0, 0) at the image's
	// top left (glTF TEXCOORD_0); Colors four bytes (sRGB RGBA) per vertex,
	// multiplied into the texture; Image the base-colour texture as PNG or
	// JPEG bytes. Each is optional: nil UVs or Image draw no texture, nil
	// Colors white.
	UVs    []float32
	Colors []uint8
	Image  []byte
}

// VertexCount is the number of vertices.
func (b *Mesh) VertexCount() int { return len(b.Positions) / 3 }

// TriangleCount is the number of triangles.
func (b *Mesh) TriangleCount() int { return len(b.Indices) / 3 }

// Validate reports what is wrong with the mesh for skinning with 16-bit
// indices, or nil: attributes that disagree in length, indices past the
// vertices, bone ids past the joints.
func (b *Mesh) Validate() error {
	nv := b.VertexCount()
	switch {
	case nv == 0 || len(b.Indices) == 0:
		return errors.New("body mesh: empty")
	case len(b.Positions) != 3*nv || len(b.Normals) != 3*nv:
		return fmt.Errorf("body mesh: %d position and %d normal floats; want 3 per vertex", len(b.Positions), len(b.Normals))
	case len(b.BoneIDs) != 4*nv || len(b.BoneWeights) != 4*nv:
		return fmt.Errorf("body mesh: %d bone ids and %d weights for %d vertices; want 4 each", len(b.BoneIDs), len(b.BoneWeights), nv)
	case b.UVs != nil && len(b.UVs) != 2*nv:
		return fmt.Errorf("body mesh: %d texture coordinates for %d vertices; want 2 each", len(b.UVs), nv)
	case b.Colors != nil && len(b.Colors) != 4*nv:
		return fmt.Errorf("body mesh: %d colour bytes for %d vertices; want 4 each", len(b.Colors), nv)
	case len(b.Indices)%3 != 0:
		return fmt.Errorf("body mesh: %d indices is not whole triangles", len(b.Indices))
	case nv > 65536:
		return fmt.Errorf("body mesh: %d vertices; 16-bit indices allow 65536", nv)
	case len(b.BindInv) == 0:
		return errors.New("body mesh: no joints")
	}
	for _, i := range b.Indices {
		if int(i) >= nv {
			return fmt.Errorf("body mesh: index %d out of %d vertices", i, nv)
		}
	}
	for _, id := range b.BoneIDs {
		if id < 0 || int(id) >= len(b.BindInv) || id != float32(int(id)) {
			return fmt.Errorf("body mesh: bone id %v out of %d joints", id, len(b.BindInv))
		}
	}
	return nil
}
