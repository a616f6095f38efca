package animsys

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

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
	need("FiniteDiff", "curr", curr, transforms, n, "len(curr.Pos)")
	need("FiniteDiff", "prev", prev, transforms, n, "len(curr.Pos)")
	need("FiniteDiff", "out", out, wholePose, n, "len(curr.Pos)")
	if out != curr {
		copyApart(out.Pos, curr.Pos[:n])
		copyApart(out.Rot, curr.Rot[:n])
		copyApart(out.Scl, curr.Scl[:n])
	}
	inv := 1 / dt
	if useSIMD && n >= 8 {
		finiteDiffSIMD(out, curr, prev, inv)
		return
	}
	finiteDiffJoints(out, curr, prev, inv, 0, n)
}

// copyApart copies src into dst unless they are the same memory (a
// BenchCharacter's FD shares Global's positions, rotations and scales):
// copying a slice onto itself still moves every byte.
func copyApart[T mgl32.Vec3 | mgl32.Quat](dst, src []T) {
	if len(src) > 0 && len(dst) > 0 && &dst[0] == &src[0] {
		return
	}
	copy(dst, src)
}

// finiteDiffJoints is FiniteDiff's loop over joints lo to hi-1 (the
// velocities only), with inv = 1/dt. Its callers check the poses' sizes.
func finiteDiffJoints(out, curr, prev *Pose, inv float32, lo, hi int) {
	n := hi
	// Every slice is cut to n here, which spares the loop's accesses
	// their own checks (after a store Go reloads a slice).
	cp, cr, cs := curr.Pos[:n], curr.Rot[:n], curr.Scl[:n]
	pp, pr, ps := prev.Pos[:n], prev.Rot[:n], prev.Scl[:n]
	vel, ang, svl := out.Vel[:n], out.Ang[:n], out.Svl[:n]
	for i := lo; i < n; i++ {
		// The plain form of this body is finiteDiffReference below. It is
		// written out on components, mathx's fast forms (named at each
		// step) in their order of operations, with no call to inline, on
		// mgl32's arrays, values read where used: as in blendRots, Go then
		// runs the loop in the order written, with no inlining-mark NOP.
		c0, p0 := &cp[i], &pp[i]
		vel[i] = mgl32.Vec3{(c0[0] - p0[0]) * inv, (c0[1] - p0[1]) * inv, (c0[2] - p0[2]) * inv}
		// dq = curr.rot prev.rot^-1 (QuatMulInvS) and its log for
		// rotations up to 45 degrees a tick (LogFactorShort, atanPoly),
		// for dq and -dq alike.
		c, p := &cr[i], &pr[i]
		dw := c.W*p.W + c.V[0]*p.V[0] + c.V[1]*p.V[1] + c.V[2]*p.V[2]
		dx := -c.W*p.V[0] + c.V[0]*p.W - c.V[1]*p.V[2] + c.V[2]*p.V[1]
		dy := -c.W*p.V[1] + c.V[1]*p.W - c.V[2]*p.V[0] + c.V[0]*p.V[2]
		dz := -c.W*p.V[2] + c.V[2]*p.W - c.V[0]*p.V[1] + c.V[1]*p.V[0]
		s2 := dx*dx + dy*dy + dz*dz
		iw := 1 / dw
		u2 := s2 * iw * iw
		u4 := u2 * u2
		k := 2 * ((mathx.Atan0 - mathx.Atan1*u2) + u4*((mathx.Atan2-mathx.Atan3*u2)+u4*mathx.Atan4)) * iw
		if !(s2 < mathx.Tan2Pi8*dw*dw) {
			dq := mathx.Q4{W: dw, X: dx, Y: dy, Z: dz}.Abs()
			dx, dy, dz, k = dq.X, dq.Y, dq.Z, dq.LogFactor()
		}
		ang[i] = mgl32.Vec3{dx * k * inv, dy * k * inv, dz * k * inv}
		// sclDelta(prev, curr) (Vec3Div, LogEach), its logs inline for the
		// ratios within a factor sqrt 2 of 1 a tick's change of scale gives
		// (NearOne, LogNearOne; Log32 was a call per axis for every joint
		// below a scaling one).
		var dx0, dy0, dz0 float32
		if s0, s1 := &ps[i], &cs[i]; s0[0] != s1[0] || s0[1] != s1[1] || s0[2] != s1[2] {
			rx, ry, rz := s1[0]/s0[0], s1[1]/s0[1], s1[2]/s0[2]
			if rx > nearOneLo && rx <= nearOneHi && ry > nearOneLo && ry <= nearOneHi && rz > nearOneLo && rz <= nearOneHi {
				f := rx - 1
				t := f / (2 + f)
				t2 := t * t
				t4 := t2 * t2
				dx0 = 2 * t * ((1 + t2*(1.0/3)) + t4*((1.0/5+t2*(1.0/7))+t4*(1.0/9)))
				f = ry - 1
				t = f / (2 + f)
				t2 = t * t
				t4 = t2 * t2
				dy0 = 2 * t * ((1 + t2*(1.0/3)) + t4*((1.0/5+t2*(1.0/7))+t4*(1.0/9)))
				f = rz - 1
				t = f / (2 + f)
				t2 = t * t
				t4 = t2 * t2
				dz0 = 2 * t * ((1 + t2*(1.0/3)) + t4*((1.0/5+t2*(1.0/7))+t4*(1.0/9)))
			} else {
				ds := mathx.V3{X: rx, Y: ry, Z: rz}.LogEach()
				dx0, dy0, dz0 = ds.X, ds.Y, ds.Z
			}
		}
		svl[i] = mgl32.Vec3{dx0 * inv, dy0 * inv, dz0 * inv}
	}
}

