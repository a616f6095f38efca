package verify

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// Tolerances. A check passes when |propagated - reference| <= Abs + Rel |v|
// for every joint and time, Abs in m/s, rad/s or 1/s.
//
// The reference is a float32 central difference over 2h = 2 ms, whose own
// error is: truncation h^2/6 times the third time derivative, below 1e-4
// for these clips (third derivatives up to ~300 /s^3 on the fastest world
// channels); float32 rounding of the evaluated pose, ~2 ulp / 2h, which is
// ~1e-4 m/s per metre of position (world positions reach 12 m on the bench
// clips' walk) and ~1e-4 rad/s for rotations; and the float32 resolution of
// time itself: an operation sees t through t/frameTime, resolved to ~6e-5
// of a frame (1e-6 s) near frame 600, which over 2 ms is up to 5e-4 of the
// velocity.
//
// tolExact is for operations whose propagated velocities are the exact
// time derivative of what they output: Abs a few times the rounding noise,
// Rel twice the time resolution. A wrong or missing term (leverage,
// expansion, a weight rate, an exp-map derivative) shows as errors of 1e-2
// to 1 of the velocity, far above it.
var tolExact = Tolerance{Abs: [3]float64{5e-3, 2e-3, 2e-3}, Rel: 1e-3}

// tolIK is for TwoBoneIK, whose velocities are a first-order (backward)
// finite difference over delta = 0.01 s: its error is about delta/2 times
// the IK'd joints' acceleration, amplified where the IK is sensitive (a
// bent knee's rate reacts strongly to the hip-target distance): up to ~0.6
// rad/s on the bench clips, ~2 rad/s on the embedded run. So it is checked
// for first-order convergence (Tolerance.FirstOrder): at delta = 1 ms the
// error must drop at least five times. Joints the IK does not move keep
// exact velocities, within Abs.
var tolIK = Tolerance{Abs: tolExact.Abs, Rel: 1e-3, FirstOrder: true}

