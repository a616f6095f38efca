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
// velocities: (rhs.pos - lhs.pos) alphaVel in m/s, the rotation from lhs to
// rhs (scaled angle-axis) times alphaVel in rad/s, log(rhs.scl / lhs.scl)
// alphaVel per second. Pass alphaVel = 0 to ignore the velocity a changing
// weight adds. out may be lhs or rhs.
func Blend(out, lhs, rhs *Pose, alpha, alphaVel float32) {
	n := len(lhs.Pos)
	lp, lr, ls := lhs.Pos[:n], lhs.Rot[:n], lhs.Scl[:n]
	lv, la, lsv := lhs.Vel[:n], lhs.Ang[:n], lhs.Svl[:n]
	rp, rr, rs := rhs.Pos[:n], rhs.Rot[:n], rhs.Scl[:n]
	rv, ra, rsv := rhs.Vel[:n], rhs.Ang[:n], rhs.Svl[:n]
	op, or, os := out.Pos[:n], out.Rot[:n], out.Scl[:n]
	ov, oa, osv := out.Vel[:n], out.Ang[:n], out.Svl[:n]
	for i := 0; i < n; i++ {
		dp := rp[i].Sub(lp[i])
		op[i] = lp[i].Add(dp.Mul(alpha))
		ov[i] = mathx.Vec3Lerp(lv[i], rv[i], alpha).Add(dp.Mul(alphaVel))

		// rot = exp(alpha d) lhs.rot with d = log(rhs.rot lhs.rot^-1), so
		// ang = alphaVel d + J(alpha d) alpha d' + exp(alpha d) lhs.ang,
		// d' = J(d)^-1 (rhs.ang - D lhs.ang), D = rhs.rot lhs.rot^-1.
		l := lr[i]
		dq := mathx.QuatAbs(mathx.QuatMulInv(rr[i], l))
		d := mathx.QuatToScaledAngleAxis(dq)
		dd := mathx.QuatToScaledAngleAxisDx(d, ra[i].Sub(mathx.QuatMulVec3(dq, la[i])))
		e := mathx.QuatFromScaledAngleAxis(d.Mul(alpha))
		or[i] = mathx.QuatMul(e, l)
		oa[i] = d.Mul(alphaVel).Add(mathx.QuatFromScaledAngleAxisDx(d.Mul(alpha), dd.Mul(alpha))).
			Add(mathx.QuatMulVec3(e, la[i]))

		ds := sclDelta(ls[i], rs[i])
		os[i] = mathx.Vec3Mul(ls[i], mathx.Vec3Exp(ds.Mul(alpha)))
		osv[i] = mathx.Vec3Lerp(lsv[i], rsv[i], alpha).Add(ds.Mul(alphaVel))
	}
}
