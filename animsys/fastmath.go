package animsys

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// The per-joint loops of the pose operations run on these register-sized
// copies of mgl32's types, with float32 transcendental functions, so that a
// character tick stays within the bench-spec budget.
//
// Why not mgl32 directly: Go keeps structs of up to four scalars in
// registers but always spills arrays of three (mgl32.Vec3, and so
// mgl32.Quat) to memory, and mathgl's Quat.Mul does not inline; the math
// package is float64. Measured on the 2-core test machine: mgl32's
// Quat.Mul takes 52 ns in a dependent chain, the same product written out
// on components 18 ns. The formulas are the same as mathx's, written on
// components; fastmath_test.go checks them against mathx and float64.

// v3 is a vector held in registers.
type v3 struct{ x, y, z float32 }

// q4 is a quaternion (w, x, y, z) held in registers.
type q4 struct{ w, x, y, z float32 }

func ld(v mgl32.Vec3) v3      { return v3{v[0], v[1], v[2]} }
func (a v3) vec() mgl32.Vec3  { return mgl32.Vec3{a.x, a.y, a.z} }
func ldq(q mgl32.Quat) q4     { return q4{q.W, q.V[0], q.V[1], q.V[2]} }
func (q q4) quat() mgl32.Quat { return mgl32.Quat{W: q.w, V: mgl32.Vec3{q.x, q.y, q.z}} }

// ldp and ldqp load a pose element in place. The per-joint loops use them,
// not ld(p[i]): passing the array by value copies it through the stack
// first (measured: 8% of a chain tick's instructions).
func ldp(v *mgl32.Vec3) v3  { return v3{v[0], v[1], v[2]} }
func ldqp(q *mgl32.Quat) q4 { return q4{q.W, q.V[0], q.V[1], q.V[2]} }

func (a v3) add(b v3) v3          { return v3{a.x + b.x, a.y + b.y, a.z + b.z} }
func (a v3) sub(b v3) v3          { return v3{a.x - b.x, a.y - b.y, a.z - b.z} }
func (a v3) scale(s float32) v3   { return v3{a.x * s, a.y * s, a.z * s} }
func (a v3) mul(b v3) v3          { return v3{a.x * b.x, a.y * b.y, a.z * b.z} }
func (a v3) div(b v3) v3          { return v3{a.x / b.x, a.y / b.y, a.z / b.z} }
func (a v3) dot(b v3) float32     { return a.x*b.x + a.y*b.y + a.z*b.z }
func lerp3(a, b v3, t float32) v3 { return a.add(b.sub(a).scale(t)) }

func (a v3) cross(b v3) v3 {
	return v3{a.y*b.z - a.z*b.y, a.z*b.x - a.x*b.z, a.x*b.y - a.y*b.x}
}

func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// qmul is the quaternion product a b (quat_mul).
func qmul(a, b q4) q4 {
	w, x, y, z := qmulS(a.w, a.x, a.y, a.z, b.w, b.x, b.y, b.z)
	return q4{w, x, y, z}
}

// qmulS is qmul on components. Go inlines functions of up to 80 syntax
// nodes, each field access two; on scalars the product is 61 and inlines
// (qmul is 98 and does not), so the per-joint loops call this: a call
// spills every live value of the loop, as Go saves no registers across it.
func qmulS(aw, ax, ay, az, bw, bx, by, bz float32) (w, x, y, z float32) {
	return aw*bw - ax*bx - ay*by - az*bz,
		aw*bx + ax*bw + ay*bz - az*by,
		aw*by + ay*bw + az*bx - ax*bz,
		aw*bz + az*bw + ax*by - ay*bx
}

// qmulInv is a inv(b) (quat_mul_inv), written out: a times the conjugate of b.
func qmulInv(a, b q4) q4 {
	w, x, y, z := qmulInvS(a.w, a.x, a.y, a.z, b.w, b.x, b.y, b.z)
	return q4{w, x, y, z}
}

