package mathx

import (
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// The forms of one joint, across its components (Vec4): the quaternion
// product and the rotation of vectors by a quaternion, for FK, which
// walks the hierarchy a joint at a time. Written once on Vec4's methods
// and lane moves, for both builds.

// Rooms: a pose channel held as the address of its first element, for a
// loop that has checked its indices once at its door (FK: every joint
// below n, every parent before its joint), whose accesses then check
// nothing again: Go cannot prove a joint's parent is in bounds, and a
// check on each of FK's 18 accesses a joint took as many instructions as
// its rotations.

// Room3 is a channel of Vec3s with room for n+1 elements (RoomVec3).
type Room3 struct{ p unsafe.Pointer }

// RoomQ is a channel of Quats with room for n elements (RoomQuat).
type RoomQ struct{ p unsafe.Pointer }

// RoomVec3 is s as a Room3 for indices below n; it panics unless s has
// room for n+1 elements, as a Vec3 is read and written as 16 bytes.
func RoomVec3(s []mgl32.Vec3, n int) Room3 { return Room3{unsafe.Pointer(unsafe.SliceData(s[:n+1]))} }

// RoomQuat is s as a RoomQ for indices below n; it panics unless s has
// room for n elements.
func RoomQuat(s []mgl32.Quat, n int) RoomQ { return RoomQ{unsafe.Pointer(unsafe.SliceData(s[:n]))} }

// Load4 is element i in lanes x, y, z, read as 16 bytes (the fourth lane
// is element i+1's X). i must be below the room's n: it is not checked.
func (r Room3) Load4(i int) Vec4 { return loadVec4((*[4]float32)(unsafe.Add(r.p, 12*i))) }

// Store4 writes lanes x, y, z of v to element i as 16 bytes: the fourth
// lane lands on element i+1's X, which a caller writing joints in order
// writes next. i must be below the room's n: it is not checked.
func (r Room3) Store4(i int, v Vec4) { v.Store((*[4]float32)(unsafe.Add(r.p, 12*i))) }

// Load4 is quaternion i as (w, x, y, z). i must be below the room's n.
func (r RoomQ) Load4(i int) Vec4 { return loadVec4((*[4]float32)(unsafe.Add(r.p, 16*i))) }

// Store4 writes q, (w, x, y, z), to quaternion i. i must be below the
// room's n.
func (r RoomQ) Store4(i int, q Vec4) { q.Store((*[4]float32)(unsafe.Add(r.p, 16*i))) }

// Sign patterns of the quaternion product's terms (see QuatMul4).
var (
	sign1032 = [4]float32{-1, 1, -1, 1}
	sign2301 = [4]float32{-1, 1, 1, -1}
	sign3210 = [4]float32{-1, -1, 1, 1}
)

// QuatMul4 is the quaternion product a b (quat_mul) of quaternions (w, x,
// y, z): a.w b + a.x (-b.x, b.w, -b.z, b.y) + a.y (-b.y, b.z, b.w, -b.x)
// + a.z (-b.z, -b.y, b.x, b.w), summed in that order (a lane's sign flips
// are exact: multiplications by -1).
func QuatMul4(a, b Vec4) Vec4 {
	return wwww(a).Mul(b).
		Add(xxxx(a).Mul(q1032(b).Mul(loadVec4(&sign1032)))).
		Add(yyyy(a).Mul(q2301(b).Mul(loadVec4(&sign2301)))).
		Add(zzzz(a).Mul(q3210(b).Mul(loadVec4(&sign3210))))
}

// Cross4 is the cross product a x b of vectors in lanes x, y, z.
func Cross4(a, b Vec4) Vec4 { return yzx(a).Mul(zxy(b)).Sub(zxy(a).Mul(yzx(b))) }

// Rotor4 is a unit quaternion ready to rotate vectors (quat_mul_vec3):
// its vector part U in lanes x, y, z and its W in every lane.
type Rotor4 struct{ U, W Vec4 }

// RotorOf is q, (w, x, y, z), as a Rotor4.
func RotorOf(q Vec4) Rotor4 { return Rotor4{xyzw(q), wwww(q)} }

// Rotate is v rotated by r (quat_mul_vec3): v + w t + u x t with t = 2 u
// x v.
func (r Rotor4) Rotate(v Vec4) Vec4 {
	t := Cross4(r.U, v)
	t = t.Add(t)
	return v.Add(r.W.Mul(t)).Add(Cross4(r.U, t))
}
