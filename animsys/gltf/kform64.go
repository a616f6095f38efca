package gltf

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

// Sampling works in float64 and rounds once into the float32 pose: the
// Hermite and slerp formulas and the composition of folded ancestor
// transforms then add no rounding of their own to what the file holds.

type vec [3]float64

func (a vec) add(b vec) vec       { return vec{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a vec) sub(b vec) vec       { return vec{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a vec) mul(b vec) vec       { return vec{a[0] * b[0], a[1] * b[1], a[2] * b[2]} }
func (a vec) scale(s float64) vec { return vec{a[0] * s, a[1] * s, a[2] * s} }
func (a vec) dot(b vec) float64   { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a vec) norm() float64       { return math.Sqrt(a.dot(a)) }
func (a vec) cross(b vec) vec {
	return vec{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func (a vec) f32() mgl32.Vec3 { return mgl32.Vec3{float32(a[0]), float32(a[1]), float32(a[2])} }

// quat is a quaternion w + xi + yj + zk.
type quat struct{ w, x, y, z float64 }

func qid() quat           { return quat{w: 1} }
func (q quat) v() vec     { return vec{q.x, q.y, q.z} }
func (q quat) conj() quat { return quat{q.w, -q.x, -q.y, -q.z} }
func (q quat) dot(p quat) float64 {
	return q.w*p.w + q.x*p.x + q.y*p.y + q.z*p.z
}
func (q quat) scale(s float64) quat { return quat{q.w * s, q.x * s, q.y * s, q.z * s} }
func (q quat) add(p quat) quat      { return quat{q.w + p.w, q.x + p.x, q.y + p.y, q.z + p.z} }
func (q quat) mul(p quat) quat {
	return quat{
		q.w*p.w - q.x*p.x - q.y*p.y - q.z*p.z,
		q.w*p.x + q.x*p.w + q.y*p.z - q.z*p.y,
		q.w*p.y - q.x*p.z + q.y*p.w + q.z*p.x,
		q.w*p.z + q.x*p.y - q.y*p.x + q.z*p.w,
	}
}

// rotate is q v q^-1 for a unit q.
func (q quat) rotate(v vec) vec {
	u := q.v()
	t := u.cross(v).scale(2)
	return v.add(t.scale(q.w)).add(u.cross(t))
}

func (q quat) normalize() quat {
	l := math.Sqrt(q.dot(q))
	if l == 0 || math.IsNaN(l) || math.IsInf(l, 0) {
		return qid()
	}
	return q.scale(1 / l)
}

func (q quat) f32() mgl32.Quat {
	return mgl32.Quat{W: float32(q.w), V: mgl32.Vec3{float32(q.x), float32(q.y), float32(q.z)}}
}

// qexp is exp of the pure quaternion (0, v): the rotation by 2|v| about v.
func qexp(v vec) quat {
	a := v.norm()
	if a < 1e-12 {
		return quat{1, v[0], v[1], v[2]}.normalize()
	}
	s := math.Sin(a) / a
	return quat{math.Cos(a), v[0] * s, v[1] * s, v[2] * s}
}

// qlog is the vector part of log q for a unit q: half the scaled
// angle-axis.
func qlog(q quat) vec {
	l := q.v().norm()
	if l < 1e-12 {
		return q.v()
	}
	return q.v().scale(math.Atan2(l, q.w) / l)
}

// angVel is the angular velocity (rad/s, world side: the convention of
// mathx.QuatDeltaToAngularVelocity and every animsys pose) of a unit
// quaternion q moving at dq per second: omega = 2 (dq q^-1), vector part.
func angVel(q, dq quat) vec { return dq.mul(q.conj()).v().scale(2) }

// normalizeDx is d(q/|q|) for q moving at dq (mathx.QuatNormalizeDx in
// float64): (dq - n (n . dq)) / |q| with n = q/|q|.
func normalizeDx(q, dq quat) quat {
	l := math.Sqrt(q.dot(q))
	if l == 0 {
		return quat{}
	}
	n := q.scale(1 / l)
	return dq.add(n.scale(-n.dot(dq))).scale(1 / l)
}

// kf is a kineform in float64: position (m), rotation, per-axis scale and
// their velocities (m/s, rad/s world side, 1/s natural-log scale), as
// animsys.Kform.
type kf struct {
	pos, scl, vel, ang, svl vec
	rot                     quat
}

func kfIdentity() kf { return kf{rot: qid(), scl: vec{1, 1, 1}} }

// mul composes w in the frame of v, as animsys.KformMul (kform_mul):
// position v.rot (w.pos * v.scl) + v.pos, rotation v.rot w.rot, scale
// w.scl * v.scl, and their exact time derivatives: the rotated velocity
// and expansion w.pos * v.scl * v.svl, the leverage v.ang x arm, the
// rotated angular velocity plus v.ang, the summed scalar velocities.
func (v kf) mul(w kf) kf {
	arm := v.rot.rotate(w.pos.mul(v.scl))
	vel := v.rot.rotate(w.vel.add(w.pos.mul(v.svl)).mul(v.scl))
	return kf{
		pos: arm.add(v.pos),
		rot: v.rot.mul(w.rot),
		scl: w.scl.mul(v.scl),
		vel: vel.add(v.vel).add(v.ang.cross(arm)),
		ang: v.rot.rotate(w.ang).add(v.ang),
		svl: w.svl.add(v.svl),
	}
}

func (k kf) kform() animsys.Kform {
	return animsys.Kform{Pos: k.pos.f32(), Rot: k.rot.f32(), Scl: k.scl.f32(), Vel: k.vel.f32(), Ang: k.ang.f32(), Svl: k.svl.f32()}
}

// matrix is the column-major 4x4 matrix T R S of k's position, rotation
// and scale.
func (k kf) matrix() [16]float64 {
	var m [16]float64
	for c := 0; c < 3; c++ {
		var e vec
		e[c] = k.scl[c]
		col := k.rot.rotate(e)
		m[4*c], m[4*c+1], m[4*c+2] = col[0], col[1], col[2]
	}
	m[12], m[13], m[14], m[15] = k.pos[0], k.pos[1], k.pos[2], 1
	return m
}