// qmulInvS is qmulInv on components, which inlines (see qmulS).
func qmulInvS(aw, ax, ay, az, bw, bx, by, bz float32) (w, x, y, z float32) {
	return aw*bw + ax*bx + ay*by + az*bz,
		-aw*bx + ax*bw - ay*bz + az*by,
		-aw*by + ay*bw - az*bx + ax*bz,
		-aw*bz + az*bw - ax*by + ay*bx
}

// qinvMul is inv(a) b (quat_inv_mul), written out: the conjugate of a times b.
func qinvMul(a, b q4) q4 {
	w, x, y, z := qinvMulS(a.w, a.x, a.y, a.z, b.w, b.x, b.y, b.z)
	return q4{w, x, y, z}
}

// qinvMulS is qinvMul on components, which inlines (see qmulS).
func qinvMulS(aw, ax, ay, az, bw, bx, by, bz float32) (w, x, y, z float32) {
	return aw*bw + ax*bx + ay*by + az*bz,
		aw*bx - ax*bw - ay*bz + az*by,
		aw*by - ay*bw - az*bx + ax*bz,
		aw*bz - az*bw - ax*by + ay*bx
}

// qabs is q or -q, whichever has w >= 0 (quat_abs).
func qabs(q q4) q4 {
	if q.w < 0 {
		return q4{-q.w, -q.x, -q.y, -q.z}
	}
	return q
}

// qrot rotates v by q (quat_mul_vec3): v + w t + u x t with t = 2 u x v.
func qrot(q q4, v v3) v3 {
	x, y, z := qrotS(q.w, q.x, q.y, q.z, v.x, v.y, v.z)
	return v3{x, y, z}
}

// qrotS is qrot on components, which inlines (see qmulS).
func qrotS(w, x, y, z, vx, vy, vz float32) (rx, ry, rz float32) {
	tx, ty, tz := 2*(y*vz-z*vy), 2*(z*vx-x*vz), 2*(x*vy-y*vx)
	return vx + w*tx + (y*tz - z*ty), vy + w*ty + (z*tx - x*tz), vz + w*tz + (x*ty - y*tx)
}

// qinvrotS rotates v by the inverse of unit quaternion (w, x, y, z)
// (quat_inv_mul_vec3): qrotS with u negated, v + w t + t x u with t = 2 v x
// u. It inlines (see qmulS).
func qinvrotS(w, x, y, z, vx, vy, vz float32) (rx, ry, rz float32) {
	tx, ty, tz := 2*(vy*z-vz*y), 2*(vz*x-vx*z), 2*(vx*y-vy*x)
	return vx + w*tx + (ty*z - tz*y), vy + w*ty + (tz*x - tx*z), vz + w*tz + (tx*y - ty*x)
}

// m33 is a rotation matrix (rows), for rotating several vectors by one
// quaternion: 15 flops a vector instead of qrot's 30.
type m33 struct{ xx, xy, xz, yx, yy, yz, zx, zy, zz float32 }

// rotMatrix is the matrix of unit quaternion q.
func rotMatrix(q q4) (m m33) {
	x2, y2, z2 := q.x+q.x, q.y+q.y, q.z+q.z
	xx, yy, zz := q.x*x2, q.y*y2, q.z*z2
	xy, xz, yz := q.x*y2, q.x*z2, q.y*z2
	wx, wy, wz := q.w*x2, q.w*y2, q.w*z2
	m.xx, m.xy, m.xz = 1-(yy+zz), xy-wz, xz+wy
	m.yx, m.yy, m.yz = xy+wz, 1-(xx+zz), yz-wx
	m.zx, m.zy, m.zz = xz-wy, yz+wx, 1-(xx+yy)
	return m
}

// mul is m v: v rotated by the quaternion of m.
func (m *m33) mul(v v3) v3 {
	return v3{m.xx*v.x + m.xy*v.y + m.xz*v.z, m.yx*v.x + m.yy*v.y + m.yz*v.z, m.zx*v.x + m.zy*v.y + m.zz*v.z}
}

// tmul is transpose(m) v: v rotated by the inverse quaternion.
func (m *m33) tmul(v v3) v3 {
	return v3{m.xx*v.x + m.yx*v.y + m.zx*v.z, m.xy*v.x + m.yy*v.y + m.zy*v.z, m.xz*v.x + m.yz*v.y + m.zz*v.z}
}

