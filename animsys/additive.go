package animsys

import (
	"math/bits"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// Additive animation (propagating-velocities, "Additive Animations").
//
// Each variant adds alpha of the additive pose add onto out in place:
// positions add, scales multiply by exp(alpha log add.scl), and rotations
// compose with from_scaled_angle_axis(alpha r), r the scaled angle-axis of
// add.rot — on the left ("world side", in the parent's frame) or on the
// right ("local side", in the joint's own frame). The static variants assume
// alpha is fixed; the others take its rate alphaVel (1/s) and add the
// additive pose times alphaVel to the velocities.

// AdditiveStatic applies add with a fixed weight on the world side
// (op_additive_inplace_static): the base angular velocity turns with the
// additive rotation.
func AdditiveStatic(out, add *Pose, alpha float32) {
	need("AdditiveStatic", "out", out, wholePose, out.Len(), "len(out.Pos)")
	need("AdditiveStatic", "add", add, wholePose, out.Len(), "len(out.Pos)")
	additive(out, add, nil, alpha, 0)
}

// Additive applies add with weight alpha changing at alphaVel per second on
// the world side (op_additive_inplace): vel += alpha add.vel + add.pos
// alphaVel, ang = add_rot ang + (alpha add.ang + r alphaVel), svl += alpha
// add.svl + log(add.scl) alphaVel. The bracketed angular velocity of the
// weighted additive rotation is computed exactly (see additiveRot); the
// article's form is its small-rotation limit.
func Additive(out, add *Pose, alpha, alphaVel float32) {
	need("Additive", "out", out, wholePose, out.Len(), "len(out.Pos)")
	need("Additive", "add", add, wholePose, out.Len(), "len(out.Pos)")
	additive(out, add, nil, alpha, alphaVel)
}

// addLog is one joint of an additive pose in the form Additive works on
// (additiveRot): r, the scaled angle-axis of its rotation (rad); dr, the
// rate of r (rad/s); ls, the log of its scale; and r x dr, r x (r x dr)
// and |r|^2, from which the exp-map derivative at alpha r follows by
// scaling. A BenchCharacter keeps one per joint of its (usually constant)
// additive pose (see keepLogs), so a tick does not redo two logarithms and
// a Jacobian per joint.
type addLog struct {
	r, dr, ls    mathx.V3
	rxdr, rxrxdr mathx.V3
	rr           float32
}

// set computes m from a joint's rotation, angular velocity and scale.
func (m *addLog) set(rot mathx.Q4, ang, scl mathx.V3) {
	q := rot.Abs()
	m.r = q.ToScaledAngleAxis()
	m.dr = mathx.Q4ToScaledAngleAxisDx(q, m.r, ang)
	m.ls = scl.Log()
	m.rxdr = m.r.Cross(m.dr)
	m.rxrxdr = m.r.Cross(m.rxdr)
	m.rr = m.r.Dot(m.r)
}

// rate is the angular velocity of from_scaled_angle_axis(alpha r), r
// turning at dr: alphaVel r + J(alpha r) alpha dr, given c1 alpha^2 and c2
// alpha^3 of the exp map at alpha r (see additive).
func (m *addLog) rate(alpha, alphaVel, c1a2, c2a3 float32) mathx.V3 {
	// On components: written with V3's methods it would not inline.
	return mathx.V3{X: m.dr.X*alpha + m.rxdr.X*c1a2 + m.rxrxdr.X*c2a3 + m.r.X*alphaVel,
		Y: m.dr.Y*alpha + m.rxdr.Y*c1a2 + m.rxrxdr.Y*c2a3 + m.r.Y*alphaVel,
		Z: m.dr.Z*alpha + m.rxdr.Z*c1a2 + m.rxrxdr.Z*c2a3 + m.r.Z*alphaVel}
}

// additive is Additive with the joints' addLogs in logs (of len(out.Pos),
// up to date with add), or, with logs nil, computed afresh. Its callers
// check the poses' sizes.
func additive(out, add *Pose, logs []addLog, alpha, alphaVel float32) {
	n := len(out.Pos)
	if useSIMD && logs != nil && n >= 8 {
		additiveSIMD(out, add, logs, alpha, alphaVel)
		return
	}
	// One pass per channel (measured no slower than one pass over all
	// twelve slices). The positions' loop reads the pose through LoadV3,
	// not through mathx.V3s views: the views' set-up cost more than
	// they saved in a loop this short (measured).
	ap, av, op, ov := add.Pos[:n], add.Vel[:n], out.Pos[:n], out.Vel[:n]
	for i := 0; i < n; i++ {
		p := mathx.LoadV3(&ap[i])
		op[i] = mathx.LoadV3(&op[i]).Add(p.Scale(alpha)).Vec3()
		ov[i] = mathx.LoadV3(&ov[i]).Add(mathx.LoadV3(&av[i]).Scale(alpha)).Add(p.Scale(alphaVel)).Vec3()
	}
	if logs == nil {
		// The exported functions: logs computed joint by joint.
		var m addLog
		for i := 0; i < n; i++ {
			m.set(mathx.LoadQ4(&add.Rot[i]), mathx.LoadV3(&add.Ang[i]), mathx.LoadV3(&add.Scl[i]))
			additiveRot1(out, &m, i, alpha, alphaVel)
			additiveScl1(out, add, &m, i, alpha, alphaVel)
		}
		return
	}
	logs = logs[:n]
	// The rotation and scale loops make no call, so that their values stay
	// in registers: the rare joints beyond their fast forms (weighted
	// rotations of 1 rad or more, scaling additive poses) are marked and
	// done after each block of 64.
	w := [...]float32{alpha, alphaVel, alpha * alpha, alpha * alpha * alpha}
	for base := 0; base < n; base += 64 {
		end := min(base+64, n)
		for slow := additiveRots(out, logs, &w, base, end); slow != 0; slow &= slow - 1 {
			i := base + bits.TrailingZeros64(slow)
			additiveRot1(out, &logs[i], i, alpha, alphaVel)
		}
		for slow := additiveScls(out, add, logs, &w, base, end); slow != 0; slow &= slow - 1 {
			i := base + bits.TrailingZeros64(slow)
			additiveScl1(out, nil, &logs[i], i, alpha, alphaVel)
		}
	}
}

// additiveRots is additive's rotation loop over joints base to end-1 (at
// most 64), with w = alpha, alphaVel, alpha^2, alpha^3. The weighted
// rotation is v = alpha r turning at alpha dr: |v|^2 = alpha^2 |r|^2, v x
// dv = alpha^2 (r x dr), v x (v x dv) = alpha^3 (r x (r x dr)) in
// mathx.Q4FromScaledAngleAxisDx's J(v) dv. It returns the joints it left,
// whose weighted rotation is of 1 rad or more (bit i-base for joint i),
// writing nothing of them.
func additiveRots(out *Pose, logs []addLog, w *[4]float32, base, end int) (slow uint64) {
	or, oa, logs := out.Rot[:end], out.Ang[:end], logs[:end]
	// Written out on components, mathx's fast forms (named at each step)
	// in their order of operations, with no call to inline, on mgl32's
	// arrays rather than mathx's views, the pose's values read in place
	// where used: as in blendRots, Go then runs the loop in the order
	// written, with no inlining-mark NOP and no float spill.
	for i := base; i < end; i++ {
		m := &logs[i]
		v2 := w[2] * m.rr
		if v2 >= 1 {
			slow |= 1 << (i - base)
			continue
		}
		// The exp map's scalars at |v| (ExpSmall, C1).
		h2 := 0.25 * v2
		h4 := h2 * h2
		sc := (mathx.Sin0 - mathx.Sin1*h2) + h4*(mathx.Sin2-mathx.Sin3*h2)
		co := (mathx.Cos0 - mathx.Cos1*h2) + h4*((mathx.Cos2-mathx.Cos3*h2)+h4*mathx.Cos4)
		hs := 0.5 * sc
		c1a2, c2a3 := hs*sc*w[2], (1-sc*co)/(v2+mathx.Tiny)*w[3]
		// e = exp(alpha r) (ExpCoeffs.Quat).
		ex, ey, ez := m.r.X*w[0]*hs, m.r.Y*w[0]*hs, m.r.Z*w[0]*hs
		// ang = e ang + the weighted rotation's rate (addLog.rate,
		// QuatMulVec3S), the rate summed first and the rotation after:
		// fewer values are live across e's rotation.
		ox := m.dr.X*w[0] + m.rxdr.X*c1a2 + m.rxrxdr.X*c2a3 + m.r.X*w[1]
		oy := m.dr.Y*w[0] + m.rxdr.Y*c1a2 + m.rxrxdr.Y*c2a3 + m.r.Y*w[1]
		oz := m.dr.Z*w[0] + m.rxdr.Z*c1a2 + m.rxrxdr.Z*c2a3 + m.r.Z*w[1]
		a := &oa[i]
		tx, ty, tz := 2*(ey*a[2]-ez*a[1]), 2*(ez*a[0]-ex*a[2]), 2*(ex*a[1]-ey*a[0])
		oa[i] = mgl32.Vec3{a[0] + co*tx + (ey*tz - ez*ty) + ox, a[1] + co*ty + (ez*tx - ex*tz) + oy, a[2] + co*tz + (ex*ty - ey*tx) + oz}
		// rot = e rot (QuatMulS), read in full before the store.
		o := &or[i]
		o.W, o.V[0], o.V[1], o.V[2] = co*o.W-ex*o.V[0]-ey*o.V[1]-ez*o.V[2], co*o.V[0]+ex*o.W+ey*o.V[2]-ez*o.V[1], co*o.V[1]+ey*o.W+ez*o.V[0]-ex*o.V[2], co*o.V[2]+ez*o.W+ex*o.V[1]-ey*o.V[0]
	}
	return slow
}

// additiveScls is additive's scale loop over joints base to end-1 for
// the additive poses that do not scale (most joints): with alpha finite
// the weighted log x = ls alpha is then a zero, whose Exp is exactly 1, and s 1 is s in every
// bit unless s is NaN (a signalling NaN comes out quiet), so the scale s
// stays as it is. It returns the other joints (bit i-base for joint i),
// writing their scale velocity only.
func additiveScls(out, add *Pose, logs []addLog, w *[4]float32, base, end int) (slow uint64) {
	asv, os, osv, logs := add.Svl[:end], out.Scl[:end], out.Svl[:end], logs[:end]
	finite := w[0]-w[0] == 0 // then ls alpha is a zero where ls is
	// On components, on mgl32's arrays (see additiveRots).
	for i := base; i < end; i++ {
		// ls is a zero (of either sign) when its bits but the signs are:
		// one test on integers where three float compares took three
		// instructions each.
		lb := (*[3]uint32)(unsafe.Pointer(&logs[i].ls))
		if s := &os[i]; !finite || (lb[0]|lb[1]|lb[2])<<1 != 0 || s[0] != s[0] || s[1] != s[1] || s[2] != s[2] {
			slow |= 1 << (i - base)
		}
		ls, a, o := &logs[i].ls, &asv[i], &osv[i]
		o[0], o[1], o[2] = o[0]+a[0]*w[0]+ls.X*w[1], o[1]+a[1]*w[0]+ls.Y*w[1], o[2]+a[2]*w[0]+ls.Z*w[1]
	}
	return slow
}

// additiveRot1 is additive's rotation and angular velocity of joint i,
// given its addLog m.
func additiveRot1(out *Pose, m *addLog, i int, alpha, alphaVel float32) {
	a2, a3 := alpha*alpha, alpha*alpha*alpha
	v2 := a2 * m.rr
	k := mathx.ExpSmall(v2)
	if v2 >= 1 {
		k = mathx.ExpLarge(v2)
	}
	e := k.Quat(m.r.Scale(alpha))
	o, rot := &out.Rot[i], mathx.LoadQ4(&out.Rot[i])
	o.W, o.V[0], o.V[1], o.V[2] = mathx.QuatMulS(e.W, e.X, e.Y, e.Z, rot.W, rot.X, rot.Y, rot.Z)
	a, ang := &out.Ang[i], mathx.LoadV3(&out.Ang[i])
	ax, ay, az := mathx.QuatMulVec3S(e.W, e.X, e.Y, e.Z, ang.X, ang.Y, ang.Z)
	addAng := m.rate(alpha, alphaVel, k.C1()*a2, k.C2*a3)
	a[0], a[1], a[2] = ax+addAng.X, ay+addAng.Y, az+addAng.Z
}

// additiveScl1 is additive's scale of joint i given its addLog m, and,
// for the joints additiveScls did not take (add is then nil), its scale
// velocity.
func additiveScl1(out, add *Pose, m *addLog, i int, alpha, alphaVel float32) {
	ls := m.ls
	out.Scl[i] = ls.Scale(alpha).Exp().Mul(mathx.LoadV3(&out.Scl[i])).Vec3()
	if add != nil {
		out.Svl[i] = mathx.LoadV3(&out.Svl[i]).Add(mathx.LoadV3(&add.Svl[i]).Scale(alpha)).Add(ls.Scale(alphaVel)).Vec3()
	}
}

// AdditiveLocalStatic applies add with a fixed weight on the local side
// (op_additive_local_inplace_static): rot = rot add_rot, and the additive
// angular velocity is turned into the parent frame by the base rotation.
func AdditiveLocalStatic(out, add *Pose, alpha float32) {
	need("AdditiveLocalStatic", "out", out, wholePose, out.Len(), "len(out.Pos)")
	need("AdditiveLocalStatic", "add", add, wholePose, out.Len(), "len(out.Pos)")
	AdditiveLocal(out, add, alpha, 0)
}

// AdditiveLocal applies add with weight alpha changing at alphaVel per second
// on the local side: ang += rot (alpha add.ang + r alphaVel) with rot the
// base rotation; positions and scales as Additive. (The article lists the
// static local variant; this adds the weight-rate term of op_additive_inplace
// on the side the rotation is applied.)
func AdditiveLocal(out, add *Pose, alpha, alphaVel float32) {
	n := len(out.Pos)
	need("AdditiveLocal", "out", out, wholePose, n, "len(out.Pos)")
	need("AdditiveLocal", "add", add, wholePose, n, "len(out.Pos)")
	ap, ar, as := add.Pos[:n], add.Rot[:n], add.Scl[:n]
	av, aa, asv := add.Vel[:n], add.Ang[:n], add.Svl[:n]
	op, or, os := out.Pos[:n], out.Rot[:n], out.Scl[:n]
	ov, oa, osv := out.Vel[:n], out.Ang[:n], out.Svl[:n]
	for i := 0; i < n; i++ {
		p := mathx.LoadV3(&ap[i])
		op[i] = mathx.LoadV3(&op[i]).Add(p.Scale(alpha)).Vec3()
		ov[i] = mathx.LoadV3(&ov[i]).Add(mathx.LoadV3(&av[i]).Scale(alpha)).Add(p.Scale(alphaVel)).Vec3()

		addRot, addAng := additiveRot(mathx.LoadQ4(&ar[i]), mathx.LoadV3(&aa[i]), alpha, alphaVel)
		cur := mathx.LoadQ4(&or[i])
		or[i] = cur.Mul(addRot).Quat()
		oa[i] = mathx.LoadV3(&oa[i]).Add(cur.MulVec3(addAng)).Vec3()

		ls := mathx.LoadV3(&as[i]).Log()
		os[i] = ls.Scale(alpha).Exp().Mul(mathx.LoadV3(&os[i])).Vec3()
		osv[i] = mathx.LoadV3(&osv[i]).Add(mathx.LoadV3(&asv[i]).Scale(alpha)).Add(ls.Scale(alphaVel)).Vec3()
	}
}

// additiveRot is the weighted additive rotation from_scaled_angle_axis(alpha
// r), r the scaled angle-axis of the additive rotation q turning at ang, and
// its angular velocity (rad/s): alphaVel r + J(alpha r) alpha r', with r' =
// J(r)^-1 ang the rate of r. For small rotations this is the article's
// alpha ang + r alphaVel.
func additiveRot(q mathx.Q4, ang mathx.V3, alpha, alphaVel float32) (mathx.Q4, mathx.V3) {
	q = q.Abs()
	r := q.ToScaledAngleAxis()
	dr := mathx.Q4ToScaledAngleAxisDx(q, r, ang)
	rot, w := mathx.Q4FromScaledAngleAxisDx(r.Scale(alpha), dr.Scale(alpha))
	return rot, w.Add(r.Scale(alphaVel))
}
