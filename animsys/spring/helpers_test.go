package spring

import (
	"math"
	"testing"
)

// rk4 integrates the second-order ODE d²x/dt² = acc(x, v) from (x, v) over t
// seconds in float64 with steps of at most h. It is the reference the closed
// forms are checked against.
func rk4(x, v, t, h float64, acc func(x, v float64) float64) (float64, float64) {
	n := int(math.Ceil(t / h))
	if n < 1 {
		n = 1
	}
	dt := t / float64(n)
	for i := 0; i < n; i++ {
		k1x, k1v := v, acc(x, v)
		k2x, k2v := v+dt/2*k1v, acc(x+dt/2*k1x, v+dt/2*k1v)
		k3x, k3v := v+dt/2*k2v, acc(x+dt/2*k2x, v+dt/2*k2v)
		k4x, k4v := v+dt*k3v, acc(x+dt*k3x, v+dt*k3v)
		x += dt / 6 * (k1x + 2*k2x + 2*k3x + k4x)
		v += dt / 6 * (k1v + 2*k2v + 2*k3v + k4v)
	}
	return x, v
}

// rk4Step is the step the RK4 references use: 1e-4 s keeps RK4's O(h⁴)
// error far below float32 precision for the stiffest springs tested
// (natural frequencies up to ~30 rad/s, decay rates up to ~30/s).
const rk4Step = 1e-4

// relErr is |got - want| relative to 1 + scale, so values near zero are
// compared absolutely and large ones relatively.
func relErr(got float32, want, scale float64) float64 {
	return math.Abs(float64(got)-want) / (1 + math.Abs(scale))
}

func finite(xs ...float32) bool {
	for _, x := range xs {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}

// checkTimes are the step lengths (seconds) the closed forms are checked at:
// a short frame, a 60 Hz frame, and long steps where the regimes differ most.
var checkTimes = []float32{0.001, 1.0 / 60, 0.3, 1.7}

// logMax logs a figure for the report with a fixed layout.
func logMax(t *testing.T, what string, v float64) {
	t.Helper()
	t.Logf("%-44s max error %.3g", what, v)
}
