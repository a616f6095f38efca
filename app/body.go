package app

import (
	"fmt"
	"os"

	"kinelab/animsys"
	"kinelab/render"
)

// newBody generates and uploads the skinned body of sk, bound in its bind
// pose (Skeleton.BindPose: the rest pose unless the skeleton has a Bind). It returns nil, and says
// why once on stderr, when the body cannot be drawn (e.g. too many joints
// for the skinning shader); labs then draw the skeleton alone.
func newBody(sk *animsys.Skeleton) BodyDrawer {
	bind := sk.BindPose()
	mesh := render.GenerateBody(sk.Parents, bind.Pos, bind.Rot, sk.Names)
	m, err := render.NewSkinnedMesh(&mesh)
	if err != nil {
		fmt.Fprintln(os.Stderr, "kinelab: no skinned body:", err)
		return nil
	}
	return m
}
