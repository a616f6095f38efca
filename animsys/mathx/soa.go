package mathx

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// The lane types (see the package doc): SoaVec3 and SoaQuat hold Lanes
// joints by component; Flat3 holds a block's Vec3s in memory order.
// Everything here is written once, on SoaFloat's and SoaMask's methods,
// so both builds compute the same float32 operations in the same order
// and give the same bits, lane by lane (soa_test.go holds each lane to a
// float64 reference; `make test` compares the two builds' bits).
//
// The transcendental functions are float32 polynomials with range
// reduction (coefficients and errors in poly.go): the polynomials cover
// what poses need (a frame's rotation, a blend's offset), and the lanes
// where an argument lies beyond a polynomial's range (a rotation of more
// than 45 degrees to log, an exp-map argument of 1 rad or more) take the
// general form, for the whole block, only when some lane needs it.

// SoaVec3 is Lanes vectors by component.
type SoaVec3 struct{ X, Y, Z SoaFloat }

// SoaQuat is Lanes quaternions by component (W, then the vector part).
type SoaQuat struct{ W, X, Y, Z SoaFloat }

// Flat3 is a block's Lanes Vec3s as they lie in memory (Room3.LoadFlat):
// in the AVX2 build its three registers hold x0 y0 z0 x1 ... z7, so a
// lane is no component. It has only the maths that treats every
// component alike, with factors the same for every joint (Uniform), and
// then gives each component what SoaVec3's would, for plain loads and no
// transpose: positions and velocities that lerp, add and scale.
type Flat3 struct{ a, b, c SoaFloat }

// Uniform is one value in every lane (Splat): a weight the same for
// every joint of a block, the only factor a Flat3 takes.
type Uniform struct{ s SoaFloat }

// Splat is x in every lane.
func Splat(x float32) Uniform { return Uniform{splat(x)} }

// Lanes is u as a SoaFloat, for maths by component.
func (u Uniform) Lanes() SoaFloat { return u.s }

// Constants in every lane, made once: a splat in a loop is two
// instructions, a load of one of these one, and a splat of a constant a
// legacy SSE instruction (see the package doc). In the AVX2 build they
// are made only once the CPU is known to have AVX2 (konst).
var (
	kZero, kHalf, kOne, kTwo, kNegOne, kQuarter = konst(0), konst(0.5), konst(1), konst(2), konst(-1), konst(0.25)
	kTiny, kTan2Pi8                             = konst(tiny), konst(tan2Pi8)
	kSin0, kSin1, kSin2, kSin3                  = konst(sin0), konst(sin1), konst(sin2), konst(sin3)
	kCos0, kCos1, kCos2, kCos3, kCos4           = konst(cos0), konst(cos1), konst(cos2), konst(cos3), konst(cos4)
	kAtan0, kAtan1, kAtan2, kAtan3, kAtan4      = konst(atan0), konst(atan1), konst(atan2), konst(atan3), konst(atan4)
	kLrs0, kLrs1, kLrs2, kLrs3, kLrs4           = konst(lrs0), konst(lrs1), konst(lrs2), konst(lrs3), konst(lrs4)
	kSqrt2, kThird, kFifth, kSeventh, kNinth    = konst(sqrt2), konst(1.0 / 3), konst(1.0 / 5), konst(1.0 / 7), konst(1.0 / 9)
	kLn2hi, kLn2lo, kLog2e, kExpHi, kExpLo      = konst(ln2hi), konst(ln2lo), konst(log2e), konst(88), konst(-87)
	kExp1, kExp2, kExp3                         = konst(1.0000000377162137), konst(0.5000000047117756), konst(0.16666415514653268)
	kExp4, kExp5, kExp6                         = konst(0.04166635289675798), konst(0.008375126398156), konst(0.0013941108435501846)
	kPi, kPi2, kPi4, kPi4Sq, k2OverPi           = konst(math.Pi), konst(math.Pi / 2), konst(math.Pi / 4), konst((math.Pi / 4) * (math.Pi / 4)), konst(2 / math.Pi)
	kPio2hi, kPio2lo, kNegHalf, kFour           = konst(pio2hi), konst(pio2lo), konst(-0.5), konst(4)
	kMinNormal, kMaxFloat, k2p24, k24Ln2        = konst(0x1p-126), konst(math.MaxFloat32), konst(0x1p24), konst(24 * math.Ln2)
	kNegInf, kPosInf                            = konst(float32(math.Inf(-1))), konst(float32(math.Inf(1)))
)

