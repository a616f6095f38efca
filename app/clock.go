package app

// Clock is the playback clock every lab shares: it turns the real frame
// time into the simulation step dt (s) a lab's update receives.
//
//   - Fixed: dt is FixedDt each frame (the articles' 1/60 s), whatever the
//     real frame time; otherwise dt is the real frame time, capped at MaxDt
//     so a stalled window (a drag, a breakpoint) does not jump the
//     simulation by seconds.
//   - TimeScale multiplies dt (slow motion < 1 < fast forward).
//   - Jitter in [0, 1] scales each dt by a seeded random factor in
//     [1-Jitter, 1+Jitter], to show what a technique does with an uneven dt.
//   - Paused gives dt = 0 except on a frame after Step(), which advances
//     one frame's worth (FixedDt or the capped frame time, times TimeScale).
type Clock struct {
	Paused    bool
	Fixed     bool
	FixedDt   float32 // s
	TimeScale float32
	Jitter    float32
	MaxDt     float32 // s, cap on the real frame time

	Time  float64 // simulation time (s) accumulated by Tick
	Frame int64   // number of ticks that advanced time

	step bool
	rng  uint32
}

// NewClock returns a running clock with a fixed 1/60 s step.
func NewClock() Clock {
	return Clock{Fixed: true, FixedDt: 1.0 / 60, TimeScale: 1, MaxDt: 0.1, rng: 0x9e3779b9}
}

// Step asks for a single step on the next Tick while paused.
func (c *Clock) Step() { c.step = true }

// Tick consumes one rendered frame of realDt seconds and returns the
// simulation dt (s) to advance by; 0 means "do not advance".
func (c *Clock) Tick(realDt float32) float32 {
	if c.Paused && !c.step {
		return 0
	}
	c.step = false
	dt := c.FixedDt
	if !c.Fixed {
		dt = realDt
		if !(dt > 0) { // also rejects NaN
			dt = 0
		}
		if dt > c.MaxDt {
			dt = c.MaxDt
		}
	}
	dt *= c.TimeScale
	if c.Jitter > 0 {
		dt *= 1 + c.Jitter*(2*c.uniform()-1)
	}
	if !(dt > 0) {
		return 0
	}
	c.Time += float64(dt)
	c.Frame++
	return dt
}

// uniform draws from [0, 1) with xorshift32, deterministic per clock.
func (c *Clock) uniform() float32 {
	c.rng ^= c.rng << 13
	c.rng ^= c.rng >> 17
	c.rng ^= c.rng << 5
	return float32(c.rng>>8) / (1 << 24)
}
