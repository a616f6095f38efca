package animsys

import (
	"math/bits"

	"github.com/go-gl/mathgl/mgl32"

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
	// slices, and the rotation loop is long enough on its own), each on
	// mgl32's arrays in place, not on mathx's views (mathx.V3s): each
	// view's unsafe.Slice costs checks on every call (measured: the three
	// scalar passes' eighteen views, 0.19k instructions a bench blend).
	lp, lv, rp, rv := lhs.Pos[:n], lhs.Vel[:n], rhs.Pos[:n], rhs.Vel[:n]
	op, ov := out.Pos[:n], out.Vel[:n]
	for i := 0; i < n; i++ {
		p0, v0, v1 := &lp[i], &lv[i], &rv[i]
		dx, dy, dz := rp[i][0]-p0[0], rp[i][1]-p0[1], rp[i][2]-p0[2]
		op[i] = mgl32.Vec3{p0[0] + dx*alpha, p0[1] + dy*alpha, p0[2] + dz*alpha}
		ov[i] = mgl32.Vec3{v0[0] + (v1[0]-v0[0])*alpha + dx*alphaVel, v0[1] + (v1[1]-v0[1])*alpha + dy*alphaVel, v0[2] + (v1[2]-v0[2])*alpha + dz*alphaVel}
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
		blendRots(lr, la, rr, ra, or, oa, alpha, alphaVel)
	}
	ls, lsv, rs, rsv := lhs.Scl[:n], lhs.Svl[:n], rhs.Scl[:n], rhs.Svl[:n]
	os, osv := out.Scl[:n], out.Svl[:n]
	// Equal scales (most joints) have log-ratio ds = 0, which makes the
	// general form's scale s0 exp(0 alpha) exactly s0 (exp of a zero is 1,
	// s0 1 = s0; alpha finite) and its rate the lerp plus 0 alphaVel, the
	// same zv for every joint: those joints skip the log, the exp and five
	// products. Measured: this loop 2.2k -> 1.1k instructions a bench tick.
	if alpha-alpha != 0 { // alpha is infinite or NaN: 0 alpha is NaN
		for i := 0; i < n; i++ {
			sv := mathx.LoadV3(&lsv[i]).Lerp(mathx.LoadV3(&rsv[i]), alpha)
			s, v := blendScl(mathx.LoadV3(&ls[i]), mathx.LoadV3(&rs[i]), sv, alpha, alphaVel)
			os[i], osv[i] = s.Vec3(), v.Vec3()
		}
		return
	}
	zv := 0 * alphaVel
	for i := 0; i < n; i++ {
		s0, s1, v0, v1 := &ls[i], &rs[i], &lsv[i], &rsv[i]
		svx, svy, svz := v0[0]+(v1[0]-v0[0])*alpha, v0[1]+(v1[1]-v0[1])*alpha, v0[2]+(v1[2]-v0[2])*alpha
		if s0[0] == s1[0] && s0[1] == s1[1] && s0[2] == s1[2] {
			os[i] = *s0
			osv[i] = mgl32.Vec3{svx + zv, svy + zv, svz + zv}
		} else {
			// Out of line, so that the loop makes no call and keeps its
			// values in registers.
			s, v := blendScl(mathx.LoadV3(s0), mathx.LoadV3(s1), mathx.V3{X: svx, Y: svy, Z: svz}, alpha, alphaVel)
			os[i], osv[i] = s.Vec3(), v.Vec3()
		}
	}
}

