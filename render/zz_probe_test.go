package render

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

func TestProbe(t *testing.T) {
	s := animsys.BenchSkeleton()
	s.Names = append(s.Names, "Prop")
	s.Parents = append(s.Parents, 18)
	s.Offsets = append(s.Offsets, mgl32.Vec3{50, 0, 50})
	pos, _ := restGlobals(s)
	b := newBodyBuilder(s.Parents, pos, s.Names)
	b.classify()
	b.resize()
	b.buildShapes()
	t.Log("s", b.s, "fwd", b.fwd)
	for _, sh := range b.solids {
		if sh.hi.Sub(sh.lo).Len() > 1 {
			t.Log(s.Names[sh.joint], sh.lo, sh.hi)
		}
	}
}
