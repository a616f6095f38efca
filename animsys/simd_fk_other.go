//go:build !goexperiment.simd || !amd64

package animsys

// fkSIMD is FK's SIMD path (simd_fk_amd64.go); useSIMD is constant false
// in this build, so it is never called.
func fkSIMD(global, local *Pose, parents []int) int {
	panic("animsys: no SIMD path in this build")
}
