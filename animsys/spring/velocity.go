package spring

import (
	"math"

	"kinelab/animsys/mathx"
)

// VelocitySpringExact moves a point whose VELOCITY is a critical spring:
// over dt seconds, velocity v (units/s) with acceleration a (units/s²)
// tends to the goal velocity vGoal with the given half-life (s), and the
// position x (units) is its exact integral. This is the
// perfect-tracking-with-springs article's critical spring applied one
// derivative up (the motion-matching "spring character"): with
// j0 = v - vGoal, j1 = a + y·j0 and y = 2 ln2 / halflife,
//
//	v(t) = vGoal + e^(-yt)·(j0 + j1·t)
//	a(t) = e^(-yt)·(a - y·j1·t)
//	x(t) = x + vGoal·t + j0·(1 - e^(-yt))/y + j1·(1 - e^(-yt)·(1 + yt))/y²
//
// A half-life below mathx.Eps snaps the velocity to vGoal (the position
// then moves at vGoal); dt <= 0 returns the inputs.
func VelocitySpringExact(x, v, a, vGoal, halflife, dt float32) (x1, v1, a1 float32) {
	if dt <= 0 {
		return x, v, a
	}
	if halflife < mathx.Eps {
		return f32(float64(x) + float64(vGoal)*float64(dt)), vGoal, 0
	}
	y, t := halflifeToY(halflife), float64(dt)
	j0 := float64(v) - float64(vGoal)
	j1 := float64(a) + y*j0
	e := math.Exp(-y * t)
	x1 = f32(float64(x) + float64(vGoal)*t + j0*(1-e)/y + j1*(1-e*(1+y*t))/(y*y))
	v1 = f32(float64(vGoal) + e*(j0+j1*t))
	a1 = f32(e * (float64(a) - y*j1*t))
	return x1, v1, a1
}