// blendRots is Blend's rotation loop on the scalar path, all of n =
// len(lr) joints; see Blend for the formula.
func blendRots(lr []mgl32.Quat, la []mgl32.Vec3, rr []mgl32.Quat, ra []mgl32.Vec3, or []mgl32.Quat, oa []mgl32.Vec3, alpha, alphaVel float32) {
	n := len(lr)
	la, rr, ra, or, oa = la[:n], rr[:n], ra[:n], or[:n], oa[:n]
	// The fast path is written out on components, mathx's fast forms
	// (named at each step) in their order of operations, with no call
	// to inline: Go schedules a block's ready values in the order of
	// their source lines, inlined code after this file's own, so the
	// code runs as written here; no line leaves the NOP of an inlining
	// mark; and the two terms of the angular velocity are summed before
	// e's rotation, so fewer values are live across it. Measured on the
	// bench blend: 9.92k -> 9.44k instructions a call (see FK).
	for base := 0; base < n; base += 64 {
		var slow uint64
		end := min(base+64, n)
		for i := base; i < end; i++ {
			l, r := &lr[i], &rr[i]
			// dq = rhs.rot lhs.rot^-1 (QuatMulInvS). The rotations by dq
			// below are the same for -dq, so no Abs.
			dw, dx, dy, dz := r.W*l.W+r.V[0]*l.V[0]+r.V[1]*l.V[1]+r.V[2]*l.V[2], -r.W*l.V[0]+r.V[0]*l.W-r.V[1]*l.V[2]+r.V[2]*l.V[1], -r.W*l.V[1]+r.V[1]*l.W-r.V[2]*l.V[0]+r.V[0]*l.V[2], -r.W*l.V[2]+r.V[2]*l.W-r.V[0]*l.V[1]+r.V[1]*l.V[0]
			// d = log(dq) (LogFactorShort, atanPoly).
			s2 := dx*dx + dy*dy + dz*dz
			iw := 1 / dw
			u2 := s2 * iw * iw
			u4 := u2 * u2
			kq := 2 * ((mathx.Atan0 - mathx.Atan1*u2) + u4*((mathx.Atan2-mathx.Atan3*u2)+u4*mathx.Atan4)) * iw
			d := mathx.V3{X: dx * kq, Y: dy * kq, Z: dz * kq}
			// ok bounds |d| by 45 degrees, so th2 < 1 as LogRateSeries
			// needs; one test of v2 for both polynomials.
			th2 := d.X*d.X + d.Y*d.Y + d.Z*d.Z
			v2 := alpha * alpha * th2
			if !(s2 < mathx.Tan2Pi8*dw*dw) || v2 >= 1 {
				slow |= 1 << (i - base)
				continue
			}
			// u = rhs.ang - dq lhs.ang (QuatMulVec3S).
			w := &la[i]
			tx, ty, tz := 2*(dy*w[2]-dz*w[1]), 2*(dz*w[0]-dx*w[2]), 2*(dx*w[1]-dy*w[0])
			ux, uy, uz := ra[i][0]-(w[0]+dw*tx+(dy*tz-dz*ty)), ra[i][1]-(w[1]+dw*ty+(dz*tx-dx*tz)), ra[i][2]-(w[2]+dw*tz+(dx*ty-dy*tx))
			// J(d)^-1 = I - [d]x/2 + c [d]x^2 (LogRateSeries), J(alpha
			// d) = I + c1 alpha [d]x + c2 alpha^2 [d]x^2 (ExpSmall).
			h2 := 0.25 * th2
			h4 := h2 * h2
			c := (mathx.Lrs0 + h2*mathx.Lrs1) + h4*((mathx.Lrs2+h2*mathx.Lrs3)+h4*mathx.Lrs4)
			h2 = 0.25 * v2
			h4 = h2 * h2
			sc := (mathx.Sin0 - mathx.Sin1*h2) + h4*(mathx.Sin2-mathx.Sin3*h2)
			co := (mathx.Cos0 - mathx.Cos1*h2) + h4*((mathx.Cos2-mathx.Cos3*h2)+h4*mathx.Cos4)
			c1, c2, ct := 0.5*sc*sc*alpha, (1-sc*co)/(v2+mathx.Tiny)*alpha*alpha, 1-c*th2
			ca, cb := c1*ct+0.5*th2*c2-0.5, c-0.5*c1+c2*ct
			// J(alpha d) J(d)^-1 u (RodriguesS).
			cx, cy, cz := d.Y*uz-d.Z*uy, d.Z*ux-d.X*uz, d.X*uy-d.Y*ux
			ax, ay, az := ux+ca*cx+cb*(d.Y*cz-d.Z*cy), uy+ca*cy+cb*(d.Z*cx-d.X*cz), uz+ca*cz+cb*(d.X*cy-d.Y*cx)
			// ang = (alphaVel d + alpha J(alpha d) J(d)^-1 u) + e lhs.ang,
			// e = exp(alpha d) (ExpCoeffs.Quat; QuatMulVec3S).
			ox, oy, oz := d.X*alphaVel+ax*alpha, d.Y*alphaVel+ay*alpha, d.Z*alphaVel+az*alpha
			hs := 0.5 * sc
			ex, ey, ez := d.X*alpha*hs, d.Y*alpha*hs, d.Z*alpha*hs
			tx, ty, tz = 2*(ey*w[2]-ez*w[1]), 2*(ez*w[0]-ex*w[2]), 2*(ex*w[1]-ey*w[0])
			oa[i] = mgl32.Vec3{ox + (w[0] + co*tx + (ey*tz - ez*ty)), oy + (w[1] + co*ty + (ez*tx - ex*tz)), oz + (w[2] + co*tz + (ex*ty - ey*tx))}
			// lhs's rotation is read again (through l) after that store,
			// rather than kept in registers through the loop, which
			// spilled it. The store cannot have changed it: out may be
			// lhs, but angular velocities and rotations are different
			// slices. (QuatMulS.)
			o := &or[i]
			o.W, o.V[0], o.V[1], o.V[2] = co*l.W-ex*l.V[0]-ey*l.V[1]-ez*l.V[2], co*l.V[0]+ex*l.W+ey*l.V[2]-ez*l.V[1], co*l.V[1]+ey*l.W+ez*l.V[0]-ex*l.V[2], co*l.V[2]+ez*l.W+ex*l.V[1]-ey*l.V[0]
		}
		for ; slow != 0; slow &= slow - 1 {
			i := base + bits.TrailingZeros64(slow)
			rot, ang := blendRot(mathx.LoadQ4(&lr[i]), mathx.LoadV3(&la[i]), mathx.LoadQ4(&rr[i]), mathx.LoadV3(&ra[i]), alpha, alphaVel)
			or[i], oa[i] = rot.Quat(), ang.Vec3()
		}
	}
}

// blendScl is Blend's scale and scale velocity of one joint, given its
// scales s0 (lhs) and s1 (rhs) and the lerp sv of their velocities.
//
//go:noinline
func blendScl(s0, s1, sv mathx.V3, alpha, alphaVel float32) (mathx.V3, mathx.V3) {
	// sclDelta(s0, s1) with its test for equal scales inline (the call
	// per joint was 5% of Blend).
	var ds mathx.V3
	if s0 != s1 {
		ds = s1.Div(s0).LogEach()
	}
	return s0.Mul(ds.Scale(alpha).Exp()), sv.Add(ds.Scale(alphaVel))
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
