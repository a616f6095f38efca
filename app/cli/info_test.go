package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `kinelab info` reports a glTF file's skeleton, skin, mesh and
// animations, passes a .bvh file to `bvh info`, and refuses other files.
func TestInfo(t *testing.T) {
	var out, errb bytes.Buffer
	robot := "../../../shared/gltf/robot.glb"
	if _, err := os.Stat(robot); err != nil {
		t.Skipf("no %s (the shared glTF characters): %v", robot, err)
	}
	if code := Info(context.Background(), []string{robot}, &out, &errb); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"44 joints", "14 animations", "skin: 43 joints", "mesh: 7218 vertices", `animation "Robot_Walking"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
	bad := filepath.Join(t.TempDir(), "bad.glb")
	if err := os.WriteFile(bad, []byte("glTF not really"), 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if code := Info(context.Background(), []string{bad}, &out, &errb); code != ExitFail || !strings.Contains(errb.String(), "bad.glb") {
		t.Errorf("a corrupt .glb: exit %d, %q", code, errb.String())
	}
	if code := Info(context.Background(), []string{"notes.txt"}, &out, &errb); code != ExitUsage {
		t.Errorf("a .txt file: exit %d", code)
	}
}
