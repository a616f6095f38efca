package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/internal/fixture"
)

// A headless run on a folder with a file of another skeleton names that
// file on stderr and exits 0; with a file that does not parse it exits 1.
func TestHeadlessMixedFolder(t *testing.T) {
	bin := buildKinelab(t)
	dir, out := t.TempDir(), t.TempDir()
	lafan := fixture.MixedFolder(t, dir)
	for _, lab := range []string{"velocities", "matching"} {
		code, msg := withoutDisplay(t, bin, out, "--lab", lab, "--frames", "5", "--csv", lab+".csv", dir)
		if code != 0 || !strings.Contains(msg, "kinelab: "+lafan+": skipped: its skeleton differs from the 3 files loaded (") {
			t.Errorf("%s: exit %d, want 0 naming %s as skipped:\n%s", lab, code, lafan, msg)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.bvh"), []byte("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, msg := withoutDisplay(t, bin, out, "--lab", "velocities", "--frames", "5", "--csv", "bad.csv", dir); code != 1 || !strings.Contains(msg, "bad.bvh:5:1") {
		t.Errorf("with a file that does not parse: exit %d, want 1:\n%s", code, msg)
	}
}
