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

// Roles are the joints of a skeleton that the procedural cases act on,
// by index, -1 when absent: the head that LookAt turns, and the leg
// (hip, knee, ankle) that TwoBoneIK bends. The caller finds them (by name,
// or from the skeleton's anatomy); a case whose joints are absent is left
// out.
type Roles struct {
	Head int
	Leg  animsys.TwoBoneJoints
}

// NoRoles is Roles with every joint absent.
func NoRoles() Roles { return Roles{Head: -1, Leg: animsys.TwoBoneJoints{Root: -1, Mid: -1, End: -1}} }

// BenchRoles are the roles of the bench skeleton (animsys.BenchSkeleton):
// its Head and left leg.
func BenchRoles() Roles {
	return Roles{Head: animsys.BenchHead,
		Leg: animsys.TwoBoneJoints{Root: animsys.BenchLeftUpLeg, Mid: animsys.BenchLeftLeg, End: animsys.BenchLeftFoot}}
}

// legOK reports whether the leg is a chain of skel: Mid a child of Root,
// End a child of Mid.
func (r Roles) legOK(skel *animsys.Skeleton) bool {
	l, n := r.Leg, skel.Len()
	return l.Root >= 0 && l.Mid >= 0 && l.End >= 0 && l.Root < n && l.Mid < n && l.End < n &&
		skel.Parents[l.Mid] == l.Root && skel.Parents[l.End] == l.Mid
}

// Cases returns the checks of every velocity-propagating operation on
// clips of skeleton skel, with LookAt and TwoBoneIK on the joints of
// roles when present.
func Cases(skel *animsys.Skeleton, roles Roles) []Case {
	parents := skel.Parents
	n := skel.Len()
	cases := []Case{
		{
			Name: "SampleLinear", Article: "op_sample_linear", Space: "local", Tol: tolExact,
			Why:   "exact derivative of the lerp/slerp/eerp within a frame interval",
			Reads: func(a, _ *animsys.Clip, t float32) []Read { return []Read{{Clip: a, Time: t, Linear: true}} },
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
			Why:       "exact (product rule through the hierarchy); world positions up to 12 m",
			Hierarchy: true,
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
			Why: "exact inverse of FK", Hierarchy: true,
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
			Why:   "exact: lerped velocities with the exp-map derivative of the slerp",
			Reads: readsAB,
			Seams: seamsAB,
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
			Why:   "exact: adds the pose difference times the weight rate",
			Reads: readsAB,
			Seams: seamsAB,
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
			// Check every interval of the clip at its 0.37 point in
			// sampled time 0.8 t.
			Times: func(a *animsys.Clip, n int) []float32 { return FractionTimes(a, 0.37, 0.8, n) },
			Reads: func(a, _ *animsys.Clip, t float32) []Read { return []Read{{Clip: a, Time: 0.8 * t}} },
			New: func(a, _ *animsys.Clip) func(*animsys.Pose, float32) {
				return func(out *animsys.Pose, t float32) {
					animsys.SampleCubic(out, a, 0.8*t)
					animsys.TimeScale(out, 0.8)
				}
			},
		},
		{
			Name: "RemoveGlobalRoot+FK", Article: "(in-place pose)", Space: "world", Tol: tolExact,
			Why: "exact: the root is fixed at rest", Hierarchy: true,
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
			Why:       "reference only: a backward difference over one frame is first-order, off by ~dt/2 x acceleration",
			Hierarchy: true,
			Reads: func(a, _ *animsys.Clip, t float32) []Read {
				return []Read{{Clip: a, Time: t}, {Clip: a, Time: t - a.FrameTime}}
			},
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
			Why:   "exact: velocities are the derivative of the decayed extrapolation",
			Reads: readsNone, // the transition pose is sampled at the anchor only
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
			Why:   "exact: extrapolation and blend are both exact",
			Reads: readsB, // clip a at the anchor only
			Seams: func(a, b *animsys.Clip) func([]float32, float32) {
				tr, ex, in := animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n)
				return func(w []float32, t float32) {
					t0 := deadBlendInputs(&tr, &in, a, b, t)
					animsys.ExtrapolateDecayed(&ex, &tr, t-t0, 0.2)
					blendSeams(w, &ex, &in)
				}
			},
			New: func(a, b *animsys.Clip) func(*animsys.Pose, float32) {
				tr, ex := animsys.NewPose(n), animsys.NewPose(n)
				return func(out *animsys.Pose, t float32) {
					t0 := deadBlendInputs(&tr, out, a, b, t)
					animsys.DeadBlend(out, &ex, &tr, out, 0.2, t-t0, 0.5)
				}
			},
		},
		kformCase("KformMul", "kform_mul", n, func(v, w animsys.Kform) animsys.Kform { return animsys.KformMul(v, w) }),
		kformCase("KformDiv", "kform_div", n, func(v, w animsys.Kform) animsys.Kform { return animsys.KformDiv(v, w) }),
		kformCase("KformInv", "kform_inv", n, func(v, _ animsys.Kform) animsys.Kform { return animsys.KformInv(v) }),
		kformCase("KformMulInv", "kform_mul_inv", n, func(v, w animsys.Kform) animsys.Kform { return animsys.KformMulInv(v, w) }),
	}
	for k := animsys.TransitionKind(0); k < animsys.NumTransitionKinds; k++ {
		cases = append(cases, transitionCase(k, n))
	}
	cases = append(cases, chainCase(parents))
	if roles.Head >= 0 && roles.Head < n {
		cases = append(cases, lookAtCase(parents, roles.Head))
	}
	if roles.legOK(skel) {
		cases = append(cases, twoBoneIKCase(parents, roles.Leg))
	}
	return cases
}

