package render

import (
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

// restGlobals is the skeleton's rest pose in world space.
func restGlobals(s animsys.Skeleton) ([]mgl32.Vec3, []mgl32.Quat) {
	local := animsys.NewPose(s.Len())
	copy(local.Pos, s.Offsets)
	global := animsys.NewPose(s.Len())
	animsys.FKStatic(&global, &local, s.Parents)
	return global.Pos, global.Rot
}

func TestBodyScratch(t *testing.T) {
	s := animsys.BenchSkeleton()
	pos, rot := restGlobals(s)
	t0 := time.Now()
	b := GenerateBody(s.Parents, pos, rot, s.Names)
	t.Logf("verts %d tris %d in %v", b.VertexCount(), b.TriangleCount(), time.Since(t0))
}
