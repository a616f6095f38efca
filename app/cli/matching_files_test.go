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

	"kinelab/internal/fixture"
	"kinelab/internal/mocap"
)

// evalFiles runs `kinelab matching eval` for 1 s of one feature set on
// args, and returns its exit code, its report's database name and stderr.
func evalFiles(t *testing.T, args ...string) (code int, database, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Matching(context.Background(), append([]string{"eval", "--seconds", "1", "--features", "standard", "--path", "circle", "--json"}, args...), &out, &errb)
	if code == ExitOK {
		var rep struct {
			Database string `json:"database"`
		}
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out.String())
		}
		database = rep.Database
	}
	return code, database, errb.String()
}

// A folder of captures of two skeletons (one LAFAN1 file sorted first,
// three Bandai ones): eval names the file it leaves out, and why, on
// stderr and matches on the three, naming the database by its folder,
// mirrored by default (and saying so), not with --mirror=false. A folder of nothing usable exits 1: no file reads,
// or no clip is long enough to search.
func TestMatchingEvalMixedFolder(t *testing.T) {
	dir := t.TempDir()
	lafan := fixture.MixedFolder(t, dir)
	code, db, stderr := evalFiles(t, dir)
	want := "kinelab matching eval: " + lafan + ": skipped: its skeleton differs from the 3 files loaded ("
	if code != ExitOK || db != "3 clips from "+filepath.Base(dir)+"/, mirrored" || !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, database %q, stderr %q; want 0, 3 clips from the folder mirrored, and %q...", code, db, stderr, want)
	}
	if code, db, _ := evalFiles(t, "--mirror=false", dir); code != ExitOK || db != "3 clips from "+filepath.Base(dir)+"/" {
		t.Errorf("--mirror=false: exit %d, database %q", code, db)
	}

	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "bad.bvh"), []byte("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := evalFiles(t, bad); code != ExitFail || !strings.Contains(stderr, "bad.bvh:5:1: expected") {
		t.Errorf("a folder of a file that does not parse: exit %d, %q", code, stderr)
	}
	short := t.TempDir()
	for _, s := range []fixture.Spec{fixture.LAFAN1(), fixture.Bandai()} {
		s.Frames = 10 // 0.33 s: no frame to search
		fixture.File(t, short, s)
	}
	if code, _, stderr := evalFiles(t, short); code != ExitFail || !strings.Contains(stderr, "skipped") || !strings.Contains(stderr, "1 clip from bandai.bvh, mirrored: matching: no frame to search") || !strings.Contains(stderr, "bandai (0.30 s)") {
		t.Errorf("a folder of clips too short: exit %d, %q", code, stderr)
	}
}

// The real captures: ../shared/locomotion's Bandai files with a capture
// of another skeleton (from ../shared/mocap) sorted first, as the issue
// had them: eval leaves that one out, saying so, and runs on the rest.
func TestMatchingEvalMixedCaptures(t *testing.T) {
	loco := mocap.NeedLocomotion(t)
	other := mocap.Need(t)[0]
	dir := t.TempDir()
	odd := filepath.Join(dir, "00_"+filepath.Base(other))
	for _, p := range append([]string{other}, loco...) {
		dst := filepath.Join(dir, filepath.Base(p))
		if p == other {
			dst = odd
		}
		b, err := os.ReadFile(p)
		if err == nil {
			err = os.WriteFile(dst, b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	code, db, stderr := evalFiles(t, dir)
	want := fmt.Sprintf("kinelab matching eval: %s: skipped: its skeleton differs from the %d files loaded (", odd, len(loco))
	if code != ExitOK || db != fmt.Sprintf("%d clips from %s/, mirrored", len(loco), filepath.Base(dir)) || !strings.HasPrefix(stderr, want) {
		t.Errorf("exit %d, database %q, stderr %q; want 0, %d clips from the folder, and %q...", code, db, stderr, len(loco), want)
	}
}
