package animsys

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// Animation sampling (propagating-velocities, "Animation Sampling").

// frameAt splits a time (s) into a frame index and the fraction in [0, 1)
// towards the next frame; frame -1 for negative times.
func frameAt(time, frameTime float32) (int, float32) {
	ft := time / frameTime
	st := int(ft)
	if float32(st) > ft {
		st-- // floor for negative times
	}
	return st, ft - float32(st)
}

// clampFrame limits a frame index to the clip.
func clampFrame(f, frames int) int {
	if f < 0 {
		return 0
	}
	if f > frames-1 {
		return frames - 1
	}
	return f
}

// rotDelta is the rotation taking a to b as a scaled angle-axis (rad),
// shortest way round: quat_to_scaled_angle_axis(quat_abs(quat_mul_inv(b, a))).
func rotDelta(a, b mgl32.Quat) mgl32.Vec3 {
	return mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(b, a)))
}

// sclDelta is the log-ratio log(b / a) of two scales, per axis.
func sclDelta(a, b mgl32.Vec3) mgl32.Vec3 { return mathx.Vec3Log(mathx.Vec3Div(b, a)) }

// SampleLinear samples clip c at time (s) by linear interpolation between
// the two frames around it (op_sample_linear): positions lerp, rotations
// slerp, scales eerp, and the velocities are the constant rates between the
// two frames — m/s, rad/s (world side), natural-log scale per second. Frames
// are clamped at the ends (velocities are zero outside the clip); wrapping
// a looping time is the caller's job. out must have c.Joints joints.
func SampleLinear(out *Pose, c *Clip, time float32) {
	dt := c.FrameTime
	st, alpha := frameAt(time, dt)
	n := c.Joints
	s0 := clampFrame(st, c.Frames) * n
	s1 := clampFrame(st+1, c.Frames) * n
	inv := 1 / dt
	pos, vel := out.Pos[:n], out.Vel[:n]
	rot, ang := out.Rot[:n], out.Ang[:n]
	scl, svl := out.Scl[:n], out.Svl[:n]
	for j := 0; j < n; j++ {
		p0, p1 := c.Pos[s0+j], c.Pos[s1+j]
		pos[j] = mathx.Vec3Lerp(p0, p1, alpha)
		vel[j] = p1.Sub(p0).Mul(inv)

		d := rotDelta(c.Rot[s0+j], c.Rot[s1+j])
		rot[j] = mathx.QuatMul(mathx.QuatFromScaledAngleAxis(d.Mul(alpha)), c.Rot[s0+j])
		ang[j] = d.Mul(inv)

		l := sclDelta(c.Scl[s0+j], c.Scl[s1+j])
		scl[j] = mathx.Vec3Mul(c.Scl[s0+j], mathx.Vec3Exp(l.Mul(alpha)))
		svl[j] = l.Mul(inv)
	}
}

// hermite holds the cubic Hermite basis at a fraction t of a segment and its
// derivative in t: x(t) = x1 + h10 m1 + h01 (x2 - x1) + h11 m2 for a segment
// from x1 to x2 with tangents m1, m2 (per frame).
type hermite struct{ h10, h01, h11, d10, d01, d11 float32 }

func hermiteAt(t float32) hermite {
	t2 := t * t
	t3 := t2 * t
	return hermite{
		h10: t3 - 2*t2 + t, h01: 3*t2 - 2*t3, h11: t3 - t2,
		d10: 3*t2 - 4*t + 1, d01: 6*t - 6*t2, d11: 3*t2 - 2*t,
	}
}

// offset returns the Hermite offset from x1 and its rate per frame, for
// consecutive deltas d01 = x1 - x0, d12 = x2 - x1, d23 = x3 - x2 and
// Catmull-Rom tangents m1 = (d01 + d12)/2, m2 = (d12 + d23)/2.
func (h *hermite) offset(m1, d12, m2 mgl32.Vec3) (o, do mgl32.Vec3) {
	for k := 0; k < 3; k++ {
		o[k] = h.h10*m1[k] + h.h01*d12[k] + h.h11*m2[k]
		do[k] = h.d10*m1[k] + h.d01*d12[k] + h.d11*m2[k]
	}
	return o, do
}