// nearOneLo and nearOneHi bound mathx.NearOne's range, (sqrt2/2, sqrt2],
// from the same constant, for finiteDiffJoints, which writes it out.
const (
	sqrt2NearOne = 1.41421356237309505
	nearOneLo    = sqrt2NearOne / 2
	nearOneHi    = sqrt2NearOne
)

// finiteDiffReference is FiniteDiff as the article writes
// op_finite_diff, on mathx's plain forms (dividing by dt as a product
// with 1/dt, as FiniteDiff does).
func finiteDiffReference(out, curr, prev *Pose, dt float32) {
	for i := range curr.Pos {
		out.Pos[i], out.Rot[i], out.Scl[i] = curr.Pos[i], curr.Rot[i], curr.Scl[i]
		out.Vel[i] = curr.Pos[i].Sub(prev.Pos[i]).Mul(1 / dt)
		out.Ang[i] = mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(curr.Rot[i], prev.Rot[i]))).Mul(1 / dt)
		out.Svl[i] = mathx.Vec3Log(mathx.Vec3Div(curr.Scl[i], prev.Scl[i])).Mul(1 / dt)
	}
}

// FiniteDiffInPlace replaces the velocities of curr by the finite
// difference against prev, dt seconds earlier (op_finite_diff_inplace).
func FiniteDiffInPlace(curr, prev *Pose, dt float32) {
	need("FiniteDiffInPlace", "curr", curr, wholePose, curr.Len(), "len(curr.Pos)")
	need("FiniteDiffInPlace", "prev", prev, transforms, curr.Len(), "len(curr.Pos)")
	FiniteDiff(curr, curr, prev, dt)
}

// ExtrapolatePrev writes into out the pose in moved delta seconds back in
// time along its own velocities (op_extrapolate_prev): pos - vel delta,
// from_scaled_angle_axis(-ang delta) rot, scl exp(-svl delta). Velocities
// are copied unchanged. out may be in.
func ExtrapolatePrev(out, in *Pose, delta float32) {
	n := len(in.Pos)
	need("ExtrapolatePrev", "in", in, wholePose, n, "len(in.Pos)")
	need("ExtrapolatePrev", "out", out, wholePose, n, "len(in.Pos)")
	ip, ir, is := in.Pos[:n], in.Rot[:n], in.Scl[:n]
	iv, ia, isv := in.Vel[:n], in.Ang[:n], in.Svl[:n]
	op, or, os := out.Pos[:n], out.Rot[:n], out.Scl[:n]
	ov, oa, osv := out.Vel[:n], out.Ang[:n], out.Svl[:n]
	for i := 0; i < n; i++ {
		op[i] = mathx.LoadV3(&ip[i]).Sub(mathx.LoadV3(&iv[i]).Scale(delta)).Vec3()
		or[i] = mathx.Q4FromScaledAngleAxis(mathx.LoadV3(&ia[i]).Scale(-delta)).Mul(mathx.LoadQ4(&ir[i])).Quat()
		os[i] = mathx.LoadV3(&is[i]).Mul(mathx.LoadV3(&isv[i]).Scale(-delta).Exp()).Vec3()
		ov[i], oa[i], osv[i] = iv[i], ia[i], isv[i]
	}
}
