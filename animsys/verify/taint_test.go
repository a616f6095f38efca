package verify

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/internal/animtest"
)

// A jump taints the intervals whose cubic stencil reads it (the one
// before and after too, linear sampling only its own) and, through the
// hierarchy, the joint's descendants.
func TestTaintReach(t *testing.T) {
	skel := animtest.ChainSkeleton(4)
	c := animtest.SynthClip("still", &skel, 20, 10, func(_, j int, _ float64) (mgl32.Vec3, mgl32.Quat) {
		return skel.Offsets[j], mgl32.QuatIdent()
	})
	tn := newTaint(skel.Parents, c, []animsys.DataEvent{{Frame: 10, JointIndex: 2}})
	for k := 7; k <= 13; k++ {
		for _, tc := range []struct {
			linear, hier bool
			want         [4]bool
		}{
			{false, false, [4]bool{false, false, k >= 9 && k <= 11, false}},
			{true, false, [4]bool{false, false, k == 10, false}},
			{false, true, [4]bool{false, false, k >= 9 && k <= 11, k >= 9 && k <= 11}},
		} {
			skip := make([]bool, 4)
			tn.mark(skip, Read{Clip: c, Time: (float32(k) + 0.37) * c.FrameTime, Linear: tc.linear}, tc.hier)
			if [4]bool(skip) != tc.want {
				t.Errorf("interval %d linear %v hierarchy %v: left out %v, want %v", k, tc.linear, tc.hier, skip, tc.want)
			}
		}
	}
}

// A one-frame flip is left out of the checks that read it, for its joint
// and (through the hierarchy) the joint's descendants, and the report
// names its frames and joint; everything else is checked and passes.
func TestRunLeavesOutDataJumps(t *testing.T) {
	skel := animtest.ChainSkeleton(5)
	base := animtest.SmoothMotion(&skel, 1.4, 0.6, 1)
	c := animtest.SynthClip("flip", &skel, 160, 120, func(f, j int, t float64) (mgl32.Vec3, mgl32.Quat) {
		p, r := base(f, j, t)
		if f == 80 && j == 2 {
			r = animtest.Rot(mgl32.Vec3{0.3, 0.2, 1}, 178*math.Pi/180).Mul(r)
		}
		return p, r
	})
	rep := Run(&skel, Cases(&skel, NoRoles()), []*animsys.Clip{c})
	for _, s := range rep.Stats {
		if s.Checked && !s.Pass {
			t.Errorf("%s", s)
		}
	}
	if len(rep.Excluded) != 2 || rep.Excluded[0].Frame != 79 || rep.Excluded[1].Frame != 80 || rep.Excluded[0].Joint != "j2" {
		t.Errorf("excluded %v, want frames 79-80 and 80-81 of j2", rep.Excluded)
	}
	// Cubic sampling in intervals 78-81 reads frame 80; linear in 79-80.
	want := map[string]int{"SampleLinear": 2, "SampleCubic": 4, "FK": 4 * 3, "KformMul": 0}
	for _, s := range rep.Stats {
		if w, ok := want[s.Op]; ok && s.Excluded != w {
			t.Errorf("%s %s: %d samples left out, want %d", s.Op, s.Quantity, s.Excluded, w)
		}
	}
}
