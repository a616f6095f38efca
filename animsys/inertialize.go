package animsys

import (
	"math/bits"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
)

// Offset inertialization (propagating-velocities, "Inertialization").
//
// At a transition from pose src to pose dst the offset between them is
// recorded once (InertializeOffset); every tick after, the offset decays to
// zero and is added to the live pose. Each channel decays as x(t) = w0 x0 +
// w1 v0 with rate v(t) = w2 x0 + w3 v0, where x0 is the offset (position,
// scaled angle-axis of the rotation, log of the scale) and v0 its rate; the
// weights come from the decay curve (cubic, or a critical spring).

// InertializeOffset records the offset that takes dst to src at a transition
// (the state op_inertialize decays): pos and vel differences (m, m/s); the
// rotation quat_abs(src.rot dst.rot^-1) with, in Ang, the rate (rad/s) of
// its scaled angle-axis r, J(r)^-1 (src.ang - offset.rot dst.ang) — the
// quantity the decay acts on, equal to the angular velocity difference for
// small offsets; the scale ratio src.scl / dst.scl with the svl difference.
// Applying the undecayed offset to dst gives back src, velocities included.
// offset must not be src or dst.
func InertializeOffset(offset, src, dst *Pose) {
	n := len(src.Pos)
	need("InertializeOffset", "src", src, wholePose, n, "len(src.Pos)")
	need("InertializeOffset", "dst", dst, wholePose, n, "len(src.Pos)")
	need("InertializeOffset", "offset", offset, wholePose, n, "len(src.Pos)")
	for i := 0; i < n; i++ {
		offset.Pos[i] = src.Pos[i].Sub(dst.Pos[i])
		offset.Vel[i] = src.Vel[i].Sub(dst.Vel[i])
		r := mathx.QuatAbs(mathx.QuatMulInv(src.Rot[i], dst.Rot[i]))
		offset.Rot[i] = r
		offset.Ang[i] = mathx.QuatToScaledAngleAxisDx(mathx.QuatToScaledAngleAxis(r),
			src.Ang[i].Sub(mathx.QuatMulVec3(r, dst.Ang[i])))
		offset.Scl[i] = mathx.Vec3Div(src.Scl[i], dst.Scl[i])
		offset.Svl[i] = src.Svl[i].Sub(dst.Svl[i])
	}
}

// CubicDecayWeights are the weights of the cubic inertializer at blendTime
// into a blend of blendDuration seconds (the coefficients of op_inertialize):
// with t = clamp(blendTime / duration, 0, 1), w0 = 2t^3 - 3t^2 + 1, w1 =
// (t^3 - 2t^2 + t) duration (s), w2 = (6t^2 - 6t) / duration (1/s), w3 =
// 3t^2 - 4t + 1; w2 and w3 are the time derivatives of w0 and w1.
func CubicDecayWeights(blendTime, blendDuration float32) (w0, w1, w2, w3 float32) {
	d := blendDuration + mathx.Eps
	t := mathx.Clamp(blendTime/d, 0, 1)
	t2 := t * t
	t3 := t2 * t
	return 2*t3 - 3*t2 + 1, (t3 - 2*t2 + t) * blendDuration, (6*t2 - 6*t) / d, 3*t2 - 4*t + 1
}

// Inertialize applies the offset decayed by the cubic inertializer at
// blendTime of blendDuration seconds onto input (op_inertialize).
func Inertialize(out, offset, input *Pose, blendTime, blendDuration float32) {
	needInertialize("Inertialize", out, offset, input)
	w0, w1, w2, w3 := CubicDecayWeights(blendTime, blendDuration)
	inertialize(out, offset, input, nil, w0, w1, w2, w3)
}

// InertializeCritical applies the offset decayed by a critical spring with
// the given half-life (s) at blendTime seconds after the transition onto
// input: the inertializer the article mentions beside the cubic one ("such
// as a spring, or cubic function"), with the weights of
// spring.CriticalDecayWeights (w2, w3 their time derivatives). Unlike the
// cubic it never reaches zero exactly, so it needs no duration.
func InertializeCritical(out, offset, input *Pose, blendTime, halflife float32) {
	needInertialize("InertializeCritical", out, offset, input)
	w0, w1, w2, w3 := spring.CriticalDecayWeights(halflife, blendTime)
	inertialize(out, offset, input, nil, w0, w1, w2, w3)
}

