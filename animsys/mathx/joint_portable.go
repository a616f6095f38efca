//go:build !(goexperiment.simd && amd64)

package mathx

// The joint forms (joint.go) in the portable build: with one lane, a lane
// type already holds one joint by component, so JVec and JQuat are
// SoaVec3 and SoaQuat, and the forms are their primitives (soa.go).

// JVec is one joint's vector (see joint.go).
type JVec = SoaVec3

// JQuat is one joint's quaternion (see joint.go).
type JQuat = SoaQuat

// QuatMul4 is the quaternion product a b (quat_mul): SoaQuat.Mul.
func QuatMul4(a, b JQuat) JQuat { return a.Mul(b) }

// Cross4 is the cross product a x b: SoaVec3.Cross.
func Cross4(a, b JVec) JVec { return a.Cross(b) }

// Rotor4 is a unit quaternion ready to rotate vectors.
type Rotor4 struct{ q SoaQuat }

// RotorOf is q as a Rotor4.
func RotorOf(q JQuat) Rotor4 { return Rotor4{q} }

// Rotate is v rotated by r (quat_mul_vec3): SoaQuat.MulVec3.
func (r Rotor4) Rotate(v JVec) JVec { return r.q.MulVec3(v) }

// Load4 is element i, read as 12 bytes: Load. i must be below the
// room's n: it is not checked.
func (r Room3) Load4(i int) JVec { return r.Load(i) }

// Store4 writes v to element i as 12 bytes: Store (i as Load4).
func (r Room3) Store4(i int, v JVec) { r.Store(i, v) }

// Load4 is quaternion i: Load (i as Room3.Load4).
func (r RoomQ) Load4(i int) JQuat { return r.Load(i) }

// Store4 writes q to quaternion i: Store (i as Room3.Load4).
func (r RoomQ) Store4(i int, q JQuat) { r.Store(i, q) }

// Transform is joint i's position, rotation and scale, each as Load4
// reads it (i below the rooms' n: not checked).
func (r *Rooms) Transform(i int) (pos JVec, rot JQuat, scl JVec) {
	return r.Pos.Load4(i), r.Rot.Load4(i), r.Scl.Load4(i)
}

// Rates is joint i's velocities (linear, angular, scalar), as Transform.
func (r *Rooms) Rates(i int) (vel, ang, svl JVec) {
	return r.Vel.Load4(i), r.Ang.Load4(i), r.Svl.Load4(i)
}

// SetTransform writes joint i's position, rotation and scale, each as
// Store4 writes it (i as Transform).
func (r *Rooms) SetTransform(i int, pos JVec, rot JQuat, scl JVec) {
	r.Pos.Store4(i, pos)
	r.Rot.Store4(i, rot)
	r.Scl.Store4(i, scl)
}

// SetRates writes joint i's velocities, as SetTransform.
func (r *Rooms) SetRates(i int, vel, ang, svl JVec) {
	r.Vel.Store4(i, vel)
	r.Ang.Store4(i, ang)
	r.Svl.Store4(i, svl)
}
