package animsys

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

func sampled(seed uint32, tm float32) Pose {
	c := GenerateBenchClip(seed)
	p := NewPose(c.Joints)
	SampleCubic(&p, &c, tm)
	return p
}

// Blend endpoints are the inputs; the weight rate adds exactly the pose
// difference times the rate to the linear velocity.
func TestBlendEnds(t *testing.T) {
	a, b := sampled(1, 2), sampled(2, 3)
	out := NewPose(len(a.Pos))
	BlendStatic(&out, &a, &b, 0)
	if p, r, s, v, w, sv := poseDiff(&out, &a); max(p, r, s, v, w, sv) > 1e-6 {
		t.Fatal("alpha 0 is not lhs")
	}
	BlendStatic(&out, &a, &b, 1)
	if p, r, s, v, w, sv := poseDiff(&out, &b); max(p, r, s, v, w, sv) > 2e-5 {
		t.Fatalf("alpha 1 is not rhs: %g %g %g %g %g %g", p, r, s, v, w, sv)
	}
	st := NewPose(len(a.Pos))
	BlendStatic(&st, &a, &b, 0.3)
	Blend(&out, &a, &b, 0.3, 2)
	for j := range out.Pos {
		want := st.Vel[j].Add(b.Pos[j].Sub(a.Pos[j]).Mul(2))
		if !near3(out.Vel[j], want, 1e-5) || out.Pos[j] != st.Pos[j] {
			t.Fatalf("joint %d: blend vel %v, want %v", j, out.Vel[j], want)
		}
	}
}

// The smoothstep weight and its rate: rate in 1/s is the derivative.
func TestSmoothstepBlendAlpha(t *testing.T) {
	for _, tm := range []float32{0.05, 0.2, 0.31, 0.45} {
		const h = 1e-3
		fd := (SmoothstepBlendAlpha(tm+h, 0.5) - SmoothstepBlendAlpha(tm-h, 0.5)) / (2 * h)
		if got := SmoothstepBlendAlphaVel(tm, 0.5); math.Abs(float64(got-fd)) > 2e-3 {
			t.Fatalf("t %v: rate %v, finite difference %v", tm, got, fd)
		}
	}
	if SmoothstepBlendAlpha(-1, .5) != 0 || SmoothstepBlendAlpha(2, .5) != 1 || SmoothstepBlendAlphaVel(2, .5) != 0 {
		t.Fatal("weight must clamp outside the blend")
	}
	if a := SmoothstepBlendAlpha(1, 0); a != 1 || math.IsNaN(float64(SmoothstepBlendAlphaVel(0, 0))) {
		t.Fatal("zero duration must not divide by zero")
	}
}

// At the transition the inertialized pose is the source pose, velocities
// included; once the blend is over it is the destination.
func TestInertializeEnds(t *testing.T) {
	src, dst := sampled(1, 4), sampled(2, 6)
	off, out := NewPose(len(src.Pos)), NewPose(len(src.Pos))
	InertializeOffset(&off, &src, &dst)
	for _, op := range []func(){
		func() { Inertialize(&out, &off, &dst, 0, 0.5) },
		func() { InertializeCritical(&out, &off, &dst, 0, 0.2) },
	} {
		op()
		if p, r, s, v, w, sv := poseDiff(&out, &src); p > 1e-5 || r > 2e-6 || s > 1e-6 || v > 1e-5 || w > 2e-5 || sv > 1e-6 {
			t.Fatalf("at t = 0: %g %g %g %g %g %g", p, r, s, v, w, sv)
		}
	}
	Inertialize(&out, &off, &dst, 0.6, 0.5)
	if p, r, s, v, w, sv := poseDiff(&out, &dst); max(p, r, s, v, w, sv) > 1e-6 {
		t.Fatal("after the duration the offset must be gone")
	}
	w0, w1, w2, w3 := CubicDecayWeights(0.2, 0.5)
	const h = 1e-3
	a0, a1, _, _ := CubicDecayWeights(0.2+h, 0.5)
	b0, b1, _, _ := CubicDecayWeights(0.2-h, 0.5)
	if math.Abs(float64(w2-(a0-b0)/(2*h))) > 1e-2 || math.Abs(float64(w3-(a1-b1)/(2*h))) > 1e-2 || w0 <= 0 || w1 <= 0 {
		t.Fatalf("cubic weights %v %v %v %v: w2, w3 must be the rates of w0, w1", w0, w1, w2, w3)
	}
}

