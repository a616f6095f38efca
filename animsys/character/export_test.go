package character

import "kinelab/animsys"

// RootPose is rootPose for the external tests (paths_test.go): the global
// pose of frame fr of clip Start with the root at the origin.
func (ch *Character) RootPose(fr int) animsys.Pose { return ch.rootPose(fr) }

// BoneLength is boneLength for the external tests: chain j's length (m)
// in pose.
func BoneLength(pose *animsys.Pose, j animsys.TwoBoneJoints) float32 { return boneLength(pose, j) }
