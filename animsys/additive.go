package animsys

import (
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
func AdditiveStatic(out, add *Pose, alpha float32) { Additive(out, add, alpha, 0) }

// Additive applies add with weight alpha changing at alphaVel per second on
// the world side (op_additive_inplace): vel += alpha add.vel + add.pos
// alphaVel, ang = add_rot ang + alpha add.ang + r alphaVel, svl += alpha
// add.svl + log(add.scl) alphaVel.
func Additive(out, add *Pose, alpha, alphaVel float32) {
	n := len(out.Pos)
	ap, ar, as := add.Pos[:n], add.Rot[:n], add.Scl[:n]
	av, aa, asv := add.Vel[:n], add.Ang[:n], add.Svl[:n]
	op, or, os := out.Pos[:n], out.Rot[:n], out.Scl[:n]
	ov, oa, osv := out.Vel[:n], out.Ang[:n], out.Svl[:n]
	for i := 0; i < n; i++ {
		op[i] = op[i].Add(ap[i].Mul(alpha))
		ov[i] = ov[i].Add(av[i].Mul(alpha)).Add(ap[i].Mul(alphaVel))

		r := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(ar[i]))
		addRot := mathx.QuatFromScaledAngleAxis(r.Mul(alpha))
		or[i] = mathx.QuatMul(addRot, or[i])
		oa[i] = mathx.QuatMulVec3(addRot, oa[i]).Add(additiveAng(r, aa[i], alpha, alphaVel))

		ls := mathx.Vec3Log(as[i])
		os[i] = mathx.Vec3Mul(mathx.Vec3Exp(ls.Mul(alpha)), os[i])
		osv[i] = osv[i].Add(asv[i].Mul(alpha)).Add(ls.Mul(alphaVel))
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
		op[i] = op[i].Add(ap[i].Mul(alpha))
		ov[i] = ov[i].Add(av[i].Mul(alpha)).Add(ap[i].Mul(alphaVel))

		r := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(ar[i]))
		addRot := mathx.QuatFromScaledAngleAxis(r.Mul(alpha))
		cur := or[i]
		or[i] = mathx.QuatMul(cur, addRot)
		oa[i] = oa[i].Add(mathx.QuatMulVec3(cur, additiveAng(r, aa[i], alpha, alphaVel)))

		ls := mathx.Vec3Log(as[i])
		os[i] = mathx.Vec3Mul(mathx.Vec3Exp(ls.Mul(alpha)), os[i])
		osv[i] = osv[i].Add(asv[i].Mul(alpha)).Add(ls.Mul(alphaVel))
	}
}

// additiveAng is the angular velocity (rad/s) of the weighted additive
// rotation from_scaled_angle_axis(alpha r), r the scaled angle-axis of an
// additive rotation turning at ang: alphaVel r + J(alpha r) alpha r', with
// r' = J(r)^-1 ang the rate of r. For small rotations this is the article's
// alpha ang + r alphaVel.
func additiveAng(r, ang mgl32.Vec3, alpha, alphaVel float32) mgl32.Vec3 {
	dr := mathx.QuatToScaledAngleAxisDx(r, ang)
	return r.Mul(alphaVel).Add(mathx.QuatFromScaledAngleAxisDx(r.Mul(alpha), dr.Mul(alpha)))
}
