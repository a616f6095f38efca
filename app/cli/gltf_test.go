package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/internal/gltftest"
)

func verifyFileCmd(args []string, out, errb *bytes.Buffer) int {
	return Verify(context.Background(), args, out, errb)
}

// gltfFixtures writes the generated human as glTF in every interpolation
// and quirk the reader handles: Z-up in centimetres, uneven and partial
// channels, a texture in a .glb.
func gltfFixtures(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	out := map[string]string{}
	for _, interp := range []string{"STEP", "LINEAR", "CUBICSPLINE"} {
		for quirk, opt := range map[string]gltftest.Options{
			"plain":   {Interp: interp},
			"zup-cm":  {Interp: interp, ZUp: true, Scale: 0.01, FPS: 24},
			"uneven":  {Interp: interp, Uneven: true, Partial: true},
			"texture": {Interp: interp, Texture: true, GLB: true},
		} {
			name := strings.ToLower(interp) + "-" + quirk
			path := filepath.Join(dir, name+".gltf")
			if opt.GLB {
				path = filepath.Join(dir, name+".glb")
			}
			if err := gltftest.Default(path, opt); err != nil {
				t.Fatal(err)
			}
			out[name] = path
		}
	}
	return out
}

// verify --file passes on a glTF character's every animation, in every
// interpolation and quirk (a coarse run of 12 intervals a clip: every
// case and clip still checked), and --bvh is the same flag.
func TestVerifyGLTF(t *testing.T) {
	for name, path := range gltfFixtures(t) {
		flag := "--file"
		if strings.HasPrefix(name, "step") {
			flag = "--bvh"
		}
		code, out, errs := run(verifyFileCmd, flag, path, "--intervals", "12")
		if code != ExitOK || !strings.Contains(out, "PASS") || !strings.Contains(out, "walk") || !strings.Contains(out, "idle") {
			t.Errorf("%s: exit %d\n%s\n%s", name, code, out, errs)
		}
	}
}

// export writes each animation of a glTF file as NAME-CLIP, sampled from
// its curves; one output file for several animations is a usage error.
func TestExportGLTF(t *testing.T) {
	path := gltfFixtures(t)["cubicspline-texture"]
	dir := t.TempDir()
	code, out, errs := run(exportCmd, path, "--out", dir, "--format", "csv")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, clip := range []string{"walk", "run", "idle"} {
		p := filepath.Join(dir, "cubicspline-texture-"+clip+".csv")
		if !strings.Contains(out, p+": ") || !strings.Contains(out, "curves, m") {
			t.Errorf("output does not list %s sampled from curves:\n%s", p, out)
		}
		if st, err := os.Stat(p); err != nil || st.Size() < 1000 {
			t.Errorf("%s: %v", p, err)
		}
	}
	code, _, errs = run(exportCmd, path, "--out", filepath.Join(dir, "one.npz"))
	if code != ExitUsage || !strings.Contains(errs, "has 3 animations") {
		t.Errorf("one file for 3 animations: exit %d, %q", code, errs)
	}
	code, _, errs = run(exportCmd, filepath.Join(dir, "missing.glb"), "--out", dir)
	if code != ExitFail || !strings.Contains(errs, "missing.glb") {
		t.Errorf("a missing glTF file: exit %d, %q", code, errs)
	}
}