// Scaled angle-axis maps. For a rotation by angle a about unit axis n, the
// scaled angle-axis is v = a n and the quaternion (cos h, sin h n), h = a/2.

// qlog is quat_to_scaled_angle_axis: 2 atan2(|u|, w) u/|u| for q = (w, u).
// Pass qabs(q) for the shortest rotation. Rotations up to 45 degrees (all
// frame-to-frame deltas) take a path without square root: atan(t)/t is a
// polynomial in t^2 = |u|^2 / w^2.
func qlog(q q4) v3 {
	k, ok := qlogKSmall(q)
	if !ok {
		k = qlogK(q)
	}
	return v3{q.x * k, q.y * k, q.z * k}
}

// qlogKSmall is the factor k of qlog(q) = k u, q = (w, u), for rotations
// up to 45 degrees, without branch or square root so that it inlines; ok
// is false for larger ones (then qlogK).
func qlogKSmall(q q4) (k float32, ok bool) {
	s2 := q.x*q.x + q.y*q.y + q.z*q.z
	iw := 1 / q.w
	return 2 * atanPoly(s2*iw*iw) * iw, q.w > 0 && s2 <= tan2Pi8*q.w*q.w
}

// qlogKShort is qlogKSmall for q and -q alike, so callers skip qabs and
// its branch: k is odd in w, so k u is the same bits as for qabs(q). ok
// is false beyond 45 degrees (then qlogK of qabs(q)).
func qlogKShort(q q4) (k float32, ok bool) {
	s2 := q.x*q.x + q.y*q.y + q.z*q.z
	iw := 1 / q.w
	return 2 * atanPoly(s2*iw*iw) * iw, s2 < tan2Pi8*q.w*q.w
}

// qlogK is the factor 2 atan2(|u|, w)/|u| of qlog for any rotation.
func qlogK(q q4) float32 {
	return 2 * atan2OverS(sqrt32(q.x*q.x+q.y*q.y+q.z*q.z), q.w)
}

// rodS is x + a (v x x) + b (v x (v x x)) on components: the form of the
// exp map's Jacobian J(v) (a = c1, b = c2 of expK), of its inverse (a =
// -1/2, b = qlogRate's c) and of a rotation about v. It inlines (see
// qmulS).
func rodS(a, b, vx, vy, vz, x, y, z float32) (float32, float32, float32) {
	cx, cy, cz := vy*z-vz*y, vz*x-vx*z, vx*y-vy*x
	return x + a*cx + b*(vy*cz-vz*cy), y + a*cy + b*(vz*cx-vx*cz), z + a*cz + b*(vx*cy-vy*cx)
}

// qexp is quat_from_scaled_angle_axis: (cos h, sin(h)/h v/2), h = |v|/2.
func qexp(v v3) q4 {
	s, c := sincHalf(v.dot(v))
	k := 0.5 * s
	return q4{c, v.x * k, v.y * k, v.z * k}
}

// sincHalf is sin(h)/h and cos(h) for h = |v|/2, given a2 = |v|^2: for
// h <= pi/4 polynomials in h^2, without square root or division.
func sincHalf(a2 float32) (sinc, cos float32) {
	h2 := 0.25 * a2
	if h2 <= (math.Pi/4)*(math.Pi/4) {
		return sinPoly(h2), cosPoly(h2)
	}
	return sinc32(sqrt32(h2))
}

// sincHalfLarge is sincHalf beyond pi/4 (kept out of line).
func sincHalfLarge(a2 float32) (sinc, cos float32) { return sinc32(sqrt32(0.25 * a2)) }

// qexpVel is qexp(v) and its angular velocity (rad/s, world side) while v
// changes at dv: J(v) dv = dv + (1 - cos a)/a^2 (v x dv) + (a - sin a)/a^3
// (v x (v x dv)), a = |v| (see mathx.QuatFromScaledAngleAxisDx).
func qexpVel(v, dv v3) (q4, v3) {
	a2 := v.dot(v)
	k := expSmall(a2)
	if a2 >= 1 {
		k = expLarge(a2)
	}
	q := k.quat(v)
	vxd := v.cross(dv)
	return q, dv.add(vxd.scale(k.c1())).add(v.cross(vxd).scale(k.c2))
}

