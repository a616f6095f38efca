package bvh

import "github.com/go-gl/mathgl/mgl32"

// FrameWith writes the local positions (metres) and rotations of frame fr
// of the file as ClipWith reads them with imp: lengths times imp.Scale,
// each root's position and rotation turned from imp.Up to +Y. It reads
// one frame without building the clip, so a long file can be converted a
// frame at a time (kinelab export streams so). fr counts from the file's
// first frame: adding imp.Skip is the caller's job. Rotations keep the
// sign their channels give; ClipWith then flips each quaternion, when
// needed, onto the hemisphere of the previous frame's (ContinueSigns).
// pos and rot must have one entry per joint.
func (f *File) FrameWith(imp Import, fr int, pos []mgl32.Vec3, rot []mgl32.Quat) {
	f.pose(pos, rot, fr, imp.Scale)
	if imp.Up == UpY {
		return
	}
	up := imp.Up.ToY()
	for j := range f.Joints {
		if f.Joints[j].Parent < 0 {
			pos[j] = up.Rotate(pos[j])
			rot[j] = up.Mul(rot[j]).Normalize()
		}
	}
}

// ContinueSigns negates each quaternion of rot that lies on the other
// hemisphere from the same joint's in prev (a negative dot product), so a
// joint's rotations change sign nowhere along a clip: the same rotations,
// as ClipWith stores them.
func ContinueSigns(rot, prev []mgl32.Quat) {
	for j, q := range rot {
		if p := prev[j]; q.W*p.W+q.V.Dot(p.V) < 0 {
			rot[j] = mgl32.Quat{W: -q.W, V: q.V.Mul(-1)}
		}
	}
}
