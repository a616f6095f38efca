//go:build !(goexperiment.simd && amd64)

package mathx

import (
	"math"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// The portable implementation of the lane types: one lane, a float32 with
// archsimd.Float32x8's methods, each the same operation as soa_avx2.go's
// for its one lane, so the two builds give the same bits. Each product is
// converted to float32 before it is used, which keeps Go from fusing it
// into a multiply-add where it may (arm64, GOAMD64=v3): AVX2's lanes
// never fuse.

// Lanes is the number of joints a lane type holds: 1 in this build.
const Lanes = 1

// SIMD names the implementation of the lane types, for reports ("AVX2",
// or "portable").
const SIMD = "portable"

// SoaFloat is Lanes float32s, one per joint of a block (see soa_avx2.go
// for its methods).
type SoaFloat float32

// SoaMask is a per-lane truth value, the result of a comparison.
type SoaMask bool

// Splat is x in every lane.
func Splat(x float32) SoaFloat { return SoaFloat(x) }

// konst is Splat for the package's constants.
func konst(x float32) SoaFloat { return SoaFloat(x) }

// LoadSoaFloat is the Lanes float32s at p.
func LoadSoaFloat(p *[Lanes]float32) SoaFloat { return SoaFloat(p[0]) }

// Store writes x's lanes to p.
func (x SoaFloat) Store(p *[Lanes]float32) { p[0] = float32(x) }

// LaneOf is lane i of x.
func LaneOf(x SoaFloat, i int) float32 { return float32(x) }

// Add is x + y per lane.
func (x SoaFloat) Add(y SoaFloat) SoaFloat { return x + y }

// Sub is x - y per lane.
func (x SoaFloat) Sub(y SoaFloat) SoaFloat { return x - y }

// Mul is x y per lane.
func (x SoaFloat) Mul(y SoaFloat) SoaFloat { return SoaFloat(x * y) }

// Div is x / y per lane.
func (x SoaFloat) Div(y SoaFloat) SoaFloat { return x / y }

// Sqrt is the square root per lane.
func (x SoaFloat) Sqrt() SoaFloat { return SoaFloat(math.Sqrt(float64(x))) }

// Min is x where x < y, else y, per lane (y where either is NaN).
func (x SoaFloat) Min(y SoaFloat) SoaFloat {
	if x < y {
		return x
	}
	return y
}

// Max is x where x > y, else y, per lane (y where either is NaN).
func (x SoaFloat) Max(y SoaFloat) SoaFloat {
	if x > y {
		return x
	}
	return y
}

// RoundToEven rounds each lane to the nearest integer, ties to even.
func (x SoaFloat) RoundToEven() SoaFloat { return SoaFloat(math.RoundToEven(float64(x))) }

// Floor rounds each lane down to an integer.
func (x SoaFloat) Floor() SoaFloat { return SoaFloat(math.Floor(float64(x))) }

// Less is x < y per lane (false where either is NaN).
func (x SoaFloat) Less(y SoaFloat) SoaMask { return x < y }

// LessEqual is x <= y per lane.
func (x SoaFloat) LessEqual(y SoaFloat) SoaMask { return x <= y }

// Greater is x > y per lane.
func (x SoaFloat) Greater(y SoaFloat) SoaMask { return x > y }

// GreaterEqual is x >= y per lane.
func (x SoaFloat) GreaterEqual(y SoaFloat) SoaMask { return x >= y }

// Equal is x == y per lane.
func (x SoaFloat) Equal(y SoaFloat) SoaMask { return x == y }

// NotEqual is x != y per lane (true where either is NaN).
func (x SoaFloat) NotEqual(y SoaFloat) SoaMask { return x != y }

// Merge is x where m holds, y elsewhere.
func (x SoaFloat) Merge(y SoaFloat, m SoaMask) SoaFloat {
	if m {
		return x
	}
	return y
}

// And is m and n per lane.
func (m SoaMask) And(n SoaMask) SoaMask { return m && n }

// Or is m or n per lane.
func (m SoaMask) Or(n SoaMask) SoaMask { return m || n }

// ToBits is m as an integer, bit i for lane i.
func (m SoaMask) ToBits() uint8 {
	if m {
		return 1
	}
	return 0
}

// MaskFromBits is the mask holding in lane i where bit i of b is set.
func MaskFromBits(b uint) SoaMask { return b&1 != 0 }

// split is the unbiased exponent (as a float) and the significand in [1,
// 2) of each lane of a positive, normal x.
func split(x SoaFloat) (e, m SoaFloat) {
	b := math.Float32bits(float32(x))
	return SoaFloat(int32(b>>23) - 127), SoaFloat(math.Float32frombits(b&0x007fffff | 0x3f800000))
}

// pow2 is 2^k per lane, k an integer from -126 to 127 held as a float.
func pow2(k SoaFloat) SoaFloat {
	return SoaFloat(math.Float32frombits(uint32(int32(k)+127) << 23))
}

// The primitives on float32 operators, in soa_avx2.go's order (see
// soa.go). A product is converted to SoaFloat before it is summed: Go may
// not fuse it into a multiply-add then.

// Add is a + b.
func (a SoaVec3) Add(b SoaVec3) SoaVec3 { return SoaVec3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }

// Sub is a - b.
func (a SoaVec3) Sub(b SoaVec3) SoaVec3 { return SoaVec3{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }

// Mul is the component-wise product (Vec3Mul).
func (a SoaVec3) Mul(b SoaVec3) SoaVec3 {
	return SoaVec3{SoaFloat(a.X * b.X), SoaFloat(a.Y * b.Y), SoaFloat(a.Z * b.Z)}
}

// Div is the component-wise quotient (Vec3Div).
func (a SoaVec3) Div(b SoaVec3) SoaVec3 { return SoaVec3{a.X / b.X, a.Y / b.Y, a.Z / b.Z} }

// Scale is a s.
func (a SoaVec3) Scale(s SoaFloat) SoaVec3 {
	return SoaVec3{SoaFloat(a.X * s), SoaFloat(a.Y * s), SoaFloat(a.Z * s)}
}

// Dot is the dot product.
func (a SoaVec3) Dot(b SoaVec3) SoaFloat {
	return SoaFloat(a.X*b.X) + SoaFloat(a.Y*b.Y) + SoaFloat(a.Z*b.Z)
}

// Cross is the cross product a x b.
func (a SoaVec3) Cross(b SoaVec3) SoaVec3 {
	return SoaVec3{SoaFloat(a.Y*b.Z) - SoaFloat(a.Z*b.Y), SoaFloat(a.Z*b.X) - SoaFloat(a.X*b.Z), SoaFloat(a.X*b.Y) - SoaFloat(a.Y*b.X)}
}

// Lerp is a + (b - a) t (Vec3Lerp).
func (a SoaVec3) Lerp(b SoaVec3, t SoaFloat) SoaVec3 {
	return SoaVec3{a.X + SoaFloat((b.X-a.X)*t), a.Y + SoaFloat((b.Y-a.Y)*t), a.Z + SoaFloat((b.Z-a.Z)*t)}
}

// Equal is a == b per lane, in all three components.
func (a SoaVec3) Equal(b SoaVec3) SoaMask { return a.X == b.X && a.Y == b.Y && a.Z == b.Z }

// Merge is a where m holds, b elsewhere.
func (a SoaVec3) Merge(b SoaVec3, m SoaMask) SoaVec3 {
	if m {
		return a
	}
	return b
}

// Merge is a where m holds, b elsewhere.
func (a SoaQuat) Merge(b SoaQuat, m SoaMask) SoaQuat {
	if m {
		return a
	}
	return b
}

// Vec is the vector part of q.
func (q SoaQuat) Vec() SoaVec3 { return SoaVec3{q.X, q.Y, q.Z} }

// Mul is the quaternion product a b (quat_mul).
func (a SoaQuat) Mul(b SoaQuat) SoaQuat {
	return SoaQuat{
		SoaFloat(a.W*b.W) - SoaFloat(a.X*b.X) - SoaFloat(a.Y*b.Y) - SoaFloat(a.Z*b.Z),
		SoaFloat(a.W*b.X) + SoaFloat(a.X*b.W) + SoaFloat(a.Y*b.Z) - SoaFloat(a.Z*b.Y),
		SoaFloat(a.W*b.Y) + SoaFloat(a.Y*b.W) + SoaFloat(a.Z*b.X) - SoaFloat(a.X*b.Z),
		SoaFloat(a.W*b.Z) + SoaFloat(a.Z*b.W) + SoaFloat(a.X*b.Y) - SoaFloat(a.Y*b.X),
	}
}

// MulInv is a inv(b) (quat_mul_inv): a times the conjugate of b.
func (a SoaQuat) MulInv(b SoaQuat) SoaQuat {
	return SoaQuat{
		SoaFloat(a.W*b.W) + SoaFloat(a.X*b.X) + SoaFloat(a.Y*b.Y) + SoaFloat(a.Z*b.Z),
		SoaFloat(a.X*b.W) - SoaFloat(a.W*b.X) - SoaFloat(a.Y*b.Z) + SoaFloat(a.Z*b.Y),
		SoaFloat(a.Y*b.W) - SoaFloat(a.W*b.Y) - SoaFloat(a.Z*b.X) + SoaFloat(a.X*b.Z),
		SoaFloat(a.Z*b.W) - SoaFloat(a.W*b.Z) - SoaFloat(a.X*b.Y) + SoaFloat(a.Y*b.X),
	}
}

// InvMul is inv(a) b (quat_inv_mul): the conjugate of a times b.
func (a SoaQuat) InvMul(b SoaQuat) SoaQuat {
	return SoaQuat{
		SoaFloat(a.W*b.W) + SoaFloat(a.X*b.X) + SoaFloat(a.Y*b.Y) + SoaFloat(a.Z*b.Z),
		SoaFloat(a.W*b.X) - SoaFloat(a.X*b.W) - SoaFloat(a.Y*b.Z) + SoaFloat(a.Z*b.Y),
		SoaFloat(a.W*b.Y) - SoaFloat(a.Y*b.W) - SoaFloat(a.Z*b.X) + SoaFloat(a.X*b.Z),
		SoaFloat(a.W*b.Z) - SoaFloat(a.Z*b.W) - SoaFloat(a.X*b.Y) + SoaFloat(a.Y*b.X),
	}
}

// Abs is q or -q, whichever has W >= 0 (quat_abs): the same rotation the
// short way round.
func (q SoaQuat) Abs() SoaQuat {
	// AVX2's product by 1 or -1, without it: x 1 is x and x (-1) is -x,
	// bit for bit (a NaN's sign aside).
	if q.W < 0 {
		return SoaQuat{-q.W, -q.X, -q.Y, -q.Z}
	}
	return q
}

// MulVec3 rotates v by unit quaternion q (quat_mul_vec3): v + w t + u x t
// with t = 2 u x v, u the vector part of q.
func (q SoaQuat) MulVec3(v SoaVec3) SoaVec3 {
	tx := SoaFloat((SoaFloat(q.Y*v.Z) - SoaFloat(q.Z*v.Y)) * 2)
	ty := SoaFloat((SoaFloat(q.Z*v.X) - SoaFloat(q.X*v.Z)) * 2)
	tz := SoaFloat((SoaFloat(q.X*v.Y) - SoaFloat(q.Y*v.X)) * 2)
	return SoaVec3{
		v.X + SoaFloat(tx*q.W) + (SoaFloat(q.Y*tz) - SoaFloat(q.Z*ty)),
		v.Y + SoaFloat(ty*q.W) + (SoaFloat(q.Z*tx) - SoaFloat(q.X*tz)),
		v.Z + SoaFloat(tz*q.W) + (SoaFloat(q.X*ty) - SoaFloat(q.Y*tx)),
	}
}

// InvMulVec3 rotates v by the inverse of unit quaternion q
// (quat_inv_mul_vec3): MulVec3 with u negated, v + w t + t x u with t = 2
// v x u.
func (q SoaQuat) InvMulVec3(v SoaVec3) SoaVec3 {
	tx := SoaFloat((SoaFloat(v.Y*q.Z) - SoaFloat(v.Z*q.Y)) * 2)
	ty := SoaFloat((SoaFloat(v.Z*q.X) - SoaFloat(v.X*q.Z)) * 2)
	tz := SoaFloat((SoaFloat(v.X*q.Y) - SoaFloat(v.Y*q.X)) * 2)
	return SoaVec3{
		v.X + SoaFloat(tx*q.W) + (SoaFloat(ty*q.Z) - SoaFloat(tz*q.Y)),
		v.Y + SoaFloat(ty*q.W) + (SoaFloat(tz*q.X) - SoaFloat(tx*q.Z)),
		v.Z + SoaFloat(tz*q.W) + (SoaFloat(tx*q.Y) - SoaFloat(ty*q.X)),
	}
}

// Rodrigues is x + a (v x x) + b (v x (v x x)): the form of the exp map's
// Jacobian J(v) x (a = C1, b = C2 of SoaExp), of its inverse (a = -1/2, b
// = ToScaledAngleAxisDx's c) and of a rotation about v.
func Rodrigues(a, b SoaFloat, v, x SoaVec3) SoaVec3 {
	cx, cy, cz := SoaFloat(v.Y*x.Z)-SoaFloat(v.Z*x.Y), SoaFloat(v.Z*x.X)-SoaFloat(v.X*x.Z), SoaFloat(v.X*x.Y)-SoaFloat(v.Y*x.X)
	return SoaVec3{
		x.X + SoaFloat(cx*a) + SoaFloat((SoaFloat(v.Y*cz)-SoaFloat(v.Z*cy))*b),
		x.Y + SoaFloat(cy*a) + SoaFloat((SoaFloat(v.Z*cx)-SoaFloat(v.X*cz))*b),
		x.Z + SoaFloat(cz*a) + SoaFloat((SoaFloat(v.X*cy)-SoaFloat(v.Y*cx))*b),
	}
}

// Log is LaneLog per component (log, soa.go). Its test for 1 in every
// component, written here on operators, keeps Log small enough to
// inline: the usual case (equal scales) then takes no call.
func (v SoaVec3) Log() SoaVec3 {
	if v.X == 1 && v.Y == 1 && v.Z == 1 {
		return SoaVec3{}
	}
	return v.log()
}

// Exp is LaneExp per component (exp, soa.go), its test for 0 in every
// component written here (see Log).
func (v SoaVec3) Exp() SoaVec3 {
	if v.X == 0 && v.Y == 0 && v.Z == 0 {
		return kOne3
	}
	return v.exp()
}

// kOne3 is 1 in every component (a literal would not let Exp inline).
var kOne3 = SoaVec3{kOne, kOne, kOne}

// PaddedLen is the room a pose's channel of n joints has (NewPose): one
// more element, as a joint's Vec3 is read and written as four float32s
// (Room3).
func PaddedLen(n int) int { return n + 1 }

// Load is joint i of the room as lanes; i must be below the room's n,
// which is not checked.
func (r Room3) Load(i int) SoaVec3 {
	v := (*mgl32.Vec3)(unsafe.Add(r.p, 12*i))
	return SoaVec3{SoaFloat(v[0]), SoaFloat(v[1]), SoaFloat(v[2])}
}

// Store writes v to joint i of the room (i as Load).
func (r Room3) Store(i int, v SoaVec3) {
	*(*mgl32.Vec3)(unsafe.Add(r.p, 12*i)) = mgl32.Vec3{float32(v.X), float32(v.Y), float32(v.Z)}
}

// Load is joint i of the room as lanes (i as Room3.Load).
func (r RoomQ) Load(i int) SoaQuat {
	q := (*mgl32.Quat)(unsafe.Add(r.p, 16*i))
	return SoaQuat{SoaFloat(q.W), SoaFloat(q.V[0]), SoaFloat(q.V[1]), SoaFloat(q.V[2])}
}

// Store writes q to joint i of the room (i as Room3.Load).
func (r RoomQ) Store(i int, q SoaQuat) {
	*(*mgl32.Quat)(unsafe.Add(r.p, 16*i)) = mgl32.Quat{W: float32(q.W), V: mgl32.Vec3{float32(q.X), float32(q.Y), float32(q.Z)}}
}

// Unpack writes v's lanes to s as Vec3s, lane j to s[j].
func (v SoaVec3) Unpack(s *[Lanes]mgl32.Vec3) {
	s[0] = mgl32.Vec3{float32(v.X), float32(v.Y), float32(v.Z)}
}

// LoadFlat is Load, for maths done the same on every component (see
// soa_avx2.go: there it skips the transpose; with one lane there is
// none).
func (r Room3) LoadFlat(i int) SoaVec3 { return r.Load(i) }

// StoreFlat is Store (see LoadFlat).
func (r Room3) StoreFlat(i int, v SoaVec3) { r.Store(i, v) }

// LoadSoaVec3Part is s[i], ..., s[i+Lanes-1] as lanes, for a slice
// without NewPose's room (a clip's frame).
func LoadSoaVec3Part(s []mgl32.Vec3, i int) SoaVec3 {
	v := &s[i]
	return SoaVec3{SoaFloat(v[0]), SoaFloat(v[1]), SoaFloat(v[2])}
}

// LoadSoaQuatPart is s[i], ..., s[i+Lanes-1] as lanes, for a slice
// without NewPose's room (a clip's frame).
func LoadSoaQuatPart(s []mgl32.Quat, i int) SoaQuat {
	q := &s[i]
	return SoaQuat{SoaFloat(q.W), SoaFloat(q.V[0]), SoaFloat(q.V[1]), SoaFloat(q.V[2])}
}

// Gather is the element at byte offset off[0] of the room as lanes:
// off[0] must be 12 times an index below the room's n (not checked).
func (r Room3) Gather(off *[Lanes]uintptr) SoaVec3 {
	v := (*mgl32.Vec3)(unsafe.Add(r.p, off[0]))
	return SoaVec3{SoaFloat(v[0]), SoaFloat(v[1]), SoaFloat(v[2])}
}

// Gather is the quaternion at byte offset off[0] of the room as lanes:
// off[0] must be 16 times an index below the room's n (not checked).
func (r RoomQ) Gather(off *[Lanes]uintptr) SoaQuat {
	q := (*mgl32.Quat)(unsafe.Add(r.p, off[0]))
	return SoaQuat{SoaFloat(q.W), SoaFloat(q.V[0]), SoaFloat(q.V[1]), SoaFloat(q.V[2])}
}

// ClearUpper ends a stretch of lane code; with no vector registers in
// this build it does nothing.
func ClearUpper() {}
