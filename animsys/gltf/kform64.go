package gltf

import (
	"math"

	"kinelab/animsys"
	"kinelab/animsys/mathx/mathx64"
)

// Sampling works in float64 (mathx64) and rounds once into the float32
// pose: the Hermite and slerp formulas and the composition of folded
// ancestor transforms then add no rounding of their own to what the file
// holds.

// angVel is the angular velocity (rad/s, world side: the convention of
// mathx.QuatDeltaToAngularVelocity and every animsys pose) of a unit
// quaternion q moving at dq per second: omega = 2 (dq q^-1), vector part.
func angVel(q, dq mathx64.Quat) mathx64.Vec3 { return dq.Mul(q.Conj()).Vec().Scale(2) }

// normalizeDx is d(q/|q|) for q moving at dq (mathx.QuatNormalizeDx in
// float64): (dq - n (n . dq)) / |q| with n = q/|q|.
func normalizeDx(q, dq mathx64.Quat) mathx64.Quat {
	l := math.Sqrt(q.Dot(q))
	if l == 0 {
		return mathx64.Quat{}
	}
	n := q.Scale(1 / l)
	return dq.Add(n.Scale(-n.Dot(dq))).Scale(1 / l)
}

// kf is a kineform in float64: position (m), rotation, per-axis scale and
// their velocities (m/s, rad/s world side, 1/s natural-log scale), as
// animsys.Kform.
type kf struct {
	pos, scl, vel, ang, svl mathx64.Vec3
	rot                     mathx64.Quat
}

func kfIdentity() kf { return kf{rot: mathx64.QuatIdent(), scl: mathx64.Vec3{1, 1, 1}} }

// mul composes w in the frame of v, as animsys.KformMul (kform_mul):
// position v.rot (w.pos * v.scl) + v.pos, rotation v.rot w.rot, scale
// w.scl * v.scl, and their exact time derivatives: the rotated velocity
// and expansion w.pos * v.scl * v.svl, the leverage v.ang x arm, the
// rotated angular velocity plus v.ang, the summed scalar velocities.
func (v kf) mul(w kf) kf {
	arm := v.rot.Rotate(w.pos.Mul(v.scl))
	vel := v.rot.Rotate(w.vel.Add(w.pos.Mul(v.svl)).Mul(v.scl))
	return kf{
		pos: arm.Add(v.pos),
		rot: v.rot.Mul(w.rot),
		scl: w.scl.Mul(v.scl),
		vel: vel.Add(v.vel).Add(v.ang.Cross(arm)),
		ang: v.rot.Rotate(w.ang).Add(v.ang),
		svl: w.svl.Add(v.svl),
	}
}

// div is w in the frame of v (kform_div), as animsys.KformDiv, the exact
// inverse of mul: v.div(v.mul(w)) == w.
func (v kf) div(w kf) kf {
	arm := w.pos.Sub(v.pos)
	inv := v.rot.Conj()
	over := mathx64.Vec3{1 / v.scl[0], 1 / v.scl[1], 1 / v.scl[2]}
	pos := inv.Rotate(arm).Mul(over)
	rel := w.vel.Sub(v.vel).Sub(v.ang.Cross(arm))
	return kf{
		pos: pos,
		rot: inv.Mul(w.rot),
		scl: w.scl.Mul(over),
		vel: inv.Rotate(rel).Mul(over).Sub(pos.Mul(v.svl)),
		ang: inv.Rotate(w.ang.Sub(v.ang)),
		svl: w.svl.Sub(v.svl),
	}
}

func (k kf) kform() animsys.Kform {
	return animsys.Kform{Pos: k.pos.F32(), Rot: k.rot.F32(), Scl: k.scl.F32(), Vel: k.vel.F32(), Ang: k.ang.F32(), Svl: k.svl.F32()}
}

// matrix is the column-major 4x4 matrix T R S of k's position, rotation
// and scale.
func (k kf) matrix() [16]float64 {
	var m [16]float64
	for c := 0; c < 3; c++ {
		var e mathx64.Vec3
		e[c] = k.scl[c]
		col := k.rot.Rotate(e)
		m[4*c], m[4*c+1], m[4*c+2] = col[0], col[1], col[2]
	}
	m[12], m[13], m[14], m[15] = k.pos[0], k.pos[1], k.pos[2], 1
	return m
}
