// Package mathx is kinelab's float32 math kit: the scalar, vector and
// quaternion helpers that the articles lean on (quat_to_scaled_angle_axis,
// eerp, quat_slerp_shortest, ...), in two forms.
//
// The plain forms, on mathgl's mgl32 types, read like the article:
// QuatMulVec3(q, v), QuatFromScaledAngleAxis(v), Vec3Log(v), with float64
// trigonometry rounded once into float32. They are the references the
// tests hold the lane forms to, and what code that is not a per-tick pose
// loop uses.
//
// The lane forms are what package animsys's pose operations run on.
// SoaFloat, SoaVec3 and SoaQuat (soa.go) hold Lanes joints by component,
// as ozz-animation's SoaFloat3 and SoaQuaternion hold four, with float32
// polynomial transcendentals (ExpAt, SoaQuat.ToScaledAngleAxis, LaneLog,
// LaneExp); JVec and JQuat (joint.go) hold one joint, for FK's walk down
// the hierarchy. Each lane form is written once, on SoaFloat's methods.
// What differs by build is SoaFloat and SoaMask themselves and the loads,
// stores, gathers and transposes: with GOEXPERIMENT=simd on amd64 a
// SoaFloat is eight float32s in an AVX2 register and a JVec four lanes of
// an SSE one (soa_avx2.go, joint_avx2.go); otherwise a SoaFloat is one
// float32 and a JVec a SoaVec3 (soa_portable.go, joint_portable.go). Both
// builds compute the same float32 operations in the same order, so they
// give the same bits; tests hold each form to float64 within a stated
// bound.
//
// A lane op loops over blocks of Lanes joints on its poses' channels as
// rooms (Room3, RoomQ, Rooms), which its door check hands it:
//
//	w := mathx.Splat(alpha)
//	for i := 0; i < n; i += mathx.Lanes {
//		o.Pos.StoreFlat(i, l.Pos.LoadFlat(i).Lerp(r.Pos.LoadFlat(i), w))
//		o.Rot.Store(i, r.Rot.Load(i).MulInv(l.Rot.Load(i)).Abs())
//	}
//	mathx.ClearUpper()
//
// The rules such a loop keeps, and where each is held:
//
//   - A channel holds exactly n joints in room for PaddedLen(n) elements,
//     as animsys.NewPose makes it: whole blocks of Lanes joints and at
//     least one element past the last joint (n+1 in the portable build, n
//     rounded up to a multiple of eight past it in the AVX2 one). The
//     elements past n are the pose's own, never a caller's, so whole
//     blocks may be written. RoomVec3 and RoomQuat make a room only over
//     such memory and panic otherwise; an op's door check names the
//     argument first. A room's loads and stores then check nothing: i is a
//     block's first joint below n (Load, Store, LoadFlat), or a joint below
//     n (Load4, Store4, Transform, Rates).
//   - A joint's Vec3 is read and written as 16 bytes in the AVX2 build
//     (Load4, Store4 and the Transform and Rates that use them): a store's
//     fourth lane lands on the next element's X. Joints are written in
//     order, so the next one overwrites it, and the last one's lands in the
//     room past n.
//   - Flat3 (LoadFlat, StoreFlat) is a block as it lies in memory, its lanes
//     no components: it has only the maths that treats every component
//     alike, with a factor the same for every joint (Uniform, made by
//     Splat), and no Cross, Dot or rotation.
//   - Lane code ends with ClearUpper. Go emits no VZEROUPPER, and its scalar
//     float code (legacy SSE) run after 256-bit instructions with the upper
//     halves dirty stalls (FK took 10-35 us instead of 0.34). Each op's door
//     check clears them as the op begins (animsys.needLanes); the op clears
//     them as it ends, which animsys's tests check of every lane loop.
//   - Lane code takes its constants from this package (Zero and Half
//     outside it), never Splat of a constant: Go materialises a float
//     constant with a legacy SSE instruction, which between AVX2
//     instructions stalls the core (a Splat(0) made Blend 2.2 times
//     slower). TestNoSplatOfConstants reads animsys and mathx for one.
//
// Conventions: quaternions are mgl32.Quat{W, V} with unit length; rotations
// act on column vectors (q.Rotate(v)); a "scaled angle-axis" vector is
// axis*angle in radians, so an angular velocity in rad/s is a scaled
// angle-axis divided by a time in seconds. Every function is pure and
// allocation-free. The float64 kit, for what computes in double precision
// and rounds once into float32, is kinelab/animsys/mathx/mathx64.
package mathx