// Additive with weight 0 changes nothing but the weight-rate velocity; the
// world and local sides agree on a pose with identity rotations.
func TestAdditiveVariants(t *testing.T) {
	base, add := sampled(1, 2), NewPose(23)
	RandomAdditive(&add, 3)
	out := NewPose(23)
	out.CopyFrom(&base)
	AdditiveStatic(&out, &add, 0)
	if p, r, s, v, w, sv := poseDiff(&out, &base); max(p, r, s, v, w, sv) > 1e-6 {
		t.Fatal("a zero-weight additive must not change the pose")
	}
	world, local := NewPose(23), NewPose(23) // identity poses
	Additive(&world, &add, 0.6, 0.3)
	AdditiveLocal(&local, &add, 0.6, 0.3)
	if p, r, s, v, w, sv := poseDiff(&world, &local); max(p, r, s, v, w, sv) > 1e-5 {
		t.Fatalf("world and local additive differ on an identity pose: %g %g %g %g %g %g", p, r, s, v, w, sv)
	}
}

// Decayed extrapolation: the root stays, velocities decay by half per
// half-life, and it travels vel * halflife / ln2 in the limit.
func TestExtrapolateDecayed(t *testing.T) {
	in := sampled(1, 2)
	out := NewPose(23)
	ExtrapolateDecayed(&out, &in, 0.2, 0.2)
	if out.Pos[0] != in.Pos[0] || out.Vel[0] != in.Vel[0] {
		t.Fatal("the root must not be extrapolated")
	}
	if !near3(out.Vel[5], in.Vel[5].Mul(0.5), 1e-6) || !near3(out.Ang[5], in.Ang[5].Mul(0.5), 1e-6) {
		t.Fatal("velocities must halve after one half-life")
	}
	ExtrapolateDecayed(&out, &in, 100, 0.2)
	if want := in.Pos[5].Add(in.Vel[5].Mul(0.2 / mathx.Ln2)); !near3(out.Pos[5], want, 1e-5) {
		t.Fatalf("limit %v, want %v", out.Pos[5], want)
	}
}

// A very fast joint turns at most MaxExtrapolatedTurn in total, steadily
// and about its own axis, with velocities that stay the derivative of the
// extrapolation; a slow one extrapolates exactly as op_extrapolate_decayed.
func TestExtrapolateDecayedBoundsTurn(t *testing.T) {
	const halflife = 0.2
	in, out, next := NewPose(3), NewPose(3), NewPose(3)
	in.Rot[1] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0.3, 0, 0})
	in.Ang[1] = mgl32.Vec3{0, 60, 0} // rad/s: 17 rad in the article's limit
	in.Ang[2] = mgl32.Vec3{2, 0, 1}  // rad/s: 0.65 rad in the limit
	prev := float32(0)
	for _, tt := range []float32{0.01, 0.05, 0.1, 0.2, 0.4, 0.8, 2, 100} {
		ExtrapolateDecayed(&out, &in, tt, halflife)
		turn := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(out.Rot[1], in.Rot[1])))
		if a := turn.Len(); a > MaxExtrapolatedTurn+1e-4 || a < prev || abs32(mathx.Vec3Normalize(turn)[1]) < 1-1e-4 {
			t.Fatalf("t=%g: the fast joint has turned %v (%.4f rad, %.4f before); want about its axis, growing, at most %.4f",
				tt, turn, a, prev, MaxExtrapolatedTurn)
		} else {
			prev = a
		}
		y := mathx.Ln2 / halflife
		alpha := (1 - mathx.Exp(-y*tt)) / y
		if want := mathx.QuatMul(mathx.QuatFromScaledAngleAxis(in.Ang[2].Mul(alpha)), in.Rot[2]); !nearQuat(out.Rot[2], want, 1e-5) {
			t.Fatalf("t=%g: slow joint %v, want the article's %v", tt, out.Rot[2], want)
		}
		// The angular velocity is the derivative of the rotation.
		const h = 1e-3
		ExtrapolateDecayed(&next, &in, tt+h, halflife)
		fd := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(next.Rot[1], out.Rot[1]))).Mul(1 / h)
		ExtrapolateDecayed(&next, &in, tt+h/2, halflife)
		if !near3(next.Ang[1], fd, 2e-2*max(1, fd.Len())) {
			t.Fatalf("t=%g: angular velocity %v, finite difference %v", tt, next.Ang[1], fd)
		}
	}
	if prev < MaxExtrapolatedTurn-1e-3 {
		t.Fatalf("the fast joint turns %.4f in the limit, want %.4f", prev, MaxExtrapolatedTurn)
	}
}

