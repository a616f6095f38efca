package ui

// The UI's clock: what a double-click and the caret's blink read, instead
// of raylib's wall clock (rl.GetTime). The App advances it once a frame by
// the frame's time (Tick): a user's real frame time, so a double-click is
// two clicks within DoubleClick seconds of real time; 1/60 s a frame in a
// --frames run and in tests, which step frames, so what they do does not
// hang on how fast the machine draws.
var clock float64

// DoubleClick is the longest time (s) between the two clicks of a
// double-click.
const DoubleClick = 0.35

// Tick advances the UI's clock by dt seconds (the frame just begun's
// time); a dt that is not positive (or NaN) leaves it.
func Tick(dt float32) {
	if dt > 0 {
		clock += float64(dt)
	}
}

// Now is the UI's clock (s): the frame times Tick added up.
func Now() float64 { return clock }
