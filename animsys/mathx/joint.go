package mathx

import (
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// The forms of one joint, for FK, which walks the hierarchy a joint at a
// time (a joint needs its parent's result): a vector JVec and a
// quaternion JQuat of one joint, the quaternion product QuatMul4, the
// cross product Cross4 and the rotation of vectors by a quaternion
// (Rotor4). In the AVX2 build (joint_avx2.go) both types are four lanes
// of one SSE register across the joint's components, in the portable one
// (joint_portable.go) plain float32s; each spells the operations once,
// the same operations in the same order per component.

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
// room for n+1 elements, as the AVX2 build reads and writes a Vec3 as 16
// bytes.
func RoomVec3(s []mgl32.Vec3, n int) Room3 { return Room3{unsafe.Pointer(unsafe.SliceData(s[:n+1]))} }

// RoomQuat is s as a RoomQ for indices below n; it panics unless s has
// room for n elements.
func RoomQuat(s []mgl32.Quat, n int) RoomQ { return RoomQ{unsafe.Pointer(unsafe.SliceData(s[:n]))} }