// SampleCubic samples clip c at time (s) by cubic (Catmull-Rom) interpolation
// of the four frames around it, with velocities that change smoothly across
// frames (the article's "sample four poses instead of two"). Each channel is
// a Hermite curve for the offset from the frame before the time, built from
// the deltas between consecutive frames — positions (m), rotations (scaled
// angle-axis of quat_mul_inv, rad) and scales (log-ratios) — with tangents
// the mean of the deltas on either side. The velocities are the exact time
// derivatives of the sampled curves: m/s; rad/s (world side, through the
// exp-map derivative mathx.QuatFromScaledAngleAxisDx); natural-log scale per
// second. Frames are clamped at the ends; wrapping is the caller's job.
func SampleCubic(out *Pose, c *Clip, time float32) {
	dt := c.FrameTime
	st, alpha := frameAt(time, dt)
	n := c.Joints
	f0 := clampFrame(st-1, c.Frames) * n
	f1 := clampFrame(st, c.Frames) * n
	f2 := clampFrame(st+1, c.Frames) * n
	f3 := clampFrame(st+2, c.Frames) * n
	h := hermiteAt(alpha)
	inv := 1 / dt
	pos, vel := out.Pos[:n], out.Vel[:n]
	rot, ang := out.Rot[:n], out.Ang[:n]
	scl, svl := out.Scl[:n], out.Svl[:n]
	for j := 0; j < n; j++ {
		// Positions: the offset from frame 1 is the curve itself.
		p1, p2 := c.Pos[f1+j], c.Pos[f2+j]
		d01, d12, d23 := p1.Sub(c.Pos[f0+j]), p2.Sub(p1), c.Pos[f3+j].Sub(p2)
		o, do := h.offset(d01.Add(d12).Mul(.5), d12, d12.Add(d23).Mul(.5))
		pos[j] = p1.Add(o)
		vel[j] = do.Mul(inv)

		// Rotations: rot = exp(o) r1 with o the offset from r1. The
		// tangent at r2 is an angular velocity there; the curve's end tangent
		// is the rate of o = log(r r1^-1) at o = d12, so map it by J(d12)^-1.
		r1, r2 := c.Rot[f1+j], c.Rot[f2+j]
		d01 = rotDelta(c.Rot[f0+j], r1)
		d12 = rotDelta(r1, r2)
		d23 = rotDelta(r2, c.Rot[f3+j])
		m2 := mathx.QuatToScaledAngleAxisDx(d12, d12.Add(d23).Mul(.5))
		o, do = h.offset(d01.Add(d12).Mul(.5), d12, m2)
		rot[j] = mathx.QuatMul(mathx.QuatFromScaledAngleAxis(o), r1)
		ang[j] = mathx.QuatFromScaledAngleAxisDx(o, do.Mul(inv))

		// Scales: scl = s1 exp(o) in log space.
		s1, s2 := c.Scl[f1+j], c.Scl[f2+j]
		d01 = sclDelta(c.Scl[f0+j], s1)
		d12 = sclDelta(s1, s2)
		d23 = sclDelta(s2, c.Scl[f3+j])
		o, do = h.offset(d01.Add(d12).Mul(.5), d12, d12.Add(d23).Mul(.5))
		scl[j] = mathx.Vec3Mul(s1, mathx.Vec3Exp(o))
		svl[j] = do.Mul(inv)
	}
}

// TimeScale scales the velocities of p by rate, for a pose sampled at
// rate x playback time (d/dt x(rate t) = rate x'(rate t)). Positions,
// rotations and scales are unchanged.
func TimeScale(p *Pose, rate float32) {
	for i := range p.Vel {
		p.Vel[i] = p.Vel[i].Mul(rate)
		p.Ang[i] = p.Ang[i].Mul(rate)
		p.Svl[i] = p.Svl[i].Mul(rate)
	}
}

// RemoveGlobalRoot sets the root (joint 0) of a local pose to the identity
// kineform at rest, so the pose plays in place: FK then gives each joint
// relative to the character's root, and no root motion reaches the
// velocities.
func RemoveGlobalRoot(p *Pose) {
	p.SetKform(0, KformIdentity())
}
