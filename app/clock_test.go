package app

import (
	"math"
	"testing"
)

func sum(s []float32) (t float32) {
	for _, x := range s {
		t += x
	}
	return t
}

// At the default 1/60 s step and 60 Hz frames, one step per frame.
func TestClockFixedOneStepPerFrame(t *testing.T) {
	c := NewClock()
	for i := 0; i < 100; i++ {
		s := c.Advance(1.0 / 60)
		if len(s) != 1 || s[0] != c.FixedDt {
			t.Fatalf("frame %d: steps %v, want one of %v", i, s, c.FixedDt)
		}
	}
	if c.Frame != 100 || math.Abs(c.Time-100.0/60) > 1e-4 {
		t.Fatalf("after 100 frames: %d steps, %v s", c.Frame, c.Time)
	}
}

// A fixed step really changes the tick rate: over one real second, 1/dt
// ticks of dt each, whatever the frame rate.
func TestClockFixedTickRate(t *testing.T) {
	for _, dt := range []float32{1.0 / 30, 1.0 / 60, 1.0 / 120, 1.0 / 240} {
		for _, frame := range []float32{1.0 / 60, 1.0 / 144, 1.0 / 25} {
			c := NewClock()
			c.FixedDt = dt
			frames := int(math.Round(float64(10 / frame)))
			for i := 0; i < frames; i++ {
				for _, s := range c.Advance(frame) {
					if s != dt {
						t.Fatalf("dt %v frame %v: a step of %v", dt, frame, s)
					}
				}
			}
			want := 10 / float64(dt)
			if math.Abs(float64(c.Frame)-want) > 2 {
				t.Errorf("dt %v, frames of %v s: %d ticks in 10 s, want %.0f", dt, frame, c.Frame, want)
			}
		}
	}
}

func TestClockRealFrameDtIsCappedAndSanitised(t *testing.T) {
	c := NewClock()
	c.Fixed = false
	cases := []struct{ real, want float32 }{
		{0.02, 0.02},
		{5, c.MaxDt},
		{float32(math.Inf(1)), c.MaxDt},
	}
	for _, k := range cases {
		if got := c.Advance(k.real); len(got) != 1 || got[0] != k.want {
			t.Errorf("Advance(%v) = %v, want [%v]", k.real, got, k.want)
		}
	}
	for _, bad := range []float32{0, -1, float32(math.NaN())} {
		if got := c.Advance(bad); len(got) != 0 {
			t.Errorf("Advance(%v) = %v, want no step", bad, got)
		}
	}
}

// A stalled frame runs at most MaxSteps ticks and drops the backlog.
func TestClockStallIsBounded(t *testing.T) {
	c := NewClock()
	c.FixedDt = 1.0 / 1000
	if n := len(c.Advance(10)); n != c.MaxSteps {
		t.Fatalf("stalled frame ran %d steps, want %d", n, c.MaxSteps)
	}
	c.FixedDt = 1.0 / 60
	if n := len(c.Advance(1.0 / 60)); n != 1 {
		t.Fatalf("after the stall, %d steps, want 1", n)
	}
}

func TestClockPauseAndStep(t *testing.T) {
	c := NewClock()
	c.Paused = true
	for i := 0; i < 3; i++ {
		if s := c.Advance(0.016); len(s) != 0 {
			t.Fatalf("paused clock stepped %v", s)
		}
	}
	c.Step()
	if s := c.Advance(0.016); len(s) != 1 || s[0] != c.FixedDt {
		t.Fatalf("step gave %v, want [%v]", s, c.FixedDt)
	}
	if s := c.Advance(0.016); len(s) != 0 {
		t.Fatalf("the step carried over: %v", s)
	}
	// Unpausing does not release the time spent paused.
	c.Paused = false
	if s := c.Advance(1.0 / 60); len(s) != 1 {
		t.Fatalf("after unpausing: %v", s)
	}
}

func TestClockTimeScale(t *testing.T) {
	c := NewClock()
	c.TimeScale = 0.25
	if s := c.Advance(1.0 / 60); len(s) != 1 || s[0] != c.FixedDt*0.25 {
		t.Fatalf("time scale 0.25: %v", s)
	}
	c.TimeScale = 0
	if s := c.Advance(1.0 / 60); len(s) != 0 {
		t.Fatalf("time scale 0 still stepped %v", s)
	}
}

func TestClockJitterStaysInBandAndIsDeterministic(t *testing.T) {
	a, b := NewClock(), NewClock()
	a.Jitter, b.Jitter = 0.5, 0.5
	lo, hi := float32(1), float32(0)
	for i := 0; i < 1000; i++ {
		sa, sb := a.Advance(1.0/60), b.Advance(1.0/60)
		if sum(sa) != sum(sb) || len(sa) != 1 {
			t.Fatalf("frame %d: two seeded clocks differ: %v vs %v", i, sa, sb)
		}
		r := sa[0] / a.FixedDt
		if r < 0.5 || r > 1.5 {
			t.Fatalf("jittered dt ratio %v outside [0.5, 1.5]", r)
		}
		lo, hi = min(lo, r), max(hi, r)
	}
	if lo > 0.55 || hi < 1.45 {
		t.Fatalf("jitter covers only [%v, %v]", lo, hi)
	}
}

func TestClockAdvanceDoesNotAllocate(t *testing.T) {
	c := NewClock()
	c.FixedDt = 1.0 / 240
	c.Advance(1.0 / 60)
	if n := testing.AllocsPerRun(100, func() { c.Advance(1.0 / 60) }); n != 0 {
		t.Fatalf("Advance allocates %v times", n)
	}
}