// Cases returns the checks of every velocity-propagating operation on
// clips of skeleton skel.
func Cases(skel *animsys.Skeleton) []Case {
	parents := skel.Parents
	n := skel.Len()
	cases := []Case{
		{
			Name: "SampleLinear", Article: "op_sample_linear", Space: "local", Tol: tolExact,
			Why: "exact derivative of the lerp/slerp/eerp within a frame interval",
			New: func(a, _ *animsys.Clip) func(*animsys.Pose, float32) {
				return func(out *animsys.Pose, t float32) { animsys.SampleLinear(out, a, t) }
			},
		},
		{
			Name: "SampleCubic", Article: "(cubic sampling)", Space: "local", Tol: tolExact,
			Why: "exact derivative of the Hermite curves",
			New: func(a, _ *animsys.Clip) func(*animsys.Pose, float32) {
				return func(out *animsys.Pose, t float32) { animsys.SampleCubic(out, a, t) }
			},
		},
		{
			Name: "FK", Article: "op_fk", Space: "world", Tol: tolExact,
			Why: "exact (product rule through the hierarchy); world positions up to 12 m",
			New: func(a, _ *animsys.Clip) func(*animsys.Pose, float32) {
				local := animsys.NewPose(n)
				return func(out *animsys.Pose, t float32) {
					animsys.SampleCubic(&local, a, t)
					animsys.FK(out, &local, parents)
				}
			},
		},
		{
			Name: "BK", Article: "op_bk", Space: "local", Tol: tolExact,
			Why: "exact inverse of FK",
			New: func(a, _ *animsys.Clip) func(*animsys.Pose, float32) {
				local, global := animsys.NewPose(n), animsys.NewPose(n)
				return func(out *animsys.Pose, t float32) {
					animsys.SampleCubic(&local, a, t)
					animsys.FK(&global, &local, parents)
					animsys.BK(out, &global, parents)
				}
			},
		},
		{
			Name: "BlendStatic", Article: "op_blend_static", Space: "local", Tol: tolExact,
			Why: "exact: lerped velocities with the exp-map derivative of the slerp",
			New: func(a, b *animsys.Clip) func(*animsys.Pose, float32) {
				pb := animsys.NewPose(n)
				return func(out *animsys.Pose, t float32) {
					animsys.SampleCubic(out, a, t)
					animsys.SampleCubic(&pb, b, t)
					animsys.BlendStatic(out, out, &pb, 0.35)
				}
			},
		},
		{
			Name: "Blend", Article: "op_blend", Space: "local", Tol: tolExact,
			Why: "exact: adds the pose difference times the weight rate",
			New: func(a, b *animsys.Clip) func(*animsys.Pose, float32) {
				pb := animsys.NewPose(n)
				return func(out *animsys.Pose, t float32) {
					animsys.SampleCubic(out, a, t)
					animsys.SampleCubic(&pb, b, t)
					w, dw := cosineWeight(t, 4)
					animsys.Blend(out, out, &pb, w, dw)
				}
			},
		},
		additiveCase("AdditiveStatic", "op_additive_inplace_static", n, false, false),
		additiveCase("Additive", "op_additive_inplace", n, true, false),
		additiveCase("AdditiveLocalStatic", "op_additive_local_inplace_static", n, false, true),
		additiveCase("AdditiveLocal", "op_additive_local_inplace (weight rate)", n, true, true),
		inertializeCase("Inertialize", "op_inertialize", "exact: decayed offset and its rate through the exp-map derivative", n,
			func(out, off *animsys.Pose, t float32) { animsys.Inertialize(out, off, out, t, 0.5) }),
		inertializeCase("InertializeCritical", "op_inertialize (critical spring)",
			"exact: offset decayed by spring.CriticalDecayWeights, rates its derivatives", n,
			func(out, off *animsys.Pose, t float32) { animsys.InertializeCritical(out, off, out, t, 0.15) }),
		{
			Name: "TimeScale", Article: "(playback rate)", Space: "local", Tol: tolExact,
			Why: "exact: sampling at rate*t scales every velocity by rate",
			New: func(a, _ *animsys.Clip) func(*animsys.Pose, float32) {
				return func(out *animsys.Pose, t float32) {
					animsys.SampleCubic(out, a, 0.8*t)
					animsys.TimeScale(out, 0.8)
				}
			},
		},
		{
			Name: "RemoveGlobalRoot+FK", Article: "(in-place pose)", Space: "world", Tol: tolExact,
			Why: "exact: the root is fixed at rest",
			New: func(a, _ *animsys.Clip) func(*animsys.Pose, float32) {
				local := animsys.NewPose(n)
				return func(out *animsys.Pose, t float32) {
					animsys.SampleCubic(&local, a, t)
					animsys.RemoveGlobalRoot(&local)
					animsys.FK(out, &local, parents)
				}
			},
		},
		{
			Name: "FiniteDiff", Article: "op_finite_diff", Space: "world", Tol: Tolerance{Abs: [3]float64{-1, -1, -1}},
			Why: "reference only: a backward difference over one 1/60 s frame is first-order, off by ~dt/2 x acceleration",
			New: func(a, _ *animsys.Clip) func(*animsys.Pose, float32) {
				local, prev := animsys.NewPose(n), animsys.NewPose(n)
				return func(out *animsys.Pose, t float32) {
					animsys.SampleCubic(&local, a, t-a.FrameTime)
					animsys.FK(&prev, &local, parents)
					animsys.SampleCubic(&local, a, t)
					animsys.FK(out, &local, parents)
					animsys.FiniteDiffInPlace(out, &prev, a.FrameTime)
				}
			},
		},
		{
			Name: "ExtrapolateDecayed", Article: "op_extrapolate_decayed", Space: "local", Tol: tolExact,
			Why: "exact: velocities are the derivative of the decayed extrapolation",
			New: func(a, _ *animsys.Clip) func(*animsys.Pose, float32) {
				tr := animsys.NewPose(n)
				return func(out *animsys.Pose, t float32) {
					t0 := anchor(t, 0.5, a.FrameTime)
					animsys.SampleCubic(&tr, a, t0)
					animsys.RemoveGlobalRoot(&tr) // the root is not extrapolated
					animsys.ExtrapolateDecayed(out, &tr, t-t0, 0.2)
				}
			},
		},
		{
			Name: "DeadBlend", Article: "op_dead_blending", Space: "local", Tol: tolExact,
			Why: "exact: extrapolation and blend are both exact",
			New: func(a, b *animsys.Clip) func(*animsys.Pose, float32) {
				tr, ex := animsys.NewPose(n), animsys.NewPose(n)
				return func(out *animsys.Pose, t float32) {
					t0 := anchor(t, 0.5, a.FrameTime)
					animsys.SampleCubic(&tr, a, t0)
					animsys.RemoveGlobalRoot(&tr)
					animsys.SampleCubic(out, b, t)
					animsys.RemoveGlobalRoot(out)
					animsys.DeadBlend(out, &ex, &tr, out, 0.2, t-t0, 0.5)
				}
			},
		},
		kformCase("KformMul", "kform_mul", n, func(v, w animsys.Kform) animsys.Kform { return animsys.KformMul(v, w) }),
		kformCase("KformDiv", "kform_div", n, func(v, w animsys.Kform) animsys.Kform { return animsys.KformDiv(v, w) }),
		kformCase("KformInv", "kform_inv", n, func(v, _ animsys.Kform) animsys.Kform { return animsys.KformInv(v) }),
		kformCase("KformMulInv", "kform_mul_inv", n, func(v, w animsys.Kform) animsys.Kform { return animsys.KformMulInv(v, w) }),
	}
	cases = append(cases, chainCase(parents))
	if head := jointIndex(skel, "Head"); head >= 0 {
		cases = append(cases, lookAtCase(parents, head))
	}
	leg := animsys.TwoBoneJoints{Root: jointIndex(skel, "LeftUpLeg"),
		Mid: jointIndex(skel, "LeftLeg"), End: jointIndex(skel, "LeftFoot")}
	if leg.Root >= 0 && leg.Mid >= 0 && leg.End >= 0 {
		cases = append(cases, twoBoneIKCase(parents, leg))
	}
	return cases
}