// expK holds the scalars of the exp map and its derivative at a = |v|
// (qexpVel): sinc(h) = sin(h)/h and cos(h) for h = a/2, and c2 = (a - sin
// a)/a^3.
type expK struct{ sc, c, c2 float32 }

// quat is qexp(v), given the scalars at |v|.
func (k expK) quat(v v3) q4 {
	s := 0.5 * k.sc
	return q4{k.c, v.x * s, v.y * s, v.z * s}
}

// c1 is (1 - cos a)/a^2 = 2 sin^2 h / a^2 = sinc(h)^2 / 2, without
// cancellation.
func (k expK) c1() float32 { return 0.5 * k.sc * k.sc }

// expSmall is expK for a2 = a^2 < 1, written out without a branch so that
// it inlines (the kernels compute it, then take expLarge when a2 >= 1):
// sinPoly and cosPoly at h^2 = a2/4, and c2 = (1 - sin(a)/a)/a^2 with
// sin(a)/a = sinc(h) cos h. That cancels for small a, but c2 only ever
// multiplies v x (v x dv), of size a^2 |dv|, so J(v) dv loses about an
// ulp of |dv| (measured: 3.4 ulp worst against float64, the series 2.5),
// for five fewer operations and registers. The tiny addend keeps a2 = 0
// finite (0/tiny = 0).
func expSmall(a2 float32) expK {
	h2 := 0.25 * a2
	h4 := h2 * h2
	sc := (0.9999999969177036 - 0.16666650673996886*h2) + h4*(0.008332035785601707-0.00019503904251287976*h2)
	c := (0.9999999999524894 - 0.49999999614857515*h2) + h4*((0.0416666166925251-0.0013886617999425682*h2)+h4*2.437983123082832e-05)
	return expK{sc, c, (1 - sc*c) / (a2 + 0x1p-100)}
}

// expLarge is expK for a2 = a^2 >= 1 (kept out of line).
func expLarge(a2 float32) (k expK) {
	if h2 := 0.25 * a2; h2 <= (math.Pi/4)*(math.Pi/4) {
		k.sc, k.c = sinPoly(h2), cosPoly(h2) // as sincHalf, inline
	} else {
		k.sc, k.c = sincHalfLarge(a2)
	}
	a := sqrt32(a2)
	k.c2 = (a - a*k.sc*k.c) / (a2 * a) // sin a = 2 sin h cos h = a sinc(h) cos h
	return k
}

// qlogRate is the rate of v = qlog(q) while q (w >= 0) turns at angular
// velocity w (rad/s, world side): J(v)^-1 w = w - (v x w)/2 + c (v x (v x w))
// with c = (1 - h cot h) / (4 h^2), h = |v|/2, cot h = q.w / |q.u| (see
// mathx.QuatToScaledAngleAxisDx).
func qlogRate(q q4, v, w v3) v3 {
	h2 := 0.25 * v.dot(v)
	c := logRateSeries(h2)
	if h2 >= 0.25 {
		c = logRateLarge(h2, q)
	}
	vxw := v.cross(w)
	return w.sub(vxw.scale(0.5)).add(v.cross(vxw).scale(c))
}

// logRateSeries is qlogRate's c = (1 - h cot h)/(4 h^2) by its series in
// h2 = h^2 < 1/4 (truncation < 1e-9).
func logRateSeries(h2 float32) float32 {
	h4 := h2 * h2
	return (1.0/12 + h2*(1.0/180)) + h4*((1.0/1890+h2*(1.0/18900))+h4*(1.0/187110))
}

// logRateLarge is qlogRate's c for h2 >= 1/4, q = (cos h, sin h n).
func logRateLarge(h2 float32, q q4) float32 {
	h := sqrt32(h2)
	s := sqrt32(q.x*q.x + q.y*q.y + q.z*q.z)
	return (1 - h*q.w/s) / (4 * h2)
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
	pi32   = float32(math.Pi)
	// tan2Pi8 is tan^2(pi/8): atanPoly's range.
	tan2Pi8 = 0.17157287525381
)