// Zero is 0 in every lane, for lane code outside mathx (the package doc:
// no Splat of a constant).
func Zero() SoaFloat { return kZero }

// Half is 0.5 in every lane (see Zero).
func Half() SoaFloat { return kHalf }

// allLanes is the ToBits of a mask that holds in every lane.
const allLanes = 1<<Lanes - 1

// AllLanes reports whether m holds in every lane.
func AllLanes(m SoaMask) bool { return m.ToBits() == allLanes }

// AnyLane reports whether m holds in some lane.
func AnyLane(m SoaMask) bool { return m.ToBits() != 0 }

// Lane is lane i of v.
func (v SoaVec3) Lane(i int) mgl32.Vec3 {
	return mgl32.Vec3{LaneOf(v.X, i), LaneOf(v.Y, i), LaneOf(v.Z, i)}
}

// Lane is lane i of q.
func (q SoaQuat) Lane(i int) mgl32.Quat {
	return mgl32.Quat{W: LaneOf(q.W, i), V: mgl32.Vec3{LaneOf(q.X, i), LaneOf(q.Y, i), LaneOf(q.Z, i)}}
}

// The vector and quaternion primitives, on SoaFloat's methods: the same
// float32 operations in the same order in every build.

// Add is a + b.
func (a SoaVec3) Add(b SoaVec3) SoaVec3 { return SoaVec3{a.X.Add(b.X), a.Y.Add(b.Y), a.Z.Add(b.Z)} }

// Sub is a - b.
func (a SoaVec3) Sub(b SoaVec3) SoaVec3 { return SoaVec3{a.X.Sub(b.X), a.Y.Sub(b.Y), a.Z.Sub(b.Z)} }

// Mul is the component-wise product (Vec3Mul).
func (a SoaVec3) Mul(b SoaVec3) SoaVec3 { return SoaVec3{a.X.Mul(b.X), a.Y.Mul(b.Y), a.Z.Mul(b.Z)} }

// Div is the component-wise quotient (Vec3Div).
func (a SoaVec3) Div(b SoaVec3) SoaVec3 { return SoaVec3{a.X.Div(b.X), a.Y.Div(b.Y), a.Z.Div(b.Z)} }

// Scale is a s.
func (a SoaVec3) Scale(s SoaFloat) SoaVec3 { return SoaVec3{a.X.Mul(s), a.Y.Mul(s), a.Z.Mul(s)} }

// Dot is the dot product.
func (a SoaVec3) Dot(b SoaVec3) SoaFloat { return a.X.Mul(b.X).Add(a.Y.Mul(b.Y)).Add(a.Z.Mul(b.Z)) }

// Cross is the cross product a x b.
func (a SoaVec3) Cross(b SoaVec3) SoaVec3 {
	return SoaVec3{a.Y.Mul(b.Z).Sub(a.Z.Mul(b.Y)), a.Z.Mul(b.X).Sub(a.X.Mul(b.Z)), a.X.Mul(b.Y).Sub(a.Y.Mul(b.X))}
}

// Lerp is a + (b - a) t (Vec3Lerp).
func (a SoaVec3) Lerp(b SoaVec3, t SoaFloat) SoaVec3 {
	return SoaVec3{a.X.Add(b.X.Sub(a.X).Mul(t)), a.Y.Add(b.Y.Sub(a.Y).Mul(t)), a.Z.Add(b.Z.Sub(a.Z).Mul(t))}
}

// Equal is a == b per lane, in all three components.
func (a SoaVec3) Equal(b SoaVec3) SoaMask {
	return a.X.Equal(b.X).And(a.Y.Equal(b.Y)).And(a.Z.Equal(b.Z))
}

// Merge is a where m holds, b elsewhere.
func (a SoaVec3) Merge(b SoaVec3, m SoaMask) SoaVec3 {
	return SoaVec3{a.X.Merge(b.X, m), a.Y.Merge(b.Y, m), a.Z.Merge(b.Z, m)}
}

// Merge is a where m holds, b elsewhere.
func (a SoaQuat) Merge(b SoaQuat, m SoaMask) SoaQuat {
	return SoaQuat{a.W.Merge(b.W, m), a.X.Merge(b.X, m), a.Y.Merge(b.Y, m), a.Z.Merge(b.Z, m)}
}

