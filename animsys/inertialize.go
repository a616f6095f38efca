package animsys

import (
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
	var s, d, o mathx.Rooms
	needLanes(&s, "InertializeOffset", "src", src, wholePose, n, "len(src.Pos)")
	needLanes(&d, "InertializeOffset", "dst", dst, wholePose, n, "len(src.Pos)")
	needLanes(&o, "InertializeOffset", "offset", offset, wholePose, n, "len(src.Pos)")
	for i := 0; i < n; i += mathx.Lanes {
		o.Pos.Store(i, s.Pos.Load(i).Sub(d.Pos.Load(i)))
		o.Vel.Store(i, s.Vel.Load(i).Sub(d.Vel.Load(i)))
		r := s.Rot.Load(i).MulInv(d.Rot.Load(i)).Abs()
		da := s.Ang.Load(i).Sub(r.MulVec3(d.Ang.Load(i)))
		o.Rot.Store(i, r)
		o.Ang.Store(i, mathx.ToScaledAngleAxisDx(r, r.ToScaledAngleAxis(), da))
		o.Scl.Store(i, s.Scl.Load(i).Div(d.Scl.Load(i)))
		o.Svl.Store(i, s.Svl.Load(i).Sub(d.Svl.Load(i)))
	}
	mathx.ClearUpper()
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
	var o, off, in mathx.Rooms
	needInertialize(&o, &off, &in, "Inertialize", out, offset, input)
	w0, w1, w2, w3 := CubicDecayWeights(blendTime, blendDuration)
	inertialize(&o, &off, &in, input.Len(), w0, w1, w2, w3)
}

// InertializeCritical applies the offset decayed by a critical spring with
// the given half-life (s) at blendTime seconds after the transition onto
// input: the inertializer the article mentions beside the cubic one ("such
// as a spring, or cubic function"), with the weights of
// spring.CriticalDecayWeights (w2, w3 their time derivatives). Unlike the
// cubic it never reaches zero exactly, so it needs no duration.
func InertializeCritical(out, offset, input *Pose, blendTime, halflife float32) {
	var o, off, in mathx.Rooms
	needInertialize(&o, &off, &in, "InertializeCritical", out, offset, input)
	w0, w1, w2, w3 := spring.CriticalDecayWeights(halflife, blendTime)
	inertialize(&o, &off, &in, input.Len(), w0, w1, w2, w3)
}

// InertializeWeights applies the offset decayed with weights w0..w3 onto
// input: x = w0 x0 + w1 v0, v = w2 x0 + w3 v0 for each channel (w2, w3 the
// time derivatives of w0, w1), then pos = input.pos + x, rot =
// from_scaled_angle_axis(x) input.rot with angular velocity exp(x) input.ang
// + J(x) v (J the exp-map derivative; the article adds v itself, exact only
// for small offsets: up to ~0.65 rad/s off on the bench clips), scl =
// input.scl exp(x). out may be input.
func InertializeWeights(out, offset, input *Pose, w0, w1, w2, w3 float32) {
	var o, off, in mathx.Rooms
	needInertialize(&o, &off, &in, "InertializeWeights", out, offset, input)
	inertialize(&o, &off, &in, input.Len(), w0, w1, w2, w3)
}

// needInertialize is the door check of the inertializations, named op,
// filling in the poses' rooms.
func needInertialize(o, off, in *mathx.Rooms, op string, out, offset, input *Pose) {
	n := input.Len()
	needLanes(in, op, "input", input, wholePose, n, "len(input.Pos)")
	needLanes(off, op, "offset", offset, wholePose, n, "len(input.Pos)")
	needLanes(o, op, "out", out, wholePose, n, "len(input.Pos)")
}

// inertialize is InertializeWeights past its door check, on the poses'
// rooms, n joints. Per channel the offset x0 (position, the scaled
// angle-axis r of the rotation, the log of the scale) and its rate v0
// decay to x = w0 x0 + w1 v0 with rate v = w2 x0 + w3 v0, applied to
// input: pos = input.pos + x; rot = exp(x) input.rot with angular
// velocity exp(x) input.ang + J(x) v; scl = input.scl exp(x); each
// velocity input's plus v.
func inertialize(out, offset, input *mathx.Rooms, n int, w0, w1, w2, w3 float32) {
	u0, u1, u2, u3 := mathx.Splat(w0), mathx.Splat(w1), mathx.Splat(w2), mathx.Splat(w3)
	k0, k1, k2, k3 := u0.Lanes(), u1.Lanes(), u2.Lanes(), u3.Lanes()
	for i := 0; i < n; i += mathx.Lanes {
		// Positions and velocities decay the same on each component, so as
		// the Vec3s lie in memory (Flat3). Scales stay by component, where
		// a uniform scale takes one log (SoaVec3.Log).
		p, v := offset.Pos.LoadFlat(i), offset.Vel.LoadFlat(i)
		out.Pos.StoreFlat(i, input.Pos.LoadFlat(i).Add(p.Scale(u0).Add(v.Scale(u1))))
		out.Vel.StoreFlat(i, input.Vel.LoadFlat(i).Add(p.Scale(u2).Add(v.Scale(u3))))

		ls, sv := offset.Scl.Load(i).Log(), offset.Svl.Load(i)
		es := ls.Scale(k0).Add(sv.Scale(k1)).Exp()
		out.Scl.Store(i, input.Scl.Load(i).Mul(es))
		out.Svl.Store(i, input.Svl.Load(i).Add(ls.Scale(k2).Add(sv.Scale(k3))))

		r, a := offset.Rot.Load(i).ToScaledAngleAxis(), offset.Ang.Load(i)
		x, dx := r.Scale(k0).Add(a.Scale(k1)), r.Scale(k2).Add(a.Scale(k3))
		k := mathx.ExpAt(x.Dot(x))
		e := k.Quat(x)
		out.Ang.Store(i, k.Jacobian(x, dx).Add(e.MulVec3(input.Ang.Load(i))))
		out.Rot.Store(i, e.Mul(input.Rot.Load(i)))
	}
	mathx.ClearUpper()
}
