// Package mathx64 is kinelab's float64 vector and quaternion kit: for the
// code that computes in double precision and rounds once into float32
// poses and clips (glTF sampling, BVH rotation channels, the mirror fits,
// the generated default clips), so that the formulas add no float32
// rounding of their own. The float32 kit, on mathgl's mgl32 types, is
// kinelab/animsys/mathx.
//
// Conventions are mathx's: quaternions are w + xi + yj + zk, rotations
// act on column vectors (q.Rotate(v) is q v q^-1), a.Mul(b) is the
// rotation b then a. Every function is pure and allocation-free.
//
// The formulas are written out term by term in a fixed order, and callers
// rely on that order: the default clips and every export are generated
// through them, and must not change by a bit. Change one only together
// with the outputs it feeds.
package mathx64

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Vec3 is a float64 3-vector.
type Vec3 [3]float64

// FromVec32 widens a float32 vector.
func FromVec32(v mgl32.Vec3) Vec3 { return Vec3{float64(v[0]), float64(v[1]), float64(v[2])} }

// F32 rounds a to float32.
func (a Vec3) F32() mgl32.Vec3 { return mgl32.Vec3{float32(a[0]), float32(a[1]), float32(a[2])} }

// Add is a + b.
func (a Vec3) Add(b Vec3) Vec3 { return Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// Sub is a - b.
func (a Vec3) Sub(b Vec3) Vec3 { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Mul is the component-wise product of a and b.
func (a Vec3) Mul(b Vec3) Vec3 { return Vec3{a[0] * b[0], a[1] * b[1], a[2] * b[2]} }

// Scale is a s.
func (a Vec3) Scale(s float64) Vec3 { return Vec3{a[0] * s, a[1] * s, a[2] * s} }

// Dot is the dot product a . b.
func (a Vec3) Dot(b Vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Len is the length |a|.
func (a Vec3) Len() float64 { return math.Sqrt(a.Dot(a)) }

// Cross is the cross product a x b.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

// Normalize is a / |a|, as a (1 / |a|); the zero vector gives NaNs.
func (a Vec3) Normalize() Vec3 { return a.Scale(1 / a.Len()) }

// Lerp is a + (b - a) t.
func (a Vec3) Lerp(b Vec3, t float64) Vec3 { return a.Add(b.Sub(a).Scale(t)) }

// Reflect is a reflected across the plane through the origin with unit
// normal n: a - 2 (n . a) n.
func (a Vec3) Reflect(n Vec3) Vec3 { return a.Sub(n.Scale(2 * n.Dot(a))) }

// RotateX is a rotated by angle (rad) about +X.
func (a Vec3) RotateX(angle float64) Vec3 {
	s, c := math.Sincos(angle)
	return Vec3{a[0], a[1]*c - a[2]*s, a[1]*s + a[2]*c}
}

// RotateY is a rotated by angle (rad) about +Y.
func (a Vec3) RotateY(angle float64) Vec3 {
	s, c := math.Sincos(angle)
	return Vec3{a[0]*c + a[2]*s, a[1], -a[0]*s + a[2]*c}
}

// Quat is a float64 quaternion W + Xi + Yj + Zk.
type Quat struct{ W, X, Y, Z float64 }

// QuatIdent is the identity rotation.
func QuatIdent() Quat { return Quat{W: 1} }

// FromQuat32 widens a float32 quaternion.
func FromQuat32(q mgl32.Quat) Quat {
	return Quat{float64(q.W), float64(q.V[0]), float64(q.V[1]), float64(q.V[2])}
}

// F32 rounds q to float32 as it is (see UnitF32).
func (q Quat) F32() mgl32.Quat {
	return mgl32.Quat{W: float32(q.W), V: mgl32.Vec3{float32(q.X), float32(q.Y), float32(q.Z)}}
}

// UnitF32 is q / |q| rounded to float32 (each component divided by the
// length, then rounded): the identity when |q| is zero or not finite.
func (q Quat) UnitF32() mgl32.Quat {
	l := math.Sqrt(q.Dot(q))
	if !(l > 0) || math.IsInf(l, 0) {
		return mgl32.Quat{W: 1}
	}
	return mgl32.Quat{W: float32(q.W / l), V: mgl32.Vec3{float32(q.X / l), float32(q.Y / l), float32(q.Z / l)}}
}

// QuatAxis is the rotation by angle (rad) about coordinate axis 0 (X),
// 1 (Y) or 2 (Z): cos(angle/2) + sin(angle/2) times that unit.
func QuatAxis(axis int, angle float64) Quat {
	s, c := math.Sincos(angle / 2)
	q := Quat{W: c}
	switch axis {
	case 0:
		q.X = s
	case 1:
		q.Y = s
	default:
		q.Z = s
	}
	return q
}

// QuatX is the rotation by angle (rad) about +X.
func QuatX(angle float64) Quat { return QuatAxis(0, angle) }

// QuatY is the rotation by angle (rad) about +Y.
func QuatY(angle float64) Quat { return QuatAxis(1, angle) }

// QuatZ is the rotation by angle (rad) about +Z.
func QuatZ(angle float64) Quat { return QuatAxis(2, angle) }

// Vec is q's vector part (X, Y, Z).
func (q Quat) Vec() Vec3 { return Vec3{q.X, q.Y, q.Z} }

// Conj is the conjugate W - Xi - Yj - Zk: the inverse of a unit q.
func (q Quat) Conj() Quat { return Quat{q.W, -q.X, -q.Y, -q.Z} }

// Dot is the 4D dot product of q and p.
func (q Quat) Dot(p Quat) float64 { return q.W*p.W + q.X*p.X + q.Y*p.Y + q.Z*p.Z }

// Scale is q s, component-wise.
func (q Quat) Scale(s float64) Quat { return Quat{q.W * s, q.X * s, q.Y * s, q.Z * s} }

// Add is q + p, component-wise.
func (q Quat) Add(p Quat) Quat { return Quat{q.W + p.W, q.X + p.X, q.Y + p.Y, q.Z + p.Z} }

// Mul is the Hamilton product q p: the rotation p then q.
func (q Quat) Mul(p Quat) Quat {
	return Quat{
		q.W*p.W - q.X*p.X - q.Y*p.Y - q.Z*p.Z,
		q.W*p.X + q.X*p.W + q.Y*p.Z - q.Z*p.Y,
		q.W*p.Y - q.X*p.Z + q.Y*p.W + q.Z*p.X,
		q.W*p.Z + q.X*p.Y - q.Y*p.X + q.Z*p.W,
	}
}

// Rotate is v rotated by the unit q, q v q^-1, written v + w t + u x t
// with u = q's vector part and t = 2 u x v (mathx.QuatMulVec3's form).
func (q Quat) Rotate(v Vec3) Vec3 {
	u := q.Vec()
	t := u.Cross(v).Scale(2)
	return v.Add(t.Scale(q.W)).Add(u.Cross(t))
}

// Normalize is q / |q|, as q (1 / |q|); the identity when |q| is zero or
// not finite.
func (q Quat) Normalize() Quat {
	l := math.Sqrt(q.Dot(q))
	if l == 0 || math.IsNaN(l) || math.IsInf(l, 0) {
		return QuatIdent()
	}
	return q.Scale(1 / l)
}

// Abs is q or -q, whichever has W >= 0: the same rotation (mathx.QuatAbs).
func (q Quat) Abs() Quat {
	if q.W < 0 {
		return Quat{-q.W, -q.X, -q.Y, -q.Z}
	}
	return q
}

// QuatExp is exp of the pure quaternion (0, v): the unit quaternion of the
// rotation by 2|v| (rad) about v (mathx.QuatExp).
func QuatExp(v Vec3) Quat {
	a := v.Len()
	if a < 1e-12 {
		return Quat{1, v[0], v[1], v[2]}.Normalize()
	}
	s := math.Sin(a) / a
	return Quat{math.Cos(a), v[0] * s, v[1] * s, v[2] * s}
}

// QuatLog is the vector part of log q for a unit q: half its scaled
// angle-axis (mathx.QuatLog).
func QuatLog(q Quat) Vec3 {
	l := q.Vec().Len()
	if l < 1e-12 {
		return q.Vec()
	}
	return q.Vec().Scale(math.Atan2(l, q.W) / l)
}

// QuatFromMatrix is the quaternion of the rotation matrix m (m[row][col])
// by Shepperd's method: from the largest of 1 + tr and the 1 + 2 m_ii - tr,
// so no division by a small number. It is unit up to rounding, W >= 0
// unless the largest is a diagonal entry; Normalize it where that rounding
// matters.
func QuatFromMatrix(m [3][3]float64) Quat {
	tr := m[0][0] + m[1][1] + m[2][2]
	switch {
	case tr >= m[0][0] && tr >= m[1][1] && tr >= m[2][2]:
		w := math.Sqrt(1+tr) * 2
		return Quat{w / 4, (m[2][1] - m[1][2]) / w, (m[0][2] - m[2][0]) / w, (m[1][0] - m[0][1]) / w}
	case m[0][0] >= m[1][1] && m[0][0] >= m[2][2]:
		x := math.Sqrt(1+m[0][0]-m[1][1]-m[2][2]) * 2
		return Quat{(m[2][1] - m[1][2]) / x, x / 4, (m[0][1] + m[1][0]) / x, (m[0][2] + m[2][0]) / x}
	case m[1][1] >= m[2][2]:
		y := math.Sqrt(1+m[1][1]-m[0][0]-m[2][2]) * 2
		return Quat{(m[0][2] - m[2][0]) / y, (m[0][1] + m[1][0]) / y, y / 4, (m[1][2] + m[2][1]) / y}
	default:
		z := math.Sqrt(1+m[2][2]-m[0][0]-m[1][1]) * 2
		return Quat{(m[1][0] - m[0][1]) / z, (m[0][2] + m[2][0]) / z, (m[1][2] + m[2][1]) / z, z / 4}
	}
}
