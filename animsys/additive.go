package animsys

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
func Additive(out, add *Pose, alpha, alphaVel float32) {
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
		or[i] = qmul(addRot, ldqp(&or[i])).quat()
		oa[i] = qrot(addRot, ldp(&oa[i])).add(addAng).vec()

		ls := log3(ldp(&as[i]))
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
