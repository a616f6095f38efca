package app

import (
	"fmt"

	"kinelab/animsys"
	"kinelab/render"
)

// newBody generates and uploads the skinned body of sk, bound in its bind
// pose (Skeleton.BindPose: the rest pose unless the skeleton has a Bind).
// It returns nil and why when the body cannot be drawn (no bone to dress,
// too many joints for the skinning shader); labs then draw the skeleton
// alone.
func newBody(sk *animsys.Skeleton) (BodyDrawer, error) {
	bind := sk.BindPose()
	mesh := render.GenerateBody(sk.Parents, bind.Pos, bind.Rot, sk.Names)
	if mesh.VertexCount() == 0 {
		return nil, fmt.Errorf("the skeleton of %d joints has no bone to dress (all its joints at one place?)", sk.Len())
	}
	m, err := render.NewSkinnedMesh(&mesh)
	if err != nil {
		return nil, err
	}
	return m, nil
}
