//go:build goexperiment.simd && amd64

// simdprobe exits 0 where the AVX2 build can run: this toolchain builds
// GOEXPERIMENT=simd and the CPU has AVX2, which that build needs (mathx's
// lane types refuse to start without it). The Makefile runs it to choose the build; a toolchain without the
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