// Vec is the vector part of q.
func (q SoaQuat) Vec() SoaVec3 { return SoaVec3{q.X, q.Y, q.Z} }

// The quaternion products sum each vector component's four products
// with w's pair first (a.w b.x and a.x b.w for x, ...: they cancel for
// nearby rotations, as in a delta between frames, and are then summed
// exactly), then the cross product's two terms; w sums its products in
// the order w, x, y, z. QuatMul4, FK's product, sums in the same order.

// Mul is the quaternion product a b (quat_mul).
func (a SoaQuat) Mul(b SoaQuat) SoaQuat {
	return SoaQuat{
		a.W.Mul(b.W).Sub(a.X.Mul(b.X)).Sub(a.Y.Mul(b.Y)).Sub(a.Z.Mul(b.Z)),
		a.W.Mul(b.X).Add(a.X.Mul(b.W)).Add(a.Y.Mul(b.Z)).Sub(a.Z.Mul(b.Y)),
		a.W.Mul(b.Y).Add(a.Y.Mul(b.W)).Add(a.Z.Mul(b.X)).Sub(a.X.Mul(b.Z)),
		a.W.Mul(b.Z).Add(a.Z.Mul(b.W)).Add(a.X.Mul(b.Y)).Sub(a.Y.Mul(b.X)),
	}
}

// MulInv is a inv(b) (quat_mul_inv): a times the conjugate of b.
func (a SoaQuat) MulInv(b SoaQuat) SoaQuat {
	return SoaQuat{
		a.W.Mul(b.W).Add(a.X.Mul(b.X)).Add(a.Y.Mul(b.Y)).Add(a.Z.Mul(b.Z)),
		a.X.Mul(b.W).Sub(a.W.Mul(b.X)).Sub(a.Y.Mul(b.Z)).Add(a.Z.Mul(b.Y)),
		a.Y.Mul(b.W).Sub(a.W.Mul(b.Y)).Sub(a.Z.Mul(b.X)).Add(a.X.Mul(b.Z)),
		a.Z.Mul(b.W).Sub(a.W.Mul(b.Z)).Sub(a.X.Mul(b.Y)).Add(a.Y.Mul(b.X)),
	}
}

// InvMul is inv(a) b (quat_inv_mul): the conjugate of a times b.
func (a SoaQuat) InvMul(b SoaQuat) SoaQuat {
	return SoaQuat{
		a.W.Mul(b.W).Add(a.X.Mul(b.X)).Add(a.Y.Mul(b.Y)).Add(a.Z.Mul(b.Z)),
		a.W.Mul(b.X).Sub(a.X.Mul(b.W)).Sub(a.Y.Mul(b.Z)).Add(a.Z.Mul(b.Y)),
		a.W.Mul(b.Y).Sub(a.Y.Mul(b.W)).Sub(a.Z.Mul(b.X)).Add(a.X.Mul(b.Z)),
		a.W.Mul(b.Z).Sub(a.Z.Mul(b.W)).Sub(a.X.Mul(b.Y)).Add(a.Y.Mul(b.X)),
	}
}

// Abs is q or -q, whichever has W >= 0 (quat_abs): the same rotation the
// short way round (a product with 1 or -1, exact).
func (q SoaQuat) Abs() SoaQuat {
	s := kNegOne.Merge(kOne, q.W.Less(kZero))
	return SoaQuat{q.W.Mul(s), q.X.Mul(s), q.Y.Mul(s), q.Z.Mul(s)}
}

// MulVec3 rotates v by unit quaternion q (quat_mul_vec3): v + w t + u x t
// with t = 2 u x v, u the vector part of q.
func (q SoaQuat) MulVec3(v SoaVec3) SoaVec3 {
	tx, ty, tz := q.Y.Mul(v.Z).Sub(q.Z.Mul(v.Y)).Mul(kTwo), q.Z.Mul(v.X).Sub(q.X.Mul(v.Z)).Mul(kTwo), q.X.Mul(v.Y).Sub(q.Y.Mul(v.X)).Mul(kTwo)
	return SoaVec3{
		v.X.Add(tx.Mul(q.W)).Add(q.Y.Mul(tz).Sub(q.Z.Mul(ty))),
		v.Y.Add(ty.Mul(q.W)).Add(q.Z.Mul(tx).Sub(q.X.Mul(tz))),
		v.Z.Add(tz.Mul(q.W)).Add(q.X.Mul(ty).Sub(q.Y.Mul(tx))),
	}
}

