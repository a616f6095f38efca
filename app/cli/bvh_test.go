package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/animsys/bvh"
)

func runBVH(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = BVH(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// Export every embedded clip, then read one back with info.
func TestBVHExportAllAndInfo(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runBVH("export", filepath.Join(dir, "kl.bvh"))
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, name := range []string{"idle", "walk", "run", "lean-left", "lean-right"} {
		path := filepath.Join(dir, "kl-"+name+".bvh")
		if !strings.Contains(out, path) {
			t.Errorf("output does not list %s:\n%s", path, out)
		}
		in, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := bvh.Parse(in, path)
		in.Close()
		if err != nil || bvh.DetectUnits(f) != bvh.Centimetres || len(f.Joints) != 28 {
			t.Fatalf("%s: %v", path, err)
		}
	}

	code, out, errs = runBVH("info", filepath.Join(dir, "kl-walk.bvh"))
	if code != ExitOK {
		t.Fatalf("info: exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"joints      28 (23 with channels, 5 End Sites, 1 root)",
		"channels    75 per frame",
		"frame time  0.016666668 s (60 fps)",
		"units       cm (detected: the figure stands 157.7 units tall: 1.58 m in centimetres)",
		"up          Y (detected: the figure's head is above its feet along Y",
		"height      1.577 m standing",
		"  Entity", "6  Xposition Yposition Zposition Zrotation Xrotation Yrotation",
		"      LeftUpLeg", "3  Zrotation Xrotation Yrotation",
		"LeftToe_End", "-  End Site",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("info output lacks %q:\n%s", want, out)
		}
	}
}

func TestBVHExportOneClip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lean.bvh")
	// Flags before and after the file name; units in inches.
	code, _, errs := runBVH("export", "--clip", "Lean Left", path, "--units", "in")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("%d files written", len(entries))
	}
	code, out, _ := runBVH("info", "--units", "m", path)
	if code != ExitOK || !strings.Contains(out, "units       m (--units; detected in: the figure stands 62.46 units tall: 1.59 m in inches)") ||
		!strings.Contains(out, "height      62.46 m standing") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestBVHErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.bvh")
	os.WriteFile(bad, []byte("HIERARCHY\nROOT Hips\n{\n\tOFFSET 0 zero 0\n"), 0o644)
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{nil, ExitUsage, "usage: kinelab bvh info"},
		{[]string{"frobnicate"}, ExitUsage, `unknown command "frobnicate"`},
		{[]string{"info"}, ExitUsage, "want 1 file name, got 0"},
		{[]string{"info", "a.bvh", "b.bvh"}, ExitUsage, "want 1 file name, got 2"},
		{[]string{"info", "--bogus", bad}, ExitUsage, "flag provided but not defined"},
		{[]string{"info", bad, "--units", "ft"}, ExitUsage, `unknown units "ft"`},
		{[]string{"export", filepath.Join(dir, "x.bvh"), "--clip", "dance"}, ExitUsage, `no clip "dance"; the clips are idle, walk, run, lean-left, lean-right`},
		{[]string{"info", filepath.Join(dir, "missing.bvh")}, ExitFail, "no such file"},
		{[]string{"info", bad}, ExitFail, bad + ":4:11: expected 3 numbers after OFFSET (a number), found \"zero\""},
		{[]string{"export", filepath.Join(dir, "no", "such", "dir.bvh")}, ExitFail, "no such file or directory"},
	} {
		code, _, errs := runBVH(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.stderr) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", tc.args, code, errs, tc.code, tc.stderr)
		}
	}
	if code, out, _ := runBVH("help"); code != ExitOK || !strings.Contains(out, "kinelab bvh export") {
		t.Errorf("help: exit %d, %q", code, out)
	}
}
