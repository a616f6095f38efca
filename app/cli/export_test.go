package cli

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
	"kinelab/animsys/export"
	"kinelab/internal/mocap"
)

func exportCmd(args []string, out, errb *bytes.Buffer) int {
	return Export(context.Background(), args, out, errb)
}

// Embedded clips and a real file export to a folder, as CSV and .npz, with
// flags before and after the inputs.
func TestExportCommand(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := run(exportCmd, "walk", "--format", "npz", "Lean Left", "--out", dir, "--fps", "30", "--fd")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, name := range []string{"walk", "lean-left"} {
		path := filepath.Join(dir, name+".npz")
		if !strings.Contains(out, path+": ") {
			t.Errorf("output does not list %s:\n%s", path, out)
		}
		z, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		var entries []string
		for _, f := range z.File {
			entries = append(entries, strings.TrimSuffix(f.Name, ".npy"))
		}
		z.Close()
		want := "names parents end_site fps units sample time local_pos local_rot local_scl local_vel local_ang local_svl " +
			"world_pos world_rot world_scl world_vel world_ang world_svl local_vel_fd local_ang_fd local_svl_fd world_vel_fd world_ang_fd world_svl_fd"
		if got := strings.Join(entries, " "); got != want {
			t.Errorf("%s holds %s\nwant %s", path, got, want)
		}
	}
	files := mocap.Need(t)
	path := filepath.Join(dir, "one.csv")
	code, out, errs = run(exportCmd, files[1], "--out", path, "--out-units", "file", "--sample", "linear")
	if code != ExitOK || !strings.Contains(out, "linear, cm") || !strings.Contains(errs, "units cm (detected)") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+61*29 || rows[1][3] != "Entity" || rows[0][5] != "local_pos_x_cm" || rows[0][len(rows[0])-1] != "world_svl_z_1/s" {
		t.Fatalf("%d rows, header %v", len(rows), rows[0])
	}
}

func TestExportErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.bvh")
	os.WriteFile(bad, []byte("HIERARCHY\nROOT Hips\n{\n\tOFFSET 0 zero 0\n"), 0o644)
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{nil, ExitUsage, "usage: kinelab export"},
		{[]string{"dance"}, ExitUsage, `"dance" is no file, nor an embedded clip (idle, walk, run, lean-left, lean-right)`},
		{[]string{"walk", "--format", "xml"}, ExitUsage, `--format "xml"`},
		{[]string{"walk", "--fps", "-1"}, ExitUsage, "--fps -1"},
		{[]string{"walk", "--sample", "spline"}, ExitUsage, `--sample "spline"`},
		{[]string{"walk", "--out-units", "cm"}, ExitUsage, `--out-units "cm"`},
		{[]string{"walk", "--units", "ft"}, ExitUsage, `unknown units "ft"`},
		{[]string{"walk", "--up", "w"}, ExitUsage, `unknown up axis "w"`},
		{[]string{"walk", "run", "--out", filepath.Join(dir, "a.csv")}, ExitUsage, "names one file, for 2 inputs"},
		{[]string{"walk", "--out", "-", "--format", "npz"}, ExitUsage, "writes CSV only"},
		{[]string{"walk", "--out", filepath.Join(dir, "a.npz"), "--format", "csv"}, ExitUsage, "does not end in .csv"},
		{[]string{"walk", "walk", "--out", dir}, ExitUsage, "would both write walk.csv"},
		{[]string{"--bogus", "walk"}, ExitUsage, "flag provided but not defined"},
		{[]string{filepath.Join(dir, "missing.bvh")}, ExitFail, "no such file"},
		{[]string{bad, "--out", dir}, ExitFail, bad + ":4:11: expected 3 numbers after OFFSET"},
		{[]string{"walk", "--out", filepath.Join(dir, "no", "such", "x.npz")}, ExitFail, "no such file or directory"},
	} {
		code, _, errs := run(exportCmd, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.stderr) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", tc.args, code, errs, tc.code, tc.stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("failed exports left files behind: %v", entries)
	}
	if code, _, errs := run(exportCmd, "-h"); code != ExitOK || !strings.Contains(errs, "--out-units") {
		t.Errorf("-h: exit %d, %q", code, errs)
	}
}

// export reads a BVH file as the app does, for the app's --units, --up and
// --keep-rest: every frame's world joint positions match those of the
// app's clip of it (which adds an Entity root under the hips).
func TestExportReadsFilesAsTheApp(t *testing.T) {
	for _, path := range mocap.Need(t) {
		for _, opt := range []bvh.ReadOptions{{}, {KeepRest: true}, {Units: "m", Up: "z"}} {
			ch, err := character.Load([]string{path}, opt)
			if err != nil {
				t.Fatal(err)
			}
			src, _, err := export.ReadBVH(path, opt)
			if err != nil {
				t.Fatal(err)
			}
			s, err := export.NewStream(src, export.Options{})
			if err != nil {
				t.Fatal(err)
			}
			c := &ch.Clips[0]
			shift := ch.Skel.Len() - src.Skeleton().Len() // 1 with the app's Entity
			if s.Frames() != c.Frames || shift < 0 || shift > 1 {
				t.Fatalf("%s %+v: %d frames x %d joints; the app has %d x %d", path, opt, s.Frames(), src.Skeleton().Len(), c.Frames, ch.Skel.Len())
			}
			n := src.Skeleton().Len()
			local, world := animsys.NewPose(n), animsys.NewPose(n)
			al, aw := animsys.NewPose(ch.Skel.Len()), animsys.NewPose(ch.Skel.Len())
			var worst, size float32 // size: the largest |position|, for float32 rounding
			for f := 0; f < c.Frames; f++ {
				s.Sample(f, &local, &world)
				for j := range al.Pos {
					al.Pos[j] = c.PosAt(f, j)
				}
				copy(al.Rot, c.Rot[c.At(f, 0):c.At(f+1, 0)])
				animsys.FKStatic(&aw, &al, ch.Skel.Parents)
				for j := 0; j < n; j++ {
					worst = max(worst, world.Pos[j].Sub(aw.Pos[j+shift]).Len())
					size = max(size, aw.Pos[j+shift].Len())
				}
			}
			// The app's Entity splits the root's position in two: a few
			// float32 roundings of the largest position (170 m for a file
			// in centimetres read as metres).
			if worst > 1e-6*(1+size) {
				t.Errorf("%s %+v: world positions differ from the app's by up to %.3g m", mocap.Base(path), opt, worst)
			}
		}
	}
}
