package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEBuildLine checks the one way to build without make that the
// README points to (docs/build.md):
// its two variables are those the Makefile builds with, its build line
// builds the AVX2 lanes where .ci/simdprobe runs, as `make build` does (it
// built the portable ones, 3x slower, wherever it ran), and the lines, run
// as written with nothing else of the environment's GOFLAGS and
// CGO_CFLAGS, build a kinelab that runs. (A bare `go build` failed on
// missing Wayland headers, and the README named only CGO_CFLAGS.)
func TestREADMEBuildLine(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("docs", "build.md"))
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^    export GOFLAGS="([^"]*)" CGO_CFLAGS="([^"]*)"\n    (if GOEXPERIMENT=simd go run \./\.ci/simdprobe; then GOEXPERIMENT=simd go build -o bin/kinelab \.; else go build -o bin/kinelab \.; fi)$`).FindSubmatch(readme)
	if line == nil {
		t.Fatal(`docs/build.md states no build lines "    export GOFLAGS="..." CGO_CFLAGS="..."" and "    if GOEXPERIMENT=simd go run ./.ci/simdprobe; then ..."`)
	}
	goflags, cflags, build := string(line[1]), string(line[2]), string(line[3])
	if mk, err := os.ReadFile("Makefile"); err != nil || !strings.Contains(string(mk), "$(GO) run ./.ci/simdprobe") {
		t.Errorf("the Makefile does not choose the lanes by .ci/simdprobe as the README's line does: %v", err)
	}
	makefile, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	// The Makefile's: its GOFLAGS (the same -trimpath also lets this
	// build reuse the test builds' compiled raylib: 85 s of CPU on a cold
	// cache), CGO_CFLAGS Go's default (-O2 -g) and the one define.
	mk := regexp.MustCompile(`(?m)^export GOFLAGS := (.+)$`).FindSubmatch(makefile)
	def := regexp.MustCompile(`(?m)^export CGO_CFLAGS := .*,-O2 -g\) (-D\S+)$`).FindSubmatch(makefile)
	if mk == nil || def == nil || goflags != string(mk[1]) || cflags != "-O2 -g "+string(def[1]) {
		t.Errorf("README builds with GOFLAGS=%s CGO_CFLAGS=%q; the Makefile's are %q and %q", goflags, cflags, mk, def)
	}
	if testing.Short() {
		t.Skip("-short: not building (links kinelab; raylib's C is in the build cache after a make)")
	}
	bin := filepath.Join(t.TempDir(), "kinelab")
	cmd := exec.Command("sh", "-c", strings.ReplaceAll(build, "bin/kinelab", bin))
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOFLAGS=") && !strings.HasPrefix(kv, "CGO_CFLAGS=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "GOFLAGS="+goflags, "CGO_CFLAGS="+cflags)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the README's build line: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin, "bench", "-h").CombinedOutput(); err != nil || !strings.Contains(string(out), "usage: kinelab bench") {
		t.Errorf("the kinelab it built: %v\n%s", err, out)
	}
}
