package labs

import (
	"io"
	"strings"
	"testing"

	"kinelab/app"
)

// TestNumericFlagBounds checks the ends of the app's numeric flags that
// had none, or none stated: --frames (at most ten million), --seed (a
// 32-bit state, which a larger value wrapped into silently) and the
// float flags (their ranges in package flagrange); each end is taken, one
// past it refused with the range.
func TestNumericFlagBounds(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string // "" for none
	}{
		{[]string{"--frames", "10000000"}, ""},
		{[]string{"--frames", "10000001"}, "at most 10000000"},
		{[]string{"--seed", "0"}, ""},
		{[]string{"--seed", "4294967295"}, ""},
		{[]string{"--seed", "4294967296"}, "--seed 4294967296: want 0 to 4294967295"},
		{[]string{"--seed", "-1"}, "--seed -1: want 0 to 4294967295"},
		{[]string{"--width", "7680", "--height", "4320"}, ""},
		{[]string{"--width", "7681"}, "want 320-7680 x 240-4320"},
		{[]string{"--dt", "1"}, ""},
		{[]string{"--dt", "1.5"}, "--dt 1.5: want 0.0001 to 1 s"},
		{[]string{"--dt", "0.0001"}, ""},
		// Parses, but is 0 in float32: it ran silently at 1/60 s.
		{[]string{"--dt", "1e-300"}, "--dt 1e-300: want 0.0001 to 1 s"},
		{[]string{"--dt", "5e-324"}, "--dt 5e-324: want 0.0001 to 1 s"},
		{[]string{"--jitter", "1"}, ""},
		{[]string{"--jitter", "-0.1"}, "--jitter -0.1: want 0 to 1"},
		{[]string{"--ui-scale", "4"}, ""},
		{[]string{"--ui-scale", "4.5"}, "--ui-scale 4.5: want 0 (from the window size and the monitor's DPI) or 0.5 to 4"},
	} {
		cfg, err := app.ParseFlags(c.args, io.Discard, All())
		switch {
		case c.msg == "" && err != nil:
			t.Errorf("%q: %v; want it taken", c.args, err)
		case c.msg != "" && (err == nil || !strings.Contains(err.Error(), c.msg)):
			t.Errorf("%q: %v; want an error containing %q", c.args, err, c.msg)
		case c.args[0] == "--seed" && err == nil && strings.TrimLeft(c.args[1], "0") != "" && cfg.Seed == 0:
			t.Errorf("%q: seed %d", c.args, cfg.Seed)
		}
	}
}