// inertializeCase transitions from clip a to clip b at the last anchor
// time (every 0.5 s) and applies the offset, decayed by apply for the time
// since the transition (s), onto b.
func inertializeCase(name, article, why string, n int, apply func(out, off *animsys.Pose, since float32)) Case {
	return Case{
		Name: name, Article: article, Space: "local", Tol: tolExact, Why: why,
		New: func(a, b *animsys.Clip) func(*animsys.Pose, float32) {
			src, off := animsys.NewPose(n), animsys.NewPose(n)
			return func(out *animsys.Pose, t float32) {
				t0 := anchor(t, 0.5, a.FrameTime)
				animsys.SampleCubic(&src, a, t0)
				animsys.SampleCubic(out, b, t0)
				animsys.InertializeOffset(&off, &src, out)
				animsys.SampleCubic(out, b, t)
				apply(out, &off, t-t0)
			}
		},
	}
}

// jointIndex is the index of the named joint, or -1.
func jointIndex(skel *animsys.Skeleton, name string) int {
	for i, s := range skel.Names {
		if s == name {
			return i
		}
	}
	return -1
}

// lookAtCase turns the head towards a target circling the character.
func lookAtCase(parents []int, head int) Case {
	n := len(parents)
	return Case{
		Name: "LookAt", Article: "op_lookat", Space: "local", Tol: tolExact,
		Why: "exact: kineform algebra and the derivatives of normalize and quat_between",
		New: func(a, _ *animsys.Clip) func(*animsys.Pose, float32) {
			global := animsys.NewPose(n)
			return func(out *animsys.Pose, t float32) {
				animsys.SampleCubic(out, a, t)
				animsys.FK(&global, out, parents)
				// A target walking 1.5 m ahead of the character, swaying.
				s, c := math.Sincos(0.5 * float64(t))
				pos := mgl32.Vec3{0.5 * float32(s), 1.7 + 0.2*float32(c), 1.2*t + 1.5}
				vel := mgl32.Vec3{0.25 * float32(c), -0.1 * float32(s), 1.2}
				animsys.LookAt(out, &global, head, pos, vel, mgl32.Vec3{0, 0, 1})
			}
		},
	}
}