import (
	"cmp"
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Eps guards divisions by lengths, half-lives and durations.
const Eps = 1e-8

// Ln2 is ln(2) as float32; half-lives convert to decay rates through it.
const Ln2 = float32(math.Ln2)

// Clamp limits x to [lo, hi]: kinelab's one clamp, for float32 values and
// int32 choices alike. A NaN x stays NaN (settings map it to a value:
// ui.ClampSetting).
func Clamp[T cmp.Ordered](x, lo, hi T) T {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// Lerp is lerp(a, b, t) = a + (b - a) t.
func Lerp(a, b, t float32) float32 { return a + (b-a)*t }

// Eerp is the exponential interpolation a^(1-t) b^t of two positive
// values (scalar-velocity article: eerp). a and b must be > 0.
func Eerp(a, b, t float32) float32 {
	return float32(math.Pow(float64(a), float64(1-t)) * math.Pow(float64(b), float64(t)))
}

// Exp is float32 e^x.
func Exp(x float32) float32 { return float32(math.Exp(float64(x))) }

// Log is float32 ln(x).
func Log(x float32) float32 { return float32(math.Log(float64(x))) }

// Sqrt is float32 sqrt(x).
func Sqrt(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// Sincos is float32 sin(x) and cos(x), computed in float64 and rounded once.
func Sincos(x float32) (s, c float32) {
	s64, c64 := math.Sincos(float64(x))
	return float32(s64), float32(c64)
}

// Smoothstep is 3x^2 - 2x^3 (propagating-velocities: smoothstep).
func Smoothstep(x float32) float32 { return x * x * (3 - 2*x) }

// SmoothstepDx is d smoothstep / dx = 6x - 6x^2 (smoothstep_dx).
func SmoothstepDx(x float32) float32 { return 6*x - 6*x*x }

// Vec3Mul is the component-wise product a*b (the articles' vec3 * vec3).
func Vec3Mul(a, b mgl32.Vec3) mgl32.Vec3 {
	return mgl32.Vec3{a[0] * b[0], a[1] * b[1], a[2] * b[2]}
}

// Vec3Div is the component-wise quotient a/b.
func Vec3Div(a, b mgl32.Vec3) mgl32.Vec3 {
	return mgl32.Vec3{a[0] / b[0], a[1] / b[1], a[2] / b[2]}
}

// Vec3Log is the component-wise natural log (scales -> log-scales).
func Vec3Log(v mgl32.Vec3) mgl32.Vec3 {
	return mgl32.Vec3{Log(v[0]), Log(v[1]), Log(v[2])}
}

// Vec3Exp is the component-wise exp (log-scales -> scales).
func Vec3Exp(v mgl32.Vec3) mgl32.Vec3 {
	return mgl32.Vec3{Exp(v[0]), Exp(v[1]), Exp(v[2])}
}

// Vec3Lerp is lerp(a, b, t) per component.
func Vec3Lerp(a, b mgl32.Vec3, t float32) mgl32.Vec3 {
	return mgl32.Vec3{Lerp(a[0], b[0], t), Lerp(a[1], b[1], t), Lerp(a[2], b[2], t)}
}

// Vec3Eerp is eerp(a, b, t) per component, for positive scales.
func Vec3Eerp(a, b mgl32.Vec3, t float32) mgl32.Vec3 {
	return mgl32.Vec3{Eerp(a[0], b[0], t), Eerp(a[1], b[1], t), Eerp(a[2], b[2], t)}
}

// Vec3Finite reports whether every component is neither NaN nor Inf.
func Vec3Finite(v mgl32.Vec3) bool {
	return Finite(v[0]) && Finite(v[1]) && Finite(v[2])
}

// Finite reports whether x is neither NaN nor Inf.
func Finite(x float32) bool {
	return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0)
}

// QuatIdentity is the rotation that does nothing.
func QuatIdentity() mgl32.Quat { return mgl32.Quat{W: 1} }

// QuatAbs returns q or -q, whichever has W >= 0: the same rotation, on the
// hemisphere where its log is the shortest rotation (quat_abs).
func QuatAbs(q mgl32.Quat) mgl32.Quat {
	if q.W < 0 {
		return mgl32.Quat{W: -q.W, V: q.V.Mul(-1)}
	}
	return q
}

// QuatMul is the rotation b then a: a*b (quat_mul).
func QuatMul(a, b mgl32.Quat) mgl32.Quat { return a.Mul(b) }

// QuatInv is the inverse of a unit quaternion, its conjugate (quat_inv).
func QuatInv(q mgl32.Quat) mgl32.Quat { return mgl32.Quat{W: q.W, V: q.V.Mul(-1)} }

// QuatMulInv is a * inv(b) (quat_mul_inv).
func QuatMulInv(a, b mgl32.Quat) mgl32.Quat { return a.Mul(QuatInv(b)) }

// QuatInvMul is inv(a) * b (quat_inv_mul).
func QuatInvMul(a, b mgl32.Quat) mgl32.Quat { return QuatInv(a).Mul(b) }

// QuatMulVec3 rotates v by q (quat_mul_vec3).
func QuatMulVec3(q mgl32.Quat, v mgl32.Vec3) mgl32.Vec3 {
	// v + 2w(u x v) + 2 u x (u x v), for unit q = (w, u).
	t := q.V.Cross(v).Mul(2)
	return v.Add(t.Mul(q.W)).Add(q.V.Cross(t))
}

// QuatInvMulVec3 rotates v by inv(q) (quat_inv_mul_vec3).
func QuatInvMulVec3(q mgl32.Quat, v mgl32.Vec3) mgl32.Vec3 {
	return QuatMulVec3(QuatInv(q), v)
}

// QuatNormalize returns q / |q|; the zero quaternion maps to identity.
func QuatNormalize(q mgl32.Quat) mgl32.Quat {
	l := Sqrt(q.W*q.W + q.V.Dot(q.V))
	if l < Eps {
		return QuatIdentity()
	}
	return mgl32.Quat{W: q.W / l, V: q.V.Mul(1 / l)}
}

// QuatExp maps a half-angle vector (axis * angle/2) to a unit quaternion.
func QuatExp(v mgl32.Vec3) mgl32.Quat {
	h := float64(v.Len())
	if h < 1e-6 {
		// exp(v) = (cos h, v sin h / h) with sin h / h ~ 1 - h^2/6.
		return QuatNormalize(mgl32.Quat{W: 1, V: v})
	}
	s, c := math.Sincos(h)
	return mgl32.Quat{W: float32(c), V: v.Mul(float32(s / h))}
}

// QuatLog maps a unit quaternion to its half-angle vector (inverse of QuatExp).
func QuatLog(q mgl32.Quat) mgl32.Vec3 {
	l := float64(q.V.Len())
	if l < 1e-6 {
		// atan2(l, w)/l ~ 1/w for tiny l.
		return q.V.Mul(1 / q.W)
	}
	h := math.Atan2(l, float64(q.W))
	return q.V.Mul(float32(h / l))
}

// QuatFromScaledAngleAxis turns axis*angle (radians) into a rotation
// (quat_from_scaled_angle_axis).
func QuatFromScaledAngleAxis(v mgl32.Vec3) mgl32.Quat { return QuatExp(v.Mul(0.5)) }

// QuatToScaledAngleAxis turns a rotation into axis*angle in radians
// (quat_to_scaled_angle_axis). Pass QuatAbs(q) for the shortest angle.
func QuatToScaledAngleAxis(q mgl32.Quat) mgl32.Vec3 { return QuatLog(q).Mul(2) }

// QuatSlerpShortest interpolates a (t = 0) to b (t = 1) along the shortest
// arc (quat_slerp_shortest), written through the same log/exp the angular
// velocities use so the two stay consistent.
func QuatSlerpShortest(a, b mgl32.Quat, t float32) mgl32.Quat {
	d := QuatToScaledAngleAxis(QuatAbs(QuatMulInv(b, a)))
	return QuatMul(QuatFromScaledAngleAxis(d.Mul(t)), a)
}

// QuatBetween is the shortest rotation taking direction p to direction q
// (quat_between); p and q need not be unit length.
func QuatBetween(p, q mgl32.Vec3) mgl32.Quat {
	c := p.Cross(q)
	a := Sqrt(p.Dot(p)*q.Dot(q)) + p.Dot(q)
	return QuatNormalize(mgl32.Quat{W: a, V: c})
}

// QuatFinite reports whether no component is NaN or Inf.
func QuatFinite(q mgl32.Quat) bool { return Finite(q.W) && Vec3Finite(q.V) }
