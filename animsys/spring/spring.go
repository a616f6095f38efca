package spring

import (
	"math"

	"kinelab/animsys/mathx"
)

// SpringDamperExact is the article's spring_damper_exact_stiffness_damping:
// the exact solution, over dt seconds, of
//
//	x'' = stiffness·(g - x) + damping·(q - v)
//
// for position x (units), velocity v (units/s), goal position g, goal
// velocity q (units/s), stiffness (1/s²) and damping (1/s), with the goals
// held fixed over the step. It returns the new position and velocity.
//
// All three regimes (under-, critically and over-damped) are handled, and the
// result is continuous across their boundaries. The spring settles at the
// rest point g + damping·q/stiffness. Stiffness below mathx.Eps is treated as
// zero (a pure velocity damper that drifts at q). Negative stiffness or
// damping are treated as zero. dt <= 0 returns (x, v).
func SpringDamperExact(x, v, g, q, stiffness, damping, dt float32) (x1, v1 float32) {
	if dt <= 0 {
		return x, v
	}
	d := math.Max(float64(damping), 0)
	xo, vo := springDamper64(float64(x), float64(v), float64(g), d*float64(q),
		math.Max(float64(stiffness), 0), d, float64(dt))
	return f32(xo), f32(vo)
}

// CriticalSpringDamperExact is the article's critical_spring_damper_exact:
// SpringDamperExact with the damping given by a half-life (seconds) and the
// stiffness chosen for critical damping, stiffness = damping²/4. With a goal
// velocity q it settles at g + 2q/y where y = 2 ln2 / halflife. A half-life
// below mathx.Eps snaps to (g, 0), the limit of the spring as its half-life
// goes to zero; otherwise dt <= 0 returns (x, v).
func CriticalSpringDamperExact(x, v, g, q, halflife, dt float32) (x1, v1 float32) {
	if halflife < mathx.Eps {
		return g, 0
	}
	if dt <= 0 {
		return x, v
	}
	y := halflifeToY(halflife)
	c := float64(g) + 2*float64(q)/y
	xo, vo := critical64(float64(x)-c, float64(v), y, float64(dt))
	return f32(c + xo), f32(vo)
}

// SimpleSpringDamperExact is the article's simple_spring_damper_exact: the
// critical spring with half-life halflife (seconds) moving (x, v) towards the
// goal g at rest. A half-life below mathx.Eps snaps to (g, 0); otherwise
// dt <= 0 returns (x, v).
func SimpleSpringDamperExact(x, v, g, halflife, dt float32) (x1, v1 float32) {
	if halflife < mathx.Eps {
		return g, 0
	}
	if dt <= 0 {
		return x, v
	}
	xo, vo := critical64(float64(x)-float64(g), float64(v), halflifeToY(halflife), float64(dt))
	return f32(float64(g) + xo), f32(vo)
}

// criticalTolerance is how close s - d²/4 must be to zero, relative to the
// stiffness, for springDamper64 to use the critical form. The under- and
// over-damped forms below are themselves continuous at zero, so this only
// picks the cheaper formula; it does not create a seam.
const criticalTolerance = 1e-9

// springDamper64 is the exact solution of d²x/dt² = s·(g - x) - d·v + f
// over t >= 0 seconds, for s, d >= 0 and a constant force f (f = d·q for a goal
// velocity q).
//
// With the rest point c = g + f/s, y = d/2, D = s - y², j0 = x - c and
// j1 = v + y·j0, every regime is
//
//	x(t) = c + j0·E·C(t) + j1·E·S(t)
//	v(t) = v·E·C(t) - (y·j1 + D·j0)·E·S(t),   E = e^(-yt)
//
// with C = cos(wt), S = sin(wt)/w when under-damped (w = sqrt(D)),
// C = cosh(rt), S = sinh(rt)/r when over-damped (r = sqrt(-D)) and C = 1,
// S = t when critical. This is the amplitude/phase form of the spring notes
// (A·cos(wt + p) expanded) and their two-exponential form
// (j0'·e^(-y0 t) + j1'·e^(-y1 t), y0,1 = y ± r, regrouped), written so that
// both tend to the critical form as D -> 0 instead of dividing by w or r.
func springDamper64(x, v, g, f, s, d, t float64) (xt, vt float64) {
	if s < mathx.Eps {
		return velocityDamper64(x, v, f, d, t)
	}
	c := g + f/s
	y := d / 2
	D := s - y*y
	j0 := x - c
	j1 := v + y*j0
	var eC, eS float64 // e^(-yt)·C(t) and e^(-yt)·S(t)
	switch {
	case math.Abs(D) <= criticalTolerance*s:
		e := math.Exp(-y * t)
		eC, eS = e, e*t
	case D > 0:
		w := math.Sqrt(D)
		e := math.Exp(-y * t)
		sn, cs := math.Sincos(w * t)
		eC, eS = e*cs, e*sn/w
	default:
		r := math.Sqrt(-D)
		if r*t < 1 {
			// Near critical: sinh(rt)/r stays accurate as r -> 0.
			e := math.Exp(-y * t)
			eC, eS = e*math.Cosh(r*t), e*math.Sinh(r*t)/r
		} else {
			// Far from critical: two decaying exponentials, no overflow.
			// The slow root s/(y+r) = y-r without cancellation.
			es := math.Exp(-s / (y + r) * t)
			ef := math.Exp(-(y + r) * t)
			eC, eS = (es+ef)/2, (es-ef)/(2*r)
		}
	}
	return c + j0*eC + j1*eS, v*eC - (y*j1+D*j0)*eS
}

// velocityDamper64 is springDamper64 without stiffness: d²x/dt² = f - d·v.
// With z = d·t,
//
//	v(t) = v·e^(-z) + f·(1 - e^(-z))/d
//	x(t) = x + v·(1 - e^(-z))/d + f·(t - (1 - e^(-z))/d)/d
//
// using Taylor series when z is small so d = 0 (free motion under f) works.
func velocityDamper64(x, v, f, d, t float64) (xt, vt float64) {
	z := d * t
	var e1, e2 float64 // (1 - e^(-z))/d and (t - e1)/d
	if z < 1e-3 {
		e1 = t * (1 - z/2 + z*z/6 - z*z*z/24)
		e2 = t * t * (0.5 - z/6 + z*z/24 - z*z*z/120)
	} else {
		e1 = -math.Expm1(-z) / d
		e2 = (t - e1) / d
	}
	return x + v*e1 + f*e2, v*math.Exp(-z) + f*e1
}
