package render

import (
	"image/color"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"
)

// Skeleton draws each joint of a global pose as a sphere and each
// parent-child link as a tapered cylinder (its "bone"). pos holds world
// positions (m), parents the hierarchy (-1 for roots). Links from a root
// are skipped: the root is the ground-level entity, not a bone.
func Skeleton(pos []mgl32.Vec3, parents []int, bone, joint color.RGBA, radius float32) {
	for i, p := range parents {
		if p < 0 || parents[p] < 0 {
			continue
		}
		rl.DrawCylinderEx(V3(pos[p]), V3(pos[i]), radius, radius*0.6, 8, bone)
	}
	for i, p := range parents {
		if p < 0 {
			continue
		}
		rl.DrawSphereEx(V3(pos[i]), radius*1.25, 6, 8, joint)
	}
}

// SkeletonLines draws each parent-child link of a global pose as a line,
// skipping links from a root as Skeleton does: the cheap skeleton, for
// many characters at once.
func SkeletonLines(pos []mgl32.Vec3, parents []int, col color.RGBA) {
	for i, p := range parents {
		if p < 0 || parents[p] < 0 {
			continue
		}
		rl.DrawLine3D(V3(pos[p]), V3(pos[i]), col)
	}
}

// Root draws the ground-projected root (entity) as a flat marker with a
// short arrow along its forward direction (m).
func Root(pos mgl32.Vec3, fwd mgl32.Vec3, col color.RGBA) {
	p := V3(pos)
	rl.DrawCircle3D(p, 0.15, rl.Vector3{X: 1}, 90, col)
	rl.DrawLine3D(p, V3(pos.Add(fwd.Mul(0.3))), col)
}