// InertializeWeights applies the offset decayed with weights w0..w3 onto
// input: x = w0 x0 + w1 v0, v = w2 x0 + w3 v0 for each channel (w2, w3 the
// time derivatives of w0, w1), then pos = input.pos + x, rot =
// from_scaled_angle_axis(x) input.rot with angular velocity exp(x) input.ang
// + J(x) v (J the exp-map derivative; the article adds v itself, exact only
// for small offsets: up to ~0.65 rad/s off on the bench clips), scl =
// input.scl exp(x). out may be input.
func InertializeWeights(out, offset, input *Pose, w0, w1, w2, w3 float32) {
	needInertialize("InertializeWeights", out, offset, input)
	inertialize(out, offset, input, nil, w0, w1, w2, w3)
}

// needInertialize is the door check of the inertializations, named op.
func needInertialize(op string, out, offset, input *Pose) {
	n := input.Len()
	need(op, "input", input, wholePose, n, "len(input.Pos)")
	need(op, "offset", offset, wholePose, n, "len(input.Pos)")
	need(op, "out", out, wholePose, n, "len(input.Pos)")
}

// offLog is one joint of an inertialization offset in the form
// InertializeWeights works on: r, the scaled angle-axis of its rotation
// (rad), and ls, the log of its scale. A BenchCharacter keeps one per joint of
// its offset, which changes only at a transition (see keepLogs).
type offLog struct{ r, ls mathx.V3 }

// set computes m from a joint's rotation and scale.
func (m *offLog) set(rot mathx.Q4, scl mathx.V3) { m.r, m.ls = rot.ToScaledAngleAxis(), scl.Log() }

// inertialize is InertializeWeights with the joints' offLogs in logs (of
// len(input.Pos), up to date with offset), or, with logs nil, computed
// afresh. Its callers check the poses' sizes.
func inertialize(out, offset, input *Pose, logs []offLog, w0, w1, w2, w3 float32) {
	n := len(input.Pos)
	if useSIMD && logs != nil && n >= 8 {
		if aliased, ok := poseAlias(out, input); ok {
			inertializeSIMD(out, offset, input, logs, aliased, w0, w1, w2, w3)
			return
		}
	}
	if logs == nil || w0-w0 != 0 || w1-w1 != 0 {
		// No kept logs (the exported functions), or weights that are not
		// finite: the loop as it was.
		inertializeEach(out, offset, input, logs, w0, w1, w2, w3)
		return
	}
	inertializeKept(out, offset, input, logs[:n], w0, w1, w2, w3)
}

// inertializeEach is inertialize one joint at a time, all channels in one
// loop: the form for no kept logs and for weights that are not finite
// (where two different NaNs meet, a NaN weight and a NaN log scale, x86
// keeps the first operand's, and which comes first depends on how Go
// compiles the loop: the SIMD kernel gives this loop's bits,
// TestSIMDInertializeSameBits). Rotations and scales are
// inertializeJoint's.
func inertializeEach(out, offset, input *Pose, logs []offLog, w0, w1, w2, w3 float32) {
	n := len(input.Pos)
	fp, fr, fs := offset.Pos[:n], offset.Rot[:n], offset.Scl[:n]
	fv, fsv := offset.Vel[:n], offset.Svl[:n]
	ip, iv, isv := input.Pos[:n], input.Vel[:n], input.Svl[:n]
	op, ov, osv := out.Pos[:n], out.Vel[:n], out.Svl[:n]
	if logs != nil {
		logs = logs[:n]
	}
	var tmp offLog
	for i := 0; i < n; i++ {
		// The plain form of this body is inertializeReference below.
		p, v := mathx.LoadV3(&fp[i]), mathx.LoadV3(&fv[i])
		op[i] = mathx.LoadV3(&ip[i]).Add(p.Scale(w0)).Add(v.Scale(w1)).Vec3()
		ov[i] = mathx.LoadV3(&iv[i]).Add(p.Scale(w2)).Add(v.Scale(w3)).Vec3()
		m := &tmp
		if logs != nil {
			m = &logs[i]
		} else {
			m.set(mathx.LoadQ4(&fr[i]), mathx.LoadV3(&fs[i]))
		}
		inertializeJoint(out, offset, input, m, i, w0, w1, w2, w3, jointRot|jointScl)
		ls, sv := m.ls, mathx.LoadV3(&fsv[i])
		osv[i] = mathx.LoadV3(&isv[i]).Add(ls.Scale(w2)).Add(sv.Scale(w3)).Vec3()
	}
}