// InvMulVec3 rotates v by the inverse of unit quaternion q
// (quat_inv_mul_vec3): MulVec3 with u negated, v + w t + t x u with t = 2
// v x u.
func (q SoaQuat) InvMulVec3(v SoaVec3) SoaVec3 {
	tx, ty, tz := v.Y.Mul(q.Z).Sub(v.Z.Mul(q.Y)).Mul(kTwo), v.Z.Mul(q.X).Sub(v.X.Mul(q.Z)).Mul(kTwo), v.X.Mul(q.Y).Sub(v.Y.Mul(q.X)).Mul(kTwo)
	return SoaVec3{
		v.X.Add(tx.Mul(q.W)).Add(ty.Mul(q.Z).Sub(tz.Mul(q.Y))),
		v.Y.Add(ty.Mul(q.W)).Add(tz.Mul(q.X).Sub(tx.Mul(q.Z))),
		v.Z.Add(tz.Mul(q.W)).Add(tx.Mul(q.Y).Sub(ty.Mul(q.X))),
	}
}

// Rodrigues is x + a (v x x) + b (v x (v x x)): the form of the exp map's
// Jacobian J(v) x (a = C1, b = C2 of SoaExp), of its inverse (a = -1/2, b
// = ToScaledAngleAxisDx's c) and of a rotation about v.
func Rodrigues(a, b SoaFloat, v, x SoaVec3) SoaVec3 {
	cx, cy, cz := v.Y.Mul(x.Z).Sub(v.Z.Mul(x.Y)), v.Z.Mul(x.X).Sub(v.X.Mul(x.Z)), v.X.Mul(x.Y).Sub(v.Y.Mul(x.X))
	return SoaVec3{
		x.X.Add(cx.Mul(a)).Add(v.Y.Mul(cz).Sub(v.Z.Mul(cy)).Mul(b)),
		x.Y.Add(cy.Mul(a)).Add(v.Z.Mul(cx).Sub(v.X.Mul(cz)).Mul(b)),
		x.Z.Add(cz.Mul(a)).Add(v.X.Mul(cy).Sub(v.Y.Mul(cx)).Mul(b)),
	}
}

// Add is v + w.
func (v Flat3) Add(w Flat3) Flat3 { return Flat3{v.a.Add(w.a), v.b.Add(w.b), v.c.Add(w.c)} }

// Sub is v - w.
func (v Flat3) Sub(w Flat3) Flat3 { return Flat3{v.a.Sub(w.a), v.b.Sub(w.b), v.c.Sub(w.c)} }

// Scale is v s.
func (v Flat3) Scale(s Uniform) Flat3 { return Flat3{v.a.Mul(s.s), v.b.Mul(s.s), v.c.Mul(s.s)} }

// Lerp is v + (w - v) t, as SoaVec3.Lerp.
func (v Flat3) Lerp(w Flat3, t Uniform) Flat3 {
	return Flat3{v.a.Add(w.a.Sub(v.a).Mul(t.s)), v.b.Add(w.b.Sub(v.b).Mul(t.s)), v.c.Add(w.c.Sub(v.c).Mul(t.s))}
}

// The exp map. For a rotation by angle a about unit axis n, the scaled
// angle-axis is v = a n and the quaternion (cos h, sin(h)/h v/2), h = a/2.

// SoaExp holds the scalars of the exp map and its derivative at a = |v|:
// Sinc = sin(h)/h and Cos = cos(h) for h = a/2, C1 = (1 - cos a)/a^2 =
// sinc(h)^2 / 2 (without cancellation) and C2 = (a - sin a)/a^3.
type SoaExp struct{ Sinc, Cos, C1, C2 SoaFloat }

// ExpAt is SoaExp at a2 = |v|^2, for any a2: polynomials in h^2 = a2/4
// below 1 rad (the only lanes of nearly every call), the general form in
// every lane where some lane is beyond. C2 = (1 - sinc(h) cos h)/a2
// cancels for small a, but C2 only ever multiplies v x (v x dv), of size
// a^2 |dv|; the tiny addend keeps a2 = 0 finite.
func ExpAt(a2 SoaFloat) SoaExp {
	h2 := kQuarter.Mul(a2)
	k := SoaExp{Sinc: sinPolyL(h2), Cos: cosPolyL(h2)}
	k.C2 = kOne.Sub(k.Sinc.Mul(k.Cos)).Div(a2.Add(kTiny))
	if big := a2.GreaterEqual(kOne); AnyLane(big) {
		k = expLarge(a2, k, big)
	}
	// Kept, not a method Jacobian calls: Jacobian then inlines.
	k.C1 = kHalf.Mul(k.Sinc).Mul(k.Sinc)
	return k
}

