//go:build !goexperiment.simd || !amd64

package animsys

import "github.com/go-gl/mathgl/mgl32"

// Without GOEXPERIMENT=simd on amd64 the per-joint loops are scalar only
// (simd_amd64.go has the SIMD path): useSIMD is constant false, so the
// compiler drops the branches that would call the stubs below.
const useSIMD = false

func blendRotSIMD(lr []mgl32.Quat, la []mgl32.Vec3, rr []mgl32.Quat, ra []mgl32.Vec3, or []mgl32.Quat, oa []mgl32.Vec3, alpha, alphaVel float32) {
	panic("animsys: no SIMD path in this build")
}

func sampleRotSIMD(rot []mgl32.Quat, ang []mgl32.Vec3, rec []float32, h10, h01, h11, d10, d01, d11, inv float32) bool {
	panic("animsys: no SIMD path in this build")
}

func bkSIMD(local, global *Pose, parents []int) bool {
	panic("animsys: no SIMD path in this build")
}

func finiteDiffSIMD(out, curr, prev *Pose, inv float32) {
	panic("animsys: no SIMD path in this build")
}
