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
// below n, every parent before its joint; the lane ops: whole blocks of
// Lanes joints below n), whose accesses then check nothing again: Go
// cannot prove a joint's parent is in bounds, and a check on each of FK's
// 18 accesses a joint took as many instructions as its rotations; the
// lane ops' checks, about as many as their loads. A room reads and writes
// one joint (Load4, Store4), a block of Lanes joints as lanes (Load,
// Store; soa_avx2.go, soa_portable.go) or the joints' parents (Gather).

// Room3 is a channel of Vec3s with room for the blocks of n joints
// (RoomVec3).
type Room3 struct{ p unsafe.Pointer }

// RoomQ is a channel of Quats with room for the blocks of n joints
// (RoomQuat).
type RoomQ struct{ p unsafe.Pointer }

// Rooms are the six channels of a pose as rooms (positions, rotations,
// scales and their velocities), as a pose op's door check gives them.
// Joint and SetJoint read and write one joint's six at once (Load4,
// Store4 of each).
type Rooms struct {
	Pos, Scl, Vel, Ang, Svl Room3
	Rot                     RoomQ
}

// RoomVec3 is s as a Room3 for the joints below n; it panics unless s has
// room for PaddedLen(n) elements (NewPose's), as the lane ops read and
// write whole blocks and FK a Vec3 as 16 bytes.
func RoomVec3(s []mgl32.Vec3, n int) Room3 {
	return Room3{unsafe.Pointer(unsafe.SliceData(s[:PaddedLen(n)]))}
}

// RoomQuat is s as a RoomQ for the joints below n; it panics unless s has
// room for PaddedLen(n) elements.
func RoomQuat(s []mgl32.Quat, n int) RoomQ {
	return RoomQ{unsafe.Pointer(unsafe.SliceData(s[:PaddedLen(n)]))}
}
