package app

import (
	"math"
	"testing"
)

func TestClockFixedIgnoresFrameTime(t *testing.T) {
	c := NewClock()
	for _, real := range []float32{0.001, 0.016, 0.5, 0} {
		if dt := c.Tick(real); dt != c.FixedDt {
			t.Fatalf("fixed clock: Tick(%v) = %v, want %v", real, dt, c.FixedDt)
		}
	}
	if c.Frame != 4 || math.Abs(c.Time-4.0/60) > 1e-6 {
		t.Fatalf("after 4 fixed ticks: frame %d time %v", c.Frame, c.Time)
	}
}

func TestClockFrameDtIsCappedAndSanitised(t *testing.T) {
	c := NewClock()
	c.Fixed = false
	cases := []struct{ real, want float32 }{
		{0.02, 0.02},
		{5, c.MaxDt},
		{0, 0},
		{-1, 0},
		{float32(math.NaN()), 0},
		{float32(math.Inf(1)), c.MaxDt},
	}
	for _, k := range cases {
		if got := c.Tick(k.real); got != k.want {
			t.Errorf("Tick(%v) = %v, want %v", k.real, got, k.want)
		}
	}
}

func TestClockPauseAndStep(t *testing.T) {
	c := NewClock()
	c.Paused = true
	for i := 0; i < 3; i++ {
		if dt := c.Tick(0.016); dt != 0 {
			t.Fatalf("paused clock advanced by %v", dt)
		}
	}
	c.Step()
	if dt := c.Tick(0.016); dt != c.FixedDt {
		t.Fatalf("step advanced by %v, want %v", dt, c.FixedDt)
	}
	if dt := c.Tick(0.016); dt != 0 {
		t.Fatalf("step carried over to the next frame: %v", dt)
	}
	if c.Frame != 1 {
		t.Fatalf("frame = %d, want 1", c.Frame)
	}
}

func TestClockTimeScale(t *testing.T) {
	c := NewClock()
	c.TimeScale = 0.25
	if dt := c.Tick(0.016); dt != c.FixedDt*0.25 {
		t.Fatalf("time scale 0.25: dt %v", dt)
	}
	c.TimeScale = 0
	if dt := c.Tick(0.016); dt != 0 {
		t.Fatalf("time scale 0 still advanced by %v", dt)
	}
	c.Paused = true
	c.TimeScale = 2
	c.Step()
	if dt := c.Tick(0.016); dt != c.FixedDt*2 {
		t.Fatalf("a step honours time scale: got %v", dt)
	}
}

func TestClockJitterStaysInBandAndIsDeterministic(t *testing.T) {
	a, b := NewClock(), NewClock()
	a.Jitter, b.Jitter = 0.5, 0.5
	lo, hi := float32(1), float32(0)
	for i := 0; i < 1000; i++ {
		da, db := a.Tick(0), b.Tick(0)
		if da != db {
			t.Fatalf("tick %d: two seeded clocks differ: %v vs %v", i, da, db)
		}
		r := da / a.FixedDt
		if r < 0.5 || r > 1.5 {
			t.Fatalf("jittered dt ratio %v outside [0.5, 1.5]", r)
		}
		lo, hi = min(lo, r), max(hi, r)
	}
	// 1000 uniform draws cover most of the band: a broken RNG would not.
	if lo > 0.55 || hi < 1.45 {
		t.Fatalf("jitter covers only [%v, %v]", lo, hi)
	}
}
