package animsys

import "github.com/go-gl/mathgl/mgl32"

// Finite differences (propagating-velocities, "Forward & Backward
// Kinematics" and "Finite Difference").

// FiniteDiff writes into out the pose curr with velocities estimated by the
// backward finite difference against prev, dt seconds earlier
// (op_finite_diff): vel = (pos - prev.pos)/dt in m/s, ang =
// quat_to_scaled_angle_axis(quat_abs(rot prev.rot^-1))/dt in rad/s (world
// side), svl = log(scl / prev.scl)/dt per second. Unlike the article's
// listing it also copies curr's positions, rotations and scales, so out is
// a complete pose (ready for BK). out may be curr; it must not be prev.
func FiniteDiff(out, curr, prev *Pose, dt float32) {
	n := len(curr.Pos)
	if out != curr {
		copy(out.Pos, curr.Pos)
		copy(out.Rot, curr.Rot)
		copy(out.Scl, curr.Scl)
	}
	inv := 1 / dt
	cp, cr, cs := curr.Pos[:n], curr.Rot[:n], curr.Scl[:n]
	pp, pr, ps := prev.Pos[:n], prev.Rot[:n], prev.Scl[:n]
	vel, ang, svl := out.Vel[:n], out.Ang[:n], out.Svl[:n]
	for i := 0; i < n; i++ {
		vel[i] = ldp(&cp[i]).sub(ldp(&pp[i])).scale(inv).vec()
		// rotDelta written out, so that the loop makes no call for rotations
		// up to 45 degrees a tick.
		c, p := &cr[i], &pr[i]
		var dq q4
		dq.w, dq.x, dq.y, dq.z = qmulInvS(c.W, c.V[0], c.V[1], c.V[2], p.W, p.V[0], p.V[1], p.V[2])
		k, ok := qlogKShort(dq)
		if !ok {
			dq = qabs(dq)
			k = qlogK(dq)
		}
		ang[i] = mgl32.Vec3{dq.x * k * inv, dq.y * k * inv, dq.z * k * inv}
		// sclDelta(prev, curr), its logs inline for the ratios within a
		// factor sqrt 2 of 1 a tick's change of scale gives (log32 was a
		// call per axis for every joint below a scaling one).
		var ds v3
		if s0, s1 := ldp(&ps[i]), ldp(&cs[i]); s0 != s1 {
			if r := s1.div(s0); nearOne(r.x) && nearOne(r.y) && nearOne(r.z) {
				ds = v3{logNearOne(r.x), logNearOne(r.y), logNearOne(r.z)}
			} else {
				ds = logEach(r)
			}
		}
		svl[i] = ds.scale(inv).vec()
	}
}

// FiniteDiffInPlace replaces the velocities of curr by the finite
// difference against prev, dt seconds earlier (op_finite_diff_inplace).
func FiniteDiffInPlace(curr, prev *Pose, dt float32) { FiniteDiff(curr, curr, prev, dt) }

// ExtrapolatePrev writes into out the pose in moved delta seconds back in
// time along its own velocities (op_extrapolate_prev): pos - vel delta,
// from_scaled_angle_axis(-ang delta) rot, scl exp(-svl delta). Velocities
// are copied unchanged. out may be in.
func ExtrapolatePrev(out, in *Pose, delta float32) {
	n := len(in.Pos)
	ip, ir, is := in.Pos[:n], in.Rot[:n], in.Scl[:n]
	iv, ia, isv := in.Vel[:n], in.Ang[:n], in.Svl[:n]
	op, or, os := out.Pos[:n], out.Rot[:n], out.Scl[:n]
	ov, oa, osv := out.Vel[:n], out.Ang[:n], out.Svl[:n]
	for i := 0; i < n; i++ {
		op[i] = ldp(&ip[i]).sub(ldp(&iv[i]).scale(delta)).vec()
		or[i] = qmul(qexp(ldp(&ia[i]).scale(-delta)), ldqp(&ir[i])).quat()
		os[i] = ldp(&is[i]).mul(exp3(ldp(&isv[i]).scale(-delta))).vec()
		ov[i], oa[i], osv[i] = iv[i], ia[i], isv[i]
	}
}
