package animsys

import (
	"math"

	"kinelab/animsys/mathx"
)

// Dead blending (propagating-velocities, "Dead Blending").

// MaxExtrapolatedTurn (rad) bounds the total angle ExtrapolateDecayed turns
// a joint: half a turn. Turned further, an extrapolated rotation heads back
// towards where it started, and the shortest-arc blend of DeadBlend
// reverses on its way to the live pose (a very fast joint at the
// transition, 50 rad/s in one real capture's first frame, would spin
// round 2.5 times over a 0.2 s half-life).
const MaxExtrapolatedTurn = math.Pi

// ExtrapolateDecayed writes into out the pose in extrapolated time seconds
// forward along velocities that decay with the given half-life (s)
// (op_extrapolate_decayed): with y = ln2 / halflife, each joint moves by its
// velocity times alpha = (1 - e^(-y time)) / y (the integral of the decay),
// and its velocities are scaled by e^(-y time), so they are the exact time
// derivatives of the extrapolated pose. The root (joint 0) is copied, not
// extrapolated. out may be in.
//
// A joint turns by at most MaxExtrapolatedTurn in total (|ang| / y as time
// grows): an angular velocity faster than MaxExtrapolatedTurn y rad/s (10.9
// rad/s at a 0.2 s half-life) is scaled down to it first, so the
// extrapolation still follows the joint's axis and stays smooth, with
// exact velocities. Slower joints extrapolate as in the article.
func ExtrapolateDecayed(out, in *Pose, time, halflife float32) {
	need("ExtrapolateDecayed", "in", in, wholePose, in.Len(), "len(in.Pos)")
	need("ExtrapolateDecayed", "out", out, wholePose, in.Len(), "len(in.Pos)")
	y := mathx.Ln2 / (halflife + mathx.Eps)
	decay := mathx.Exp(-y * time)
	alpha := (1 - decay) / (y + mathx.Eps)
	fastest := MaxExtrapolatedTurn * y // rad/s
	n := len(in.Pos)
	ip, ir, is := in.Pos[:n], in.Rot[:n], in.Scl[:n]
	iv, ia, isv := in.Vel[:n], in.Ang[:n], in.Svl[:n]
	op, or, os := out.Pos[:n], out.Rot[:n], out.Scl[:n]
	ov, oa, osv := out.Vel[:n], out.Ang[:n], out.Svl[:n]
	for i := 0; i < n; i++ {
		if i == 0 {
			op[i], or[i], os[i] = ip[i], ir[i], is[i]
			ov[i], oa[i], osv[i] = iv[i], ia[i], isv[i]
			continue
		}
		v, w, sv := mathx.LoadV3(&iv[i]), mathx.LoadV3(&ia[i]), mathx.LoadV3(&isv[i])
		if w2 := w.Dot(w); w2 > fastest*fastest {
			w = w.Scale(fastest / mathx.Sqrt(w2))
		}
		op[i] = mathx.LoadV3(&ip[i]).Add(v.Scale(alpha)).Vec3()
		or[i] = mathx.Q4FromScaledAngleAxis(w.Scale(alpha)).Mul(mathx.LoadQ4(&ir[i])).Quat()
		os[i] = mathx.LoadV3(&is[i]).Mul(sv.Scale(alpha).Exp()).Vec3()
		ov[i] = v.Scale(decay).Vec3()
		oa[i] = w.Scale(decay).Vec3()
		osv[i] = sv.Scale(decay).Vec3()
	}
}

// DeadBlend blends from the transition pose, extrapolated blendTime seconds
// with decaying velocities (ExtrapolateDecayed into extrapolated), to the
// live input pose with a smoothstep weight over blendDuration seconds and
// the weight's rate (op_dead_blending). out may be input; extrapolated is
// scratch space of the same size.
func DeadBlend(out, extrapolated, transition, input *Pose, halflife, blendTime, blendDuration float32) {
	n := transition.Len()
	need("DeadBlend", "transition", transition, wholePose, n, "len(transition.Pos)")
	need("DeadBlend", "extrapolated", extrapolated, wholePose, n, "len(transition.Pos)")
	need("DeadBlend", "input", input, wholePose, n, "len(transition.Pos)")
	need("DeadBlend", "out", out, wholePose, n, "len(transition.Pos)")
	ExtrapolateDecayed(extrapolated, transition, blendTime, halflife)
	alpha := SmoothstepBlendAlpha(blendTime, blendDuration)
	alphaVel := SmoothstepBlendAlphaVel(blendTime, blendDuration)
	Blend(out, extrapolated, input, alpha, alphaVel)
}
