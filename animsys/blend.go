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
	lp, lr, ls := lhs.Pos[:n], lhs.Rot[:n], lhs.Scl[:n]
	lv, la, lsv := lhs.Vel[:n], lhs.Ang[:n], lhs.Svl[:n]
	rp, rr, rs := rhs.Pos[:n], rhs.Rot[:n], rhs.Scl[:n]
	rv, ra, rsv := rhs.Vel[:n], rhs.Ang[:n], rhs.Svl[:n]
	op, or, os := out.Pos[:n], out.Rot[:n], out.Scl[:n]
	ov, oa, osv := out.Vel[:n], out.Ang[:n], out.Svl[:n]
	for i := 0; i < n; i++ {
		p0 := ldp(&lp[i])
		dp := ldp(&rp[i]).sub(p0)
		op[i] = p0.add(dp.scale(alpha)).vec()
		ov[i] = lerp3(ldp(&lv[i]), ldp(&rv[i]), alpha).add(dp.scale(alphaVel)).vec()

		// rot = exp(alpha d) lhs.rot with d = log(rhs.rot lhs.rot^-1), so
		// ang = alphaVel d + J(alpha d) alpha d' + exp(alpha d) lhs.ang,
		// d' = J(d)^-1 (rhs.ang - D lhs.ang), D = rhs.rot lhs.rot^-1.
		l, w := ldqp(&lr[i]), ldp(&la[i])
		dq := qabs(qmulInv(ldqp(&rr[i]), l))
		d := qlog(dq)
		dd := qlogRate(dq, d, ldp(&ra[i]).sub(qrot(dq, w)))
		e, de := qexpVel(d.scale(alpha), dd.scale(alpha))
		or[i] = qmul(e, l).quat()
		oa[i] = d.scale(alphaVel).add(de).add(qrot(e, w)).vec()

		s0 := ldp(&ls[i])
		ds := sclDelta(s0, ldp(&rs[i]))
		os[i] = s0.mul(exp3(ds.scale(alpha))).vec()
		osv[i] = lerp3(ldp(&lsv[i]), ldp(&rsv[i]), alpha).add(ds.scale(alphaVel)).vec()
	}
}
