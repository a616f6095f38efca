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
	n := in.Len()
	var from, to mathx.Rooms
	needLanes(&from, "ExtrapolateDecayed", "in", in, wholePose, n, "len(in.Pos)")
	needLanes(&to, "ExtrapolateDecayed", "out", out, wholePose, n, "len(in.Pos)")
	y := mathx.Ln2 / (halflife + mathx.Eps)
	decay := mathx.Exp(-y * time)
	alpha := (1 - decay) / (y + mathx.Eps)
	fastest := MaxExtrapolatedTurn * y // rad/s
	a, k, top := mathx.Splat(alpha).Lanes(), mathx.Splat(decay).Lanes(), mathx.Splat(fastest).Lanes()
	for i := 0; i < n; i += mathx.Lanes {
		p, r, s := from.Pos.Load(i), from.Rot.Load(i), from.Scl.Load(i)
		v, w, sv := from.Vel.Load(i), from.Ang.Load(i), from.Svl.Load(i)
		// |w| <= fastest: w fastest/|w| where faster.
		w2 := w.Dot(w)
		w = w.Merge(w.Scale(top.Div(w2.Sqrt())), w2.LessEqual(top.Mul(top)))
		p2, r2, s2 := p.Add(v.Scale(a)), mathx.FromScaledAngleAxis(w.Scale(a)).Mul(r), s.Mul(sv.Scale(a).Exp())
		v2, w2v, sv2 := v.Scale(k), w.Scale(k), sv.Scale(k)
		if i == 0 {
			// The root is copied, not extrapolated.
			root := mathx.MaskFromBits(1)
			p2, r2, s2 = p.Merge(p2, root), r.Merge(r2, root), s.Merge(s2, root)
			v2, w2v, sv2 = v.Merge(v2, root), w.Merge(w2v, root), sv.Merge(sv2, root)
		}
		to.Pos.Store(i, p2)
		to.Rot.Store(i, r2)
		to.Scl.Store(i, s2)
		to.Vel.Store(i, v2)
		to.Ang.Store(i, w2v)
		to.Svl.Store(i, sv2)
	}
	mathx.ClearUpper()
}

// DeadBlend blends from the transition pose, extrapolated blendTime seconds
// with decaying velocities (ExtrapolateDecayed into extrapolated), to the
// live input pose with a smoothstep weight over blendDuration seconds and
// the weight's rate (op_dead_blending). out may be input; extrapolated is
// scratch space of the same size.
func DeadBlend(out, extrapolated, transition, input *Pose, halflife, blendTime, blendDuration float32) {
	n := transition.Len()
	needLanes(nil, "DeadBlend", "transition", transition, wholePose, n, "len(transition.Pos)")
	needLanes(nil, "DeadBlend", "extrapolated", extrapolated, wholePose, n, "len(transition.Pos)")
	needLanes(nil, "DeadBlend", "input", input, wholePose, n, "len(transition.Pos)")
	needLanes(nil, "DeadBlend", "out", out, wholePose, n, "len(transition.Pos)")
	ExtrapolateDecayed(extrapolated, transition, blendTime, halflife)
	alpha := SmoothstepBlendAlpha(blendTime, blendDuration)
	alphaVel := SmoothstepBlendAlphaVel(blendTime, blendDuration)
	Blend(out, extrapolated, input, alpha, alphaVel)
}