// inertializeCase transitions from clip a to clip b at the last anchor
// time (every 0.5 s) and applies the offset, decayed by apply for the time
// since the transition (s), onto b.
func inertializeCase(name, article, why string, n int, apply func(out, off *animsys.Pose, since float32)) Case {
	return Case{
		Name: name, Article: article, Space: "local", Tol: tolExact, Why: why,
		Reads: readsB, // clip a and b at the anchor, then b live
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

// transitionParams are the transition cases' durations: the Velocities
// lab's defaults, within the 0.5 s between transitions.
var transitionParams = animsys.TransitionParams{BlendDuration: 0.4, CubicDuration: 0.4, Halflife: 0.1, DeadHalflife: 0.2}

// transitionCase plays an animsys.Transition of kind k from clip a to clip
// b, started at the last anchor time (every 0.5 s), the roots removed as
// the labs remove them: the one transition state machine the labs and the
// motion matcher share, through every kind.
func transitionCase(k animsys.TransitionKind, n int) Case {
	c := Case{
		Name: "Transition (" + k.String() + ")", Article: transitionArticles[k], Space: "local", Tol: tolExact,
		Why:   "exact: the kind's operation on the sampled clips, with the weight's or offset's rate",
		Reads: readsB, // clip a at the anchor only, then b live
	}
	switch k {
	case animsys.TransitionBlend:
		c.Reads, c.Seams = readsAB, seamsAB // both clips play on
	case animsys.TransitionDeadBlend:
		c.Seams = func(a, b *animsys.Clip) func([]float32, float32) {
			tr, ex, in := animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n)
			return func(w []float32, t float32) {
				t0 := deadBlendInputs(&tr, &in, a, b, t)
				animsys.ExtrapolateDecayed(&ex, &tr, t-t0, transitionParams.DeadHalflife)
				blendSeams(w, &ex, &in)
			}
		}
	}
	c.New = func(a, b *animsys.Clip) func(*animsys.Pose, float32) {
		trans := animsys.NewTransition(n)
		src, dst := animsys.NewPose(n), animsys.NewPose(n)
		return func(out *animsys.Pose, t float32) {
			t0 := anchor(t, 0.5, a.FrameTime)
			sampleInPlace(&src, a, t0)
			sampleInPlace(&dst, b, t0)
			trans.Start(k, &src, &dst)
			trans.Advance(t - t0)
			var source *animsys.Pose
			if k == animsys.TransitionBlend {
				sampleInPlace(&src, a, t)
				source = &src
			}
			sampleInPlace(out, b, t)
			trans.Apply(out, out, source, transitionParams)
		}
	}
	return c
}

// sampleInPlace samples clip c at t (s), cubic, with the root removed.
func sampleInPlace(p *animsys.Pose, c *animsys.Clip, t float32) {
	animsys.SampleCubic(p, c, t)
	animsys.RemoveGlobalRoot(p)
}

// transitionArticles name the article's function of each transition kind.
var transitionArticles = [animsys.NumTransitionKinds]string{"(cut)", "op_blend (two-way transition)",
	"op_inertialize", "op_inertialize (critical spring)", "op_dead_blending"}

// lookAtCase turns the head towards a target circling the character.
func lookAtCase(parents []int, head int) Case {
	n := len(parents)
	return Case{
		Name: "LookAt", Article: "op_lookat", Space: "local", Tol: tolExact,
		Why:       "exact: kineform algebra and the derivatives of normalize and quat_between",
		Hierarchy: true,
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

// twoBoneIKCase bends the knee away from its singular configurations and
// pulls the foot towards the hip, through the single-frame
// finite-difference IK.
func twoBoneIKCase(parents []int, leg animsys.TwoBoneJoints) Case {
	ik := func(a *animsys.Clip, delta float32) func(*animsys.Pose, float32) {
		return twoBoneIKEval(parents, leg, a, delta)
	}
	return Case{
		Name: "TwoBoneIK", Article: "op_two_bone_ik", Space: "local", Tol: tolIK,
		Why: "first order: a backward difference over delta = 0.01 s of the IK'd pose, " +
			"off by ~delta/2 x angular acceleration of the IK joints; must shrink 5x at delta = 1 ms",
		Hierarchy: true,
		New:       func(a, _ *animsys.Clip) func(*animsys.Pose, float32) { return ik(a, 0.01) },
		Refine:    func(a, _ *animsys.Clip) func(*animsys.Pose, float32) { return ik(a, 0.001) },
	}
}

// twoBoneIKEval is the TwoBoneIK case's evaluator on clip a with step
// delta (s). The IK has two singular configurations, where its output is
// not a smooth function of the target: a straight chain (no bend plane)
// and a folded one (the law of cosines' other end). Real legs straighten
// at every step, so the case first bends the knee by a constant rotation
// (kneeBend) that keeps it as far from both as it can over the whole clip,
// then sets the target a tenth of the way (+-3%) from the foot to the hip:
// inside reach, whatever the skeleton's axes (the case bent the knee about
// local x and lifted the target 10 cm along world y, which on skeletons
// with bones along x or z up twisted the knee and left it straight, or
// put the target out of reach).
// The root joint stays at the origin (its rotation plays): the IK works on
// world positions, which 12 m away (the bench clips' walk) float32
// resolves to 1e-6 m, ~2.5e-6 rad on a 0.4 m bone: 5e-3 rad/s of noise
// over the finer 1 ms step, more than the tolerance.
func twoBoneIKEval(parents []int, leg animsys.TwoBoneJoints, a *animsys.Clip, delta float32) func(*animsys.Pose, float32) {
	n := len(parents)
	temp, gc, gt, global := animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n)
	bend := kneeBend(a, leg)
	return func(out *animsys.Pose, t float32) {
		animsys.SampleCubic(out, a, t)
		out.Pos[0], out.Vel[0] = mgl32.Vec3{}, mgl32.Vec3{}
		out.Rot[leg.Mid] = mathx.QuatMul(bend, out.Rot[leg.Mid])
		out.Ang[leg.Mid] = mathx.QuatMulVec3(bend, out.Ang[leg.Mid])
		animsys.FK(&global, out, parents)
		s, c := math.Sincos(2 * float64(t))
		k, dk := 0.1+0.03*float32(s), 0.06*float32(c) // fraction towards the hip, its rate (1/s)
		foot, hip := global.Pos[leg.End], global.Pos[leg.Root]
		vFoot, vHip := global.Vel[leg.End], global.Vel[leg.Root]
		pos := foot.Add(hip.Sub(foot).Mul(k))
		vel := vFoot.Add(vHip.Sub(vFoot).Mul(k)).Add(hip.Sub(foot).Mul(dk))
		animsys.TwoBoneIK(out, &temp, &gc, &gt, parents, leg, pos, vel, delta)
	}
}

// kneeBend is a constant rotation of the knee (on its parent's side) that
// keeps the angle between thigh and shin (0 when straight) away from 0
// and pi over clip a: about the mean normal of the clip's bend planes (or
// any axis across the thigh if the leg never bends), by the angle in
// 0..2 rad that keeps the bend furthest from both ends at every frame.
func kneeBend(a *animsys.Clip, leg animsys.TwoBoneJoints) mgl32.Quat {
	thigh := func(f int) mgl32.Vec3 { return a.PosAt(f, leg.Mid) }
	shin := func(f int) mgl32.Vec3 {
		return mathx.QuatMulVec3(a.Rot[a.At(f, leg.Mid)], mathx.Vec3Mul(a.PosAt(f, leg.End), a.SclAt(f, leg.Mid)))
	}
	var axis mgl32.Vec3
	for f := 0; f < a.Frames; f++ {
		axis = axis.Add(mathx.Vec3Normalize(thigh(f).Cross(shin(f))))
	}
	u := mathx.Vec3Normalize(thigh(0))
	axis = axis.Sub(u.Mul(axis.Dot(u))) // across the thigh
	if axis.Len() < 0.1*float32(a.Frames) {
		// Barely bent: any axis across the thigh.
		axis = u.Cross(mgl32.Vec3{1, 0, 0})
		if axis.Len() < 0.5 {
			axis = u.Cross(mgl32.Vec3{0, 1, 0})
		}
	}
	axis = mathx.Vec3Normalize(axis)
	best, bestMargin := mathx.QuatIdentity(), float32(-1)
	for k := 0; k <= 40; k++ {
		r := mathx.QuatFromScaledAngleAxis(axis.Mul(0.05 * float32(k)))
		margin := float32(math.Pi)
		for f := 0; f < a.Frames; f++ {
			b := float32(math.Acos(float64(mathx.Clamp(mathx.Vec3Normalize(thigh(f)).Dot(mathx.Vec3Normalize(mathx.QuatMulVec3(r, shin(f)))), -1, 1))))
			margin = min(margin, b, math.Pi-b)
		}
		if margin > bestMargin+1e-3 {
			best, bestMargin = r, margin
		}
	}
	return best
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
	r := mathx.NewXorshift32(seed)
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
		Why:   "exact: the velocity rows are the derivatives of the transform rows",
		Reads: readsNone,
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
		Why:       "exact: every stage is",
		Hierarchy: true,
		Reads: func(a, b *animsys.Clip, t float32) []Read {
			return []Read{{Clip: a, Time: t}, {Clip: b, Time: chainTimeB(b, t)}}
		},
		// The chain re-applies its inertialization offset in full every
		// InertDuration: a jump of its output, by design.
		Restart: animsys.NewBenchChain(parents).InertDuration,
		Seams: func(a, b *animsys.Clip) func([]float32, float32) {
			pa, pb := animsys.NewPose(n), animsys.NewPose(n)
			return func(w []float32, t float32) {
				animsys.SampleCubic(&pa, a, t)
				animsys.SampleCubic(&pb, b, chainTimeB(b, t))
				blendSeams(w, &pa, &pb)
			}
		},
		New: func(a, b *animsys.Clip) func(*animsys.Pose, float32) {
			ch := animsys.NewBenchChain(parents)
			c := animsys.NewBenchCharacter(&ch, a, b, 5, 0, 0, nil)
			add0 := animsys.NewPose(n)
			add0.CopyFrom(&c.Add)
			return func(out *animsys.Pose, t float32) {
				c.TA, c.TB, c.T = t, chainTimeB(b, t), t
				movingPose(&c.Add, &add0, t, a.FrameTime)
				c.Evaluate()
				out.CopyFrom(&c.Global)
			}
		},
	}
}

// chainTimeB is the time (s) of clip b in the Chain case at time t: about
// 0.3 s ahead of clip a, in whole frames of b so that b is sampled at the
// same point of its frame interval as a (at the same frame rate), and 0.3
// s behind where ahead would run past b's end.
func chainTimeB(b *animsys.Clip, t float32) float32 {
	off := float32(math.Round(0.3/float64(b.FrameTime))) * b.FrameTime
	switch {
	case t+off <= b.Duration():
		return t + off
	case t-off >= 0:
		return t - off
	}
	return t
}

// readsAB reads clips a and b live at t; readsB only b; readsNone no clip.
func readsAB(a, b *animsys.Clip, t float32) []Read {
	return []Read{{Clip: a, Time: t}, {Clip: b, Time: t}}
}
func readsB(_, b *animsys.Clip, t float32) []Read    { return []Read{{Clip: b, Time: t}} }
func readsNone(_, _ *animsys.Clip, _ float32) []Read { return nil }

// deadBlendInputs samples the DeadBlend case's inputs at time t: the
// transition pose tr from clip a at the last anchor t0 (returned) and the
// live pose in from clip b at t, both in place (root removed).
func deadBlendInputs(tr, in *animsys.Pose, a, b *animsys.Clip, t float32) (t0 float32) {
	t0 = anchor(t, 0.5, a.FrameTime)
	animsys.SampleCubic(tr, a, t0)
	animsys.RemoveGlobalRoot(tr)
	animsys.SampleCubic(in, b, t)
	animsys.RemoveGlobalRoot(in)
	return t0
}

// blendSeams writes the w of rhs.rot lhs.rot^-1 per joint (Case.Seams).
func blendSeams(w []float32, lhs, rhs *animsys.Pose) {
	for j := range w {
		w[j] = mathx.QuatMulInv(rhs.Rot[j], lhs.Rot[j]).W
	}
}

// seamsAB are the seams of blending clip a into clip b, both at t.
func seamsAB(a, b *animsys.Clip) func([]float32, float32) {
	pa, pb := animsys.NewPose(a.Joints), animsys.NewPose(b.Joints)
	return func(w []float32, t float32) {
		animsys.SampleCubic(&pa, a, t)
		animsys.SampleCubic(&pb, b, t)
		blendSeams(w, &pa, &pb)
	}
}
