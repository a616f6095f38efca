package flagrange

import (
	"math"
	"testing"
)

// TestCheck: values at the ends of a range pass, values past them, NaN,
// and values that parse but round to nothing (1e-300 s, 5e-324 frames/s)
// fail with the range in the error; 0 passes only where it means
// something.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		f    Float
		v    float64
		want string // "" for no error
	}{
		{DT, 1, ""},
		{DT, 1e-4, ""},
		{DT, 1e-300, "--dt 1e-300: want 0.0001 to 1 s"},
		{DT, 0, "--dt 0: want 0.0001 to 1 s"},
		{DT, math.NaN(), "--dt NaN: want 0.0001 to 1 s"},
		{ExportFPS, 0, ""},
		{ExportFPS, 5e-324, "--fps 5e-324: want 0 (the input's own frames) or 0.1 to 1e+06 frames/s"},
		{ExportFPS, math.Inf(1), "--fps +Inf: want 0 (the input's own frames) or 0.1 to 1e+06 frames/s"},
		{ExportFPS, 1e6, ""},
		{Jitter, 0, ""},
		{Jitter, -1e-300, "--jitter -1e-300: want 0 to 1"},
		{UIScale, 0, ""},
		{UIScale, 0.25, "--ui-scale 0.25: want 0 (from the window size and the monitor's DPI) or 0.5 to 4"},
		{HoldAfter, 61, "--hold-after 61: want 0 to 60 s"},
		{EvalSeconds, 0.5, "--seconds 0.5: want 1 to 3600 s"},
	} {
		err := c.f.Check(c.v)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("--%s %v: %v, want no error", c.f.Flag, c.v, err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("--%s %v: %v, want %q", c.f.Flag, c.v, err, c.want)
		}
	}
}