// inertializeKept is inertialize with kept logs and finite weights w0 and
// w1, in one pass per channel: a loop over all eighteen slices held more
// base pointers than there are registers, and its values spilled. The
// rotation and scale loops make no call, so that their values stay in
// registers: the rare joints beyond their fast forms (decayed offsets of 1
// rad or more; scaling offsets, NaN scales) are marked and done after
// each block of 64 by inertializeJoint.
func inertializeKept(out, offset, input *Pose, logs []offLog, w0, w1, w2, w3 float32) {
	n := len(logs)
	// On components, on mgl32's arrays (no views, no inlined calls: see
	// inertializeRots).
	fp, fv, ip, iv := offset.Pos[:n], offset.Vel[:n], input.Pos[:n], input.Vel[:n]
	op, ov := out.Pos[:n], out.Vel[:n]
	for i := 0; i < n; i++ {
		p, v, q := &fp[i], &fv[i], &ip[i]
		op[i] = mgl32.Vec3{q[0] + p[0]*w0 + v[0]*w1, q[1] + p[1]*w0 + v[1]*w1, q[2] + p[2]*w0 + v[2]*w1}
		q = &iv[i]
		ov[i] = mgl32.Vec3{q[0] + p[0]*w2 + v[0]*w3, q[1] + p[1]*w2 + v[1]*w3, q[2] + p[2]*w2 + v[2]*w3}
	}
	w := [...]float32{w0, w1, w2, w3}
	for base := 0; base < n; base += 64 {
		end := min(base+64, n)
		for slow := inertializeRots(out, offset, input, logs, &w, base, end); slow != 0; slow &= slow - 1 {
			i := base + bits.TrailingZeros64(slow)
			inertializeJoint(out, offset, input, &logs[i], i, w0, w1, w2, w3, jointRot)
		}
		for slow := inertializeScls(out, offset, input, logs, &w, base, end); slow != 0; slow &= slow - 1 {
			i := base + bits.TrailingZeros64(slow)
			inertializeJoint(out, offset, input, &logs[i], i, w0, w1, w2, w3, jointScl)
		}
	}
}

