package verify

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// Synthetic fixtures: a chain skeleton and clips generated from a function
// of time, so each test states exactly the motion it needs.

// chainSkeleton is a root and a chain of joints-1 bones of 0.3 m along y,
// named j0, j1, ...
func chainSkeleton(joints int) animsys.Skeleton {
	s := animsys.Skeleton{}
	for j := 0; j < joints; j++ {
		s.Names = append(s.Names, fmt.Sprintf("j%d", j))
		s.Parents = append(s.Parents, j-1)
		off := mgl32.Vec3{0, 0.3, 0}
		if j == 0 {
			off = mgl32.Vec3{}
		}
		s.Offsets = append(s.Offsets, off)
	}
	return s
}

// synthClip samples pose(f, j, t) -> (local position, rotation) at every
// frame (t = f / fps) into a prepared clip.
func synthClip(name string, skel *animsys.Skeleton, frames int, fps float64,
	pose func(f, j int, t float64) (mgl32.Vec3, mgl32.Quat)) *animsys.Clip {
	c := animsys.NewClip(name, frames, skel.Len(), float32(1/fps))
	for f := 0; f < frames; f++ {
		for j := 0; j < skel.Len(); j++ {
			p, q := pose(f, j, float64(f)/fps)
			c.SetPos(f, j, p)
			c.Rot[c.At(f, j)] = q
		}
	}
	c.Prepare()
	return &c
}

// rot is the rotation by angle (rad) about axis.
func rot(axis mgl32.Vec3, angle float64) mgl32.Quat {
	return mathx.QuatFromScaledAngleAxis(axis.Normalize().Mul(float32(angle)))
}

// smoothMotion is a clean, lively pose: the root walks at speed (m/s) and
// sways, every joint swings about a slowly turning axis with amplitude amp
// (rad) at freq (Hz), phases differing per joint.
func smoothMotion(skel *animsys.Skeleton, speed, amp, freq float64) func(f, j int, t float64) (mgl32.Vec3, mgl32.Quat) {
	return func(_, j int, t float64) (mgl32.Vec3, mgl32.Quat) {
		ph := float64(j) * 0.7
		axis := mgl32.Vec3{float32(math.Cos(0.3*t + ph)), 1, float32(math.Sin(0.2*t - ph))}
		r := rot(axis, amp*math.Sin(2*math.Pi*freq*t+ph))
		if j == 0 {
			return mgl32.Vec3{float32(0.1 * math.Sin(3*t)), 1, float32(speed * t)}, r
		}
		return skel.Offsets[j], r
	}
}
