package animsys

import (
	"math/bits"

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
	need("BlendStatic", "lhs", lhs, wholePose, n, "len(lhs.Pos)")
	need("BlendStatic", "rhs", rhs, wholePose, n, "len(lhs.Pos)")
	need("BlendStatic", "out", out, wholePose, n, "len(lhs.Pos)")
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
	need("Blend", "lhs", lhs, wholePose, n, "len(lhs.Pos)")
	need("Blend", "rhs", rhs, wholePose, n, "len(lhs.Pos)")
	need("Blend", "out", out, wholePose, n, "len(lhs.Pos)")
	// One pass per channel (measured as fast as one pass over all eighteen
	// slices, and the rotation loop is long enough on its own).
	lp, lv, rp, rv, op, ov := lhs.Pos[:n], lhs.Vel[:n], rhs.Pos[:n], rhs.Vel[:n], out.Pos[:n], out.Vel[:n]
	for i := 0; i < n; i++ {
		p0 := mathx.LoadV3(&lp[i])
		dp := mathx.LoadV3(&rp[i]).Sub(p0)
		op[i] = p0.Add(dp.Scale(alpha)).Vec3()
		ov[i] = mathx.LoadV3(&lv[i]).Lerp(mathx.LoadV3(&rv[i]), alpha).Add(dp.Scale(alphaVel)).Vec3()
	}
	lr, la, rr, ra, or, oa := lhs.Rot[:n], lhs.Ang[:n], rhs.Rot[:n], rhs.Ang[:n], out.Rot[:n], out.Ang[:n]
	// rot = exp(alpha d) lhs.rot with d = log(rhs.rot lhs.rot^-1), so
	// ang = alphaVel d + J(alpha d) alpha d' + exp(alpha d) lhs.ang,
	// d' = J(d)^-1 u, u = rhs.ang - D lhs.ang, D = rhs.rot lhs.rot^-1.
	// J(alpha d) and J(d)^-1 are both I + a [d]x + b [d]x^2, and [d]x^3 =
	// -|d|^2 [d]x, so their product is one such form: with A = d x u and
	// B = d x A, J(alpha d) J(d)^-1 u = u + ca A + cb B (two cross
	// products instead of four).
	//
	// The loop has no call, so Go keeps its values in registers (all are
	// caller-saved): joints beyond the polynomials' ranges (|d| >= 1 rad,
	// rare) are marked and done after each block of 64 by blendRot.
	//
	// The plain form of Blend, the formula above written once per joint,
	// is blendReference below.
	if useSIMD {
		blendRotSIMD(lr, la, rr, ra, or, oa, alpha, alphaVel)
	} else {
		for base := 0; base < n; base += 64 {
			var slow uint64
			for i := base; i < min(base+64, n); i++ {
				l, w, rq := mathx.LoadQ4(&lr[i]), mathx.LoadV3(&la[i]), &rr[i]
				var dq mathx.Q4
				dq.W, dq.X, dq.Y, dq.Z = mathx.QuatMulInvS(rq.W, rq.V[0], rq.V[1], rq.V[2], l.W, l.X, l.Y, l.Z)
				// The rotations by dq below are the same for -dq, so no Abs.
				kq, ok := dq.LogFactorShort()
				d := mathx.V3{X: dq.X * kq, Y: dq.Y * kq, Z: dq.Z * kq}
				// ok bounds |d| by 45 degrees, so th2 < 1 as LogRateSeries
				// needs; one test of v2 for both polynomials.
				th2 := d.Dot(d)
				v2 := alpha * alpha * th2
				if !ok || v2 >= 1 {
					slow |= 1 << (i - base)
					continue
				}
				dwx, dwy, dwz := mathx.QuatMulVec3S(dq.W, dq.X, dq.Y, dq.Z, w.X, w.Y, w.Z)
				u := mathx.LoadV3(&ra[i]).Sub(mathx.V3{X: dwx, Y: dwy, Z: dwz})
				c := mathx.LogRateSeries(0.25 * th2) // J(d)^-1 = I - [d]x/2 + c [d]x^2
				k := mathx.ExpSmall(v2)              // J(alpha d) = I + c1 alpha [d]x + c2 alpha^2 [d]x^2
				c1, c2, ct := k.C1()*alpha, k.C2*alpha*alpha, 1-c*th2
				ca, cb := c1*ct+0.5*th2*c2-0.5, c-0.5*c1+c2*ct
				ax, ay, az := mathx.RodriguesS(ca, cb, d.X, d.Y, d.Z, u.X, u.Y, u.Z)
				e := k.Quat(d.Scale(alpha))
				o := &or[i]
				o.W, o.V[0], o.V[1], o.V[2] = mathx.QuatMulS(e.W, e.X, e.Y, e.Z, l.W, l.X, l.Y, l.Z)
				ex, ey, ez := mathx.QuatMulVec3S(e.W, e.X, e.Y, e.Z, w.X, w.Y, w.Z)
				oa[i] = d.Scale(alphaVel).Add(mathx.V3{X: ax, Y: ay, Z: az}.Scale(alpha)).Add(mathx.V3{X: ex, Y: ey, Z: ez}).Vec3()
			}
			for ; slow != 0; slow &= slow - 1 {
				i := base + bits.TrailingZeros64(slow)
				rot, ang := blendRot(mathx.LoadQ4(&lr[i]), mathx.LoadV3(&la[i]), mathx.LoadQ4(&rr[i]), mathx.LoadV3(&ra[i]), alpha, alphaVel)
				or[i], oa[i] = rot.Quat(), ang.Vec3()
			}
		}
	}
	ls, lsv, rs, rsv, os, osv := lhs.Scl[:n], lhs.Svl[:n], rhs.Scl[:n], rhs.Svl[:n], out.Scl[:n], out.Svl[:n]
	for i := 0; i < n; i++ {
		// sclDelta(s0, s1) with its test for equal scales (most joints)
		// inline: the call per joint was 5% of Blend.
		var ds mathx.V3
		if s0, s1 := mathx.LoadV3(&ls[i]), mathx.LoadV3(&rs[i]); s0 != s1 {
			ds = s1.Div(s0).LogEach()
		}
		s0 := mathx.LoadV3(&ls[i])
		os[i] = s0.Mul(ds.Scale(alpha).Exp()).Vec3()
		osv[i] = mathx.LoadV3(&lsv[i]).Lerp(mathx.LoadV3(&rsv[i]), alpha).Add(ds.Scale(alphaVel)).Vec3()
	}
}

