package animsys

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// ikChain is a three-joint chain: a root at the origin, each bone 0.5 m
// along dir from the one before, the mid joint bent by bend (scaled
// angle-axis, rad) — a straight arm along X when dir is X and bend zero.
func ikChain(dir, bend mgl32.Vec3) (Pose, Pose, []int, TwoBoneJoints) {
	parents := []int{-1, 0, 1}
	local := NewPose(3)
	local.Pos[1], local.Pos[2] = dir.Mul(0.5), dir.Mul(0.5)
	local.Rot[1] = mathx.QuatFromScaledAngleAxis(bend)
	global := NewPose(3)
	FKStatic(&global, &local, parents)
	return local, global, parents, TwoBoneJoints{Root: 0, Mid: 1, End: 2}
}

// A straight chain whose bones lie along the mid joint's X axis (as every
// bone of a LAFAN1 or Rokoko file, or a T-posed arm) cannot bend about
// that axis; with a hinge it bends about the hinge, to its side, and
// reaches the target.
func TestTwoBoneIKHingeStraight(t *testing.T) {
	x := mgl32.Vec3{1, 0, 0}
	target := mgl32.Vec3{0.6, 0, 0.1} // 61% of the reach
	local, global, parents, j := ikChain(x, mgl32.Vec3{})
	TwoBoneIKStatic(&local, &global, parents, j, target)
	after := NewPose(3)
	FKStatic(&after, &local, parents)
	old := after.Pos[2].Sub(target).Len()

	local, global, parents, j = ikChain(x, mgl32.Vec3{})
	j.Hinge = mgl32.Vec3{0, 1, 0} // bends in the XZ plane
	TwoBoneIKStatic(&local, &global, parents, j, target)
	FKStatic(&after, &local, parents)
	if d := after.Pos[2].Sub(target).Len(); d > 1e-5 {
		t.Fatalf("with a hinge the end is %g m from the target (without, %g m)", d, old)
	}
	// Bent to the hinge's side: the bend plane's normal cb x ab is the hinge.
	b := after.Pos[1]
	if n := after.Pos[2].Sub(b).Cross(after.Pos[0].Sub(b)).Normalize(); n.Dot(j.Hinge) < 0.9999 {
		t.Errorf("the chain bent about %v; want its hinge %v", n, j.Hinge)
	}
	t.Logf("straight chain along X: end %.3f m off without a hinge, on target with one", old)
	if old < 0.05 {
		t.Errorf("without a hinge the end is %g m off: the test no longer shows the straight chain's failure", old)
	}
}

// A nearly straight chain, bent by a hundredth of a degree in a random
// plane each time (float32 noise in a real clip), lands the same way with
// a hinge: the mid joint within 1 mm for one target. Without a hinge it
// bends in the noise's plane, anywhere around the chain.
func TestTwoBoneIKHingeNoise(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	target := mgl32.Vec3{0.65, 0.05, 0}
	var withHinge, without []mgl32.Vec3
	for i := 0; i < 50; i++ {
		a := r.Float64() * 2 * math.Pi
		bend := mgl32.Vec3{0, float32(math.Cos(a)), float32(math.Sin(a))}.Mul(2e-4)
		for _, hinge := range []bool{true, false} {
			local, global, parents, j := ikChain(mgl32.Vec3{1, 0, 0}, bend)
			if hinge {
				j.Hinge = mgl32.Vec3{0, 0, 1}
			} else {
				j.Hinge = mgl32.Vec3{}
			}
			TwoBoneIKStatic(&local, &global, parents, j, target)
			after := NewPose(3)
			FKStatic(&after, &local, parents)
			if hinge {
				withHinge = append(withHinge, after.Pos[1])
			} else {
				without = append(without, after.Pos[1])
			}
		}
	}
	spread := func(ps []mgl32.Vec3) (m float32) {
		for _, p := range ps {
			m = max(m, p.Sub(ps[0]).Len())
		}
		return m
	}
	t.Logf("mid joint spread over 50 noisy bends: %.4f m with a hinge, %.3f m without", spread(withHinge), spread(without))
	if s := spread(withHinge); s > 1e-3 {
		t.Errorf("with a hinge the mid joint lands within %g m; want 1 mm", s)
	}
	if spread(without) < 0.1 {
		t.Error("without a hinge the bends agree: the test no longer shows the noise's effect")
	}
}

// A clearly bent chain bends in its own plane with or without a hinge on
// that side: the two agree to float32 precision.
func TestTwoBoneIKHingeBent(t *testing.T) {
	target := mgl32.Vec3{0.55, 0.2, 0.1}
	var ends [2]Pose
	for i, hinge := range []mgl32.Vec3{{}, {0, 0, 1}} {
		local, global, parents, j := ikChain(mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 0.6})
		j.Hinge = hinge
		TwoBoneIKStatic(&local, &global, parents, j, target)
		ends[i] = NewPose(3)
		FKStatic(&ends[i], &local, parents)
	}
	for k := 0; k < 3; k++ {
		if d := ends[0].Pos[k].Sub(ends[1].Pos[k]).Len(); d > 1e-6 {
			t.Errorf("joint %d: %g m apart with and without the hinge", k, d)
		}
	}
}

// A target moving smoothly through the chain's full reach and back keeps
// the IK's pose continuous: at a 1 ms step no joint turns more than the
// smooth motion's share (the straight region is where the old axis flipped).
func TestTwoBoneIKHingeContinuous(t *testing.T) {
	var prev mgl32.Quat
	worst := float32(0)
	for i := 0; i <= 2000; i++ {
		s := float32(i) / 2000
		// From 60% to 99.9% of the reach and back, beside the chain's line.
		reach := 0.6 + 0.399*float32(math.Sin(math.Pi*float64(s)))
		target := mgl32.Vec3{reach, 0.01 * float32(math.Cos(7*float64(s))), 0}
		local, global, parents, j := ikChain(mgl32.Vec3{1, 0, 0}, mgl32.Vec3{})
		j.Hinge = mgl32.Vec3{0, 0, 1}
		TwoBoneIKStatic(&local, &global, parents, j, target)
		if i > 0 {
			d := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(local.Rot[1], prev))).Len()
			worst = max(worst, d)
		}
		prev = local.Rot[1]
	}
	// The bend goes from 106 to 5 degrees and back over the 2000 steps,
	// fastest near full reach: a step's turn stays under a degree.
	if worst > 0.02 {
		t.Errorf("the mid joint turns %.3f rad in one 1/2000 step of the target's path", worst)
	}
}
