package render

import (
	"image/color"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"
)

// Skeleton draws each joint of a global pose as a sphere and each bone — a
// link between two body joints — as a tapered cylinder. pos holds world
// positions (m), parents the hierarchy (-1 for roots), ground the joints
// that are no part of the body (humanoid.Figure.Ground: a ground-level
// root carrying root motion, a file's static root metres from the hips);
// nil means the roots. No bone links a ground joint; one below the
// skeleton's root is drawn as a ground marker (Root draws the root's).
func Skeleton(pos []mgl32.Vec3, parents []int, ground []bool, bone, joint color.RGBA, radius float32) {
	off := groundOf(parents, ground)
	for i, p := range parents {
		if p < 0 || off(i) || off(p) {
			continue
		}
		rl.DrawCylinderEx(V3(pos[p]), V3(pos[i]), radius, radius*0.6, 8, bone)
	}
	for i, p := range parents {
		switch {
		case p < 0:
		case off(i):
			rl.DrawCircle3D(V3(pos[i]), 0.1*worldScale, rl.Vector3{X: 1}, 90, DimText)
		default:
			rl.DrawSphereEx(V3(pos[i]), radius*1.25, 6, 8, joint)
		}
	}
}

// SkeletonLines draws each bone of a global pose as a line, as Skeleton
// does (ground as there): the cheap skeleton, for many characters at once.
func SkeletonLines(pos []mgl32.Vec3, parents []int, ground []bool, col color.RGBA) {
	off := groundOf(parents, ground)
	for i, p := range parents {
		if p < 0 || off(i) || off(p) {
			continue
		}
		rl.DrawLine3D(V3(pos[p]), V3(pos[i]), col)
	}
}

// groundOf tells the ground joints: ground's, or the roots when nil.
func groundOf(parents []int, ground []bool) func(j int) bool {
	if ground == nil {
		return func(j int) bool { return parents[j] < 0 }
	}
	return func(j int) bool { return j < len(ground) && ground[j] }
}

// Root draws the ground-projected root (entity) as a flat marker with a
// short arrow along its forward direction (fwd unit; 0.15 m and 0.3 m
// times WorldScale).
func Root(pos mgl32.Vec3, fwd mgl32.Vec3, col color.RGBA) {
	p := V3(pos)
	rl.DrawCircle3D(p, 0.15*worldScale, rl.Vector3{X: 1}, 90, col)
	rl.DrawLine3D(p, V3(pos.Add(fwd.Mul(0.3*worldScale))), col)
}
