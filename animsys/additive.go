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
	n := out.Len()
	var o, a mathx.Rooms
	needLanes(&o, "AdditiveStatic", "out", out, wholePose, n, "len(out.Pos)")
	needLanes(&a, "AdditiveStatic", "add", add, wholePose, n, "len(out.Pos)")
	additive(&o, &a, n, alpha, 0, false)
}

// Additive applies add with weight alpha changing at alphaVel per second on
// the world side (op_additive_inplace): vel += alpha add.vel + add.pos
// alphaVel, ang = add_rot ang + (alpha add.ang + r alphaVel), svl += alpha
// add.svl + log(add.scl) alphaVel. The bracketed angular velocity of the
// weighted additive rotation is computed exactly (see additive); the
// article's form is its small-rotation limit.
func Additive(out, add *Pose, alpha, alphaVel float32) {
	n := out.Len()
	var o, a mathx.Rooms
	needLanes(&o, "Additive", "out", out, wholePose, n, "len(out.Pos)")
	needLanes(&a, "Additive", "add", add, wholePose, n, "len(out.Pos)")
	additive(&o, &a, n, alpha, alphaVel, false)
}

// AdditiveLocalStatic applies add with a fixed weight on the local side
// (op_additive_local_inplace_static): rot = rot add_rot, and the additive
// angular velocity is turned into the parent frame by the base rotation.
func AdditiveLocalStatic(out, add *Pose, alpha float32) {
	n := out.Len()
	var o, a mathx.Rooms
	needLanes(&o, "AdditiveLocalStatic", "out", out, wholePose, n, "len(out.Pos)")
	needLanes(&a, "AdditiveLocalStatic", "add", add, wholePose, n, "len(out.Pos)")
	additive(&o, &a, n, alpha, 0, true)
}

// AdditiveLocal applies add with weight alpha changing at alphaVel per second
// on the local side: ang += rot (alpha add.ang + r alphaVel) with rot the
// base rotation; positions and scales as Additive. (The article lists the
// static local variant; this adds the weight-rate term of op_additive_inplace
// on the side the rotation is applied.)
func AdditiveLocal(out, add *Pose, alpha, alphaVel float32) {
	n := out.Len()
	var o, a mathx.Rooms
	needLanes(&o, "AdditiveLocal", "out", out, wholePose, n, "len(out.Pos)")
	needLanes(&a, "AdditiveLocal", "add", add, wholePose, n, "len(out.Pos)")
	additive(&o, &a, n, alpha, alphaVel, true)
}

// additive is the four variants' loop over n joints, on the world side
// or the local side, on the poses' rooms from their door checks.
func additive(out, add *mathx.Rooms, n int, alpha, alphaVel float32, local bool) {
	wa, wav := mathx.Splat(alpha), mathx.Splat(alphaVel)
	a, av := wa.Lanes(), wav.Lanes()
	for i := 0; i < n; i += mathx.Lanes {
		// pos += alpha add.pos; vel += alpha add.vel + add.pos alphaVel:
		// the same on each component, so as the Vec3s lie in memory
		// (Flat3).
		p := add.Pos.LoadFlat(i)
		out.Pos.StoreFlat(i, out.Pos.LoadFlat(i).Add(p.Scale(wa)))
		out.Vel.StoreFlat(i, out.Vel.LoadFlat(i).Add(add.Vel.LoadFlat(i).Scale(wa)).Add(p.Scale(wav)))

		// e = from_scaled_angle_axis(alpha r), r the scaled angle-axis of
		// add.rot turning at r' = J(r)^-1 add.ang, with angular velocity w
		// = alphaVel r + J(alpha r) alpha r' (for small rotations the
		// article's alpha add.ang + r alphaVel).
		q := add.Rot.Load(i).Abs()
		r := q.ToScaledAngleAxis()
		dr := mathx.ToScaledAngleAxisDx(q, r, add.Ang.Load(i))
		v := r.Scale(a)
		k := mathx.ExpAt(v.Dot(v))
		e, w := k.Quat(v), k.Jacobian(v, dr.Scale(a)).Add(r.Scale(av))
		rot := out.Rot.Load(i)
		if local {
			// rot = rot e; ang = ang + rot w.
			out.Rot.Store(i, rot.Mul(e))
			rw := rot.MulVec3(w)
			out.Ang.Store(i, out.Ang.Load(i).Add(rw))
		} else {
			// rot = e rot; ang = e ang + w.
			out.Rot.Store(i, e.Mul(rot))
			out.Ang.Store(i, e.MulVec3(out.Ang.Load(i)).Add(w))
		}

		// scl = scl exp(alpha ls), ls = log(add.scl); svl += alpha
		// add.svl + ls alphaVel.
		ls := add.Scl.Load(i).Log()
		es := ls.Scale(a).Exp()
		out.Scl.Store(i, out.Scl.Load(i).Mul(es))
		out.Svl.Store(i, out.Svl.Load(i).Add(add.Svl.Load(i).Scale(a)).Add(ls.Scale(av)))
	}
	mathx.ClearUpper()
}
