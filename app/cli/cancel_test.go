package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"kinelab/internal/fixture"
)

// TestInterruptedCommandsWriteNothing runs each command that writes files
// with its context already done (an interrupt at its start): exit 1,
// nothing said (main says it stopped), and the output folder as it was.
// Each loop's own checks are counted in its package (bvh, export,
// golden).
func TestInterruptedCommandsWriteNothing(t *testing.T) {
	in := t.TempDir()
	walk := fixture.File(t, in, fixture.Mixamo())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	type command func(context.Context, []string, io.Writer, io.Writer) int
	for _, c := range []struct {
		name string
		run  command
		args func(out string) []string
	}{
		{"export csv", Export, func(out string) []string { return []string{walk, "--out", out} }},
		{"export npz", Export, func(out string) []string { return []string{walk, "walk", "--format", "npz", "--out", out} }},
		{"bvh export", BVH, func(out string) []string { return []string{"export", filepath.Join(out, "x.bvh")} }},
		{"golden", Golden, func(out string) []string { return []string{out} }},
	} {
		out := t.TempDir()
		keep := filepath.Join(out, "keep.txt")
		if err := os.WriteFile(keep, []byte("before"), 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		code := c.run(ctx, c.args(out), &stdout, &stderr)
		left, _ := os.ReadDir(out)
		if code != ExitFail || stderr.Len() > 0 || len(left) != 1 {
			t.Errorf("%s interrupted: exit %d, stderr %q, %d entries in the output folder; want 1, nothing said, the file that was there alone", c.name, code, stderr.String(), len(left))
		}
	}
}
