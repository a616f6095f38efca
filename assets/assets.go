// Package assets builds kinelab's embedded default character and its clips
// with the project's own code: deterministic, procedural, made at start-up
// in about a millisecond, so the app starts with no files to download.
package assets

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// Joint indices of the default humanoid (docs/bench-spec.md).
const (
	Entity = iota
	Hips
	LeftUpLeg
	LeftLeg
	LeftFoot
	LeftToe
	RightUpLeg
	RightLeg
	RightFoot
	RightToe
	Spine
	Spine1
	Spine2
	Neck
	Head
	LeftShoulder
	LeftArm
	LeftForeArm
	LeftHand
	RightShoulder
	RightArm
	RightForeArm
	RightHand
	NumJoints
)

// Humanoid is the default 23-joint character, y up, facing +z, in metres.
func Humanoid() animsys.Skeleton { return animsys.BenchSkeleton() }

// Clips returns the default character's clips, in menu order: idle, walk,
// run, lean left, lean right. Each loops seamlessly (its last frame equals
// its first) and carries its root motion on the Entity joint.
func Clips() []animsys.Clip {
	return []animsys.Clip{
		Clip("idle", Idle),
		Clip("walk", Walk),
		Clip("run", Run),
		Clip("lean left", LeanLeft),
		Clip("lean right", LeanRight),
	}
}

// Additives returns the additive clips: poses relative to the rest pose
// (zero position offset, rotation deltas, unit scale) for the additive
// operations of the propagating-velocities article.
func Additives() []animsys.Clip {
	return []animsys.Clip{Wave()}
}

func rx(a float32) mgl32.Quat { return mathx.QuatFromScaledAngleAxis(mgl32.Vec3{a, 0, 0}) }
func ry(a float32) mgl32.Quat { return mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, a, 0}) }
func rz(a float32) mgl32.Quat { return mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, 0, a}) }
