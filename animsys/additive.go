package animsys

import (
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
	needLanes("AdditiveStatic", "out", out, wholePose, out.Len(), "len(out.Pos)")
	needLanes("AdditiveStatic", "add", add, wholePose, out.Len(), "len(out.Pos)")
	additive(out, add, alpha, 0, false)
}

// Additive applies add with weight alpha changing at alphaVel per second on
// the world side (op_additive_inplace): vel += alpha add.vel + add.pos
// alphaVel, ang = add_rot ang + (alpha add.ang + r alphaVel), svl += alpha
// add.svl + log(add.scl) alphaVel. The bracketed angular velocity of the
// weighted additive rotation is computed exactly (see additive); the
// article's form is its small-rotation limit.
func Additive(out, add *Pose, alpha, alphaVel float32) {
	needLanes("Additive", "out", out, wholePose, out.Len(), "len(out.Pos)")
	needLanes("Additive", "add", add, wholePose, out.Len(), "len(out.Pos)")
	additive(out, add, alpha, alphaVel, false)
}

// AdditiveLocalStatic applies add with a fixed weight on the local side
// (op_additive_local_inplace_static): rot = rot add_rot, and the additive
// angular velocity is turned into the parent frame by the base rotation.
func AdditiveLocalStatic(out, add *Pose, alpha float32) {
	needLanes("AdditiveLocalStatic", "out", out, wholePose, out.Len(), "len(out.Pos)")
	needLanes("AdditiveLocalStatic", "add", add, wholePose, out.Len(), "len(out.Pos)")
	additive(out, add, alpha, 0, true)
}

// AdditiveLocal applies add with weight alpha changing at alphaVel per second
// on the local side: ang += rot (alpha add.ang + r alphaVel) with rot the
// base rotation; positions and scales as Additive. (The article lists the
// static local variant; this adds the weight-rate term of op_additive_inplace
// on the side the rotation is applied.)
func AdditiveLocal(out, add *Pose, alpha, alphaVel float32) {
	needLanes("AdditiveLocal", "out", out, wholePose, out.Len(), "len(out.Pos)")
	needLanes("AdditiveLocal", "add", add, wholePose, out.Len(), "len(out.Pos)")
	additive(out, add, alpha, alphaVel, true)
}

// additive is the four variants' loop, on the world side or the local
// side. Its callers check the poses' sizes.
func additive(out, add *Pose, alpha, alphaVel float32, local bool) {
	n := len(out.Pos)
	a, av := mathx.Splat(alpha), mathx.Splat(alphaVel)
	for i := 0; i < n; i += mathx.Lanes {
		// pos += alpha add.pos; vel += alpha add.vel + add.pos alphaVel:
		// the same on each component, in memory order (LoadFlat).
		p := mathx.LoadFlat(add.Pos, i)
		mathx.StoreFlat(out.Pos, i, mathx.LoadFlat(out.Pos, i).Add(p.Scale(a)))
		mathx.StoreFlat(out.Vel, i, mathx.LoadFlat(out.Vel, i).Add(mathx.LoadFlat(add.Vel, i).Scale(a)).Add(p.Scale(av)))

		// e = from_scaled_angle_axis(alpha r), r the scaled angle-axis of
		// add.rot turning at r' = J(r)^-1 add.ang, with angular velocity w
		// = alphaVel r + J(alpha r) alpha r' (for small rotations the
		// article's alpha add.ang + r alphaVel).
		q := mathx.LoadSoaQuat(add.Rot, i).Abs()
		r := q.ToScaledAngleAxis()
		dr := mathx.ToScaledAngleAxisDx(q, r, mathx.LoadSoaVec3(add.Ang, i))
		v := r.Scale(a)
		k := mathx.ExpAt(v.Dot(v))
		e, w := k.Quat(v), k.Jacobian(v, dr.Scale(a)).Add(r.Scale(av))
		rot := mathx.LoadSoaQuat(out.Rot, i)
		if local {
			// rot = rot e; ang = ang + rot w.
			mathx.StoreSoaQuat(out.Rot, i, rot.Mul(e))
			rw := rot.MulVec3(w)
			mathx.StoreSoaVec3(out.Ang, i, mathx.LoadSoaVec3(out.Ang, i).Add(rw))
		} else {
			// rot = e rot; ang = e ang + w.
			mathx.StoreSoaQuat(out.Rot, i, e.Mul(rot))
			mathx.StoreSoaVec3(out.Ang, i, e.MulVec3(mathx.LoadSoaVec3(out.Ang, i)).Add(w))
		}

		// scl = scl exp(alpha ls), ls = log(add.scl); svl += alpha
		// add.svl + ls alphaVel.
		ls := mathx.LoadSoaVec3(add.Scl, i).Log()
		es := ls.Scale(a).Exp()
		mathx.StoreSoaVec3(out.Scl, i, mathx.LoadSoaVec3(out.Scl, i).Mul(es))
		mathx.StoreSoaVec3(out.Svl, i, mathx.LoadSoaVec3(out.Svl, i).Add(mathx.LoadSoaVec3(add.Svl, i).Scale(a)).Add(ls.Scale(av)))
	}
	mathx.ClearUpper()
}
