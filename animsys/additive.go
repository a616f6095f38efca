package animsys

import "math"

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
func AdditiveStatic(out, add *Pose, alpha float32) { Additive(out, add, alpha, 0) }

// Additive applies add with weight alpha changing at alphaVel per second on
// the world side (op_additive_inplace): vel += alpha add.vel + add.pos
// alphaVel, ang = add_rot ang + (alpha add.ang + r alphaVel), svl += alpha
// add.svl + log(add.scl) alphaVel. The bracketed angular velocity of the
// weighted additive rotation is computed exactly (see additiveRot); the
// article's form is its small-rotation limit.
func Additive(out, add *Pose, alpha, alphaVel float32) { additive(out, add, nil, alpha, alphaVel) }

// addLog is one joint of an additive pose in the form Additive works on
// (additiveRot): r, the scaled angle-axis of its rotation (rad); dr, the
// rate of r (rad/s); ls, the log of its scale; and r x dr, r x (r x dr)
// and |r|^2, from which the exp-map derivative at alpha r follows by
// scaling. rot, ang and scl are the joint's values they were computed
// from. A Character keeps one per joint of its (usually constant) additive
// pose, so a tick does not redo two logarithms and a Jacobian per joint.
type addLog struct {
	rot          q4
	ang, scl     v3
	r, dr, ls    v3
	rxdr, rxrxdr v3
	rr           float32
}

// holds reports whether m was computed from these values (false for NaN,
// which is then recomputed every time: correct, if slow).
func (m *addLog) holds(rot q4, ang, scl v3) bool {
	return rot == m.rot && ang == m.ang && scl == m.scl
}

// set computes m from a joint's rotation, angular velocity and scale.
func (m *addLog) set(rot q4, ang, scl v3) {
	m.rot, m.ang, m.scl = rot, ang, scl
	q := qabs(rot)
	m.r = qlog(q)
	m.dr = qlogRate(q, m.r, ang)
	m.ls = log3(scl)
	m.rxdr = m.r.cross(m.dr)
	m.rxrxdr = m.r.cross(m.rxdr)
	m.rr = m.r.dot(m.r)
}

// newAddLogs makes n addLogs that hold no values yet.
func newAddLogs(n int) []addLog {
	logs := make([]addLog, n)
	for i := range logs {
		logs[i].rot.w = float32(math.NaN())
	}
	return logs
}

// additive is Additive with the joints' addLogs kept in logs (of len(out.Pos),
// recomputed where add has changed), or, with logs nil, computed afresh.
func additive(out, add *Pose, logs []addLog, alpha, alphaVel float32) {
	n := len(out.Pos)
	// One pass per channel (measured no slower than one pass over all
	// twelve slices); the scale pass reads the logs the rotation pass keeps.
	ap, av, op, ov := add.Pos[:n], add.Vel[:n], out.Pos[:n], out.Vel[:n]
	for i := 0; i < n; i++ {
		p := ldp(&ap[i])
		op[i] = ldp(&op[i]).add(p.scale(alpha)).vec()
		ov[i] = ldp(&ov[i]).add(ldp(&av[i]).scale(alpha)).add(p.scale(alphaVel)).vec()
	}
	ar, aa, as, or, oa := add.Rot[:n], add.Ang[:n], add.Scl[:n], out.Rot[:n], out.Ang[:n]
	if logs != nil {
		logs = logs[:n]
	}
	var tmp addLog
	// The weighted rotation is v = alpha r turning at alpha dr: |v|^2 =
	// alpha^2 |r|^2, v x dv = alpha^2 (r x dr), v x (v x dv) = alpha^3 (r
	// x (r x dr)) in qexpVel's J(v) dv.
	a2, a3 := alpha*alpha, alpha*alpha*alpha
	for i := 0; i < n; i++ {
		m := &tmp
		rot, ang, scl := ldqp(&ar[i]), ldp(&aa[i]), ldp(&as[i])
		if logs != nil {
			m = &logs[i]
		}
		if logs == nil || !m.holds(rot, ang, scl) {
			m.set(rot, ang, scl)
		}
		v2 := a2 * m.rr
		k := expSmall(v2)
		if v2 >= 1 {
			k = expLarge(v2)
		}
		addRot := k.quat(m.r.scale(alpha))
		// from_scaled_angle_axis(alpha r)'s angular velocity: alphaVel r +
		// J(alpha r) alpha dr.
		addAng := m.dr.scale(alpha).add(m.rxdr.scale(k.c1() * a2)).add(m.rxrxdr.scale(k.c2 * a3)).add(m.r.scale(alphaVel))
		o, a := &or[i], &oa[i]
		o.W, o.V[0], o.V[1], o.V[2] = qmulS(addRot.w, addRot.x, addRot.y, addRot.z, o.W, o.V[0], o.V[1], o.V[2])
		a[0], a[1], a[2] = qrotS(addRot.w, addRot.x, addRot.y, addRot.z, a[0], a[1], a[2])
		a[0], a[1], a[2] = a[0]+addAng.x, a[1]+addAng.y, a[2]+addAng.z
	}
	asv, os, osv := add.Svl[:n], out.Scl[:n], out.Svl[:n]
	for i := 0; i < n; i++ {
		var ls v3
		if logs != nil {
			ls = logs[i].ls // set by the rotation pass
		} else {
			ls = log3(ldp(&as[i]))
		}
		os[i] = exp3(ls.scale(alpha)).mul(ldp(&os[i])).vec()
		osv[i] = ldp(&osv[i]).add(ldp(&asv[i]).scale(alpha)).add(ls.scale(alphaVel)).vec()
	}
}

