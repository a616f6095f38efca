package cli

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every bad file — the parser's error corpus, and the files that parse but
// hold no clip (no frame, one frame) — fails every subcommand that reads a
// file with exit 1 and the file:line of the fault; every odd but usable
// file (one joint, zero-length bones, huge values and frame times) exports
// with no NaN or Inf. None panics (a panic fails the test run).
func TestBadFilesEverySubcommand(t *testing.T) {
	bad, _ := filepath.Glob("../../animsys/bvh/testdata/errors/*.bvh")
	refused, _ := filepath.Glob("../../animsys/character/testdata/refused/*.bvh")
	odd, _ := filepath.Glob("../../animsys/character/testdata/odd/*.bvh")
	if len(bad) < 40 || len(refused) < 2 || len(odd) < 5 {
		t.Fatalf("testdata: %d bad, %d refused, %d odd files", len(bad), len(refused), len(odd))
	}
	dir := t.TempDir()
	for _, path := range append(bad, refused...) {
		at := regexp.MustCompile(regexp.QuoteMeta(path) + `:\d+:`)
		for _, c := range []struct {
			name string
			run  func() (int, string, string)
		}{
			{"bvh info", func() (int, string, string) { return runBVH("info", path) }},
			{"export", func() (int, string, string) { return run(exportCmd, path, "--out", dir) }},
			{"verify --bvh", func() (int, string, string) { return run(verifyCmd, "--bvh", path) }},
		} {
			code, _, errs := c.run()
			if code != ExitFail || !at.MatchString(errs) {
				t.Errorf("%s %s: exit %d, stderr %q; want exit %d and %s:LINE:", c.name, path, code, errs, ExitFail, path)
			}
		}
	}
	for _, path := range odd {
		code, out, errs := run(exportCmd, path, "--out", "-")
		if code != ExitOK || strings.Contains(out, "NaN") || strings.Contains(out, "Inf") {
			t.Errorf("export %s: exit %d, stderr %q, NaN or Inf in the CSV: %v", path, code, errs, strings.Contains(out, "NaN") || strings.Contains(out, "Inf"))
		}
		if code, _, errs := runBVH("info", path); code != ExitOK {
			t.Errorf("bvh info %s: exit %d, %q", path, code, errs)
		}
	}
}
