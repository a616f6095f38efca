package spring

import (
	"math"
	"testing"
)

// TestVelocitySpringMatchesIntegration integrates the velocity spring's
// ODE, a' = -y²·(v - vGoal) - 2y·a, with RK4 at 1e-5 s and compares
// position, velocity and acceleration with the closed form after 1 s. RK4's
// global error at that step is ~1e-17 relative; float32 output rounding
// (~6e-8 relative of values of order 1-10) dominates, so 1e-5 absolute is
// two orders of headroom that a wrong term (e.g. a missing 1/y) would
// exceed by far.
func TestVelocitySpringMatchesIntegration(t *testing.T) {
	for _, c := range []struct{ x, v, a, g, h float64 }{
		{0, 0, 0, 1.5, 0.2}, {1, 3, -2, -1, 0.05}, {-2, -4, 10, 0, 0.5}, {0, 1, 0, 1, 1},
	} {
		y := 2 * math.Ln2 / c.h
		x, v, a := c.x, c.v, c.a
		f := func(v, a float64) (dv, da float64) { return a, -y*y*(v-c.g) - 2*y*a }
		const step = 1e-5
		for i := 0; i < 100000; i++ {
			// The state is (x, v, a); x' = v.
			k1v, k1a := f(v, a)
			k1x := v
			k2v, k2a := f(v+step/2*k1v, a+step/2*k1a)
			k2x := v + step/2*k1v
			k3v, k3a := f(v+step/2*k2v, a+step/2*k2a)
			k3x := v + step/2*k2v
			k4v, k4a := f(v+step*k3v, a+step*k3a)
			k4x := v + step*k3v
			x += step / 6 * (k1x + 2*k2x + 2*k3x + k4x)
			v += step / 6 * (k1v + 2*k2v + 2*k3v + k4v)
			a += step / 6 * (k1a + 2*k2a + 2*k3a + k4a)
		}
		gx, gv, ga := VelocitySpringExact(float32(c.x), float32(c.v), float32(c.a), float32(c.g), float32(c.h), 1)
		for _, d := range []struct {
			name      string
			got, want float64
		}{{"x", float64(gx), x}, {"v", float64(gv), v}, {"a", float64(ga), a}} {
			if math.Abs(d.got-d.want) > 1e-5*math.Max(1, math.Abs(d.want)) {
				t.Errorf("%+v: %s = %g, integration gives %g", c, d.name, d.got, d.want)
			}
		}
	}
}

// TestVelocitySpringDtInvariant: ten steps of 0.1 s land where one step of
// 1 s does (the closed form composes), to float32 rounding.
func TestVelocitySpringDtInvariant(t *testing.T) {
	x, v, a := float32(0.5), float32(2), float32(-1)
	for i := 0; i < 10; i++ {
		x, v, a = VelocitySpringExact(x, v, a, -1, 0.3, 0.1)
	}
	x1, v1, a1 := VelocitySpringExact(0.5, 2, -1, -1, 0.3, 1)
	if math.Abs(float64(x-x1)) > 1e-5 || math.Abs(float64(v-v1)) > 1e-5 || math.Abs(float64(a-a1)) > 1e-5 {
		t.Errorf("10 x 0.1 s: (%g %g %g), 1 x 1 s: (%g %g %g)", x, v, a, x1, v1, a1)
	}
}

// TestVelocitySpringEdges: half-life 0 snaps; dt 0 and huge dt stay finite.
func TestVelocitySpringEdges(t *testing.T) {
	if x, v, a := VelocitySpringExact(1, 5, 3, 2, 0, 0.5); x != 2 || v != 2 || a != 0 {
		t.Errorf("half-life 0: (%g %g %g), want (2 2 0)", x, v, a)
	}
	if x, v, a := VelocitySpringExact(1, 5, 3, 2, 0.2, 0); x != 1 || v != 5 || a != 3 {
		t.Errorf("dt 0 moved: (%g %g %g)", x, v, a)
	}
	x, v, a := VelocitySpringExact(1, 5, 3, 2, 0.2, 1e6)
	if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) || v != 2 || a != 0 {
		t.Errorf("dt 1e6: (%g %g %g)", x, v, a)
	}
}
