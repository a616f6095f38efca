package verify

import (
	"bytes"
	"strings"
	"testing"

	"kinelab/animsys"
)

// Every operation's propagated velocities match the central difference
// within the tolerances stated in cases.go, on four bench clips (non-unit
// scales on joints 7, 11, 17 and their children).
func TestEveryOperation(t *testing.T) {
	rep := RunBench()
	for _, s := range rep.Stats {
		if s.Samples == 0 {
			t.Errorf("%s %s: no samples", s.Op, s.Quantity)
		}
		if s.Checked && !s.Pass {
			t.Errorf("%s", s)
		}
	}
	if t.Failed() || testing.Verbose() {
		var b bytes.Buffer
		_ = WriteText(&b, rep)
		t.Log("\n" + b.String())
	}
	if !rep.Pass {
		t.Error("report does not pass")
	}
}

// The harness must catch a wrong velocity: a blend that drops the velocity
// of its changing weight fails the exact tolerance.
func TestHarnessCatchesMissingTerm(t *testing.T) {
	skel := animsys.BenchSkeleton()
	n := skel.Len()
	broken := Case{
		Name: "BlendWithoutWeightRate", Space: "local", Tol: tolExact,
		New: func(a, b *animsys.Clip) func(*animsys.Pose, float32) {
			pb := animsys.NewPose(n)
			return func(out *animsys.Pose, t float32) {
				animsys.SampleCubic(out, a, t)
				animsys.SampleCubic(&pb, b, t)
				w, _ := cosineWeight(t, 4)
				animsys.Blend(out, out, &pb, w, 0)
			}
		},
	}
	rep := Run([]Case{broken}, BenchClips(1, 2))
	if rep.Pass {
		t.Fatal("a blend without its weight-rate term passed")
	}
	var b bytes.Buffer
	if err := WriteText(&b, rep); err != nil || !strings.Contains(b.String(), "FAIL") {
		t.Fatalf("text report should say FAIL:\n%s", b.String())
	}
}
