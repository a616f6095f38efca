//go:build !(goexperiment.simd && amd64)

package mathx

import (
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// The joint forms (joint.go) in the portable build: plain float32s, each
// component computed with the AVX2 build's operations in its order
// (joint_avx2.go), products converted before they are summed (no fused
// multiply-add: see soa_portable.go).

// JVec is one joint's vector (see joint.go).
type JVec struct{ X, Y, Z float32 }

// JQuat is one joint's quaternion (see joint.go).
type JQuat struct{ W, X, Y, Z float32 }

// Add is v + w.
func (v JVec) Add(w JVec) JVec { return JVec{v.X + w.X, v.Y + w.Y, v.Z + w.Z} }

// Sub is v - w.
func (v JVec) Sub(w JVec) JVec { return JVec{v.X - w.X, v.Y - w.Y, v.Z - w.Z} }

// Mul is the component-wise product.
func (v JVec) Mul(w JVec) JVec {
	return JVec{float32(v.X * w.X), float32(v.Y * w.Y), float32(v.Z * w.Z)}
}

// Load4 is element i. i must be below the room's n: it is not checked.
func (r Room3) Load4(i int) JVec {
	v := (*mgl32.Vec3)(unsafe.Add(r.p, 12*i))
	return JVec{v[0], v[1], v[2]}
}

// Store4 writes v to element i. i must be below the room's n.
func (r Room3) Store4(i int, v JVec) {
	*(*mgl32.Vec3)(unsafe.Add(r.p, 12*i)) = mgl32.Vec3{v.X, v.Y, v.Z}
}

// Load4 is quaternion i. i must be below the room's n.
func (r RoomQ) Load4(i int) JQuat {
	q := (*mgl32.Quat)(unsafe.Add(r.p, 16*i))
	return JQuat{q.W, q.V[0], q.V[1], q.V[2]}
}

// Store4 writes q to quaternion i. i must be below the room's n.
func (r RoomQ) Store4(i int, q JQuat) {
	*(*mgl32.Quat)(unsafe.Add(r.p, 16*i)) = mgl32.Quat{W: q.W, V: mgl32.Vec3{q.X, q.Y, q.Z}}
}

// Joint is joint i's six channels, each as Load4 reads it (i below the
// rooms' n: not checked).
func (r *Rooms) Joint(i int) (pos JVec, rot JQuat, scl, vel, ang, svl JVec) {
	return r.Pos.Load4(i), r.Rot.Load4(i), r.Scl.Load4(i), r.Vel.Load4(i), r.Ang.Load4(i), r.Svl.Load4(i)
}

// SetJoint writes joint i's six channels, each as Store4 writes it (i as
// Joint).
func (r *Rooms) SetJoint(i int, pos JVec, rot JQuat, scl, vel, ang, svl JVec) {
	r.Pos.Store4(i, pos)
	r.Rot.Store4(i, rot)
	r.Scl.Store4(i, scl)
	r.Vel.Store4(i, vel)
	r.Ang.Store4(i, ang)
	r.Svl.Store4(i, svl)
}

// QuatMul4 is the quaternion product a b (quat_mul), each component
// summed in joint_avx2.go's lane order.
func QuatMul4(a, b JQuat) JQuat {
	return JQuat{
		float32(a.W*b.W) - float32(a.X*b.X) - float32(a.Y*b.Y) - float32(a.Z*b.Z),
		float32(a.W*b.X) + float32(a.X*b.W) + float32(a.Y*b.Z) - float32(a.Z*b.Y),
		float32(a.W*b.Y) - float32(a.X*b.Z) + float32(a.Y*b.W) + float32(a.Z*b.X),
		float32(a.W*b.Z) + float32(a.X*b.Y) - float32(a.Y*b.X) + float32(a.Z*b.W),
	}
}

// Cross4 is the cross product a x b.
func Cross4(a, b JVec) JVec {
	return JVec{float32(a.Y*b.Z) - float32(a.Z*b.Y), float32(a.Z*b.X) - float32(a.X*b.Z), float32(a.X*b.Y) - float32(a.Y*b.X)}
}

// Rotor4 is a unit quaternion ready to rotate vectors (quat_mul_vec3).
type Rotor4 struct {
	U JVec
	W float32
}

// RotorOf is q as a Rotor4.
func RotorOf(q JQuat) Rotor4 { return Rotor4{JVec{q.X, q.Y, q.Z}, q.W} }

// Rotate is v rotated by r (quat_mul_vec3): v + w t + u x t with t = 2 u
// x v.
func (r Rotor4) Rotate(v JVec) JVec {
	u := r.U
	tx, ty, tz := float32(u.Y*v.Z)-float32(u.Z*v.Y), float32(u.Z*v.X)-float32(u.X*v.Z), float32(u.X*v.Y)-float32(u.Y*v.X)
	tx, ty, tz = tx+tx, ty+ty, tz+tz
	return JVec{
		v.X + float32(r.W*tx) + (float32(u.Y*tz) - float32(u.Z*ty)),
		v.Y + float32(r.W*ty) + (float32(u.Z*tx) - float32(u.X*tz)),
		v.Z + float32(r.W*tz) + (float32(u.X*ty) - float32(u.Y*tx)),
	}
}
