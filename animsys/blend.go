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
	// One pass per channel (measured as fast as one pass over all eighteen
	// slices, and the rotation loop is long enough on its own).
	lp, lv, rp, rv, op, ov := lhs.Pos[:n], lhs.Vel[:n], rhs.Pos[:n], rhs.Vel[:n], out.Pos[:n], out.Vel[:n]
	for i := 0; i < n; i++ {
		p0 := ldp(&lp[i])
		dp := ldp(&rp[i]).sub(p0)
		op[i] = p0.add(dp.scale(alpha)).vec()
		ov[i] = lerp3(ldp(&lv[i]), ldp(&rv[i]), alpha).add(dp.scale(alphaVel)).vec()
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
	if useSIMD {
		blendRotSIMD(lr, la, rr, ra, or, oa, alpha, alphaVel)
	} else {
		for base := 0; base < n; base += 64 {
			var slow uint64
			for i := base; i < min(base+64, n); i++ {
				l, w, rq := ldqp(&lr[i]), ldp(&la[i]), &rr[i]
				var dq q4
				dq.w, dq.x, dq.y, dq.z = qmulInvS(rq.W, rq.V[0], rq.V[1], rq.V[2], l.w, l.x, l.y, l.z)
				// The rotations by dq below are the same for -dq, so no qabs.
				kq, ok := qlogKShort(dq)
				d := v3{dq.x * kq, dq.y * kq, dq.z * kq}
				// ok bounds |d| by 45 degrees, so th2 < 1 as logRateSeries
				// needs; one test of v2 for both polynomials.
				th2 := d.dot(d)
				v2 := alpha * alpha * th2
				if !ok || v2 >= 1 {
					slow |= 1 << (i - base)
					continue
				}
				dwx, dwy, dwz := qrotS(dq.w, dq.x, dq.y, dq.z, w.x, w.y, w.z)
				u := ldp(&ra[i]).sub(v3{dwx, dwy, dwz})
				c := logRateSeries(0.25 * th2) // J(d)^-1 = I - [d]x/2 + c [d]x^2
				k := expSmall(v2)              // J(alpha d) = I + c1 alpha [d]x + c2 alpha^2 [d]x^2
				c1, c2, ct := k.c1()*alpha, k.c2*alpha*alpha, 1-c*th2
				ca, cb := c1*ct+0.5*th2*c2-0.5, c-0.5*c1+c2*ct
				ax, ay, az := rodS(ca, cb, d.x, d.y, d.z, u.x, u.y, u.z)
				e := k.quat(d.scale(alpha))
				o := &or[i]
				o.W, o.V[0], o.V[1], o.V[2] = qmulS(e.w, e.x, e.y, e.z, l.w, l.x, l.y, l.z)
				ex, ey, ez := qrotS(e.w, e.x, e.y, e.z, w.x, w.y, w.z)
				oa[i] = d.scale(alphaVel).add(v3{ax, ay, az}.scale(alpha)).add(v3{ex, ey, ez}).vec()
			}
			for ; slow != 0; slow &= slow - 1 {
				i := base + bits.TrailingZeros64(slow)
				rot, ang := blendRot(ldqp(&lr[i]), ldp(&la[i]), ldqp(&rr[i]), ldp(&ra[i]), alpha, alphaVel)
				or[i], oa[i] = rot.quat(), ang.vec()
			}
		}
	}
	ls, lsv, rs, rsv, os, osv := lhs.Scl[:n], lhs.Svl[:n], rhs.Scl[:n], rhs.Svl[:n], out.Scl[:n], out.Svl[:n]
	for i := 0; i < n; i++ {
		// sclDelta(s0, s1) with its test for equal scales (most joints)
		// inline: the call per joint was 5% of Blend.
		var ds v3
		if s0, s1 := ldp(&ls[i]), ldp(&rs[i]); s0 != s1 {
			ds = logEach(s1.div(s0))
		}
		s0 := ldp(&ls[i])
		os[i] = s0.mul(exp3(ds.scale(alpha))).vec()
		osv[i] = lerp3(ldp(&lsv[i]), ldp(&rsv[i]), alpha).add(ds.scale(alphaVel)).vec()
	}
}

// blendRot is Blend's rotation and angular velocity of one joint, for any
// rotations: the formula the loop writes out, on the general functions.
func blendRot(l q4, w v3, r q4, ra v3, alpha, alphaVel float32) (q4, v3) {
	dq := qabs(qmulInv(r, l))
	d := qlog(dq)
	dd := qlogRate(dq, d, ra.sub(qrot(dq, w)))
	e, de := qexpVel(d.scale(alpha), dd.scale(alpha))
	return qmul(e, l), d.scale(alphaVel).add(de).add(qrot(e, w))
}
