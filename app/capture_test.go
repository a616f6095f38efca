package app_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"
)

// raylib's own F12 capture (SUPPORT_SCREEN_CAPTURE) writes
// screenshot000.png into the folder kinelab started in, over any file of
// that name; the Makefile builds raylib without it. This test binary links
// the same raylib, built with the same CGO_CFLAGS: the capture's file name
// pattern must not be in it, so a raylib update that renames the setting
// fails here rather than leaving files behind.
func TestNoRaylibF12Capture(t *testing.T) {
	const off = "-DSUPPORT_SCREEN_CAPTURE=0"
	if !strings.Contains(os.Getenv("CGO_CFLAGS"), off) {
		t.Skipf("CGO_CFLAGS does not hold %s: built as `go test` builds, not as `make test` does", off)
	}
	_ = rl.IsWindowReady // link raylib even if the package's other tests change
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("screenshot saved to ")) {
		t.Fatalf("%s does not hold kinelab's own screenshot message: not the binary under test?", exe)
	}
	// raylib's format for the file, made at run time so that this test's
	// own text does not hold it.
	pattern := []byte("screenshot%03i.pnx")
	pattern[len(pattern)-1] = 'g'
	if bytes.Contains(b, pattern) {
		t.Errorf("raylib's F12 capture (screenshot%%03i.png) is still built in with CGO_CFLAGS=%q", os.Getenv("CGO_CFLAGS"))
	}
}
