//go:build goexperiment.simd && amd64

package animsys

// scalarPath runs f on the scalar path, which before_test.go holds to the
// bits of the code it replaced (the SIMD path has its own tests).
func scalarPath(f func()) { withSIMD(false, f) }
