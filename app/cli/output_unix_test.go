//go:build unix

package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/internal/animtest"
)

// Outputs that fail part way (the walk exports 250-480 kB, the BVH 60 kB
// over a 16 kB limit) exit 1 and leave the files that were there, and no
// temporary file.
func TestFailedOutputKeepsFiles(t *testing.T) {
	if !animtest.UnderFileLimit(t, 16<<10) {
		return
	}
	dir := t.TempDir()
	old := []string{"walk.csv", "walk.npz", "walk.bvh"}
	for _, name := range old {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		cmd  func([]string, *bytes.Buffer, *bytes.Buffer) int
		args []string
	}{
		{exportCmd, []string{"walk", "--out", dir}},
		{exportCmd, []string{"walk", "--out", filepath.Join(dir, "walk.npz")}},
		{func(a []string, o, e *bytes.Buffer) int { return BVH(context.Background(), a, o, e) }, []string{"export", filepath.Join(dir, "walk.bvh"), "--clip", "walk"}},
	} {
		code, _, errs := run(tc.cmd, tc.args...)
		if code != ExitFail || !strings.Contains(errs, "file too large") || strings.Contains(errs, ".tmp-") {
			t.Errorf("%q over the size limit: exit %d, stderr %q; want exit 1, the error, the file's own name", tc.args, code, errs)
		}
	}
	for _, name := range old {
		if b, err := os.ReadFile(filepath.Join(dir, name)); string(b) != "old" {
			t.Errorf("%s after a failed write: %.20q, %v", name, b, err)
		}
	}
	if ls, _ := os.ReadDir(dir); len(ls) != len(old) {
		t.Errorf("the failed writes left %v", ls)
	}
}
