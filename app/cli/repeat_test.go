package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/internal/fixture"
)

// TestMatchingEvalFolderTwice gives eval one folder twice, and then a
// file of it with the folder: each file loads once (3 clips, not 6),
// and stderr names each file given twice, once.
func TestMatchingEvalFolderTwice(t *testing.T) {
	dir := t.TempDir()
	fixture.MixedFolder(t, dir)
	code, db, stderr := evalFiles(t, dir, dir)
	want := "3 clips from " + filepath.Base(dir) + "/, mirrored"
	if code != ExitOK || db != want || strings.Count(stderr, "given twice; loaded once") != 4 || strings.Count(stderr, "skipped") != 1 {
		t.Errorf("a folder twice: exit %d, database %q, stderr %q; want 0, %q, each of the 4 files given twice, the odd one skipped once", code, db, stderr, want)
	}
	one := filepath.Join(dir, "bandai_1.bvh")
	code, db, stderr = evalFiles(t, one, dir)
	if code != ExitOK || db != want || !strings.Contains(stderr, "kinelab matching eval: bandai_1.bvh given twice; loaded once\n") {
		t.Errorf("a file and its folder: exit %d, database %q, stderr %q; want 0, %q, bandai_1.bvh given twice", code, db, stderr, want)
	}
}

// TestExportFileTwice exports one file given twice, once by a link:
// one output, and a notice, where it was refused as two outputs of one
// name.
func TestExportFileTwice(t *testing.T) {
	dir, out := t.TempDir(), t.TempDir()
	s := fixture.Mixamo()
	s.Name = "walk"
	walk := fixture.File(t, dir, s)
	link := filepath.Join(dir, "link.bvh")
	if err := os.Symlink(walk, link); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := Export(context.Background(), []string{walk, link, walk, "--out", out}, &stdout, &stderr)
	entries, _ := os.ReadDir(out)
	want := "kinelab export: walk.bvh given 3 times (also as link.bvh); loaded once\n"
	if code != ExitOK || len(entries) != 1 || !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("exit %d, %d outputs, stderr %q; want 0, one output, %q first", code, len(entries), stderr.String(), want)
	}
}
