package animsys

import "testing"

func TestPlayModes(t *testing.T) {
	const n = 2 // s, the loop's length
	for _, c := range []struct {
		mode         PlayMode
		t, dt        float32
		next         float32
		crossed      bool
		offset, rate float32 // At(next)
	}{
		{PlayLoop, 0.5, 0.25, 0.75, false, 0.75, 1},
		{PlayLoop, 1.9, 0.25, 0.15, true, 0.15, 1},
		{PlayLoop, 1, 5, 0, true, 0, 1}, // several loops in one step
		{PlayClamp, 1.9, 0.25, 2, true, 2, 0},
		{PlayClamp, 2, 0.25, 2, false, 2, 0}, // held: no new event
		{PlayPingPong, 1.9, 0.25, 2.15, true, 1.85, -1},
		{PlayPingPong, 2.5, 0.25, 2.75, false, 1.25, -1},
		{PlayPingPong, 3.9, 0.25, 0.15, true, 0.15, 1},
		{PlayPingPong, 0.5, 0.25, 0.75, false, 0.75, 1},
	} {
		next, crossed := c.mode.Advance(c.t, c.dt, n)
		off, rate := c.mode.At(next, n)
		if d := next - c.next; d > 1e-6 || d < -1e-6 || crossed != c.crossed {
			t.Errorf("%v: Advance(%v, %v) = %v, %v; want %v, %v", c.mode, c.t, c.dt, next, crossed, c.next, c.crossed)
		}
		if d := off - c.offset; d > 1e-6 || d < -1e-6 || rate != c.rate {
			t.Errorf("%v: At(%v) = %v, %v; want %v, %v", c.mode, next, off, rate, c.offset, c.rate)
		}
	}
	// dt 0, a zero-length clip and NaN never give a non-finite time.
	for _, m := range []PlayMode{PlayLoop, PlayClamp, PlayPingPong} {
		for _, l := range []float32{0, 1} {
			next, _ := m.Advance(0.3, 0, l)
			off, rate := m.At(next, l)
			if next != next || off != off || rate != rate {
				t.Errorf("%v length %v: %v %v %v", m, l, next, off, rate)
			}
		}
	}
}