// expLarge is ExpAt's k where a2 >= 1 (big): the polynomials while h <=
// pi/4, then sin and cos reduced by multiples of pi/2; C2 = (a - a sinc(h)
// cos h)/a^3, as sin a = a sinc(h) cos h.
func expLarge(a2 SoaFloat, k SoaExp, big SoaMask) SoaExp {
	h2 := kQuarter.Mul(a2)
	sc, c := k.Sinc, k.Cos
	if far := h2.Greater(kPi4Sq); AnyLane(far) {
		h := h2.Sqrt()
		s, co := sincosL(h)
		sc, c = s.Div(h).Merge(sc, far), co.Merge(c, far)
	}
	a := a2.Sqrt()
	c2 := a.Sub(a.Mul(sc).Mul(c)).Div(a2.Mul(a))
	return SoaExp{Sinc: sc, Cos: c, C2: c2.Merge(k.C2, big)}
}

// Quat is from_scaled_angle_axis(v), given the scalars at |v|.
func (k SoaExp) Quat(v SoaVec3) SoaQuat {
	u := v.Scale(kHalf.Mul(k.Sinc))
	return SoaQuat{k.Cos, u.X, u.Y, u.Z}
}

// Jacobian is J(v) dv, the angular velocity (world side) of
// from_scaled_angle_axis(v) while v changes at dv: dv + C1 (v x dv) + C2
// (v x (v x dv)) (quat_from_scaled_angle_axis_dx, exact at any angle).
func (k SoaExp) Jacobian(v, dv SoaVec3) SoaVec3 { return Rodrigues(k.C1, k.C2, v, dv) }

// FromScaledAngleAxis is from_scaled_angle_axis(v)
// (quat_from_scaled_angle_axis).
func FromScaledAngleAxis(v SoaVec3) SoaQuat { return ExpAt(v.Dot(v)).Quat(v) }

// The log map.

// ToScaledAngleAxis is quat_to_scaled_angle_axis(q): 2 atan2(|u|, w)
// u/|u| for q = (w, u); call it on q.Abs() for the shortest rotation.
// Rotations up to 45 degrees (w > 0: all a frame's changes, most blend
// offsets) take atan(t)/t as a polynomial in t^2 = |u|^2 / w^2, without
// square root; a block with a lane beyond takes the general form there.
func (q SoaQuat) ToScaledAngleAxis() SoaVec3 {
	u := q.Vec()
	s2 := u.Dot(u)
	iw := kOne.Div(q.W)
	k := kTwo.Mul(atanPolyL(s2.Mul(iw).Mul(iw))).Mul(iw)
	if near := q.W.Greater(kZero).And(s2.Less(kTan2Pi8.Mul(q.W).Mul(q.W))); !AllLanes(near) {
		k = k.Merge(logFactorL(s2, q.W), near)
	}
	return u.Scale(k)
}

// logFactorL is the factor 2 atan2(s, w)/s of ToScaledAngleAxis for any
// rotation, s^2 = s2 = |u|^2: the angle reduced to [0, pi/4] by the
// octant of (|w|, s) (atan t = pi/4 + atan((t - 1)/(t + 1)) beyond
// tan(pi/8)), 2/w where s = 0.
func logFactorL(s2, w SoaFloat) SoaFloat {
	s, aw := s2.Sqrt(), w.Max(w.Mul(kNegOne))
	t := s.Min(aw).Div(s.Max(aw).Max(kTiny))
	u := t.Sub(kOne).Div(t.Add(kOne))
	a := t.Mul(atanPolyL(t.Mul(t))).Merge(kPi4.Add(u.Mul(atanPolyL(u.Mul(u)))), t.Mul(t).LessEqual(kTan2Pi8))
	a = kPi2.Sub(a).Merge(a, s.Greater(aw))
	a = kPi.Sub(a).Merge(a, w.Less(kZero))
	return kTwo.Mul(a).Div(s).Merge(kTwo.Div(w), s.Greater(kZero))
}

