package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func goldenCmd(args []string, out, errb *bytes.Buffer) int {
	return Golden(context.Background(), args, out, errb)
}

// golden writes the files, --check reproduces them, and fails on a file
// changed beyond its tolerance or missing.
func TestGoldenCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "golden")
	code, out, errs := run(goldenCmd, dir)
	if code != ExitOK || !strings.Contains(out, "operations (one .json each) and README.md") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = run(goldenCmd, "--check", dir)
	if code != ExitOK || !strings.Contains(out, "blend.json") || strings.Contains(out, "FAIL") {
		t.Fatalf("--check: exit %d\n%s%s", code, out, errs)
	}
	path := filepath.Join(dir, "damper_exact.json")
	b, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.Replace(b, []byte(`"x": 0.9438743`), []byte(`"x": 0.9448743`), 1), 0o644)
	if code, out, _ := run(goldenCmd, dir, "--check"); code != ExitFail || !strings.Contains(out, "FAIL one 60 Hz tick .x") {
		t.Errorf("a changed value: exit %d\n%s", code, out)
	}
	os.Remove(path)
	if code, _, errs := run(goldenCmd, "--check", dir); code != ExitFail || !strings.Contains(errs, "damper_exact.json") {
		t.Errorf("a missing file: exit %d, %q", code, errs)
	}
	if code, _, errs := run(goldenCmd); code != ExitUsage || !strings.Contains(errs, "want one folder") {
		t.Errorf("no folder: exit %d, %q", code, errs)
	}
}