// inertializeRots is inertializeKept's rotation loop over joints base to
// end-1 (at most 64): mathx.Q4FromScaledAngleAxisDx(x, v) written out.
// It returns the joints it left, whose decayed offset is of 1 rad or more
// (bit i-base for joint i), writing nothing of them.
func inertializeRots(out, offset, input *Pose, logs []offLog, w *[4]float32, base, end int) (slow uint64) {
	fa, ir, ia := offset.Ang[:end], input.Rot[:end], input.Ang[:end]
	or, oa, logs := out.Rot[:end], out.Ang[:end], logs[:end]
	// Written out on components, mathx's fast forms (named at each step)
	// in their order of operations, with no call to inline, on mgl32's
	// arrays rather than mathx's views, and the pose's values read where
	// used: as in blendRots, Go then runs the loop in the order written,
	// with no inlining-mark NOP and no float spill.
	for i := base; i < end; i++ {
		// x = r w0 + a w1, the decayed scaled angle-axis (rad).
		r, a := &logs[i].r, &fa[i]
		xx, xy, xz := r.X*w[0]+a[0]*w[1], r.Y*w[0]+a[1]*w[1], r.Z*w[0]+a[2]*w[1]
		x2 := xx*xx + xy*xy + xz*xz
		if x2 >= 1 {
			slow |= 1 << (i - base)
			continue
		}
		// The exp map's scalars at |x| (ExpSmall, C1).
		h2 := 0.25 * x2
		h4 := h2 * h2
		sc := (mathx.Sin0 - mathx.Sin1*h2) + h4*(mathx.Sin2-mathx.Sin3*h2)
		co := (mathx.Cos0 - mathx.Cos1*h2) + h4*((mathx.Cos2-mathx.Cos3*h2)+h4*mathx.Cos4)
		hs := 0.5 * sc
		c1, c2 := hs*sc, (1-sc*co)/(x2+mathx.Tiny)
		// J(x) v, v = r w2 + a w3 the rate of x (rad/s) (RodriguesS).
		vx, vy, vz := r.X*w[2]+a[0]*w[3], r.Y*w[2]+a[1]*w[3], r.Z*w[2]+a[2]*w[3]
		cx, cy, cz := xy*vz-xz*vy, xz*vx-xx*vz, xx*vy-xy*vx
		jx, jy, jz := vx+c1*cx+c2*(xy*cz-xz*cy), vy+c1*cy+c2*(xz*cx-xx*cz), vz+c1*cz+c2*(xx*cy-xy*cx)
		// e = exp(x) (ExpCoeffs.Quat); ang = e input.ang + J(x) v
		// (QuatMulVec3S).
		ex, ey, ez := xx*hs, xy*hs, xz*hs
		g := &ia[i]
		tx, ty, tz := 2*(ey*g[2]-ez*g[1]), 2*(ez*g[0]-ex*g[2]), 2*(ex*g[1]-ey*g[0])
		oa[i] = mgl32.Vec3{g[0] + co*tx + (ey*tz - ez*ty) + jx, g[1] + co*ty + (ez*tx - ex*tz) + jy, g[2] + co*tz + (ex*ty - ey*tx) + jz}
		// rot = e input.rot (QuatMulS). out may be input: its rotation is
		// read in full before the store.
		in, o := &ir[i], &or[i]
		o.W, o.V[0], o.V[1], o.V[2] = co*in.W-ex*in.V[0]-ey*in.V[1]-ez*in.V[2], co*in.V[0]+ex*in.W+ey*in.V[2]-ez*in.V[1], co*in.V[1]+ey*in.W+ez*in.V[0]-ex*in.V[2], co*in.V[2]+ez*in.W+ex*in.V[1]-ey*in.V[0]
	}
	return slow
}

// inertializeScls is inertializeKept's scale loop over joints base to
// end-1 for the offsets that do not scale (most joints): the exponent is
// then a zero, Exp32 gives exactly 1, and s 1 is s in every bit unless s
// is NaN (a signalling NaN comes out quiet). It returns the other joints
// (bit i-base for joint i), writing their scale velocity only.
func inertializeScls(out, offset, input *Pose, logs []offLog, w *[4]float32, base, end int) (slow uint64) {
	fsv, is, isv := mathx.V3s(offset.Svl[:end]), mathx.V3s(input.Scl[:end]), mathx.V3s(input.Svl[:end])
	os, osv, logs := mathx.V3s(out.Scl[:end]), mathx.V3s(out.Svl[:end]), logs[:end]
	for i := base; i < end; i++ {
		// ls and sv are zeros (of either sign) when their bits but the
		// signs are: one test on integers where six float compares took
		// three instructions each.
		lb, sb := (*[3]uint32)(unsafe.Pointer(&logs[i].ls)), (*[3]uint32)(unsafe.Pointer(&fsv[i]))
		if s := is[i]; (lb[0]|lb[1]|lb[2]|sb[0]|sb[1]|sb[2])<<1 == 0 && s == s {
			os[i] = s
		} else {
			slow |= 1 << (i - base)
		}
		ls, sv := &logs[i].ls, &fsv[i]
		osv[i] = isv[i].Add(ls.Scale(w[2])).Add(sv.Scale(w[3]))
	}
	return slow
}

// The parts of a joint inertializeJoint writes: rotation and angular
// velocity; scale.
const (
	jointRot = 1 << iota
	jointScl
)

