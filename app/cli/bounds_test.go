package cli

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"testing"

	"kinelab/animsys"
	"kinelab/animsys/crowd"
)

// TestNumericFlagBounds runs each subcommand with a numeric flag one past
// its range: exit 2 and a message giving the range, before any work.
// bench --threads 2147483648 ran out of memory starting goroutines, and
// 100000 took 31 s; a seed past 32 bits wrapped silently.
func TestNumericFlagBounds(t *testing.T) {
	type command func(context.Context, []string, io.Writer, io.Writer) int
	skel := animsys.BenchSkeleton()
	over := strconv.Itoa(crowd.MaxCharacters(skel.Len()) + 1) // past the memory budget
	for _, c := range []struct {
		name string
		run  command
		args []string
		msg  string
	}{
		{"bench", Bench, []string{"--threads", "2147483648"}, "--threads must be 0 (1 and all cores) or 1 to 1024, got 2147483648"},
		{"bench", Bench, []string{"--threads", "1025"}, "--threads must be 0 (1 and all cores) or 1 to 1024, got 1025"},
		{"bench", Bench, []string{"--threads", "-1"}, "--threads must be 0 (1 and all cores) or 1 to 1024, got -1"},
		{"bench", Bench, []string{"--characters", "0"}, "--characters must be at least 1"},
		{"bench", Bench, []string{"--characters", over}, "--characters " + over},
		// Products that overflow int64 (they wrapped under the budget and
		// panicked in makeslice).
		{"bench", Bench, []string{"--characters", "9223372036854775807"}, "more bytes than 64 bits count"},
		{"bench", Bench, []string{"--characters", "4611686018427387904"}, "more bytes than 64 bits count"},
		{"verify", Verify, []string{"--intervals", "0"}, "--intervals must be at least 1 and at most 1000000, got 0"},
		{"verify", Verify, []string{"--intervals", "1000001"}, "--intervals must be at least 1 and at most 1000000, got 1000001"},
		{"export", Export, []string{"walk", "--out", "-", "--fps", "1000001"}, "--fps 1.000001e+06: want 0 (the input's own frames) or 0.1 to 1e+06 frames/s"},
		{"export", Export, []string{"walk", "--out", "-", "--fps", "-1"}, "--fps -1: want 0"},
		{"export", Export, []string{"walk", "--out", "-", "--fps", "NaN"}, "--fps NaN: want 0"},
		// At the bottom of float64's range: the frame time overflowed,
		// and the export panicked leaving its temporary files.
		{"export", Export, []string{"walk", "--out", "-", "--fps", "5e-324"}, "--fps 5e-324: want 0 (the input's own frames) or 0.1 to 1e+06 frames/s"},
		{"export", Export, []string{"walk", "--out", "-", "--fps", "1e-300"}, "--fps 1e-300: want 0"},
		{"matching", Matching, []string{"eval", "--seed", "4294967296"}, "--seed 4294967296: want 0 to 4294967295"},
		{"matching", Matching, []string{"eval", "--seed", "-1"}, "--seed -1: want 0 to 4294967295"},
		{"matching", Matching, []string{"eval", "--seconds", "3601"}, "--seconds 3601: want 1 to 3600 s"},
		{"matching", Matching, []string{"eval", "--hold-after", "60.5"}, "--hold-after 60.5: want 0 to 60 s"},
		{"matching", Matching, []string{"eval", "--seconds", "0.5"}, "--seconds 0.5: want 1 to 3600"},
	} {
		var out, errb bytes.Buffer
		if code := c.run(context.Background(), c.args, &out, &errb); code != ExitUsage || !strings.Contains(errb.String(), c.msg) || out.Len() > 0 {
			t.Errorf("%s %q: exit %d, stdout %q, stderr %q; want 2, nothing out, %q", c.name, c.args, code, out.String(), errb.String(), c.msg)
		}
	}
}
