package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/animsys/verify"
	"kinelab/internal/fixture"
	"kinelab/internal/gltftest"
)

// TestVerifyFolder verifies a folder of two captures that pass, one that
// does not parse and one too short to verify: a line each, in name
// order, PASS or FAIL with why, and a summary; exit 1. The two that pass
// alone exit 0. It used to verify the first file, print PASS and exit 0.
func TestVerifyFolder(t *testing.T) {
	dir := t.TempDir()
	for _, s := range []fixture.Spec{fixture.Mixamo(), fixture.LAFAN1()} {
		fixture.File(t, dir, s)
	}
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Verify(context.Background(), append([]string{"--intervals", "20"}, args...), &out, &errb)
		return code, out.String(), errb.String()
	}
	code, out, _ := run("--file", dir)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != ExitOK || len(lines) != 3 || !strings.HasPrefix(lines[0], "PASS lafan1.bvh: every checked velocity within its tolerance; worst ") ||
		!strings.HasPrefix(lines[1], "PASS mixamo.bvh: ") || lines[2] != dir+": 2 files verified (2 BVH, 0 glTF), 2 pass, 0 fail" {
		t.Errorf("two captures: exit %d, stdout\n%s\nwant 0, a PASS line each and the summary", code, out)
	}

	if err := os.WriteFile(filepath.Join(dir, "bad.bvh"), []byte("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	short := fixture.Mixamo()
	short.Name, short.Frames = "short", 4
	fixture.File(t, dir, short)
	code, out, _ = run("--file", dir)
	lines = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := []string{
		"FAIL bad.bvh: " + filepath.Join(dir, "bad.bvh") + ":5:1: expected",
		"PASS lafan1.bvh: ",
		"PASS mixamo.bvh: ",
		"FAIL short.bvh: ",
		dir + ": 4 files verified (4 BVH, 0 glTF), 2 pass, 2 fail",
	}
	if code != ExitFail || len(lines) != len(want) {
		t.Fatalf("with a bad and a short file: exit %d, stdout\n%s\nwant 1 and %d lines", code, out, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d is %q; want %q...", i+1, lines[i], w)
		}
	}

	var buf, errb bytes.Buffer
	code = Verify(context.Background(), []string{"--intervals", "20", "--json", "--file", dir}, &buf, &errb)
	var rep struct {
		Files []struct {
			File   string          `json:"file"`
			Pass   bool            `json:"pass"`
			Error  string          `json:"error"`
			Report json.RawMessage `json:"report"`
		} `json:"files"`
		Pass bool `json:"pass"`
	}
	if err := json.Unmarshal(buf.Bytes(), &rep); err != nil || code != ExitFail || rep.Pass || len(rep.Files) != 4 ||
		rep.Files[0].Error == "" || !rep.Files[1].Pass || len(rep.Files[1].Report) == 0 {
		t.Errorf("--json: exit %d, %v, %+v", code, err, rep)
	}

	empty := t.TempDir()
	if code, _, stderr := run("--file", empty); code != ExitFail || !strings.Contains(stderr, "a folder with no BVH or glTF file") {
		t.Errorf("an empty folder: exit %d, %q; want 1, saying it has no BVH or glTF file", code, stderr)
	}
}

// TestVerifyFolderGLTF: a folder's glTF files are verified beside its
// BVH files, a line each (they were skipped without a word, and a folder
// of only glTF files was "a folder with no .bvh file"); its subfolders
// are not read, and the summary names them, and counts the other files.
func TestVerifyFolderGLTF(t *testing.T) {
	dir := t.TempDir()
	fixture.File(t, dir, fixture.Mixamo())
	for _, name := range []string{"a.glb", "b.gltf"} {
		if err := gltftest.Default(filepath.Join(dir, name), gltftest.Options{GLB: name == "a.glb"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, sub := range []string{"takes", "old"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
		fixture.File(t, filepath.Join(dir, sub), fixture.LAFAN1())
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Verify(context.Background(), []string{"--intervals", "10", "--file", dir}, &out, &errb)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{"PASS a.glb: ", "PASS b.gltf: ", "PASS mixamo.bvh: ",
		dir + ": 3 files verified (1 BVH, 2 glTF), 3 pass, 0 fail; 2 subfolders not read (verify each with --file): old, takes; "}
	if code != ExitOK || len(lines) != len(want) {
		t.Fatalf("exit %d, stdout\n%s\nstderr %s\nwant 0 and %d lines", code, out.String(), errb.String(), len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d is %q; want %q...", i+1, lines[i], w)
		}
	}
	if !strings.HasSuffix(lines[3], "; 1 other file not read") {
		t.Errorf("the summary %q does not count the other files", lines[3])
	}

	only := t.TempDir()
	if err := gltftest.Default(filepath.Join(only, "c.glb"), gltftest.Options{GLB: true}); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := Verify(context.Background(), []string{"--intervals", "10", "--file", only}, &out, &errb); code != ExitOK || !strings.Contains(out.String(), "1 file verified (0 BVH, 1 glTF), 1 pass") {
		t.Errorf("a folder of one glTF file: exit %d, %q", code, out.String())
	}
}

// chainBVH is a BVH file of one chain of n joints under the root, each
// bending a little differently in each of frames frames.
func chainBVH(n, frames int) []byte {
	var b strings.Builder
	b.WriteString("HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n")
	for j := 1; j < n; j++ {
		fmt.Fprintf(&b, "JOINT J%d\n{\n OFFSET 0 0.2 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n", j)
	}
	b.WriteString("End Site\n{\n OFFSET 0 0.2 0\n}\n")
	b.WriteString(strings.Repeat("}\n", n))
	fmt.Fprintf(&b, "MOTION\nFrames: %d\nFrame Time: 0.0333333\n", frames)
	for f := 0; f < frames; f++ {
		fmt.Fprintf(&b, "0 %g 0 0 0 0", 90+float64(f))
		for j := 1; j < n; j++ {
			fmt.Fprintf(&b, " %g %g 0", 0.01*float64((f+j)%5), 0.02*float64((f*j)%3))
		}
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// TestVerifyDeepHierarchy: a skeleton of thousands of joints is checked
// on fewer intervals by default, so that joints x intervals stay within
// verify.MaxJointIntervals (a 10,000-level chain ran past 90 s), and
// verify says so; --intervals still chooses.
func TestVerifyDeepHierarchy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deep.bvh")
	if err := os.WriteFile(path, chainBVH(1000, 12), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want int
	}{{nil, verify.MaxJointIntervals / 1002}, {[]string{"--intervals", "5"}, 5}} {
		var out, errb bytes.Buffer
		Verify(context.Background(), append([]string{"--json", "--file", path}, c.args...), &out, &errb)
		var rep struct{ Intervals int }
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Intervals != c.want {
			t.Errorf("%q: %d intervals a clip (%v), want %d; stderr %s", c.args, rep.Intervals, err, c.want, errb.String())
		}
		note := "1002 joints: at most 63 frame intervals a clip checked"
		if said := strings.Contains(errb.String(), note); said != (c.args == nil) {
			t.Errorf("%q: stderr %q; want %q only by default", c.args, errb.String(), note)
		}
	}
	for joints, want := range map[int]int{1: 2000, 23: 2000, 32: 2000, 33: 1939, 10002: 6, 100000: 4} {
		if got := verify.Intervals(joints); got != want {
			t.Errorf("verify.Intervals(%d) = %d, want %d", joints, got, want)
		}
	}
}
