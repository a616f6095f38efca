package animsys

import (
	"math/rand"

	"github.com/go-gl/mathgl/mgl32"
)

func randVec(r *rand.Rand, s float32) mgl32.Vec3 {
	return mgl32.Vec3{s * (2*r.Float32() - 1), s * (2*r.Float32() - 1), s * (2*r.Float32() - 1)}
}

func near3(a, b mgl32.Vec3, tol float32) bool { return a.Sub(b).Len() <= tol }

func nearQ(a, b mgl32.Quat, tol float32) bool {
	return near3(a.V, b.V, tol) && a.W-b.W <= tol && b.W-a.W <= tol
}