// Look-at turns the head so fwd points at the target; the kineform version
// gives the same rotation as the static one.
func TestLookAt(t *testing.T) {
	skel := BenchSkeleton()
	local := sampled(2, 3)
	global, after := NewPose(23), NewPose(23)
	FK(&global, &local, skel.Parents)
	target := global.Pos[BenchHead].Add(mgl32.Vec3{0.3, 0.2, 1})
	static := NewPose(23)
	static.CopyFrom(&local)
	LookAtStatic(&static, &global, BenchHead, target, mgl32.Vec3{0, 0, 1})
	LookAt(&local, &global, BenchHead, target, mgl32.Vec3{0.1, 0, 0}, mgl32.Vec3{0, 0, 1})
	if !nearQ(local.Rot[BenchHead], static.Rot[BenchHead], 1e-5) {
		t.Fatalf("LookAt rot %v, LookAtStatic %v", local.Rot[BenchHead], static.Rot[BenchHead])
	}
	FK(&after, &local, skel.Parents)
	fwd := mathx.QuatMulVec3(after.Rot[BenchHead], mgl32.Vec3{0, 0, 1})
	if d := fwd.Dot(target.Sub(after.Pos[BenchHead]).Normalize()); d < 0.99999 {
		t.Fatalf("head forward . target direction = %v", d)
	}
}

// Two-bone IK puts the end joint on a reachable target and leaves the
// other joints alone; unreachable targets are approached along the line.
func TestTwoBoneIKStatic(t *testing.T) {
	skel := BenchSkeleton()
	leg := TwoBoneJoints{Root: BenchLeftUpLeg, Mid: BenchLeftLeg, End: BenchLeftFoot}
	local := sampled(1, 2)
	local.Rot[leg.Mid] = mathx.QuatMul(mathx.QuatFromScaledAngleAxis(mgl32.Vec3{.5, 0, 0}), local.Rot[leg.Mid])
	global, after := NewPose(23), NewPose(23)
	FK(&global, &local, skel.Parents)
	for _, off := range []mgl32.Vec3{{0, .1, 0}, {.1, .15, .05}, {-.05, .2, -.1}} {
		l := NewPose(23)
		l.CopyFrom(&local)
		target := global.Pos[leg.End].Add(off)
		TwoBoneIKStatic(&l, &global, skel.Parents, leg, target)
		FKStatic(&after, &l, skel.Parents)
		if d := after.Pos[leg.End].Sub(target).Len(); d > 1e-5 {
			t.Fatalf("offset %v: end %g m from target", off, d)
		}
		if l.Rot[BenchRightLeg] != local.Rot[BenchRightLeg] || l.Rot[leg.End] != local.Rot[leg.End] {
			t.Fatal("IK must only change the root and mid joints")
		}
	}
	l := NewPose(23)
	l.CopyFrom(&local)
	far := global.Pos[leg.Root].Add(mgl32.Vec3{0, -5, 0})
	TwoBoneIKStatic(&l, &global, skel.Parents, leg, far)
	FKStatic(&after, &l, skel.Parents)
	dir := after.Pos[leg.End].Sub(after.Pos[leg.Root]).Normalize()
	if d := dir.Dot(far.Sub(after.Pos[leg.Root]).Normalize()); d < 0.9999 || !mathx.Vec3Finite(after.Pos[leg.End]) {
		t.Fatalf("unreachable target: leg direction . target direction = %v", d)
	}
}

