package verify

import (
	"math"

	"kinelab/animsys"
)

// Tolerances, in m/s, rad/s and 1/s. The reference is a float32 central
// difference with h = 1 ms, so its own error is: truncation h^2/6 |x'''|
// (< 1e-4 for these clips: |x'''| <= ~300 /s^3 on the fastest rotation
// channels) plus float32 rounding of the evaluated poses, ~2 ulp / 2h:
// ~1e-4 per metre of position (world positions reach 12 m on the bench
// clips' root walk, so up to ~2e-3 m/s there), ~1e-4 rad/s for rotations.
// Operations whose propagated velocities are exact derivatives are held to
// tolExact, a few times that noise; the others state their own.
var (
	tolExact = Tolerance{5e-3, 2e-3, 2e-3}
)

// Cases returns the checks of every velocity-propagating operation on
// clips of skeleton skel.
func Cases(skel *animsys.Skeleton) []Case {
	parents := skel.Parents
	n := skel.Len()
	return []Case{
		{
			Name: "SampleLinear", Article: "op_sample_linear", Space: "local", Tol: tolExact,
			Why: "exact derivative of the lerp/slerp/eerp within a frame interval",
			New: func(a, _ *animsys.Clip) func(*animsys.Pose, float32) {
				return func(out *animsys.Pose, t float32) { animsys.SampleLinear(out, a, t) }
			},
		},
		{
			Name: "SampleCubic", Article: "op_sample_cubic", Space: "local", Tol: tolExact,
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
			Why: "",
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
			Why: "",
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
		{
			Name: "Inertialize", Article: "op_inertialize", Space: "local", Tol: tolExact,
			Why: "",
			New: func(a, b *animsys.Clip) func(*animsys.Pose, float32) {
				src, off := animsys.NewPose(n), animsys.NewPose(n)
				return func(out *animsys.Pose, t float32) {
					t0 := anchor(t, 0.5)
					animsys.SampleCubic(&src, a, t0)
					animsys.SampleCubic(out, b, t0)
					animsys.InertializeOffset(&off, &src, out)
					animsys.SampleCubic(out, b, t)
					animsys.Inertialize(out, &off, out, t-t0, 0.5)
				}
			},
		},
	}
}

// cosineWeight is the bench-spec blend weight .5 - .5 cos(2 pi t / period)
// and its rate (pi / period) sin(2 pi t / period) in 1/s.
func cosineWeight(t, period float32) (w, dw float32) {
	s, c := math.Sincos(2 * math.Pi * float64(t) / float64(period))
	return float32(.5 - .5*c), float32(math.Pi / float64(period) * s)
}

// anchor is t rounded down to a multiple of step: the start of the
// constant-velocity motion or transition a test time belongs to. Test times
// sit 0.37 of a frame past a frame, so t-h, t and t+h share one anchor.
func anchor(t, step float32) float32 {
	return float32(math.Floor(float64(t/step))) * step
}

// movingAdditive writes the bench-style additive pose (see
// animsys.RandomAdditive) moved along its own velocities from its anchor
// time to t.
func movingAdditive(out, add0 *animsys.Pose, t float32) {
	animsys.ExtrapolatePrev(out, add0, -(t - anchor(t, 0.25)))
}

func additiveCase(name, article string, n int, moving, local bool) Case {
	return Case{
		Name: name, Article: article, Space: "local", Tol: tolExact,
		Why: "",
		New: func(a, _ *animsys.Clip) func(*animsys.Pose, float32) {
			add0, add := animsys.NewPose(n), animsys.NewPose(n)
			animsys.RandomAdditive(&add0, 7)
			return func(out *animsys.Pose, t float32) {
				animsys.SampleCubic(out, a, t)
				movingAdditive(&add, &add0, t)
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