// twoBoneIKCase lifts the foot 10 cm above where the clip puts it and
// sways it sideways, through the single-frame finite-difference IK.
func twoBoneIKCase(parents []int, leg animsys.TwoBoneJoints) Case {
	ik := func(a *animsys.Clip, delta float32) func(*animsys.Pose, float32) {
		return twoBoneIKEval(parents, leg, a, delta)
	}
	return Case{
		Name: "TwoBoneIK", Article: "op_two_bone_ik", Space: "local", Tol: tolIK,
		Why: "first order: a backward difference over delta = 0.01 s of the IK'd pose, " +
			"off by ~delta/2 x angular acceleration of the IK joints; must shrink 5x at delta = 1 ms",
		New:    func(a, _ *animsys.Clip) func(*animsys.Pose, float32) { return ik(a, 0.01) },
		Refine: func(a, _ *animsys.Clip) func(*animsys.Pose, float32) { return ik(a, 0.001) },
	}
}

// twoBoneIKEval is the TwoBoneIK case's evaluator on clip a with step delta (s).
func twoBoneIKEval(parents []int, leg animsys.TwoBoneJoints, a *animsys.Clip, delta float32) func(*animsys.Pose, float32) {
	n := len(parents)
	temp, gc, gt, global := animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n)
	// Keep the knee bent but not folded: a straight chain has no
	// bend plane, and a folded one sits on the law of cosines'
	// other singularity; IK output jumps at either. Add 0.9 rad of
	// bend, less if the clip's knee already bends past 1.3 rad (a
	// run), keeping it under 2.2 rad.
	var most float32
	for k := 0; k <= 100; k++ {
		animsys.SampleLinear(&temp, a, a.Duration()*float32(k)/100)
		most = max(most, mathx.QuatToScaledAngleAxis(mathx.QuatAbs(temp.Rot[leg.Mid])).Len())
	}
	bend := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{min(0.9, max(0, 2.2-most)), 0, 0})
	return func(out *animsys.Pose, t float32) {
		animsys.SampleCubic(out, a, t)
		out.Rot[leg.Mid] = mathx.QuatMul(bend, out.Rot[leg.Mid])
		out.Ang[leg.Mid] = mathx.QuatMulVec3(bend, out.Ang[leg.Mid])
		animsys.FK(&global, out, parents)
		s, c := math.Sincos(2 * float64(t))
		off := mgl32.Vec3{0.05 * float32(s), 0.1, 0}
		offVel := mgl32.Vec3{0.1 * float32(c), 0, 0}
		pos := global.Pos[leg.End].Add(off)
		vel := global.Vel[leg.End].Add(offVel)
		animsys.TwoBoneIK(out, &temp, &gc, &gt, parents, leg, pos, vel, delta)
	}
}

// cosineWeight is the bench-spec blend weight .5 - .5 cos(2 pi t / period)
// and its rate (pi / period) sin(2 pi t / period) in 1/s.
func cosineWeight(t, period float32) (w, dw float32) {
	s, c := math.Sincos(2 * math.Pi * float64(t) / float64(period))
	return float32(.5 - .5*c), float32(math.Pi / float64(period) * s)
}

// anchor is the start of the constant-velocity motion or transition a test
// time belongs to: the start of t's frame rounded down to a multiple of
// step (s). Test times sit 0.37 of a frame past a frame start, more than h
// away from it at any frame rate below 370 fps, so t-h, t and t+h share one
// anchor, and it lies before t-h.
func anchor(t, step, frameTime float32) float32 {
	start := float32(math.Floor(float64(t/frameTime))) * frameTime
	return float32(math.Floor(float64(start/step))) * step
}

