//go:build goexperiment.simd && amd64

// simdprobe exits 0 where the app's SIMD path would run: this toolchain
// builds GOEXPERIMENT=simd and the CPU has AVX2, the test animsys's useSIMD
// makes. The Makefile runs it to choose the build; a toolchain without the
// experiment, or another architecture, fails to build it (no main), which
// counts as no.
package main

import (
	"os"
	"simd/archsimd"
)

func main() {
	if !archsimd.X86.AVX2() {
		os.Exit(1)
	}
}
