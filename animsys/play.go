package animsys

import "math"

// PlayMode is how a clip plays on past its end.
type PlayMode int32

// The play modes.
const (
	// PlayLoop jumps back to the start: seamless for a clip that marks a
	// loop (Clip.LoopStart, LoopEnd), a jump in the pose for one that
	// does not.
	PlayLoop PlayMode = iota
	// PlayClamp holds the last frame, at rest.
	PlayClamp
	// PlayPingPong plays backwards to the start, then forwards again: the
	// pose never jumps, its velocities turn round at each end.
	PlayPingPong
)

var playModeNames = [...]string{"loop", "clamp", "ping-pong"}

// String is the mode's name: "loop", "clamp" or "ping-pong".
func (m PlayMode) String() string {
	if m >= 0 && int(m) < len(playModeNames) {
		return playModeNames[m]
	}
	return "loop"
}

// Advance moves playback time t (s) on by dt (s, >= 0) for a clip whose
// loop lasts length seconds. It returns the new playback time, kept within
// one period of the mode so that float32 time stays exact however long a
// clip plays, and whether the step crossed an end: a wrap, a turn, or the
// stop of a clamped clip. Such a step makes a finite difference read
// across the end, so its red/blue comparison means nothing.
func (m PlayMode) Advance(t, dt, length float32) (float32, bool) {
	if !(length > 0) || !(dt > 0) {
		return max(t, 0), false
	}
	next := t + dt
	switch m {
	case PlayClamp:
		if next >= length {
			return length, t < length
		}
		return next, false
	case PlayPingPong:
		// Ends at length (a turn) and at 2 length (back at the start).
		crossed := (t < length && next >= length) || next >= 2*length || dt >= length
		return wrap32(next, 2*length), crossed
	}
	return wrap32(next, length), next >= length
}

// At maps playback time t (s, within the mode's period) to the time into
// the clip's loop (s) to sample, and the rate the clip plays at there: +1
// forwards, -1 backwards (ping-pong's way back), 0 when held. Scale the
// sampled velocities by the rate (TimeScale).
func (m PlayMode) At(t, length float32) (offset, rate float32) {
	if !(length > 0) {
		return 0, 0
	}
	switch m {
	case PlayClamp:
		if t >= length {
			return length, 0
		}
		return max(t, 0), 1
	case PlayPingPong:
		t = wrap32(t, 2*length)
		if t > length {
			return 2*length - t, -1
		}
		return t, 1
	}
	return wrap32(t, length), 1
}

// wrap32 is t modulo d in [0, d), 0 for a non-finite result.
func wrap32(t, d float32) float32 {
	r := float32(math.Mod(float64(t), float64(d)))
	if r < 0 {
		r += d
	}
	if !(r >= 0 && r < d) {
		return 0
	}
	return r
}
