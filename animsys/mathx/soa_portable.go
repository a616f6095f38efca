//go:build !(goexperiment.simd && amd64)

package mathx

import (
	"math"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// The portable build of the lane types: one lane, a float32 with the
// methods of archsimd.Float32x8 that soa.go calls, each the same
// operation for its one lane, so the two builds give the same bits; and
// the loads and stores of one joint. Each product is converted to float32
// before it is used, which keeps Go from fusing it into a multiply-add
// where it may (arm64, GOAMD64=v3): AVX2's lanes never fuse.

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

// splat is x in every lane.
func splat(x float32) SoaFloat { return SoaFloat(x) }

// konst is splat for the package's constants.
func konst(x float32) SoaFloat { return SoaFloat(x) }

// LoadSoaFloat is the Lanes float32s at p.
func LoadSoaFloat(p *[Lanes]float32) SoaFloat { return SoaFloat(p[0]) }

// Store writes x's lanes to p.
func (x SoaFloat) Store(p *[Lanes]float32) { p[0] = float32(x) }

// LoadSoaFloatPart is the first Lanes float32s of s as lanes, the lanes
// past s's end 0.
func LoadSoaFloatPart(s []float32) SoaFloat {
	if len(s) == 0 {
		return 0
	}
	return SoaFloat(s[0])
}

// StoreSlicePart writes the lanes of x that fit in s.
func (x SoaFloat) StoreSlicePart(s []float32) {
	if len(s) > 0 {
		s[0] = float32(x)
	}
}

// StoreSums writes the sum of each of a, b, c, d's lanes to p[0], ...,
// p[3].
func StoreSums(p *[4]float32, a, b, c, d SoaFloat) {
	p[0], p[1], p[2], p[3] = float32(a), float32(b), float32(c), float32(d)
}

// LaneOf is lane i of x.
func LaneOf(x SoaFloat, i int) float32 { return float32(x) }

// Add is x + y per lane.
func (x SoaFloat) Add(y SoaFloat) SoaFloat { return x + y }

// Sub is x - y per lane.
func (x SoaFloat) Sub(y SoaFloat) SoaFloat { return x - y }

// Mul is x y per lane.
func (x SoaFloat) Mul(y SoaFloat) SoaFloat { return SoaFloat(x * y) }

// MulAdd is x y + z per lane, rounded twice (the product, then the sum)
// where the AVX2 build's is fused and rounded once: the builds' bits
// differ where it is used, so the pose ops do not use it (animsys/nn's
// kernels do, whose sums run in another order in each build anyway).
func (x SoaFloat) MulAdd(y, z SoaFloat) SoaFloat { return SoaFloat(x*y) + z }

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

// LoadFlat is joint i of the room as it lies in memory (Flat3: with one
// lane, its components in order; i as Load).
func (r Room3) LoadFlat(i int) Flat3 {
	v := (*mgl32.Vec3)(unsafe.Add(r.p, 12*i))
	return Flat3{SoaFloat(v[0]), SoaFloat(v[1]), SoaFloat(v[2])}
}

// StoreFlat writes v to joint i of the room (i as Load).
func (r Room3) StoreFlat(i int, v Flat3) {
	*(*mgl32.Vec3)(unsafe.Add(r.p, 12*i)) = mgl32.Vec3{float32(v.a), float32(v.b), float32(v.c)}
}

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
