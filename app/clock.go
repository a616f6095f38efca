package app

import "kinelab/animsys/mathx"

// Clock is the playback clock every lab shares. It turns the real time of
// each rendered frame into the simulation steps labs run that frame.
//
//   - Fixed: the simulation ticks FixedDt steps at a rate of 1/FixedDt per
//     real second, with an accumulator: at 1/30 s some frames run no tick,
//     at 1/240 s a 60 Hz frame runs four. So a dt slider really changes the
//     tick rate. Otherwise one step per frame of the real frame time.
//   - Real frame times are capped at MaxDt, so a stalled window (a drag, a
//     breakpoint) does not jump the simulation by seconds, and at most
//     MaxSteps ticks run per frame.
//   - TimeScale multiplies each step's dt (smooth slow motion: the tick
//     rate stays, each tick advances less time).
//   - Jitter in [0, 1] scales each step by a seeded random factor in
//     [1-Jitter, 1+Jitter], to show what a technique does with uneven dt.
//   - Paused runs no step, except one after Step().
type Clock struct {
	Paused    bool
	Fixed     bool
	FixedDt   float32 // s
	TimeScale float32
	Jitter    float32
	MaxDt     float32 // s, cap on one frame's real time
	MaxSteps  int

	Time  float64 // simulation time (s) advanced so far
	Frame int64   // number of steps run

	acc   float32 // real time (s) not yet ticked, in fixed mode
	step  bool
	rng   mathx.Xorshift32 // Jitter's factors
	steps []float32
}

// NewClock returns a running clock ticking a fixed 1/60 s step.
func NewClock() Clock {
	return Clock{Fixed: true, FixedDt: 1.0 / 60, TimeScale: 1, MaxDt: 0.1, MaxSteps: 16, rng: mathx.Xorshift32{X: 0x9e3779b9}}
}

// Step asks for a single step on the next Advance while paused.
func (c *Clock) Step() { c.step = true }

// Advance consumes one rendered frame of realDt seconds and returns the dt
// (s) of each simulation step to run this frame, in order. The slice is
// reused by the next call.
func (c *Clock) Advance(realDt float32) []float32 {
	c.steps = c.steps[:0]
	if !(realDt > 0) { // also rejects NaN
		realDt = 0
	}
	realDt = min(realDt, c.MaxDt)
	if c.Paused {
		if c.step {
			dt := c.FixedDt
			if !c.Fixed {
				dt = realDt
			}
			c.emit(dt)
		}
		c.step = false
		return c.steps
	}
	c.step = false
	if !c.Fixed {
		c.emit(realDt)
		return c.steps
	}
	if !(c.FixedDt > 0) {
		return c.steps
	}
	c.acc += realDt
	for c.acc >= c.FixedDt*0.999 && len(c.steps) < c.MaxSteps {
		c.acc -= c.FixedDt
		c.emit(c.FixedDt)
	}
	if len(c.steps) == c.MaxSteps {
		c.acc = 0 // too slow to keep up: drop the backlog
	}
	c.acc = max(c.acc, 0)
	return c.steps
}

// emit appends one step of dt seconds, scaled and jittered.
func (c *Clock) emit(dt float32) {
	dt *= c.TimeScale
	if c.Jitter > 0 {
		dt *= 1 + c.Jitter*(2*c.rng.Float()-1)
	}
	if !(dt > 0) {
		return
	}
	c.Time += float64(dt)
	c.Frame++
	c.steps = append(c.steps, dt)
}
