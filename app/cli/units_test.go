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

// TestFileUnitsLabelled exports, describes and verifies a glTF animal 71
// long (no body in metres, which the labs show in "units") and a 1.7 m
// human: the animal's CSV header, info and verify name its lengths
// "units" and "units/s", where they said m and m/s; the human's m and
// m/s.
func TestFileUnitsLabelled(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		rig        gltftest.Rig
		unit, name string
	}{
		{gltftest.QuadrupedRig(71), "units", "animal"},
		{gltftest.MixamoRig(1.7), "m", "human"},
	} {
		path := filepath.Join(dir, c.name+".gltf")
		if err := gltftest.WriteRig(path, c.rig, gltftest.Options{}); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if code := Export(context.Background(), []string{path, "--out", filepath.Join(dir, c.name)}, &out, &errb); code != ExitOK {
			t.Fatalf("%s: export exit %d: %s", c.name, code, errb.String())
		}
		csvs, _ := filepath.Glob(filepath.Join(dir, c.name, "*.csv"))
		if len(csvs) == 0 {
			t.Fatalf("%s: no CSV written", c.name)
		}
		b, err := os.ReadFile(csvs[0])
		if err != nil {
			t.Fatal(err)
		}
		header := string(b[:bytes.IndexByte(b, '\n')])
		for _, col := range []string{"world_pos_x_" + c.unit + ",", "world_vel_x_" + c.unit + "/s,"} {
			if !strings.Contains(header, col) {
				t.Errorf("%s: the CSV header has no %q: %s", c.name, col, header)
			}
		}
		if !strings.Contains(out.String(), ", "+c.unit+" (") {
			t.Errorf("%s: export says %q; want its files in %s", c.name, out.String(), c.unit)
		}

		out.Reset()
		if code := Info(context.Background(), []string{path}, &out, &errb); code != ExitOK || !strings.Contains(out.String(), "rest offset ("+c.unit+")") {
			t.Errorf("%s: info exit %d:\n%s\nwant rest offsets in %s", c.name, code, out.String(), c.unit)
		}

		out.Reset()
		code := Verify(context.Background(), []string{"--intervals", "8", "--file", path}, &out, &errb)
		linear := 0
		for _, line := range strings.Split(out.String(), "\n") {
			if f := strings.Fields(line); len(f) > 3 && f[2] == "linear" {
				linear++
				if f[3] != c.unit+"/s" {
					t.Errorf("%s: verify says %q; want linear velocities in %s/s", c.name, line, c.unit)
					break
				}
			}
		}
		if linear == 0 {
			t.Errorf("%s: verify printed no linear velocity:\n%s", c.name, out.String())
		}
		if code != ExitOK {
			t.Errorf("%s: verify exit %d:\n%s", c.name, code, out.String())
		}
	}
}