// inertializeJoint writes the parts of joint i (m its offLog) asked for:
// all of them for inertializeEach, those inertializeKept and the SIMD
// kernel left for the others. Only those: out may be input, and a part
// written twice would add its offset twice. (A scale offset of zeros
// gives the input's scale in every bit, as the fast loops' shortcut.)
func inertializeJoint(out, offset, input *Pose, m *offLog, i int, w0, w1, w2, w3 float32, parts int) {
	if parts&jointRot != 0 {
		r, a := m.r, mathx.LoadV3(&offset.Ang[i])
		x, v := r.Scale(w0).Add(a.Scale(w1)), r.Scale(w2).Add(a.Scale(w3))
		x2 := x.Dot(x)
		k := mathx.ExpSmall(x2)
		if x2 >= 1 {
			k = mathx.ExpLarge(x2)
		}
		e := k.Quat(x)
		jx, jy, jz := mathx.RodriguesS(k.C1(), k.C2, x.X, x.Y, x.Z, v.X, v.Y, v.Z)
		in := mathx.LoadQ4(&input.Rot[i])
		o := &out.Rot[i]
		o.W, o.V[0], o.V[1], o.V[2] = mathx.QuatMulS(e.W, e.X, e.Y, e.Z, in.W, in.X, in.Y, in.Z)
		ang := mathx.LoadV3(&input.Ang[i])
		ax, ay, az := mathx.QuatMulVec3S(e.W, e.X, e.Y, e.Z, ang.X, ang.Y, ang.Z)
		out.Ang[i] = mgl32.Vec3{ax + jx, ay + jy, az + jz}
	}
	if parts&jointScl != 0 {
		ls, sv := m.ls, mathx.LoadV3(&offset.Svl[i])
		out.Scl[i] = mathx.LoadV3(&input.Scl[i]).Mul(ls.Scale(w0).Add(sv.Scale(w1)).Exp()).Vec3()
	}
}

// poseAlias reports whether a and b share every channel (aliased); ok is
// false where they share some channels and not others, which the SIMD
// kernels do not handle (they look at the first joint of each channel).
func poseAlias(a, b *Pose) (aliased, ok bool) {
	p := &a.Pos[0] == &b.Pos[0]
	return p, p == (&a.Rot[0] == &b.Rot[0]) && p == (&a.Scl[0] == &b.Scl[0]) &&
		p == (&a.Vel[0] == &b.Vel[0]) && p == (&a.Ang[0] == &b.Ang[0]) && p == (&a.Svl[0] == &b.Svl[0])
}

// inertializeReference is InertializeWeights on mathx's plain forms,
// written like the article's op_inertialize with the exact angular
// velocity InertializeWeights adds (see there).
func inertializeReference(out, offset, input *Pose, w0, w1, w2, w3 float32) {
	for i := range input.Pos {
		off, in := offset.Kform(i), input.Kform(i)
		offPos := off.Pos.Mul(w0).Add(off.Vel.Mul(w1))
		offVel := off.Pos.Mul(w2).Add(off.Vel.Mul(w3))
		// The decayed scaled angle-axis x and its rate v.
		r := mathx.QuatToScaledAngleAxis(off.Rot)
		x := r.Mul(w0).Add(off.Ang.Mul(w1))
		v := r.Mul(w2).Add(off.Ang.Mul(w3))
		offRot := mathx.QuatFromScaledAngleAxis(x)
		offAng := mathx.QuatFromScaledAngleAxisDx(x, v)
		ls := mathx.Vec3Log(off.Scl)
		offScl := mathx.Vec3Exp(ls.Mul(w0).Add(off.Svl.Mul(w1)))
		offSvl := ls.Mul(w2).Add(off.Svl.Mul(w3))
		out.Pos[i] = in.Pos.Add(offPos)
		out.Vel[i] = in.Vel.Add(offVel)
		out.Rot[i] = mathx.QuatMul(offRot, in.Rot)
		out.Ang[i] = mathx.QuatMulVec3(offRot, in.Ang).Add(offAng)
		out.Scl[i] = mathx.Vec3Mul(in.Scl, offScl)
		out.Svl[i] = in.Svl.Add(offSvl)
	}
}
