package animsys

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// Look-at (propagating-velocities, "Procedural Animation").

// LookAtStatic turns joint of the local pose so that its forward axis fwd
// (in the joint's frame, e.g. (0,1,0)) points at target (world, m), given the
// global pose from FK of local (op_lookat_static). Velocities are untouched,
// so they no longer match the motion: use LookAt for that.
func LookAtStatic(local, global *Pose, joint int, target, fwd mgl32.Vec3) {
	need("LookAtStatic", "local", local, transforms, joint+1, "joint + 1")
	need("LookAtStatic", "global", global, transforms, joint+1, "joint + 1")
	// The target position in the joint's frame.
	tar := mathx.QuatInvMulVec3(global.Rot[joint], target.Sub(global.Pos[joint]))
	diff := mathx.QuatBetween(fwd, mathx.Vec3Normalize(tar))
	local.Rot[joint] = mathx.QuatMul(local.Rot[joint], diff)
}

// LookAt is LookAtStatic written with kineforms, so the joint's angular
// velocity (rad/s) accounts for the motion of the joint and of the target
// moving at targetVel (m/s) (op_lookat): the target relative to the joint
// is KformInvMul(joint, target), its normalised direction moves at
// normalize_dx, the rotation from fwd to it turns at the angular velocity
// of quat_between_dx, and KformMul composes that onto the local joint.
func LookAt(local, global *Pose, joint int, targetPos, targetVel, fwd mgl32.Vec3) {
	need("LookAt", "local", local, wholePose, joint+1, "joint + 1")
	need("LookAt", "global", global, wholePose, joint+1, "joint + 1")
	tar := KformInvMul(global.Kform(joint), KformFromPosVel(targetPos, targetVel))
	diff := KformRotAngBetween(KformFromPosVel(fwd, mgl32.Vec3{}), KformPosVelNormalize(tar))
	rot := KformMul(local.Kform(joint), diff)
	local.Rot[joint] = rot.Rot
	local.Ang[joint] = rot.Ang
}
