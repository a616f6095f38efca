// Package animtest holds what the tests of animsys and of the app share:
// synthetic skeletons and clips made from a function of time, the default
// character's clips written as BVH files, and (on Unix) a file size limit
// under which writes fail as on a full disk. Like net/http/httptest, it is
// for tests only.
package animtest

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/mathx"
	"kinelab/assets"
	"kinelab/internal/fixture"
)

// ChainSkeleton is a root and a chain of joints-1 bones of 0.3 m along y,
// named j0, j1, ...
func ChainSkeleton(joints int) animsys.Skeleton {
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

// Pose gives joint j's local position (m) and rotation in frame f, at time
// t (s).
type Pose func(f, j int, t float64) (mgl32.Vec3, mgl32.Quat)

// SynthClip samples pose at every frame (t = f / fps) into a prepared clip
// of skel, so that a test states exactly the motion it needs.
func SynthClip(name string, skel *animsys.Skeleton, frames int, fps float64, pose Pose) *animsys.Clip {
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

// Rot is the rotation by angle (rad) about axis.
func Rot(axis mgl32.Vec3, angle float64) mgl32.Quat {
	return mathx.QuatFromScaledAngleAxis(axis.Normalize().Mul(float32(angle)))
}

// SmoothMotion is a clean, lively pose: the root walks at speed (m/s) and
// sways, every joint swings about a slowly turning axis with amplitude amp
// (rad) at freq (Hz), phases differing per joint.
func SmoothMotion(skel *animsys.Skeleton, speed, amp, freq float64) Pose {
	return func(_, j int, t float64) (mgl32.Vec3, mgl32.Quat) {
		ph := float64(j) * 0.7
		axis := mgl32.Vec3{float32(math.Cos(0.3*t + ph)), 1, float32(math.Sin(0.2*t - ph))}
		r := Rot(axis, amp*math.Sin(2*math.Pi*freq*t+ph))
		if j == 0 {
			return mgl32.Vec3{float32(0.1 * math.Sin(3*t)), 1, float32(speed * t)}, r
		}
		return skel.Offsets[j], r
	}
}

// WriteDefaultBVH exports the default character's clip (e.g. "walk") to
// dir in centimetres, as most mocap, and returns its path.
func WriteDefaultBVH(t testing.TB, dir, clip string) string {
	t.Helper()
	sk := assets.Humanoid()
	for _, c := range assets.Clips() {
		if c.Name == clip {
			path := filepath.Join(dir, clip+".bvh")
			if err := bvh.WriteFile(path, &sk, &c, bvh.Centimetres.Scale()); err != nil {
				t.Fatal(err)
			}
			return path
		}
	}
	t.Fatalf("no embedded clip %q", clip)
	return ""
}

// WriteFixture writes a synthetic convention's figure (package fixture) to
// dir and returns its path.
func WriteFixture(t testing.TB, dir string, s fixture.Spec) string {
	t.Helper()
	path, err := fixture.WriteFile(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	return path
}
