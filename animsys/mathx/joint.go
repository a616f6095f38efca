package mathx

import (
	"fmt"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// The forms of one joint, for FK, which walks the hierarchy a joint at a
// time (a joint needs its parent's result): a vector JVec and a
// quaternion JQuat of one joint, the quaternion product QuatMul4, the
// cross product Cross4 and the rotation of vectors by a quaternion
// (Rotor4), the same operations in the same order per component as the
// lane types' (see the package doc for the builds).

// Rooms: a pose channel held as the address of its first element, for a
// loop that has checked its indices once at its door (FK: every joint
// below n, every parent before its joint; the lane ops: whole blocks of
// Lanes joints below n), whose accesses then check nothing again (the
// package doc's rules): Go cannot prove a joint's parent is in bounds,
// and a check on each of FK's 18 accesses a joint took as many
// instructions as its rotations; the lane ops' checks, about as many as
// their loads. A room reads and writes a block of Lanes joints as lanes
// (Load, Store, LoadFlat, StoreFlat), the joints' parents (Gather) or one
// joint (Load4, Store4).

// Room3 is a channel of Vec3s with room for the blocks of n joints
// (RoomVec3).
type Room3 struct{ p unsafe.Pointer }

// RoomQ is a channel of Quats with room for the blocks of n joints
// (RoomQuat).
type RoomQ struct{ p unsafe.Pointer }

// Rooms are the six channels of a pose as rooms (positions, rotations,
// scales and their velocities), as a pose op's door check gives them.
// Transform and Rates read a joint's channels three at a time (Load4 of
// each), SetTransform and SetRates write them (Store4).
type Rooms struct {
	Pos, Scl, Vel, Ang, Svl Room3
	Rot                     RoomQ
}

// RoomVec3 is s as a Room3 for its n joints; it panics unless s holds n
// elements in room for exactly PaddedLen(n), NewPose's (see the package
// doc): the lane ops read and write whole blocks, and FK a Vec3 as 16
// bytes, on memory that is the pose's own.
func RoomVec3(s []mgl32.Vec3, n int) Room3 {
	if len(s) != n || cap(s) != PaddedLen(n) {
		panic(badRoom{len(s), cap(s), n})
	}
	return Room3{unsafe.Pointer(unsafe.SliceData(s))}
}

// RoomQuat is s as a RoomQ for its n joints, as RoomVec3.
func RoomQuat(s []mgl32.Quat, n int) RoomQ {
	if len(s) != n || cap(s) != PaddedLen(n) {
		panic(badRoom{len(s), cap(s), n})
	}
	return RoomQ{unsafe.Pointer(unsafe.SliceData(s))}
}

// badRoom is the panic of a room made over memory that is not NewPose's.
type badRoom struct{ len, cap, n int }

func (e badRoom) Error() string {
	return fmt.Sprintf("mathx: a room for %d joints needs %d elements in room for %d (NewPose's), not %d in %d",
		e.n, e.n, PaddedLen(e.n), e.len, e.cap)
}
