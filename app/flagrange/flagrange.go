// Package flagrange states, once, the range of every number kinelab's
// command line takes as a float: the flag's check, its usage text and its
// error all read the same entry, so they cannot disagree. A range is
// what means something, not what parses: a time step of 1e-300 s parses,
// and became 0 in float32 (the app then ran silently at 1/60 s); an
// export at 5e-324 frames/s parses, and its frame time overflowed.
package flagrange

import (
	"fmt"
	"strconv"
)

// Float is a float flag's range: Min to Max (inclusive) in Unit, and,
// when Zero says what it means, 0 besides ("the input's own frames").
type Float struct {
	Flag     string  // the flag's name, without dashes
	Min, Max float64 // the values that mean something, inclusive
	Unit     string  // after the numbers: "s", "frames/s"; "" for none
	Zero     string  // what 0 means when it is allowed outside Min-Max, else ""
}

// The ranges.
var (
	// DT: a fixed time step from 10,000 ticks a second (a BVH file's
	// finest frame time, bvh.MinFrameTime) to one a second.
	DT = Float{Flag: "dt", Min: 1e-4, Max: 1, Unit: "s"}
	// Jitter: each step scaled by a random factor in [1-J, 1+J].
	Jitter = Float{Flag: "jitter", Min: 0, Max: 1}
	// UIScale: pixels per UI unit (the View section's slider too).
	UIScale = Float{Flag: "ui-scale", Min: 0.5, Max: 4, Zero: "from the window size and the monitor's DPI"}
	// ExportFPS: from a frame every 10 s (a BVH file's longest frame time,
	// bvh.MaxFrameTime) to a microsecond between frames, a hundred times
	// finer than a BVH file's finest: finer only adds rows (a 10 s clip
	// is ten million frames already).
	ExportFPS = Float{Flag: "fps", Min: 0.1, Max: 1e6, Unit: "frames/s", Zero: "the input's own frames"}
	// EvalSeconds: matching eval's input; an hour is 216,000 ticks, each
	// searched: longer is a typo.
	EvalSeconds = Float{Flag: "seconds", Min: 1, Max: 3600, Unit: "s"}
	// HoldAfter: matching eval's time at the clamp's distance before the
	// simulation is held back.
	HoldAfter = Float{Flag: "hold-after", Min: 0, Max: 60, Unit: "s"}
	// Bend: matching eval's turn the search may leave to the root beyond
	// the clip's own (the lab's Bend slider's range).
	Bend = Float{Flag: "bend", Min: 0, Max: 3, Unit: "rad/s"}
)

// Range is the range as the usage text and the errors say it: "0.0001 to
// 1 s", "0 (the input's own frames) or 0.1 to 1e+06 frames/s".
func (f Float) Range() string {
	r := g(f.Min) + " to " + g(f.Max)
	if f.Unit != "" {
		r += " " + f.Unit
	}
	if f.Zero != "" {
		r = "0 (" + f.Zero + ") or " + r
	}
	return r
}

// In reports whether v is in the range (NaN never is).
func (f Float) In(v float64) bool {
	return v >= f.Min && v <= f.Max || v == 0 && f.Zero != ""
}

// Check is nil for a value in the range, else the error: "--dt 1e-300:
// want 0.0001 to 1 s".
func (f Float) Check(v float64) error {
	if f.In(v) {
		return nil
	}
	return fmt.Errorf("--%s %v: want %s", f.Flag, v, f.Range())
}

// Usage is a flag's usage text with its range: what, then "(range)".
func (f Float) Usage(what string) string {
	return what + " (" + f.Range() + ")"
}

func g(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