// blendRot is Blend's rotation and angular velocity of one joint, for any
// rotations: the formula the loop writes out, on the general functions.
func blendRot(l mathx.Q4, w mathx.V3, r mathx.Q4, ra mathx.V3, alpha, alphaVel float32) (mathx.Q4, mathx.V3) {
	dq := r.MulInv(l).Abs()
	d := dq.ToScaledAngleAxis()
	dd := mathx.Q4ToScaledAngleAxisDx(dq, d, ra.Sub(dq.MulVec3(w)))
	e, de := mathx.Q4FromScaledAngleAxisDx(d.Scale(alpha), dd.Scale(alpha))
	return e.Mul(l), d.Scale(alphaVel).Add(de).Add(e.MulVec3(w))
}

// blendReference is Blend on mathx's plain forms, written like the
// article's op_blend with the exact angular velocity Blend adds (see
// there): the reference Blend's fast loops are tested against.
func blendReference(out, lhs, rhs *Pose, alpha, alphaVel float32) {
	for i := range lhs.Pos {
		l, r := lhs.Kform(i), rhs.Kform(i)
		out.Pos[i] = mathx.Vec3Lerp(l.Pos, r.Pos, alpha)
		out.Vel[i] = mathx.Vec3Lerp(l.Vel, r.Vel, alpha).Add(r.Pos.Sub(l.Pos).Mul(alphaVel))
		// rot = exp(alpha d) lhs.rot, d the rotation from lhs to rhs.
		diff := mathx.QuatAbs(mathx.QuatMulInv(r.Rot, l.Rot))
		d := mathx.QuatToScaledAngleAxis(diff)
		dd := mathx.QuatToScaledAngleAxisDx(d, r.Ang.Sub(mathx.QuatMulVec3(diff, l.Ang)))
		e := mathx.QuatFromScaledAngleAxis(d.Mul(alpha))
		out.Rot[i] = mathx.QuatMul(e, l.Rot)
		out.Ang[i] = d.Mul(alphaVel).Add(mathx.QuatFromScaledAngleAxisDx(d.Mul(alpha), dd.Mul(alpha))).
			Add(mathx.QuatMulVec3(e, l.Ang))
		ds := mathx.Vec3Log(mathx.Vec3Div(r.Scl, l.Scl))
		out.Scl[i] = mathx.Vec3Mul(l.Scl, mathx.Vec3Exp(ds.Mul(alpha)))
		out.Svl[i] = mathx.Vec3Lerp(l.Svl, r.Svl, alpha).Add(ds.Mul(alphaVel))
	}
}
