package matching

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/humanoid"
)

// Mirrored is src with every clip added again mirrored left/right
// (animsys.MirrorClip, joints paired by name by humanoid.MirrorPairs)
// across the plane of up and the body's facing in its first frame.
func Mirrored(src Source) Source {
	pairs := humanoid.MirrorPairs(src.Skel.Names)
	n := src.Skel.Len()
	local, global := animsys.NewPose(n), animsys.NewPose(n)
	src.Clips[0].Frame(&local, 0)
	animsys.FKStatic(&global, &local, src.Skel.Parents)
	lat := src.lateral(&global)
	lat[1] = 0
	normal := mgl32.Vec3{1, 0, 0}
	if lat.Len() > 1e-6 {
		normal = lat.Normalize()
	}
	out := src
	out.Clips = append([]animsys.Clip(nil), src.Clips...)
	for c := range src.Clips {
		out.Clips = append(out.Clips, animsys.MirrorClip(&src.Skel, &src.Clips[c], pairs, normal))
	}
	return out
}
