//go:build !(goexperiment.simd && amd64)

package animsys

// scalarPath runs f on the scalar path: the only one in this build.
func scalarPath(f func()) { f() }