// movingPose writes pose p0 moved along its own (constant) velocities from
// its anchor time to t: pos + vel dt, exp(ang dt) rot, scl exp(svl dt).
func movingPose(out, p0 *animsys.Pose, t, frameTime float32) {
	animsys.ExtrapolatePrev(out, p0, -(t - anchor(t, 0.25, frameTime)))
}

func additiveCase(name, article string, n int, moving, local bool) Case {
	return Case{
		Name: name, Article: article, Space: "local", Tol: tolExact,
		Why: "exact: weighted additive and its rate through the exp-map derivative",
		New: func(a, _ *animsys.Clip) func(*animsys.Pose, float32) {
			add0, add := animsys.NewPose(n), animsys.NewPose(n)
			animsys.RandomAdditive(&add0, 7)
			return func(out *animsys.Pose, t float32) {
				animsys.SampleCubic(out, a, t)
				movingPose(&add, &add0, t, a.FrameTime)
				w, dw := cosineWeight(t, 3)
				switch {
				case moving && local:
					animsys.AdditiveLocal(out, &add, w, dw)
				case moving:
					animsys.Additive(out, &add, w, dw)
				case local:
					animsys.AdditiveLocalStatic(out, &add, 0.6)
				default:
					animsys.AdditiveStatic(out, &add, 0.6)
				}
			}
		},
	}
}

// randomMovingPose fills out with large random kineforms (positions +-1 m,
// rotations +-1.5 rad per axis, non-uniform scales exp(+-.5), velocities
// +-1 m/s, +-2 rad/s, +-.5 /s).
func randomMovingPose(out *animsys.Pose, seed uint32) {
	r := animsys.NewXorshift32(seed)
	rv := func(s float32) mgl32.Vec3 { return mgl32.Vec3{r.Range(s), r.Range(s), r.Range(s)} }
	for j := range out.Pos {
		out.Pos[j] = rv(1)
		out.Rot[j] = mathx.QuatFromScaledAngleAxis(rv(1.5))
		out.Scl[j] = mathx.Vec3Exp(rv(.5))
		out.Vel[j] = rv(1)
		out.Ang[j] = rv(2)
		out.Svl[j] = rv(.5)
	}
}

// kformCase checks a kineform operation on pairs of random kineforms, each
// moving along its own velocities.
func kformCase(name, article string, n int, op func(v, w animsys.Kform) animsys.Kform) Case {
	return Case{
		Name: name, Article: article, Space: "kform", Tol: tolExact,
		Why: "exact: the velocity rows are the derivatives of the transform rows",
		New: func(a, _ *animsys.Clip) func(*animsys.Pose, float32) {
			v0, w0, v, w := animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n)
			randomMovingPose(&v0, 11+uint32(a.Frames))
			randomMovingPose(&w0, 12+uint32(a.Joints))
			return func(out *animsys.Pose, t float32) {
				movingPose(&v, &v0, t, a.FrameTime)
				movingPose(&w, &w0, t, a.FrameTime)
				for j := 0; j < n; j++ {
					out.SetKform(j, op(v.Kform(j), w.Kform(j)))
				}
			}
		},
	}
}

// chainCase runs the bench-spec chain (cubic sampling, blend and additive
// with weight rates, cubic inertialization, FK) as one function of time,
// with the additive pose moving along its own velocities.
func chainCase(parents []int) Case {
	n := len(parents)
	return Case{
		Name: "Chain", Article: "(bench-spec tick)", Space: "world", Tol: tolExact,
		Why: "exact: every stage is",
		New: func(a, b *animsys.Clip) func(*animsys.Pose, float32) {
			ch := animsys.BenchChain(parents)
			c := animsys.NewCharacter(&ch, a, b, 5, 0, 0, nil)
			add0 := animsys.NewPose(n)
			add0.CopyFrom(&c.Add)
			return func(out *animsys.Pose, t float32) {
				c.TA, c.TB, c.T = t, t+0.3, t
				movingPose(&c.Add, &add0, t, a.FrameTime)
				c.Evaluate()
				out.CopyFrom(&c.Global)
			}
		},
	}
}