// log32 is the natural log of a positive, normal float32. log32(1) == 0
// exactly, so the log-ratio of two equal scales is exactly zero; that case,
// the common one (most joints never scale), returns at once.
func log32(x float32) float32 {
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

// nearOne reports whether log32(x) takes exponent 0: x within (sqrt2/2,
// sqrt2], as the ratio of a scale to its value a tick before is.
func nearOne(x float32) bool { return x > sqrt2/2 && x <= sqrt2 }

// logNearOne is log32(x) for nearOne(x), inline: log32's result there is 2
// s p exactly (its exponent terms add zeros), the same float32 operations
// written here; x = 1 gives 0 as log32 does.
func logNearOne(x float32) float32 {
	f := x - 1
	s := f / (2 + f)
	s2 := s * s
	s4 := s2 * s2
	return 2 * s * ((1 + s2*(1.0/3)) + s4*((1.0/5+s2*(1.0/7))+s4*(1.0/9)))
}

// exp32 is e^x for float32 x, clamped to the normal range.
// exp32(0) == 1 exactly, and returns at once.
func exp32(x float32) float32 {
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

// expPoly is e^r for |r| <= ln2/2, the degree-6 fit of exp32.
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
	return (0.9999999969177036 - 0.16666650673996886*r2) + r4*(0.008332035785601707-0.00019503904251287976*r2)
}

func cosPoly(r2 float32) float32 {
	r4 := r2 * r2
	return (0.9999999999524894 - 0.49999999614857515*r2) +
		r4*((0.0416666166925251-0.0013886617999425682*r2)+r4*2.437983123082832e-05)
}

// sincos32 is sin and cos of x, reduced by multiples of pi/2; beyond
// |x| = 4096 (where the float32 reduction loses accuracy) and for NaN it
// falls back to float64.
func sincos32(x float32) (s, c float32) {
	if !(x >= -4096 && x <= 4096) {
		s64, c64 := math.Sincos(float64(x))
		return float32(s64), float32(c64)
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
	s, c := sincos32(h)
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
	return (0.9999999812646112 - 0.33332785771926443*u2) +
		u4*((0.19974082415541466-0.13848490212505918*u2)+u4*0.07976291807322261)
}

// atan2OverS is atan2(s, w)/s for s >= 0: the half-angle of a unit
// quaternion (w, u) over |u| = s, finite (1/w) as s goes to 0.
func atan2OverS(s, w float32) float32 {
	switch {
	case w >= s:
		return atanOverX(s/w) / w
	case s > 0 && w >= 0:
		return (math.Pi/2 - (w/s)*atanOverX(w/s)) / s
	case s > 1e-20:
		// w < 0: the long way round, pi - atan2(s, -w).
		return (math.Pi - s*atan2OverS(s, -w)) / s
	default:
		return 1 / w
	}
}

// log3 is the natural log per axis; unit scales (most joints) return at
// once, without a call.
func log3(v v3) v3 {
	if v == (v3{1, 1, 1}) {
		return v3{}
	}
	return logEach(v)
}

// logEach is log per axis; a uniform scale (the usual kind) takes one log.
func logEach(v v3) v3 {
	if v.x == v.y && v.y == v.z {
		l := log32(v.x)
		return v3{l, l, l}
	}
	return v3{log32(v.x), log32(v.y), log32(v.z)}
}

// exp3 is exp per axis; zero returns at once, without a call.
func exp3(v v3) v3 {
	if v == (v3{}) {
		return v3{1, 1, 1}
	}
	return expEach(v)
}

// expEach is exp per axis; equal axes (a uniform scale) take one exp.
func expEach(v v3) v3 {
	if v.x == v.y && v.y == v.z {
		e := exp32(v.x)
		return v3{e, e, e}
	}
	return v3{exp32(v.x), exp32(v.y), exp32(v.z)}
}
