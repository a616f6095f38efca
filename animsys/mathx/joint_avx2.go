//go:build goexperiment.simd && amd64

package mathx

import (
	"simd/archsimd"
	"unsafe"
)

// The joint forms (joint.go) in the AVX2 build: a JVec is a vector in
// lanes x, y, z of an archsimd.Float32x4 (the fourth lane of no meaning),
// a JQuat a quaternion as mgl32.Quat holds it, (w, x, y, z); both have
// Float32x4's methods (Add, Sub, Mul). A lane move is one shuffle.

// JVec is one joint's vector (see joint.go).
type JVec = archsimd.Float32x4

// JQuat is one joint's quaternion (see joint.go).
type JQuat = archsimd.Float32x4

// Load4 is element i, read as 16 bytes (the fourth lane is element i+1's
// X). i must be below the room's n: it is not checked.
func (r Room3) Load4(i int) JVec {
	return archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(r.p, 12*i)))
}

// Store4 writes v to element i as 16 bytes: the fourth lane lands on
// element i+1's X, which a caller writing joints in order writes next. i
// must be below the room's n: it is not checked.
func (r Room3) Store4(i int, v JVec) { v.Store((*[4]float32)(unsafe.Add(r.p, 12*i))) }

// Load4 is quaternion i. i must be below the room's n.
func (r RoomQ) Load4(i int) JQuat {
	return archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(r.p, 16*i)))
}

// Store4 writes q to quaternion i. i must be below the room's n.
func (r RoomQ) Store4(i int, q JQuat) { q.Store((*[4]float32)(unsafe.Add(r.p, 16*i))) }

// Transform is joint i's position, rotation and scale, each as Load4
// reads it (i below the rooms' n: not checked). It calls the loads
// itself: each inlined call of Load4 would leave an executed NOP (its
// inlining mark) in FK's loop.
func (r *Rooms) Transform(i int) (pos JVec, rot JQuat, scl JVec) {
	return archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(r.Pos.p, 12*i))),
		archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(r.Rot.p, 16*i))),
		archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(r.Scl.p, 12*i)))
}

// Rates is joint i's velocities (linear, angular, scalar), as Transform.
func (r *Rooms) Rates(i int) (vel, ang, svl JVec) {
	return archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(r.Vel.p, 12*i))),
		archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(r.Ang.p, 12*i))),
		archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(r.Svl.p, 12*i)))
}

// SetTransform writes joint i's position, rotation and scale, each as
// Store4 writes it (i as Transform).
func (r *Rooms) SetTransform(i int, pos JVec, rot JQuat, scl JVec) {
	pos.Store((*[4]float32)(unsafe.Add(r.Pos.p, 12*i)))
	rot.Store((*[4]float32)(unsafe.Add(r.Rot.p, 16*i)))
	scl.Store((*[4]float32)(unsafe.Add(r.Scl.p, 12*i)))
}

// SetRates writes joint i's velocities, as SetTransform.
func (r *Rooms) SetRates(i int, vel, ang, svl JVec) {
	vel.Store((*[4]float32)(unsafe.Add(r.Vel.p, 12*i)))
	ang.Store((*[4]float32)(unsafe.Add(r.Ang.p, 12*i)))
	svl.Store((*[4]float32)(unsafe.Add(r.Svl.p, 12*i)))
}

// signW is -1 in the w lane: the products that w subtracts (QuatMul4).
var signW = [4]float32{-1, 1, 1, 1}

// QuatMul4 is the quaternion product a b (quat_mul), summed in
// SoaQuat.Mul's order, four lanes at a time: a.w b + (a.x, a.x, a.y, a.z)
// (-b.x, b.w, b.w, b.w) + (a.y, a.y, a.z, a.x) (-b.y, b.z, b.x, b.y) -
// (a.z, a.z, a.x, a.y) (b.z, b.y, b.z, b.x) (the sign a product with -1,
// exact).
func QuatMul4(a, b JQuat) JQuat {
	s := archsimd.LoadFloat32x4(&signW)
	return a.SelectFromPair(0, 0, 0, 0, a).Mul(b).
		Add(a.SelectFromPair(1, 1, 2, 3, a).Mul(b.SelectFromPair(1, 0, 0, 0, b).Mul(s))).
		Add(a.SelectFromPair(2, 2, 3, 1, a).Mul(b.SelectFromPair(2, 3, 1, 2, b).Mul(s))).
		Sub(a.SelectFromPair(3, 3, 1, 2, a).Mul(b.SelectFromPair(3, 2, 3, 1, b)))
}

// Cross4 is the cross product a x b.
func Cross4(a, b JVec) JVec {
	return a.SelectFromPair(1, 2, 0, 3, a).Mul(b.SelectFromPair(2, 0, 1, 3, b)).Sub(a.SelectFromPair(2, 0, 1, 3, a).Mul(b.SelectFromPair(1, 2, 0, 3, b)))
}

// Rotor4 is a unit quaternion ready to rotate vectors (quat_mul_vec3):
// its vector part u as (y, z, x) and as (z, x, y), the two lane orders of
// a cross product with u, and its w in every lane.
type Rotor4 struct{ yzx, zxy, w archsimd.Float32x4 }

// RotorOf is q as a Rotor4.
func RotorOf(q JQuat) Rotor4 {
	return Rotor4{q.SelectFromPair(2, 3, 1, 0, q), q.SelectFromPair(3, 1, 2, 0, q), q.SelectFromPair(0, 0, 0, 0, q)}
}

// Rotate is v rotated by r (quat_mul_vec3): v + w t + u x t with t = 2 u
// x v, each cross product written out (Cross4's products) so that FK's
// loop keeps no inlining mark of its own for them.
func (r Rotor4) Rotate(v JVec) JVec {
	t := r.yzx.Mul(v.SelectFromPair(2, 0, 1, 3, v)).Sub(r.zxy.Mul(v.SelectFromPair(1, 2, 0, 3, v)))
	t = t.Add(t)
	return v.Add(r.w.Mul(t)).Add(r.yzx.Mul(t.SelectFromPair(2, 0, 1, 3, t)).Sub(r.zxy.Mul(t.SelectFromPair(1, 2, 0, 3, t))))
}
