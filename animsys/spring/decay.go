package spring

import (
	"math"

	"kinelab/animsys/mathx"
)

// CriticalDecayWeights returns the weights with which the critically damped
// "decay" spring carries an offset (x0, v0) to zero after time t (seconds):
//
//	x(t) = w0*x0 + w1*v0
//	v(t) = w2*x0 + w3*v0
//
// with y = 2 ln2 / halflife (halflife_to_damping(halflife)/2). This is the
// closed form behind the article's decay_spring_damper_exact, written as
// weights so an inertializer can apply it to positions, rotations and scales
// alike. Units: w0 and w3 are unitless, w1 is seconds, w2 is 1/s².
// A half-life below mathx.Eps means "snapped": all weights are zero (even
// for t = 0). Negative t is treated as zero.
func CriticalDecayWeights(halflife, t float32) (w0, w1, w2, w3 float32) {
	if halflife < mathx.Eps {
		return 0, 0, 0, 0
	}
	a, b, c, d := criticalWeights64(halflifeToY(halflife), math.Max(float64(t), 0))
	return f32(a), f32(b), f32(c), f32(d)
}

// criticalWeights64 is CriticalDecayWeights for decay rate y and t >= 0 in
// float64: e^(-yt)·(1 + yt), e^(-yt)·t, -e^(-yt)·y²t, e^(-yt)·(1 - yt).
func criticalWeights64(y, t float64) (w0, w1, w2, w3 float64) {
	e := math.Exp(-y * t)
	return e * (1 + y*t), e * t, -e * y * y * t, e * (1 - y*t)
}

// DecaySpringDamperExact is the article's decay_spring_damper_exact: the
// critical spring with the given half-life (seconds) carrying an offset x
// with velocity v (units/s) to zero over dt seconds. It returns the new
// offset and its velocity. A half-life below mathx.Eps snaps to (0, 0);
// otherwise dt <= 0 returns (x, v).
func DecaySpringDamperExact(x, v, halflife, dt float32) (x1, v1 float32) {
	if halflife < mathx.Eps {
		return 0, 0
	}
	if dt <= 0 {
		return x, v
	}
	xo, vo := critical64(float64(x), float64(v), halflifeToY(halflife), float64(dt))
	return f32(xo), f32(vo)
}

// halflifeToY is halflife_to_damping(halflife)/2 = 2 ln2 / halflife, the
// decay rate (1/s) of the critical spring, in float64.
func halflifeToY(halflife float32) float64 {
	return 2 * math.Ln2 / float64(halflife)
}

// critical64 advances an offset j0 with velocity v of the critical spring
// with decay rate y (d²x/dt² = -y²·x - 2y·dx/dt) by t >= 0 seconds:
//
//	j1 = v + y·j0,  x(t) = e^(-yt)·(j0 + j1·t),  v(t) = e^(-yt)·(v - y·j1·t).
func critical64(j0, v, y, t float64) (x, vt float64) {
	j1 := v + y*j0
	e := math.Exp(-y * t)
	return e * (j0 + j1*t), e * (v - y*j1*t)
}