// The single-frame finite-difference IK is first order in delta: its
// velocity error against a fine central difference shrinks ~10x when
// delta does.
func TestTwoBoneIKFirstOrder(t *testing.T) {
	skel := BenchSkeleton()
	leg := TwoBoneJoints{Root: BenchLeftUpLeg, Mid: BenchLeftLeg, End: BenchLeftFoot}
	c := GenerateBenchClip(1)
	bend := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0.9, 0, 0})
	temp, gc, gt, global := NewPose(23), NewPose(23), NewPose(23), NewPose(23)
	eval := func(out *Pose, tm, delta float32) {
		SampleCubic(out, &c, tm)
		out.Rot[leg.Mid] = mathx.QuatMul(bend, out.Rot[leg.Mid])
		out.Ang[leg.Mid] = mathx.QuatMulVec3(bend, out.Ang[leg.Mid])
		FK(&global, out, skel.Parents)
		target := global.Pos[leg.End].Add(mgl32.Vec3{0, .1, 0})
		TwoBoneIK(out, &temp, &gc, &gt, skel.Parents, leg, target, global.Vel[leg.End], delta)
	}
	errAt := func(delta float32) float32 {
		p, p0, p1 := NewPose(23), NewPose(23), NewPose(23)
		worst := float32(0)
		for f := 40; f < 560; f += 13 {
			tm := (float32(f) + 0.37) * c.FrameTime
			const h = 1e-3
			eval(&p, tm, delta)
			eval(&p0, tm-h, delta)
			eval(&p1, tm+h, delta)
			inv := 1 / ((tm + h) - (tm - h))
			for _, j := range []int{leg.Root, leg.Mid} {
				fd := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(p1.Rot[j], p0.Rot[j]))).Mul(inv)
				worst = max(worst, p.Ang[j].Sub(fd).Len())
			}
		}
		return worst
	}
	coarse, fine := errAt(0.01), errAt(0.001)
	if fine > coarse/5 || coarse > 1 {
		t.Fatalf("IK velocity error %g at delta 0.01, %g at 0.001: not first order", coarse, fine)
	}
}

// nearQuat reports whether a and b are the same rotation within tol.
func nearQuat(a, b mgl32.Quat, tol float32) bool {
	return mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(a, b))).Len() <= tol
}

