package mathx

import (
	"math"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// Fast forms: the same maps as the plain functions, on register-sized
// copies of mgl32's types, with float32 transcendental functions, for the
// per-joint loops of package animsys (a character tick stays within the
// bench-spec budget).
//
// Why not mgl32 directly: Go keeps structs of up to four scalars in
// registers but always spills arrays of three (mgl32.Vec3, and so
// mgl32.Quat) to memory, and mathgl's Quat.Mul does not inline; the math
// package is float64. Measured on the 2-core test machine: mgl32's
// Quat.Mul takes 52 ns in a dependent chain, the same product written out
// on components 18 ns. fast_test.go checks every fast form against its
// plain form (and float64) within a stated bound.
//
// Go inlines functions of up to 80 syntax nodes, each field access two.
// A loop that makes a call spills every live value (Go saves no registers
// across calls), so the forms a loop needs inline: on V3 and Q4 where
// they fit, on components (the S forms: QuatMulS, QuatMulVec3S, ...)
// where the struct form would not.

// V3 is a vector held in registers: the fast form of mgl32.Vec3.
type V3 struct{ X, Y, Z float32 }

// Q4 is a quaternion (W, X, Y, Z) held in registers: the fast form of
// mgl32.Quat.
type Q4 struct{ W, X, Y, Z float32 }

// LoadV3 is *v in registers. Loops load pose elements in place, through
// the pointer: passing the array by value copies it through the stack
// first (measured: 8% of a chain tick's instructions).
func LoadV3(v *mgl32.Vec3) V3 { return V3{v[0], v[1], v[2]} }

// LoadQ4 is *q in registers (see LoadV3).
func LoadQ4(q *mgl32.Quat) Q4 { return Q4{q.W, q.V[0], q.V[1], q.V[2]} }

// V3s views the vectors of s as V3s: the same memory (three float32s a
// vector either way), read and written in place. A loop over a pose's
// channels through these views reads s[i].X where it would call LoadV3
// and stores a V3 where it would call Vec3: besides the copies, each
// inlined call whose code all lands on the callee's lines leaves a NOP
// at its call site (the inlining mark tracebacks need).
func V3s(s []mgl32.Vec3) []V3 {
	return unsafe.Slice((*V3)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// Q4s views the rotations of s as Q4s, in place (see V3s): W, then the
// vector part, four float32s either way.
func Q4s(s []mgl32.Quat) []Q4 {
	return unsafe.Slice((*Q4)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// The views' layouts agree: the build fails otherwise.
var (
	_ [unsafe.Sizeof(V3{}) - unsafe.Sizeof(mgl32.Vec3{})]struct{}
	_ [unsafe.Sizeof(mgl32.Vec3{}) - unsafe.Sizeof(V3{})]struct{}
	_ [unsafe.Sizeof(Q4{}) - unsafe.Sizeof(mgl32.Quat{})]struct{}
	_ [unsafe.Sizeof(mgl32.Quat{}) - unsafe.Sizeof(Q4{})]struct{}
	_ [unsafe.Offsetof(mgl32.Quat{}.V) - unsafe.Offsetof(Q4{}.X)]struct{}
	_ [unsafe.Offsetof(Q4{}.X) - unsafe.Offsetof(mgl32.Quat{}.V)]struct{}
)

// Vec3 is a as an mgl32.Vec3.
func (a V3) Vec3() mgl32.Vec3 { return mgl32.Vec3{a.X, a.Y, a.Z} }

// Quat is q as an mgl32.Quat.
func (q Q4) Quat() mgl32.Quat { return mgl32.Quat{W: q.W, V: mgl32.Vec3{q.X, q.Y, q.Z}} }

// Add is a + b.
func (a V3) Add(b V3) V3 { return V3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }

// Sub is a - b.
func (a V3) Sub(b V3) V3 { return V3{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }

// Scale is a s.
func (a V3) Scale(s float32) V3 { return V3{a.X * s, a.Y * s, a.Z * s} }

// Mul is the component-wise product (Vec3Mul).
func (a V3) Mul(b V3) V3 { return V3{a.X * b.X, a.Y * b.Y, a.Z * b.Z} }

// Div is the component-wise quotient (Vec3Div).
func (a V3) Div(b V3) V3 { return V3{a.X / b.X, a.Y / b.Y, a.Z / b.Z} }

// Dot is the dot product.
func (a V3) Dot(b V3) float32 { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }

// Cross is the cross product a x b.
func (a V3) Cross(b V3) V3 {
	return V3{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X}
}

// Lerp is a + (b - a) t (Vec3Lerp, in this order of operations). Written
// out rather than as a.Add(b.Sub(a).Scale(t)): each inlined call whose
// code all lands on the callee's lines leaves a NOP at its call site (the
// inlining mark tracebacks need), three per Lerp in every loop using it.
func (a V3) Lerp(b V3, t float32) V3 {
	return V3{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t, a.Z + (b.Z-a.Z)*t}
}

// Mul is the quaternion product a b (QuatMul, quat_mul). It does not
// inline; loops call QuatMulS.
func (a Q4) Mul(b Q4) Q4 {
	w, x, y, z := QuatMulS(a.W, a.X, a.Y, a.Z, b.W, b.X, b.Y, b.Z)
	return Q4{w, x, y, z}
}

// QuatMulS is Q4.Mul on components: on scalars the product is 61 syntax
// nodes and inlines, where Mul is 98.
func QuatMulS(aw, ax, ay, az, bw, bx, by, bz float32) (w, x, y, z float32) {
	return aw*bw - ax*bx - ay*by - az*bz,
		aw*bx + ax*bw + ay*bz - az*by,
		aw*by + ay*bw + az*bx - ax*bz,
		aw*bz + az*bw + ax*by - ay*bx
}

// MulInv is a inv(b) (QuatMulInv, quat_mul_inv): a times the conjugate of
// b, written out.
func (a Q4) MulInv(b Q4) Q4 {
	w, x, y, z := QuatMulInvS(a.W, a.X, a.Y, a.Z, b.W, b.X, b.Y, b.Z)
	return Q4{w, x, y, z}
}

// QuatMulInvS is Q4.MulInv on components, which inlines (see QuatMulS).
func QuatMulInvS(aw, ax, ay, az, bw, bx, by, bz float32) (w, x, y, z float32) {
	return aw*bw + ax*bx + ay*by + az*bz,
		-aw*bx + ax*bw - ay*bz + az*by,
		-aw*by + ay*bw - az*bx + ax*bz,
		-aw*bz + az*bw - ax*by + ay*bx
}

// InvMul is inv(a) b (QuatInvMul, quat_inv_mul): the conjugate of a times
// b, written out.
func (a Q4) InvMul(b Q4) Q4 {
	w, x, y, z := QuatInvMulS(a.W, a.X, a.Y, a.Z, b.W, b.X, b.Y, b.Z)
	return Q4{w, x, y, z}
}

// QuatInvMulS is Q4.InvMul on components, which inlines (see QuatMulS).
func QuatInvMulS(aw, ax, ay, az, bw, bx, by, bz float32) (w, x, y, z float32) {
	return aw*bw + ax*bx + ay*by + az*bz,
		aw*bx - ax*bw - ay*bz + az*by,
		aw*by - ay*bw - az*bx + ax*bz,
		aw*bz - az*bw - ax*by + ay*bx
}

// Abs is q or -q, whichever has W >= 0 (QuatAbs, quat_abs).
func (q Q4) Abs() Q4 {
	if q.W < 0 {
		return Q4{-q.W, -q.X, -q.Y, -q.Z}
	}
	return q
}

// MulVec3 rotates v by q (QuatMulVec3, quat_mul_vec3): v + w t + u x t
// with t = 2 u x v, the same operations in the same order, so the same
// bits.
func (q Q4) MulVec3(v V3) V3 {
	x, y, z := QuatMulVec3S(q.W, q.X, q.Y, q.Z, v.X, v.Y, v.Z)
	return V3{x, y, z}
}

// QuatMulVec3S is Q4.MulVec3 on components, which inlines (see QuatMulS).
func QuatMulVec3S(w, x, y, z, vx, vy, vz float32) (rx, ry, rz float32) {
	tx, ty, tz := 2*(y*vz-z*vy), 2*(z*vx-x*vz), 2*(x*vy-y*vx)
	return vx + w*tx + (y*tz - z*ty), vy + w*ty + (z*tx - x*tz), vz + w*tz + (x*ty - y*tx)
}

// QuatInvMulVec3S rotates v by the inverse of unit quaternion (w, x, y, z)
// (QuatInvMulVec3, quat_inv_mul_vec3): QuatMulVec3S with u negated, v + w
// t + t x u with t = 2 v x u. It inlines (see QuatMulS).
func QuatInvMulVec3S(w, x, y, z, vx, vy, vz float32) (rx, ry, rz float32) {
	tx, ty, tz := 2*(vy*z-vz*y), 2*(vz*x-vx*z), 2*(vx*y-vy*x)
	return vx + w*tx + (ty*z - tz*y), vy + w*ty + (tz*x - tx*z), vz + w*tz + (tx*y - ty*x)
}

// M33 is a rotation matrix, for rotating several vectors by one
// quaternion: 15 flops a vector instead of MulVec3's 30.
type M33 struct{ xx, xy, xz, yx, yy, yz, zx, zy, zz float32 }

// Matrix is the rotation matrix of unit quaternion q.
func (q Q4) Matrix() (m M33) {
	x2, y2, z2 := q.X+q.X, q.Y+q.Y, q.Z+q.Z
	xx, yy, zz := q.X*x2, q.Y*y2, q.Z*z2
	xy, xz, yz := q.X*y2, q.X*z2, q.Y*z2
	wx, wy, wz := q.W*x2, q.W*y2, q.W*z2
	m.xx, m.xy, m.xz = 1-(yy+zz), xy-wz, xz+wy
	m.yx, m.yy, m.yz = xy+wz, 1-(xx+zz), yz-wx
	m.zx, m.zy, m.zz = xz-wy, yz+wx, 1-(xx+yy)
	return m
}

// Mul is m v: v rotated by the quaternion of m.
func (m *M33) Mul(v V3) V3 {
	return V3{m.xx*v.X + m.xy*v.Y + m.xz*v.Z, m.yx*v.X + m.yy*v.Y + m.yz*v.Z, m.zx*v.X + m.zy*v.Y + m.zz*v.Z}
}

// MulT is transpose(m) v: v rotated by the inverse quaternion.
func (m *M33) MulT(v V3) V3 {
	return V3{m.xx*v.X + m.yx*v.Y + m.zx*v.Z, m.xy*v.X + m.yy*v.Y + m.zy*v.Z, m.xz*v.X + m.yz*v.Y + m.zz*v.Z}
}

// Scaled angle-axis maps. For a rotation by angle a about unit axis n, the
// scaled angle-axis is v = a n and the quaternion (cos h, sin h n), h = a/2.

// ToScaledAngleAxis is QuatToScaledAngleAxis (quat_to_scaled_angle_axis):
// 2 atan2(|u|, w) u/|u| for q = (w, u). Call it on q.Abs() for the
// shortest rotation. Rotations up to 45 degrees (all frame-to-frame
// deltas) take a path without square root: atan(t)/t is a polynomial in
// t^2 = |u|^2 / w^2.
func (q Q4) ToScaledAngleAxis() V3 {
	k, ok := q.logFactorSmall()
	if !ok {
		k = q.LogFactor()
	}
	return V3{q.X * k, q.Y * k, q.Z * k}
}

// logFactorSmall is the factor k of q.ToScaledAngleAxis() = k u, q = (w,
// u), for rotations up to 45 degrees, without branch or square root so
// that it inlines; ok is false for larger ones (then LogFactor).
func (q Q4) logFactorSmall() (k float32, ok bool) {
	s2 := q.X*q.X + q.Y*q.Y + q.Z*q.Z
	iw := 1 / q.W
	return 2 * atanPoly(s2*iw*iw) * iw, q.W > 0 && s2 <= tan2Pi8*q.W*q.W
}

// LogFactorShort is the factor k of ToScaledAngleAxis for rotations up to
// 45 degrees, for q and -q alike, so callers skip Abs and its branch: k is
// odd in w, so k u is the same bits as for q.Abs(). It inlines; ok is
// false beyond 45 degrees (then q.Abs().LogFactor()).
func (q Q4) LogFactorShort() (k float32, ok bool) {
	s2 := q.X*q.X + q.Y*q.Y + q.Z*q.Z
	iw := 1 / q.W
	return 2 * atanPoly(s2*iw*iw) * iw, s2 < tan2Pi8*q.W*q.W
}

// LogFactor is the factor 2 atan2(|u|, w)/|u| of ToScaledAngleAxis, q =
// (w, u), for any rotation.
func (q Q4) LogFactor() float32 {
	return 2 * atan2OverS(Sqrt(q.X*q.X+q.Y*q.Y+q.Z*q.Z), q.W)
}

// RodriguesS is x + a (v x x) + b (v x (v x x)) on components: the form
// of the exp map's Jacobian J(v) (a = C1, b = C2 of ExpCoeffs), of its
// inverse (a = -1/2, b = LogRateSeries) and of a rotation about v. It
// inlines (see QuatMulS).
func RodriguesS(a, b, vx, vy, vz, x, y, z float32) (float32, float32, float32) {
	cx, cy, cz := vy*z-vz*y, vz*x-vx*z, vx*y-vy*x
	return x + a*cx + b*(vy*cz-vz*cy), y + a*cy + b*(vz*cx-vx*cz), z + a*cz + b*(vx*cy-vy*cx)
}

// Q4FromScaledAngleAxis is QuatFromScaledAngleAxis
// (quat_from_scaled_angle_axis): (cos h, sin(h)/h v/2), h = |v|/2.
func Q4FromScaledAngleAxis(v V3) Q4 {
	s, c := sincHalf(v.Dot(v))
	k := 0.5 * s
	return Q4{c, v.X * k, v.Y * k, v.Z * k}
}

// sincHalf is sin(h)/h and cos(h) for h = |v|/2, given a2 = |v|^2: for
// h <= pi/4 polynomials in h^2, without square root or division.
func sincHalf(a2 float32) (sinc, cos float32) {
	h2 := 0.25 * a2
	if h2 <= (math.Pi/4)*(math.Pi/4) {
		return sinPoly(h2), cosPoly(h2)
	}
	return sinc32(Sqrt(h2))
}

// sincHalfLarge is sincHalf beyond pi/4 (kept out of line).
func sincHalfLarge(a2 float32) (sinc, cos float32) { return sinc32(Sqrt(0.25 * a2)) }

// Q4FromScaledAngleAxisDx is Q4FromScaledAngleAxis(v) and its angular
// velocity (rad/s, world side) while v changes at dv, at once: J(v) dv =
// dv + (1 - cos a)/a^2 (v x dv) + (a - sin a)/a^3 (v x (v x dv)), a = |v|
// (QuatFromScaledAngleAxisDx).
func Q4FromScaledAngleAxisDx(v, dv V3) (Q4, V3) {
	a2 := v.Dot(v)
	k := ExpSmall(a2)
	if a2 >= 1 {
		k = ExpLarge(a2)
	}
	q := k.Quat(v)
	vxd := v.Cross(dv)
	return q, dv.Add(vxd.Scale(k.C1())).Add(v.Cross(vxd).Scale(k.C2))
}

// ExpCoeffs holds the scalars of the exp map and its derivative at a =
// |v| (Q4FromScaledAngleAxisDx): Sinc = sin(h)/h and Cos = cos(h) for h =
// a/2, and C2 = (a - sin a)/a^3.
type ExpCoeffs struct{ Sinc, Cos, C2 float32 }

// Quat is Q4FromScaledAngleAxis(v), given the scalars at |v|.
func (k ExpCoeffs) Quat(v V3) Q4 {
	s := 0.5 * k.Sinc
	return Q4{k.Cos, v.X * s, v.Y * s, v.Z * s}
}

// C1 is (1 - cos a)/a^2 = 2 sin^2 h / a^2 = sinc(h)^2 / 2, without
// cancellation.
func (k ExpCoeffs) C1() float32 { return 0.5 * k.Sinc * k.Sinc }

// ExpSmall is ExpCoeffs for a2 = a^2 < 1, written out without a branch so
// that it inlines (loops compute it, then take ExpLarge when a2 >= 1):
// sinPoly and cosPoly at h^2 = a2/4, and C2 = (1 - sin(a)/a)/a^2 with
// sin(a)/a = sinc(h) cos h. That cancels for small a, but C2 only ever
// multiplies v x (v x dv), of size a^2 |dv|, so J(v) dv loses about an
// ulp of |dv| (measured: 3.4 ulp worst against float64, the series 2.5),
// for five fewer operations and registers. The tiny addend keeps a2 = 0
// finite (0/tiny = 0).
func ExpSmall(a2 float32) ExpCoeffs {
	h2 := 0.25 * a2
	h4 := h2 * h2
	sc := (sin0 - sin1*h2) + h4*(sin2-sin3*h2)
	c := (cos0 - cos1*h2) + h4*((cos2-cos3*h2)+h4*cos4)
	return ExpCoeffs{sc, c, (1 - sc*c) / (a2 + tiny)}
}

// ExpLarge is ExpCoeffs for a2 = a^2 >= 1 (kept out of line).
func ExpLarge(a2 float32) (k ExpCoeffs) {
	if h2 := 0.25 * a2; h2 <= (math.Pi/4)*(math.Pi/4) {
		k.Sinc, k.Cos = sinPoly(h2), cosPoly(h2) // as sincHalf, inline
	} else {
		k.Sinc, k.Cos = sincHalfLarge(a2)
	}
	a := Sqrt(a2)
	k.C2 = (a - a*k.Sinc*k.Cos) / (a2 * a) // sin a = 2 sin h cos h = a sinc(h) cos h
	return k
}

// Q4ToScaledAngleAxisDx is the rate of v = q.ToScaledAngleAxis() while q
// (w >= 0) turns at angular velocity w (rad/s, world side), as
// QuatToScaledAngleAxisDx: J(v)^-1 w = w - (v x w)/2 + c (v x (v x w))
// with c = (1 - h cot h) / (4 h^2), h = |v|/2, cot h = q.W / |q.u|.
func Q4ToScaledAngleAxisDx(q Q4, v, w V3) V3 {
	h2 := 0.25 * v.Dot(v)
	c := LogRateSeries(h2)
	if h2 >= 0.25 {
		c = logRateLarge(h2, q)
	}
	vxw := v.Cross(w)
	return w.Sub(vxw.Scale(0.5)).Add(v.Cross(vxw).Scale(c))
}

// LogRateSeries is Q4ToScaledAngleAxisDx's c = (1 - h cot h)/(4 h^2) by
// its series in h2 = h^2 < 1/4 (truncation < 1e-9).
func LogRateSeries(h2 float32) float32 {
	h4 := h2 * h2
	return (lrs0 + h2*lrs1) + h4*((lrs2+h2*lrs3)+h4*lrs4)
}

// logRateLarge is Q4ToScaledAngleAxisDx's c for h2 >= 1/4, q = (cos h,
// sin h n).
func logRateLarge(h2 float32, q Q4) float32 {
	h := Sqrt(h2)
	s := Sqrt(q.X*q.X + q.Y*q.Y + q.Z*q.Z)
	return (1 - h*q.W/s) / (4 * h2)
}

// Float32 transcendental functions: polynomial approximations with range
// reduction, accurate to a few float32 ulp over the ranges poses use. The
// polynomials are interpolants at Chebyshev nodes of the reduced range
// (near-minimax), fitted in float64; each states its truncation error.
// Series coefficients are written as x*(1.0/n), not x/n: Go compiles a
// division by a constant to a division (it is not exact), which takes
// about four times as long as a multiplication and sits on the result's
// dependency chain.

const (
	ln2hi  = 0.693359375 // ln 2 in 9 bits, so k ln2hi is exact
	ln2lo  = -2.12194440e-4
	log2e  = 1.44269504088896341
	sqrt2  = 1.41421356237309505
	pio2hi = 1.5703125 // pi/2 in 9 bits
	pio2lo = 4.83826794897e-4
	// tan2Pi8 is tan^2(pi/8): atanPoly's range.
	tan2Pi8 = 0.17157287525381
	// tiny keeps a division by a2 finite at a2 = 0 (ExpSmall).
	tiny = 0x1p-100
)

// The polynomials' coefficients, named once for the scalar fast forms and
// the eight-lane ones (fast8_amd64.go).
const (
	// sinPoly: sin(r)/r = sin0 - sin1 r^2 + sin2 r^4 - sin3 r^6.
	sin0, sin1, sin2, sin3 = 0.9999999969177036, 0.16666650673996886, 0.008332035785601707, 0.00019503904251287976
	// cosPoly: cos(r) = cos0 - cos1 r^2 + cos2 r^4 - cos3 r^6 + cos4 r^8.
	cos0, cos1, cos2, cos3, cos4 = 0.9999999999524894, 0.49999999614857515, 0.0416666166925251, 0.0013886617999425682, 2.437983123082832e-05
	// atanPoly: atan(u)/u = atan0 - atan1 u^2 + atan2 u^4 - atan3 u^6 + atan4 u^8.
	atan0, atan1, atan2, atan3, atan4 = 0.9999999812646112, 0.33332785771926443, 0.19974082415541466, 0.13848490212505918, 0.07976291807322261
	// LogRateSeries: (1 - h cot h)/(4 h^2) = 1/12 + h^2/180 + h^4/1890 + h^6/18900 + h^8/187110.
	lrs0, lrs1, lrs2, lrs3, lrs4 = 1.0 / 12, 1.0 / 180, 1.0 / 1890, 1.0 / 18900, 1.0 / 187110
)

// Log32 is Log of a positive, normal float32, in float32 arithmetic.
// Log32(1) == 0 exactly, so the log-ratio of two equal scales is exactly
// zero; that case, the common one (most joints never scale), returns at
// once.
func Log32(x float32) float32 {
	if x == 1 {
		return 0
	}
	if !(x >= 0x1p-126 && x <= math.MaxFloat32) {
		return float32(math.Log(float64(x))) // 0, negative, subnormal, Inf, NaN
	}
	b := math.Float32bits(x)
	e := float32(int32(b>>23) - 127)
	m := math.Float32frombits(b&0x007fffff | 0x3f800000) // [1, 2)
	if m > sqrt2 {
		m *= 0.5
		e++
	}
	// log m = 2 atanh(s), s = (m - 1)/(m + 1), |s| <= 0.1716:
	// 2 s (1 + s^2/3 + s^4/5 + s^6/7 + s^8/9), truncation < 3e-9.
	f := m - 1
	s := f / (2 + f)
	s2 := s * s
	s4 := s2 * s2
	p := (1 + s2*(1.0/3)) + s4*((1.0/5+s2*(1.0/7))+s4*(1.0/9))
	return e*ln2hi + (e*ln2lo + 2*s*p)
}

// NearOne reports whether Log32(x) takes exponent 0: x within (sqrt2/2,
// sqrt2], as the ratio of a scale to its value a tick before is.
func NearOne(x float32) bool { return x > sqrt2/2 && x <= sqrt2 }

// LogNearOne is Log32(x) for NearOne(x), inline: Log32's result there is
// 2 s p exactly (its exponent terms add zeros), the same float32
// operations written here; x = 1 gives 0 as Log32 does.
func LogNearOne(x float32) float32 {
	f := x - 1
	s := f / (2 + f)
	s2 := s * s
	s4 := s2 * s2
	return 2 * s * ((1 + s2*(1.0/3)) + s4*((1.0/5+s2*(1.0/7))+s4*(1.0/9)))
}

// Exp32 is Exp in float32 arithmetic, clamped to the normal range.
// Exp32(0) == 1 exactly, and returns at once.
func Exp32(x float32) float32 {
	if x == 0 {
		return 1
	}
	if x > -0.34 && x < 0.34 {
		// k below is 0 (|x log2e| < 1/2) and r = x: skip the reduction.
		return expPoly(x)
	}
	if x > 88 {
		x = 88
	} else if x < -87 {
		x = -87
	}
	// x = k ln2 + r, |r| <= ln2/2; e^r by a degree-6 fit (error < 3e-9).
	kf := x * log2e
	if kf < 0 {
		kf -= 0.5
	} else {
		kf += 0.5
	}
	k := int32(kf)
	r := x - float32(k)*ln2hi - float32(k)*ln2lo
	return expPoly(r) * math.Float32frombits(uint32(k+127)<<23)
}

// expPoly is e^r for |r| <= ln2/2, the degree-6 fit of Exp32.
func expPoly(r float32) float32 {
	r2 := r * r
	r4 := r2 * r2
	return (1 + 1.0000000377162137*r) + r2*(0.5000000047117756+0.16666415514653268*r) +
		r4*((0.04166635289675798+0.008375126398156*r)+r2*0.0013941108435501846)
}

// sinPoly is sin(r)/r and cosPoly cos(r) for |r| <= pi/4, as polynomials
// in r^2 of degree 3 (error < 4e-9) and 4 (error < 5e-11).
func sinPoly(r2 float32) float32 {
	r4 := r2 * r2
	return (sin0 - sin1*r2) + r4*(sin2-sin3*r2)
}

func cosPoly(r2 float32) float32 {
	r4 := r2 * r2
	return (cos0 - cos1*r2) + r4*((cos2-cos3*r2)+r4*cos4)
}

// Sincos32 is Sincos in float32 arithmetic, reduced by multiples of pi/2;
// beyond |x| = 4096 (where the float32 reduction loses accuracy) and for
// NaN it falls back to float64.
func Sincos32(x float32) (s, c float32) {
	if !(x >= -4096 && x <= 4096) {
		return Sincos(x)
	}
	kf := x * (2 / math.Pi)
	if kf < 0 {
		kf -= 0.5
	} else {
		kf += 0.5
	}
	k := int32(kf)
	r := x - float32(k)*pio2hi - float32(k)*pio2lo
	r2 := r * r
	sr, cr := r*sinPoly(r2), cosPoly(r2)
	switch k & 3 {
	case 0:
		return sr, cr
	case 1:
		return cr, -sr
	case 2:
		return -sr, -cr
	default:
		return -cr, sr
	}
}

// sinc32 is sin(h)/h and cos(h) for h >= 0, with no division for small h.
func sinc32(h float32) (sinc, cos float32) {
	if h <= math.Pi/4 {
		h2 := h * h
		return sinPoly(h2), cosPoly(h2)
	}
	s, c := Sincos32(h)
	return s / h, c
}

// atanOverX is atan(t)/t for 0 <= t <= 1.
func atanOverX(t float32) float32 {
	if t*t <= tan2Pi8 {
		return atanPoly(t * t)
	}
	// atan t = pi/4 + atan u, u = (t - 1)/(t + 1), |u| <= tan(pi/8).
	u := (t - 1) / (t + 1)
	return (math.Pi/4 + u*atanPoly(u*u)) / t
}

// atanPoly is atan(u)/u for |u| <= tan(pi/8), a polynomial in u^2 of
// degree 4 (relative error < 2e-8).
func atanPoly(u2 float32) float32 {
	// Estrin's scheme: shorter dependency chains than Horner's.
	u4 := u2 * u2
	return (atan0 - atan1*u2) + u4*((atan2-atan3*u2)+u4*atan4)
}

// atan2OverS is atan2(s, w)/s for s >= 0: the half-angle of a unit
// quaternion (w, u) over |u| = s, finite (1/w) as s goes to 0.
func atan2OverS(s, w float32) float32 {
	switch {
	case w >= s:
		return atanOverX(s/w) / w
	case s > 0 && w >= 0:
		return (math.Pi/2 - (w/s)*atanOverX(w/s)) / s
	case s > 1e-20 && w < 0:
		// The long way round, pi - atan2(s, -w). (A NaN w takes the
		// default: recursing on it never ended.)
		return (math.Pi - s*atan2OverS(s, -w)) / s
	default:
		return 1 / w
	}
}

// Log is Vec3Log in float32 arithmetic (Log32 per axis); the unit scale
// (most joints) returns zero at once, without a call.
func (v V3) Log() V3 {
	if v == (V3{1, 1, 1}) {
		return V3{}
	}
	return v.LogEach()
}

// LogEach is Log without its test for the unit scale, for callers that
// have ruled it out; a uniform scale (the usual kind) takes one Log32.
func (v V3) LogEach() V3 {
	if v.X == v.Y && v.Y == v.Z {
		l := Log32(v.X)
		return V3{l, l, l}
	}
	return V3{Log32(v.X), Log32(v.Y), Log32(v.Z)}
}

// Exp is Vec3Exp in float32 arithmetic (Exp32 per axis); zero returns the
// unit scale at once, without a call.
func (v V3) Exp() V3 {
	if v == (V3{}) {
		return V3{1, 1, 1}
	}
	return v.expEach()
}

// expEach is Exp per axis; equal axes (a uniform scale) take one Exp32.
// Arguments in expPoly's range (|x| < 0.34, nonzero: Exp32's first two
// cases; log scales of poses) take it inline, without a call.
func (v V3) expEach() V3 {
	if v.X == v.Y && v.Y == v.Z {
		if inExpPoly(v.X) {
			e := expPoly(v.X)
			return V3{e, e, e}
		}
		e := Exp32(v.X)
		return V3{e, e, e}
	}
	var e V3
	if inExpPoly(v.X) {
		e.X = expPoly(v.X)
	} else {
		e.X = Exp32(v.X)
	}
	if inExpPoly(v.Y) {
		e.Y = expPoly(v.Y)
	} else {
		e.Y = Exp32(v.Y)
	}
	if inExpPoly(v.Z) {
		e.Z = expPoly(v.Z)
	} else {
		e.Z = Exp32(v.Z)
	}
	return e
}

// inExpPoly reports whether Exp32(x) is expPoly(x).
func inExpPoly(x float32) bool { return x != 0 && x > -0.34 && x < 0.34 }

// InExpPoly reports whether Exp32(x) is ExpPoly(x) (x nonzero, |x| <
// 0.34), and ExpPoly is that polynomial: for loops that take V3.Exp's
// uniform case inline rather than call it (animsys's cubic scales).
func InExpPoly(x float32) bool { return inExpPoly(x) }

// ExpPoly is e^x for |x| < 0.34 (see InExpPoly).
func ExpPoly(x float32) float32 { return expPoly(x) }
