package animsys

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// Kineform algebra (propagating-velocities, "Kineforms").
//
// KformMul composes a kineform w moving in the frame of a moving kineform v
// (the step of FK); KformDiv is its exact inverse (the step of BK). Scales
// follow the article (and Unreal): they multiply per axis and are not
// rotated, which keeps Mul and Div exact inverses for any scale but makes
// the algebra a group only for uniform scales:
//
//   - KformDiv(v, KformMul(v, w)) == w and KformMul(v, KformDiv(v, w)) == w
//     for any scales;
//   - KformMul(KformInv(v), w) == KformDiv(v, w) and associativity
//     KformMul(KformMul(a, b), c) == KformMul(a, KformMul(b, c)) need the
//     scale of v (of a and b) to be uniform and to stay uniform (the same
//     scalar velocity on every axis): a per-axis scale does not commute
//     with the rotation it is applied after.

// KformMul composes kineforms, w relative to v (kform_mul): position
// v.rot (w.pos * v.scl) + v.pos; rotation v.rot w.rot; scale w.scl * v.scl;
// velocity rotated w.vel plus v.vel plus leverage cross(v.ang, arm) plus
// expansion rotated w.pos * v.scl * v.svl; angular velocity v.rot w.ang +
// v.ang; scalar velocity w.svl + v.svl.
func KformMul(v, w Kform) Kform {
	offset := mathx.Vec3Mul(w.Pos, v.Scl)
	arm := mathx.QuatMulVec3(v.Rot, offset)
	// The rotated velocity and expansion terms share one rotation.
	vel := mathx.QuatMulVec3(v.Rot, mathx.Vec3Mul(w.Vel, v.Scl).Add(mathx.Vec3Mul(offset, v.Svl)))
	return Kform{
		Pos: arm.Add(v.Pos),
		Rot: mathx.QuatMul(v.Rot, w.Rot),
		Scl: mathx.Vec3Mul(w.Scl, v.Scl),
		Vel: vel.Add(v.Vel).Add(v.Ang.Cross(arm)),
		Ang: mathx.QuatMulVec3(v.Rot, w.Ang).Add(v.Ang),
		Svl: w.Svl.Add(v.Svl),
	}
}

// KformDiv is w relative to v (kform_div), the exact inverse of KformMul:
// KformDiv(v, KformMul(v, w)) == w. Like BK it divides by v's scale, which
// the article's listing leaves out (see BK).
func KformDiv(v, w Kform) Kform {
	arm := w.Pos.Sub(v.Pos)
	pos := mathx.Vec3Div(mathx.QuatInvMulVec3(v.Rot, arm), v.Scl)
	rel := w.Vel.Sub(v.Vel).Sub(v.Ang.Cross(arm))
	return Kform{
		Pos: pos,
		Rot: mathx.QuatInvMul(v.Rot, w.Rot),
		Scl: mathx.Vec3Div(w.Scl, v.Scl),
		Vel: mathx.Vec3Div(mathx.QuatInvMulVec3(v.Rot, rel), v.Scl).Sub(mathx.Vec3Mul(pos, v.Svl)),
		Ang: mathx.QuatInvMulVec3(v.Rot, w.Ang.Sub(v.Ang)),
		Svl: w.Svl.Sub(v.Svl),
	}
}

// KformInv is the inverse kineform (kform_inv): KformDiv(v, identity), so
// KformMul(v, KformInv(v)) is the identity for any scale, and
// KformMul(KformInv(v), v) too when v's scale is uniform.
func KformInv(v Kform) Kform { return KformDiv(v, KformIdentity()) }

// KformInvMul is inv(v) w (kform_inv_mul), computed exactly as KformDiv(v, w).
func KformInvMul(v, w Kform) Kform { return KformDiv(v, w) }

// KformMulInv is v inv(w) (kform_mul_inv).
func KformMulInv(v, w Kform) Kform { return KformMul(v, KformInv(w)) }

// KformMulDir transforms a direction by v: its rotation only (kform_mul_dir).
func KformMulDir(v Kform, d mgl32.Vec3) mgl32.Vec3 { return mathx.QuatMulVec3(v.Rot, d) }

// KformMulPos transforms a position (m) by v (kform_mul_pos).
func KformMulPos(v Kform, pos mgl32.Vec3) mgl32.Vec3 {
	return mathx.QuatMulVec3(v.Rot, mathx.Vec3Mul(pos, v.Scl)).Add(v.Pos)
}

// KformMulVel is the world velocity (m/s) of a point at pos moving at vel in
// v's frame (kform_mul_vel): the linear-velocity row of KformMul.
func KformMulVel(v Kform, pos, vel mgl32.Vec3) mgl32.Vec3 {
	arm := mathx.QuatMulVec3(v.Rot, mathx.Vec3Mul(pos, v.Scl))
	return mathx.QuatMulVec3(v.Rot, mathx.Vec3Mul(vel, v.Scl)).Add(v.Vel).Add(v.Ang.Cross(arm)).
		Add(mathx.QuatMulVec3(v.Rot, mathx.Vec3Mul(mathx.Vec3Mul(pos, v.Scl), v.Svl)))
}

// KformFromPosVel is a point kineform: position (m) and velocity (m/s),
// identity otherwise (kform_from_pos_vel).
func KformFromPosVel(pos, vel mgl32.Vec3) Kform {
	k := KformIdentity()
	k.Pos, k.Vel = pos, vel
	return k
}

// KformFromRotAng is a rotation kineform: rotation and angular velocity
// (rad/s), identity otherwise.
func KformFromRotAng(rot mgl32.Quat, ang mgl32.Vec3) Kform {
	k := KformIdentity()
	k.Rot, k.Ang = rot, ang
	return k
}

// KformPosVelNormalize normalises the position of d, a direction, and
// replaces its velocity by the velocity of the normalised direction
// (kform_pos_vel_normalize): normalize(pos), normalize_dx(pos, vel).
func KformPosVelNormalize(d Kform) Kform {
	out := d
	out.Pos = mathx.Vec3Normalize(d.Pos)
	out.Vel = mathx.NormalizeDx(d.Pos, d.Vel)
	return out
}

// KformRotAngBetween is the rotation from direction dir0.Pos to direction
// dir1.Pos (quat_between) and its angular velocity (rad/s) while they move
// at dir0.Vel and dir1.Vel (kform_rot_ang_between).
func KformRotAngBetween(dir0, dir1 Kform) Kform {
	rot := mathx.QuatBetween(dir0.Pos, dir1.Pos)
	drot := mathx.QuatBetweenDx(dir0.Pos, dir0.Vel, dir1.Pos, dir1.Vel)
	return KformFromRotAng(rot, mathx.QuatDeltaToAngularVelocity(rot, drot))
}

// KformPosOnly keeps position and linear velocity, identity otherwise.
func KformPosOnly(k Kform) Kform { return KformFromPosVel(k.Pos, k.Vel) }

// KformRotOnly keeps rotation and angular velocity, identity otherwise.
func KformRotOnly(k Kform) Kform { return KformFromRotAng(k.Rot, k.Ang) }

// KformSclOnly keeps scale and scalar velocity, identity otherwise.
func KformSclOnly(k Kform) Kform {
	out := KformIdentity()
	out.Scl, out.Svl = k.Scl, k.Svl
	return out
}