// AdditiveLocalStatic applies add with a fixed weight on the local side
// (op_additive_local_inplace_static): rot = rot add_rot, and the additive
// angular velocity is turned into the parent frame by the base rotation.
func AdditiveLocalStatic(out, add *Pose, alpha float32) { AdditiveLocal(out, add, alpha, 0) }

// AdditiveLocal applies add with weight alpha changing at alphaVel per second
// on the local side: ang += rot (alpha add.ang + r alphaVel) with rot the
// base rotation; positions and scales as Additive. (The article lists the
// static local variant; this adds the weight-rate term of op_additive_inplace
// on the side the rotation is applied.)
func AdditiveLocal(out, add *Pose, alpha, alphaVel float32) {
	n := len(out.Pos)
	ap, ar, as := add.Pos[:n], add.Rot[:n], add.Scl[:n]
	av, aa, asv := add.Vel[:n], add.Ang[:n], add.Svl[:n]
	op, or, os := out.Pos[:n], out.Rot[:n], out.Scl[:n]
	ov, oa, osv := out.Vel[:n], out.Ang[:n], out.Svl[:n]
	for i := 0; i < n; i++ {
		p := ldp(&ap[i])
		op[i] = ldp(&op[i]).add(p.scale(alpha)).vec()
		ov[i] = ldp(&ov[i]).add(ldp(&av[i]).scale(alpha)).add(p.scale(alphaVel)).vec()

		addRot, addAng := additiveRot(ldqp(&ar[i]), ldp(&aa[i]), alpha, alphaVel)
		cur := ldqp(&or[i])
		or[i] = qmul(cur, addRot).quat()
		oa[i] = ldp(&oa[i]).add(qrot(cur, addAng)).vec()

		ls := log3(ldp(&as[i]))
		os[i] = exp3(ls.scale(alpha)).mul(ldp(&os[i])).vec()
		osv[i] = ldp(&osv[i]).add(ldp(&asv[i]).scale(alpha)).add(ls.scale(alphaVel)).vec()
	}
}

// additiveRot is the weighted additive rotation from_scaled_angle_axis(alpha
// r), r the scaled angle-axis of the additive rotation q turning at ang, and
// its angular velocity (rad/s): alphaVel r + J(alpha r) alpha r', with r' =
// J(r)^-1 ang the rate of r. For small rotations this is the article's
// alpha ang + r alphaVel.
func additiveRot(q q4, ang v3, alpha, alphaVel float32) (q4, v3) {
	q = qabs(q)
	r := qlog(q)
	dr := qlogRate(q, r, ang)
	rot, w := qexpVel(r.scale(alpha), dr.scale(alpha))
	return rot, w.add(r.scale(alphaVel))
}
