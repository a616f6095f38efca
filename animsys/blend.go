package animsys

import (
	"kinelab/animsys/mathx"
)

// Two-way blend (propagating-velocities, "Two Way Blend").

// SmoothstepBlendAlpha is the cross-fade weight smoothstep(clamp(time /
// duration, 0, 1)) (smoothstep_blend_alpha); time and duration in seconds.
func SmoothstepBlendAlpha(time, duration float32) float32 {
	return mathx.Smoothstep(mathx.Clamp(time/max(duration, mathx.Eps), 0, 1))
}

// SmoothstepBlendAlphaVel is the rate of SmoothstepBlendAlpha in 1/s:
// smoothstep_dx(x) / duration. The article's smoothstep_blend_alpha_dx(time,
// duration, dt) returns this times dt (the change over one tick) and op_blend
// divides it by dt again; animsys passes rates per second throughout.
func SmoothstepBlendAlphaVel(time, duration float32) float32 {
	d := max(duration, mathx.Eps)
	return mathx.SmoothstepDx(mathx.Clamp(time/d, 0, 1)) / d
}

// BlendStatic blends lhs (alpha = 0) to rhs (alpha = 1) with a weight that
// does not change (op_blend_static): positions lerp, rotations slerp
// (shortest), scales eerp, and each velocity is the lerp of the two.
// out may be lhs or rhs.
func BlendStatic(out, lhs, rhs *Pose, alpha float32) {
	n := lhs.Len()
	needLanes(nil, "BlendStatic", "lhs", lhs, wholePose, n, "len(lhs.Pos)")
	needLanes(nil, "BlendStatic", "rhs", rhs, wholePose, n, "len(lhs.Pos)")
	needLanes(nil, "BlendStatic", "out", out, wholePose, n, "len(lhs.Pos)")
	Blend(out, lhs, rhs, alpha, 0)
}

// Blend blends lhs (alpha = 0) to rhs (alpha = 1) with a weight changing at
// alphaVel per second (op_blend with alpha_vel/dt = alphaVel). The moving
// weight adds the difference of the poses times alphaVel to the lerped
// velocities: (rhs.pos - lhs.pos) alphaVel in m/s, the rotation d from lhs
// to rhs (scaled angle-axis) times alphaVel in rad/s, log(rhs.scl /
// lhs.scl) alphaVel per second. Pass alphaVel = 0 to ignore the velocity a
// changing weight adds. out may be lhs or rhs.
//
// The angular velocity is the exact derivative of the slerp exp(alpha d)
// lhs.rot: alphaVel d + J(alpha d) alpha d' + exp(alpha d) lhs.ang with d'
// = J(d)^-1 (rhs.ang - D lhs.ang), D the rotation from lhs to rhs and J the
// exp-map derivative. For small d it is the article's lerp(lhs.ang,
// rhs.ang, alpha) + d alphaVel, which is off by up to ~0.25 rad/s when
// blending the bench clips.
func Blend(out, lhs, rhs *Pose, alpha, alphaVel float32) {
	n := len(lhs.Pos)
	var l, r, o mathx.Rooms
	needLanes(&l, "Blend", "lhs", lhs, wholePose, n, "len(lhs.Pos)")
	needLanes(&r, "Blend", "rhs", rhs, wholePose, n, "len(lhs.Pos)")
	needLanes(&o, "Blend", "out", out, wholePose, n, "len(lhs.Pos)")
	wa, wav := mathx.Splat(alpha), mathx.Splat(alphaVel)
	a, av := wa.Lanes(), wav.Lanes()
	for i := 0; i < n; i += mathx.Lanes {
		// Each channel is read before out's is written (out may be lhs or
		// rhs). pos = lerp(lhs.pos, rhs.pos, alpha), vel = lerp(lhs.vel,
		// rhs.vel, alpha) + (rhs.pos - lhs.pos) alphaVel: the same on each
		// component, so as the Vec3s lie in memory (Flat3).
		lp, rp := l.Pos.LoadFlat(i), r.Pos.LoadFlat(i)
		lv, rv := l.Vel.LoadFlat(i), r.Vel.LoadFlat(i)
		o.Pos.StoreFlat(i, lp.Lerp(rp, wa))
		o.Vel.StoreFlat(i, lv.Lerp(rv, wa).Add(rp.Sub(lp).Scale(wav)))

		// scl = lhs.scl exp(alpha ds), ds = log(rhs.scl / lhs.scl).
		ls := l.Scl.Load(i)
		ds := r.Scl.Load(i).Div(ls).Log()
		o.Scl.Store(i, ls.Mul(ds.Scale(a).Exp()))
		o.Svl.Store(i, l.Svl.Load(i).Lerp(r.Svl.Load(i), a).Add(ds.Scale(av)))

		// rot = exp(alpha d) lhs.rot, d = log(abs(rhs.rot lhs.rot^-1)).
		lr, la := l.Rot.Load(i), l.Ang.Load(i)
		dq := r.Rot.Load(i).MulInv(lr).Abs()
		d := dq.ToScaledAngleAxis()
		dd := mathx.ToScaledAngleAxisDx(dq, d, r.Ang.Load(i).Sub(dq.MulVec3(la)))
		ad := d.Scale(a)
		k := mathx.ExpAt(ad.Dot(ad))
		j := k.Jacobian(ad, dd.Scale(a))
		e := k.Quat(ad)
		o.Ang.Store(i, d.Scale(av).Add(j).Add(e.MulVec3(la)))
		o.Rot.Store(i, e.Mul(lr))
	}
	mathx.ClearUpper()
}