// ToScaledAngleAxisDx is the rate of v = q.ToScaledAngleAxis() while q (w
// >= 0) turns at angular velocity w (rad/s, world side): J(v)^-1 w = w -
// (v x w)/2 + c (v x (v x w)), c = (1 - h cot h)/(4 h^2), h = |v|/2, cot h
// = q.W / |q.u| (quat_to_scaled_angle_axis_dx): c by its series in h^2
// below h = 1/2 (truncation < 1e-9), in closed form beyond (logRateFar).
func ToScaledAngleAxisDx(q SoaQuat, v, w SoaVec3) SoaVec3 {
	h2 := kQuarter.Mul(v.Dot(v))
	h4 := h2.Mul(h2)
	c := kLrs0.Add(h2.Mul(kLrs1)).Add(h4.Mul(kLrs2.Add(h2.Mul(kLrs3)).Add(h4.Mul(kLrs4))))
	if far := h2.GreaterEqual(kQuarter); AnyLane(far) {
		c = logRateFar(q, h2).Merge(c, far)
	}
	return Rodrigues(kNegHalf, c, v, w)
}

// logRateFar is ToScaledAngleAxisDx's c in closed form, (1 - h cot h)/(4
// h^2), h^2 = h2.
func logRateFar(q SoaQuat, h2 SoaFloat) SoaFloat {
	h := h2.Sqrt()
	u := q.Vec()
	s := u.Dot(u).Sqrt()
	return kOne.Sub(h.Mul(q.W).Div(s)).Div(kFour.Mul(h2))
}

// Per-component logarithm and exponential, of scales.

// LaneLog is the natural logarithm per lane, in float32 arithmetic:
// log m + e ln 2 for x = m 2^e, m in (sqrt2/2, sqrt2], log m = 2
// atanh(s) by its series in s = (m - 1)/(m + 1) (truncation < 3e-9).
// Log(1) is exactly 0, so equal scales have a log-ratio of exactly 0;
// Log(0) = -Inf, Log(+Inf) = +Inf, negative and NaN give NaN, and
// subnormals are scaled by 2^24 first.
func LaneLog(x SoaFloat) SoaFloat {
	if normal := x.GreaterEqual(kMinNormal).And(x.LessEqual(kMaxFloat)); !AllLanes(normal) {
		return logSpecial(x, normal)
	}
	return logNormal(x)
}

// logSpecial is LaneLog where some lane is not a positive, normal float.
func logSpecial(x SoaFloat, normal SoaMask) SoaFloat {
	sub := x.Greater(kZero).And(x.Less(kMinNormal))
	r := logNormal(x.Mul(k2p24).Merge(x.Merge(kOne, normal), sub))
	r = r.Sub(k24Ln2).Merge(r, sub)
	r = kNegInf.Merge(r, x.Equal(kZero))
	r = x.Merge(r, x.Equal(kPosInf))
	// Negative x and NaN: NaN (0/0, the quiet NaN math.Log returns too).
	return kZero.Div(kZero).Merge(r, x.Less(kZero).Or(x.NotEqual(x)))
}

// logNormal is LaneLog for positive, normal lanes.
func logNormal(x SoaFloat) SoaFloat {
	e, m := split(x)
	big := m.Greater(kSqrt2)
	m, e = m.Mul(kHalf).Merge(m, big), e.Add(kOne).Merge(e, big)
	f := m.Sub(kOne)
	s := f.Div(kTwo.Add(f))
	s2 := s.Mul(s)
	s4 := s2.Mul(s2)
	p := kOne.Add(s2.Mul(kThird)).Add(s4.Mul(kFifth.Add(s2.Mul(kSeventh)).Add(s4.Mul(kNinth))))
	return e.Mul(kLn2hi).Add(e.Mul(kLn2lo).Add(kTwo.Mul(s).Mul(p)))
}

// LaneExp is e^x per lane, in float32 arithmetic, x clamped to
// [-87, 88] (the normal range): x = k ln2 + r, |r| <= ln2/2, e^r by a
// degree-6 fit (error < 3e-9). Exp(0) is exactly 1; NaN stays NaN.
func LaneExp(x SoaFloat) SoaFloat {
	x = kExpHi.Merge(x, x.Greater(kExpHi))
	x = kExpLo.Merge(x, x.Less(kExpLo))
	k := x.Mul(kLog2e).RoundToEven()
	r := x.Sub(k.Mul(kLn2hi)).Sub(k.Mul(kLn2lo))
	r2 := r.Mul(r)
	r4 := r2.Mul(r2)
	e := kOne.Add(kExp1.Mul(r)).Add(r2.Mul(kExp2.Add(kExp3.Mul(r)))).Add(r4.Mul(kExp4.Add(kExp5.Mul(r)).Add(r2.Mul(kExp6))))
	return e.Mul(pow2(k))
}