// On a nearly straight knee (a standing or striding leg) the IK's angles
// keep their precision, so its finite-difference velocities still
// converge at first order: with acos, the knee's interior angle near pi is
// resolved to ~3e-4 rad, and over delta = 1 ms that noise (up to 0.9
// rad/s here) swamped the velocity error it should shrink.
func TestTwoBoneIKNearlyStraight(t *testing.T) {
	skel := BenchSkeleton()
	leg := TwoBoneJoints{Root: BenchLeftUpLeg, Mid: BenchLeftLeg, End: BenchLeftFoot}
	n := skel.Len()
	temp, gc, gt, global := NewPose(n), NewPose(n), NewPose(n), NewPose(n)
	// The hip swings about x; the knee is bent by only `knee` rad; the
	// target sits 4-6% of the way from the foot to the hip.
	eval := func(out *Pose, tm, delta, knee float32) {
		copy(out.Pos, skel.Offsets)
		for j := range out.Rot {
			out.Rot[j], out.Vel[j], out.Ang[j] = mathx.QuatIdentity(), mgl32.Vec3{}, mgl32.Vec3{}
		}
		s, c := mathx.Sincos32(2 * tm)
		out.Rot[leg.Root] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0.4 * s, 0, 0})
		out.Ang[leg.Root] = mgl32.Vec3{0.8 * c, 0, 0}
		out.Rot[leg.Mid] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{knee, 0, 0})
		FK(&global, out, skel.Parents)
		k, dk := 0.05+0.01*s, 0.02*c
		foot, hip := global.Pos[leg.End], global.Pos[leg.Root]
		target := foot.Add(hip.Sub(foot).Mul(k))
		vel := global.Vel[leg.End].Add(global.Vel[leg.Root].Sub(global.Vel[leg.End]).Mul(k)).Add(hip.Sub(foot).Mul(dk))
		TwoBoneIK(out, &temp, &gc, &gt, skel.Parents, leg, target, vel, delta)
	}
	// Worst angular velocity error of the IK'd joints against a central
	// difference (h = 1 ms) over 3 s.
	errAt := func(delta, knee float32) float32 {
		p, p0, p1 := NewPose(n), NewPose(n), NewPose(n)
		worst := float32(0)
		for f := 0; f < 200; f++ {
			const h = 1e-3
			tm := float32(f) * 0.0157
			eval(&p, tm, delta, knee)
			eval(&p0, tm-h, delta, knee)
			eval(&p1, tm+h, delta, knee)
			inv := 1 / ((tm + h) - (tm - h))
			for _, j := range []int{leg.Root, leg.Mid} {
				fd := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(p1.Rot[j], p0.Rot[j]))).Mul(inv)
				worst = max(worst, p.Ang[j].Sub(fd).Len())
			}
		}
		return worst
	}
	for _, knee := range []float32{0.01, 1e-3, 1e-4} {
		if coarse, fine := errAt(0.01, knee), errAt(0.001, knee); fine > coarse/3 || fine > 0.01 {
			t.Errorf("knee bent %g rad: IK velocity error %.3g rad/s at delta 10 ms, %.3g at 1 ms: not first order", knee, coarse, fine)
		}
	}
}

// TwoBoneIK finite-differences only the two joints it turns: every other
// joint keeps its velocities exactly, even one turning faster than pi per
// delta (400 rad/s here, 4 rad in 10 ms), which a round trip through
// ExtrapolatePrev and a finite difference would alias.
func TestTwoBoneIKKeepsOtherVelocities(t *testing.T) {
	skel := BenchSkeleton()
	leg := TwoBoneJoints{Root: BenchLeftUpLeg, Mid: BenchLeftLeg, End: BenchLeftFoot}
	local := sampled(1, 2)
	local.Rot[leg.Mid] = mathx.QuatMul(mathx.QuatFromScaledAngleAxis(mgl32.Vec3{.5, 0, 0}), local.Rot[leg.Mid])
	hand := len(skel.Names) - 1
	if skel.Names[hand] != "RightHand" {
		t.Fatalf("joint %d is %s", hand, skel.Names[hand])
	}
	local.Ang[hand] = mgl32.Vec3{0, 400, 30}
	global := NewPose(23)
	FK(&global, &local, skel.Parents)
	before := NewPose(23)
	before.CopyFrom(&local)
	temp, gc, gt := NewPose(23), NewPose(23), NewPose(23)
	TwoBoneIK(&local, &temp, &gc, &gt, skel.Parents, leg, global.Pos[leg.End].Add(mgl32.Vec3{0, .1, 0}), global.Vel[leg.End], 0.01)
	for i := range local.Pos {
		if i == leg.Root || i == leg.Mid {
			continue
		}
		if local.Ang[i] != before.Ang[i] || local.Vel[i] != before.Vel[i] || local.Svl[i] != before.Svl[i] || local.Rot[i] != before.Rot[i] {
			t.Errorf("joint %d (%s): velocities %v %v, were %v %v", i, skel.Names[i], local.Vel[i], local.Ang[i], before.Vel[i], before.Ang[i])
		}
	}
}
