//go:build !goexperiment.simd || !amd64

package animsys

// The SIMD forms of inertialize and additive exist on amd64 with
// GOEXPERIMENT=simd only (simd_inert_amd64.go, simd_add_amd64.go); here
// useSIMD is constant false and their calls drop out.

func inertializeSIMD(out, offset, input *Pose, logs []offLog, aliased bool, w0, w1, w2, w3 float32) {
	panic("animsys: no SIMD path in this build")
}

func additiveSIMD(out, add *Pose, logs []addLog, alpha, alphaVel float32) {
	panic("animsys: no SIMD path in this build")
}
