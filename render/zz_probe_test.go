package render

import (
	"sort"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

func TestProbe(t *testing.T) {
	s := animsys.BenchSkeleton()
	pos, rot := restGlobals(s)
	b := GenerateBody(s.Parents, pos, rot, s.Names)
	vert := func(i uint16) mgl32.Vec3 { return mgl32.Vec3{b.Positions[3*i], b.Positions[3*i+1], b.Positions[3*i+2]} }
	type tri struct {
		area    float32
		e       [3]float32
		p       mgl32.Vec3
	}
	var ts []tri
	for k := 0; k < b.TriangleCount(); k++ {
		i := b.Indices[3*k : 3*k+3]
		a, bb, c := vert(i[0]), vert(i[1]), vert(i[2])
		ts = append(ts, tri{bb.Sub(a).Cross(c.Sub(a)).Len() / 2, [3]float32{bb.Sub(a).Len(), c.Sub(bb).Len(), a.Sub(c).Len()}, a})
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].area < ts[j].area })
	for _, x := range ts[:15] {
		t.Logf("area %.2e edges %.4f %.4f %.4f at %v", x.area, x.e[0], x.e[1], x.e[2], x.p)
	}
	n := 0
	for _, x := range ts {
		if x.area < 0.01*ts[len(ts)/2].area {
			n++
		}
	}
	t.Log("below 1% of median:", n, "median", ts[len(ts)/2].area)
}