// Log is LaneLog per component. 1 in
// every lane and component (a ratio of equal scales: most joints, as a
// BVH joint never scales) gives +0, the bits of its logarithm, without
// it; a uniform scale (the same value in each component, in every lane:
// the usual kind) takes one logarithm. Where every lane of every
// component is a positive, normal float (nearly always), the
// logarithm's polynomial runs inline, without LaneLog's test for the
// rest.
func (v SoaVec3) Log() SoaVec3 {
	if AllLanes(v.Equal(SoaVec3{kOne, kOne, kOne})) {
		return SoaVec3{kZero, kZero, kZero}
	}
	lo, hi := kMinNormal, kMaxFloat
	normal := v.X.GreaterEqual(lo).And(v.X.LessEqual(hi)).And(v.Y.GreaterEqual(lo)).And(v.Y.LessEqual(hi)).And(v.Z.GreaterEqual(lo)).And(v.Z.LessEqual(hi))
	if !AllLanes(normal) {
		return SoaVec3{LaneLog(v.X), LaneLog(v.Y), LaneLog(v.Z)}
	}
	if AllLanes(v.X.Equal(v.Y).And(v.Y.Equal(v.Z))) {
		l := logNormal(v.X)
		return SoaVec3{l, l, l}
	}
	return SoaVec3{logNormal(v.X), logNormal(v.Y), logNormal(v.Z)}
}

// Exp is LaneExp per component. 0 in
// every lane and component (a pose that does not scale) gives exactly 1
// without it; a uniform argument takes one exponential.
func (v SoaVec3) Exp() SoaVec3 {
	if AllLanes(v.Equal(SoaVec3{kZero, kZero, kZero})) {
		return SoaVec3{kOne, kOne, kOne}
	}
	if AllLanes(v.X.Equal(v.Y).And(v.Y.Equal(v.Z))) {
		e := LaneExp(v.X)
		return SoaVec3{e, e, e}
	}
	return SoaVec3{LaneExp(v.X), LaneExp(v.Y), LaneExp(v.Z)}
}

// The polynomials of poly.go, on lanes (coefficients and errors there).

func sinPolyL(r2 SoaFloat) SoaFloat {
	r4 := r2.Mul(r2)
	return kSin0.Sub(kSin1.Mul(r2)).Add(r4.Mul(kSin2.Sub(kSin3.Mul(r2))))
}

func cosPolyL(r2 SoaFloat) SoaFloat {
	r4 := r2.Mul(r2)
	return kCos0.Sub(kCos1.Mul(r2)).Add(r4.Mul(kCos2.Sub(kCos3.Mul(r2)).Add(r4.Mul(kCos4))))
}

func atanPolyL(u2 SoaFloat) SoaFloat {
	u4 := u2.Mul(u2)
	return kAtan0.Sub(kAtan1.Mul(u2)).Add(u4.Mul(kAtan2.Sub(kAtan3.Mul(u2)).Add(u4.Mul(kAtan4))))
}

// sincosL is sin and cos per lane of x >= 0, reduced by multiples of
// pi/2 (Sincos32; accurate while x <= 4096, bounded beyond).
func sincosL(x SoaFloat) (s, c SoaFloat) {
	k := x.Mul(k2OverPi).RoundToEven()
	r := x.Sub(k.Mul(kPio2hi)).Sub(k.Mul(kPio2lo))
	r2 := r.Mul(r)
	s, c = r.Mul(sinPolyL(r2)), cosPolyL(r2)
	// The quadrant k mod 4: odd ones swap sine and cosine, (s, c) -> (c,
	// -s); the upper two negate both.
	q := k.Sub(kFour.Mul(k.Mul(kQuarter).Floor()))
	odd := q.Sub(kTwo.Mul(q.Mul(kHalf).Floor())).Equal(kOne)
	s, c = c.Merge(s, odd), s.Mul(kNegOne).Merge(c, odd)
	up := q.GreaterEqual(kTwo)
	return s.Mul(kNegOne).Merge(s, up), c.Mul(kNegOne).Merge(c, up)
}
