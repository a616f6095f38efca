package mathx

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Derivative helpers (propagating-velocities, "Procedural Animation").
//
// Each XxxDx function returns the time derivative of Xxx given its inputs
// and their time derivatives: if x moves at dx per second, XxxDx(x, dx) is
// how fast Xxx(x) moves per second. They are the chain rule written out, so
// procedural code built from Xxx can propagate velocities alongside values.

// SqrtDx is d sqrt(x) = dx / (2 sqrt(x)) (sqrtf_dx). Eps keeps x = 0 finite.
func SqrtDx(x, dx float32) float32 { return dx / (2*Sqrt(x) + Eps) }

// CrossDx is d (v x w) = dv x w + v x dw (cross_dx).
func CrossDx(v, dv, w, dw mgl32.Vec3) mgl32.Vec3 { return dv.Cross(w).Add(v.Cross(dw)) }

// DotDx is d (v . w) = dv . w + v . dw (dot_dx).
func DotDx(v, dv, w, dw mgl32.Vec3) float32 { return dv.Dot(w) + v.Dot(dw) }

// Vec3Normalize is v / |v|, and zero for a (near) zero vector rather than NaN.
func Vec3Normalize(v mgl32.Vec3) mgl32.Vec3 {
	l := v.Len()
	if l < Eps {
		return mgl32.Vec3{}
	}
	return v.Mul(1 / l)
}

// NormalizeDx is d (v / |v|) = (dv - n (dv . n)) / |v| with n = v / |v|
// (normalize_dx): the part of dv across the direction, over the length.
func NormalizeDx(v, dv mgl32.Vec3) mgl32.Vec3 {
	n := Vec3Normalize(v)
	return dv.Sub(n.Mul(dv.Dot(n))).Mul(1 / (v.Len() + Eps))
}

// QuatDot is the 4-D dot product of two quaternions.
func QuatDot(a, b mgl32.Quat) float32 { return a.W*b.W + a.V.Dot(b.V) }

// QuatNormalizeDx is d (q / |q|) for a quaternion q moving at dq
// (quat_normalize_dx): (dq - n (n . dq)) / |q| with n = q / |q|, the same
// formula as NormalizeDx in four dimensions.
func QuatNormalizeDx(q, dq mgl32.Quat) mgl32.Quat {
	l := Sqrt(QuatDot(q, q))
	n := mgl32.Quat{W: q.W / (l + Eps), V: q.V.Mul(1 / (l + Eps))}
	k := QuatDot(n, dq)
	inv := 1 / (l + Eps)
	return mgl32.Quat{W: (dq.W - n.W*k) * inv, V: dq.V.Sub(n.V.Mul(k)).Mul(inv)}
}

// QuatBetweenDx is the time derivative of the (unnormalised-then-normalised)
// quaternion QuatBetween(p, q) when p moves at dp and q at dq
// (quat_between_dx). It is a quaternion rate, not an angular velocity: pass
// it to QuatDeltaToAngularVelocity.
func QuatBetweenDx(p, dp, q, dq mgl32.Vec3) mgl32.Quat {
	c := p.Cross(q)
	dc := CrossDx(p, dp, q, dq)
	pp, qq := p.Dot(p), q.Dot(q)
	a := Sqrt(pp*qq) + p.Dot(q)
	da := SqrtDx(pp*qq, DotDx(p, dp, p, dp)*qq+DotDx(q, dq, q, dq)*pp) + DotDx(p, dp, q, dq)
	return QuatNormalizeDx(mgl32.Quat{W: a, V: c}, mgl32.Quat{W: da, V: dc})
}

// QuatDeltaToAngularVelocity turns the rate drot (per second) of a unit
// quaternion rot into its angular velocity in rad/s
// (quat_delta_to_angular_velocity): omega = 2 drot inv(rot), the vector part.
// The angular velocity is on the left (world/parent) side, the convention
// of every pose in animsys: rot(t+dt) ~ from_scaled_angle_axis(omega dt) rot(t).
func QuatDeltaToAngularVelocity(rot, drot mgl32.Quat) mgl32.Vec3 {
	return QuatMulInv(drot, rot).V.Mul(2)
}

// Exp-map derivatives.
//
// The article moves rotations through from_scaled_angle_axis(v) with v a
// scaled angle-axis. When v changes at dv (rad/s), the angular velocity of
// the rotation is dv only while v and dv are parallel; in general it is
// J(v) dv, where J is the derivative of the exponential map of rotations:
//
//	J(v) w = w + (1 - cos a)/a^2 (v x w) + (a - sin a)/a^3 (v x (v x w)),  a = |v|
//	J(v)^-1 w = w - (v x w)/2 + (1/a^2 - cot(a/2)/(2a)) (v x (v x w))
//
// (left/world-side angular velocities: exp(v(t+dt)) ~ exp(J dv dt) exp(v(t))).
// Below a = 0.1 the coefficients use their Taylor series, which avoids the
// float32 cancellation of the closed forms; the dropped terms are < 1e-9.

// expJacobianCoeffs returns (1 - cos a)/a^2 and (a - sin a)/a^3.
func expJacobianCoeffs(a float32) (c1, c2 float32) {
	a2 := a * a
	if a < 0.1 {
		return 0.5 - a2/24 + a2*a2/720, 1.0/6 - a2/120 + a2*a2/5040
	}
	s, c := Sincos(a)
	return (1 - c) / a2, (a - s) / (a2 * a)
}

// QuatFromScaledAngleAxisDx is the angular velocity (rad/s, world side) of
// QuatFromScaledAngleAxis(v) while v changes at dv per second: J(v) dv.
func QuatFromScaledAngleAxisDx(v, dv mgl32.Vec3) mgl32.Vec3 {
	c1, c2 := expJacobianCoeffs(v.Len())
	vxw := v.Cross(dv)
	return dv.Add(vxw.Mul(c1)).Add(v.Cross(vxw).Mul(c2))
}

// QuatToScaledAngleAxisDx is the rate (per second) of the scaled angle-axis
// v = QuatToScaledAngleAxis(q) while q turns at angular velocity ang (rad/s,
// world side): J(v)^-1 ang. v is the scaled angle-axis of q, already
// computed; |v| may exceed pi (a log taken without QuatAbs, or an
// unwrapped offset) up to, not at, 2 pi, where J is singular.
//
// The coefficient 1/a^2 - (1 + cos a)/(2 a sin a) is evaluated as 1/a^2 -
// cot(a/2)/(2a), the same value: near pi, 1 + cos a and sin a both vanish
// and their float32 ratio cancels (5e-5 relative error at pi - 1e-4), and
// beyond pi the cot form keeps the right sign.
func QuatToScaledAngleAxisDx(v, ang mgl32.Vec3) mgl32.Vec3 {
	a := v.Len()
	var c2 float32
	if a < 0.1 {
		a2 := a * a
		c2 = 1.0/12 + a2/720
	} else {
		a64 := float64(a)
		s, c := math.Sincos(a64 / 2)
		c2 = float32(1/(a64*a64) - c/(2*a64*s))
	}
	vxw := v.Cross(ang)
	return ang.Sub(vxw.Mul(0.5)).Add(v.Cross(vxw).Mul(c2))
}
