package app

import "kinelab/animsys"

// newBody makes the skinned body of sk; nil until the skinning renderer is in.
func newBody(sk *animsys.Skeleton) BodyDrawer { return nil }
