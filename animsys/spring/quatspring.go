package spring

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// QuatSpringDamperExact is the article's simple_spring_damper_exact_quat: the
// critical spring with half-life halflife (seconds) moving rotation x with
// angular velocity v towards the goal rotation g at rest.
//
// The offset is the scaled angle-axis of x·g⁻¹ (shortest way round), so it
// and v live in the frame the quaternions are expressed in (the parent frame
// of a joint, or world): v is in rad/s in that frame, and the result is
// exp(offset)·g. Strictly v is the rate of change of that offset; it equals
// the angular velocity of x whenever the offset keeps its axis (always true
// for a spring started at rest or with v along the offset) and differs from
// it otherwise by about ½·offset×v (the exponential map's Jacobian).
//
// A half-life below mathx.Eps snaps to (g, 0); otherwise dt <= 0 returns
// (x, v).
func QuatSpringDamperExact(x mgl32.Quat, v mgl32.Vec3, g mgl32.Quat, halflife, dt float32) (x1 mgl32.Quat, v1 mgl32.Vec3) {
	if halflife < mathx.Eps {
		return g, mgl32.Vec3{}
	}
	if dt <= 0 {
		return x, v
	}
	j0 := mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(x, g)))
	w0, w1, w2, w3 := CriticalDecayWeights(halflife, dt)
	j := j0.Mul(w0).Add(v.Mul(w1))
	return mathx.QuatMul(mathx.QuatFromScaledAngleAxis(j), g), j0.Mul(w2).Add(v.Mul(w3))
}
