package bvh

import (
	"math"
	"path/filepath"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx/mathx64"
)

// Skeleton returns the file's hierarchy as an animsys.Skeleton, one joint
// per File.Joints entry (End Sites included), offsets multiplied by scale
// (metres per file unit, Units.Scale).
func (f *File) Skeleton(scale float32) animsys.Skeleton {
	n := len(f.Joints)
	sk := animsys.Skeleton{Names: make([]string, n), Parents: make([]int, n), Offsets: make([]mgl32.Vec3, n)}
	for i := range f.Joints {
		j := &f.Joints[i]
		sk.Names[i], sk.Parents[i], sk.Offsets[i] = j.Name, j.Parent, j.Offset.Mul(scale)
	}
	return sk
}

// Clip converts the motion to an animsys.Clip over the joints of Skeleton:
// local positions in metres (lengths times scale), rotations as unit
// quaternions, scales 1. It is ClipWith(Import{Scale: scale}, name).
//
// A joint's rotation is the product of its rotation channels in the order
// the file lists them: "Zrotation Xrotation Yrotation" is Rz*Rx*Ry, each a
// rotation about the parent frame's axis by the value in degrees (what BVH
// calls intrinsic order). Each quaternion takes the sign nearer to the
// previous frame's, so a joint's rotations are sign-continuous. A joint's
// position is its OFFSET, with each position channel replacing its
// component (so a root's channels give its absolute position, root motion
// included). Joints without channels, End Sites among them, keep their
// offset and the identity rotation. An empty name becomes the file's base
// name without extension.
func (f *File) Clip(scale float32, name string) animsys.Clip {
	return f.ClipWith(Import{Scale: scale}, name)
}

// Import says how to read a file's motion: its units, the axis its figure
// stands along, and how many leading frames to leave out (see Detect).
type Import struct {
	Scale float32 // metres per file unit (Units.Scale)
	Up    Up      // turned to +Y
	Skip  int     // leading frames dropped (at most all but one)
}

// SkeletonWith is Skeleton(imp.Scale) with the roots' offsets turned from
// imp.Up to +Y.
func (f *File) SkeletonWith(imp Import) animsys.Skeleton {
	sk := f.Skeleton(imp.Scale)
	q := imp.Up.ToY()
	for j, p := range sk.Parents {
		if p < 0 {
			sk.Offsets[j] = q.Rotate(sk.Offsets[j])
		}
	}
	return sk
}

// ClipWith is Clip with the figure stood up on +Y (each root's position
// and rotation turned from imp.Up to +Y, so everything below follows) and
// the first imp.Skip frames left out.
func (f *File) ClipWith(imp Import, name string) animsys.Clip {
	c := f.ClipUnprepared(imp, name)
	c.Prepare()
	return c
}

// ClipUnprepared is ClipWith without the sampling cache
// (animsys.Clip.Prepare), for a caller that makes another clip of it (cut
// to fewer joints, re-rooted) and prepares only that one, once.
func (f *File) ClipUnprepared(imp Import, name string) animsys.Clip {
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(f.Name), filepath.Ext(f.Name))
	}
	skip := min(max(imp.Skip, 0), max(f.Frames-1, 0))
	frames := f.Frames - skip
	n := len(f.Joints)
	c := animsys.NewClip(name, frames, n, f.FrameTime)
	pos := make([]mgl32.Vec3, n)
	for fr := 0; fr < frames; fr++ {
		rot := c.Rot[fr*n : (fr+1)*n]
		f.FrameWith(imp, fr+skip, pos, rot)
		// Frame 0 sets every joint's position in every frame: only the
		// joints that move from it (the roots) get a track.
		for j, p := range pos {
			if fr == 0 {
				c.SetPosAll(j, p)
			} else {
				c.SetPos(fr, j, p)
			}
		}
		if fr > 0 {
			ContinueSigns(rot, c.Rot[(fr-1)*n:fr*n])
		}
	}
	return c
}

// pose writes the local positions (scaled) and rotations of frame fr.
func (f *File) pose(pos []mgl32.Vec3, rot []mgl32.Quat, fr int, scale float32) {
	row := f.Row(fr)
	for i := range f.Joints {
		j := &f.Joints[i]
		p := j.Offset
		q := mathx64.QuatIdent()
		for k, ch := range j.Channels {
			v := row[j.First+k]
			if !ch.IsRotation() {
				p[ch.Axis()] = v
				continue
			}
			q = q.Mul(mathx64.QuatAxis(ch.Axis(), float64(v)*math.Pi/180))
		}
		pos[i] = p.Mul(scale)
		rot[i] = q.UnitF32()
	}
}

// extent is the largest side of the axis-aligned box around ps.
func extent(ps []mgl32.Vec3) float32 {
	if len(ps) == 0 {
		return 0
	}
	lo, hi := ps[0], ps[0]
	for _, p := range ps[1:] {
		for k := range 3 {
			lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
		}
	}
	return max(hi[0]-lo[0], hi[1]-lo[1], hi[2]-lo[2])
}
