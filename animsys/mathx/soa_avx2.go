//go:build goexperiment.simd && amd64

package mathx

import (
	"simd/archsimd"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// The AVX2 build of the lane types (GOEXPERIMENT=simd on amd64): a
// SoaFloat is an archsimd.Float32x8, eight joints a register, whose
// methods soa.go calls, each one instruction (Go's intrinsics: no call,
// nothing to inline); and the loads, stores, gathers and transposes
// between a pose's arrays of structures and the lanes.

// Lanes is the number of joints a lane type holds: 8 in this build.
const Lanes = 8

// SIMD names the implementation of the lane types, for reports ("AVX2",
// or "portable").
const SIMD = "AVX2"

// SoaFloat is Lanes float32s, one per joint of a block, with
// archsimd.Float32x8's methods: Add, Sub, Mul, Div, Sqrt, Min, Max (x
// where x < y, else y), RoundToEven, Floor, the comparisons Less,
// LessEqual, Greater, GreaterEqual, Equal, NotEqual (true where either is
// NaN), Merge (x.Merge(y, m) is x where m holds, else y), Store, and for
// animsys/nn's matrix kernels MulAdd (x y + z, fused: one rounding) and
// StoreSlicePart (the lanes that fit in a slice shorter than Lanes).
type SoaFloat = archsimd.Float32x8

// SoaMask is a per-lane truth value, the result of a comparison, with
// And, Or and ToBits (bit i for lane i).
type SoaMask = archsimd.Mask32x8

// This build runs AVX2 instructions everywhere the lane types are used, as
// a GOAMD64=v3 build would: on a CPU without AVX2 it says so at start
// rather than dying of an illegal instruction later. Package variables
// made of lanes (soa.go's constants) are made after the check, as each
// depends on simdReady.
var simdReady = func() bool {
	if !archsimd.X86.AVX2() {
		panic("kinelab: this build (GOEXPERIMENT=simd) needs a CPU with AVX2; build without GOEXPERIMENT=simd for this one")
	}
	return true
}()

// MulAdd is FMA3's VFMADD, which CPUs with AVX2 have (Intel since
// Haswell, AMD since Excavator); one without is told at start, as
// simdReady tells one without AVX2.
func init() {
	if !archsimd.X86.FMA() {
		panic("kinelab: this build (GOEXPERIMENT=simd) needs a CPU with FMA; build without GOEXPERIMENT=simd for this one")
	}
}

// splat is x in every lane.
func splat(x float32) SoaFloat { return archsimd.BroadcastFloat32x8(x) }

// konst is splat for the package's constants (see simdReady).
func konst(x float32) SoaFloat {
	_ = simdReady
	return archsimd.BroadcastFloat32x8(x)
}

// LoadSoaFloat is the Lanes float32s at p.
func LoadSoaFloat(p *[Lanes]float32) SoaFloat { return archsimd.LoadFloat32x8(p) }

// LoadSoaFloatPart is the first Lanes float32s of s as lanes, the lanes
// past s's end 0: the last block of a row whose length is no multiple of
// Lanes.
func LoadSoaFloatPart(s []float32) SoaFloat { return archsimd.LoadFloat32x8SlicePart(s) }

// StoreSums writes the sum of each of a, b, c, d's lanes to p[0], ...,
// p[3], each as ((l0+l4)+(l1+l5))+((l2+l6)+(l3+l7)): four dot products'
// partial sums reduced at once, without a scalar instruction.
func StoreSums(p *[4]float32, a, b, c, d SoaFloat) {
	ab := a.GetLo().Add(a.GetHi()).AddPairs(b.GetLo().Add(b.GetHi()))
	cd := c.GetLo().Add(c.GetHi()).AddPairs(d.GetLo().Add(d.GetHi()))
	ab.AddPairs(cd).Store(p)
}

// LaneOf is lane i of x.
func LaneOf(x SoaFloat, i int) float32 {
	var b [8]float32
	x.Store(&b)
	return b[i]
}

// MaskFromBits is the mask holding in lane i where bit i of b is set:
// the bits broadcast, each lane's own picked and compared (AVX2;
// archsimd.Mask32x8FromBits is AVX-512).
func MaskFromBits(b uint) SoaMask {
	bits := archsimd.LoadInt32x8(&laneBits)
	return archsimd.BroadcastInt32x8(int32(b)).And(bits).Equal(bits)
}

// laneBits is bit i in lane i.
var laneBits = [8]int32{1, 2, 4, 8, 16, 32, 64, 128}

// split is the unbiased exponent (as a float) and the significand in [1,
// 2) of each lane of a positive, normal x.
func split(x SoaFloat) (e, m SoaFloat) {
	b := x.AsInt32x8()
	e = b.ShiftAllRight(23).Sub(archsimd.BroadcastInt32x8(127)).ConvertToFloat32()
	m = b.And(archsimd.BroadcastInt32x8(0x007fffff)).Or(archsimd.BroadcastInt32x8(0x3f800000)).AsFloat32x8()
	return e, m
}

// pow2 is 2^k per lane, k an integer from -126 to 127 held as a float.
func pow2(k SoaFloat) SoaFloat {
	return k.ConvertToInt32().Add(archsimd.BroadcastInt32x8(127)).ShiftAllLeft(23).AsFloat32x8()
}

// Loads and stores of a pose's channels (arrays of structures) as lanes,
// a whole block at a time, through rooms (joint.go): the pose ops'
// channels have room for whole blocks (PaddedLen). A block of eight Vec3s is three 32-byte loads,
// transposed by two lane swaps and five shuffles per half; eight Quats,
// four loads and a 4x4 transpose per half.

// PaddedLen is the room a pose's channel of n joints has (NewPose): whole
// blocks of Lanes with one more element past the last joint, as the ops
// load and store whole blocks, and FK reads and writes a joint's Vec3 as
// 16 bytes (Room3).
func PaddedLen(n int) int { return (n + 8) &^ 7 }

// Load is joints i to i+Lanes-1 of the room as lanes; i must be a
// multiple of Lanes below the room's n, which is not checked.
func (r Room3) Load(i int) SoaVec3 { return ldv8((*[8]mgl32.Vec3)(unsafe.Add(r.p, 12*i))) }

// Store writes v to joints i to i+Lanes-1 of the room (i as Load).
func (r Room3) Store(i int, v SoaVec3) { stv8((*[8]mgl32.Vec3)(unsafe.Add(r.p, 12*i)), v) }

// Load is joints i to i+Lanes-1 of the room as lanes (i as Room3.Load).
func (r RoomQ) Load(i int) SoaQuat { return ldq8((*[8]mgl32.Quat)(unsafe.Add(r.p, 16*i))) }

// Store writes q to joints i to i+Lanes-1 of the room (i as Room3.Load).
func (r RoomQ) Store(i int, q SoaQuat) { stq8((*[8]mgl32.Quat)(unsafe.Add(r.p, 16*i)), q) }

// Unpack writes v's lanes to s as Vec3s, lane j to s[j]: a block whose
// joints go to places of their own.
func (v SoaVec3) Unpack(s *[Lanes]mgl32.Vec3) { stv8(s, v) }

// LoadFlat is joints i to i+Lanes-1 of the room as they lie in memory
// (Flat3: eight float32s a register, x0 y0 z0 x1 ...), three plain loads
// without the transpose (i as Load).
func (r Room3) LoadFlat(i int) Flat3 {
	b := (*[3][8]float32)(unsafe.Add(r.p, 12*i))
	return Flat3{archsimd.LoadFloat32x8(&b[0]), archsimd.LoadFloat32x8(&b[1]), archsimd.LoadFloat32x8(&b[2])}
}

// StoreFlat writes v to joints i to i+Lanes-1 of the room (i as Load).
func (r Room3) StoreFlat(i int, v Flat3) {
	b := (*[3][8]float32)(unsafe.Add(r.p, 12*i))
	v.a.Store(&b[0])
	v.b.Store(&b[1])
	v.c.Store(&b[2])
}

// LoadSoaVec3Part is s[i], ..., s[i+Lanes-1] as lanes, for a slice
// without NewPose's room (a clip's frame): the lanes past s's end repeat
// its last element. A block short of s's end takes s's last eight
// elements and moves each lane's element into place (tailLanes). Through a buffer on the stack (its
// copies legacy SSE moves amid the lane code, its 32-byte reloads across
// their 16-byte stores) sampling without the Prepare cache took 4.7-5.9
// us; this way 2.5. Only a slice of fewer than eight takes the buffer.
func LoadSoaVec3Part(s []mgl32.Vec3, i int) SoaVec3 {
	n := len(s)
	if i+8 <= n {
		return ldv8((*[8]mgl32.Vec3)(s[i : i+8]))
	}
	if n < 8 {
		var b [8]mgl32.Vec3
		padPart(&b, s[i:])
		return ldv8(&b)
	}
	v, t := ldv8((*[8]mgl32.Vec3)(s[n-8:n])), tailLanes(i, n)
	return SoaVec3{v.X.Permute(t), v.Y.Permute(t), v.Z.Permute(t)}
}

// LoadSoaQuatPart is s[i], ..., s[i+Lanes-1] as lanes, for a slice
// without NewPose's room (a clip's frame): the lanes past s's end repeat
// its last element (as LoadSoaVec3Part).
func LoadSoaQuatPart(s []mgl32.Quat, i int) SoaQuat {
	n := len(s)
	if i+8 <= n {
		return ldq8((*[8]mgl32.Quat)(s[i : i+8]))
	}
	if n < 8 {
		var b [8]mgl32.Quat
		padPart(&b, s[i:])
		return ldq8(&b)
	}
	q, t := ldq8((*[8]mgl32.Quat)(s[n-8:n])), tailLanes(i, n)
	return SoaQuat{q.W.Permute(t), q.X.Permute(t), q.Y.Permute(t), q.Z.Permute(t)}
}

// padPart copies s (1 to 8 elements) into b, its last element repeated
// to b's end: a block of a slice shorter than one block.
func padPart[T mgl32.Vec3 | mgl32.Quat](b *[8]T, s []T) {
	k := copy(b[:], s)
	for j := k; j < 8; j++ {
		b[j] = b[k-1]
	}
}

// iota8 and seven8 build tailLanes's indices.
var (
	iota8  = [8]uint32{0, 1, 2, 3, 4, 5, 6, 7}
	seven8 = [8]uint32{7, 7, 7, 7, 7, 7, 7, 7}
)

// tailLanes are the lanes of the last eight of n elements that block i (i
// < n < i+8, n >= 8) reads: lane j reads element min(i+j, n-1), lane
// i+j-(n-8) of them, at most 7.
func tailLanes(i, n int) archsimd.Uint32x8 {
	return archsimd.LoadUint32x8(&iota8).Add(archsimd.BroadcastUint32x8(uint32(i - (n - 8)))).Min(archsimd.LoadUint32x8(&seven8))
}

// Gather is the elements at byte offsets off[0], ..., off[Lanes-1] of
// the room as lanes (BK's parents), each read as 16 bytes, its next
// element's X the fourth: off[j] must be 12 times an index below the
// room's n, which is not checked.
func (r Room3) Gather(off *[Lanes]uintptr) SoaVec3 {
	ld := func(j int) archsimd.Float32x4 { return archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(r.p, off[j]))) }
	var v archsimd.Float32x8
	x, y, z, _ := tr4(v.SetLo(ld(0)).SetHi(ld(4)), v.SetLo(ld(1)).SetHi(ld(5)), v.SetLo(ld(2)).SetHi(ld(6)), v.SetLo(ld(3)).SetHi(ld(7)))
	return SoaVec3{x, y, z}
}

// Gather is the quaternions at byte offsets off[0], ..., off[Lanes-1]
// of the room as lanes: off[j] must be 16 times an index below the
// room's n, which is not checked.
func (r RoomQ) Gather(off *[Lanes]uintptr) SoaQuat {
	ld := func(j int) archsimd.Float32x4 { return archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(r.p, off[j]))) }
	var v archsimd.Float32x8
	w, x, y, z := tr4(v.SetLo(ld(0)).SetHi(ld(4)), v.SetLo(ld(1)).SetHi(ld(5)), v.SetLo(ld(2)).SetHi(ld(6)), v.SetLo(ld(3)).SetHi(ld(7)))
	return SoaQuat{w, x, y, z}
}

// The loads and stores below view a block's channel as rows of eight
// float32s, each row one 32-byte load or store (three rows for eight
// Vec3s, four for eight Quats), and call the intrinsics themselves: a
// call of an inlined helper would leave an executed NOP (its inlining
// mark) in each.

// ldv8 loads eight Vec3s as components: rows x0 y0 z0 x1 y1 z1 x2 y2 |
// z2 x3 y3 z3 x4 y4 z4 x5 | ... by two lane swaps and three blends to x0
// y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3 in each half (joints 0-3 low, 4-7
// high), then five shuffles.
func ldv8(p *[8]mgl32.Vec3) SoaVec3 {
	r := (*[3][8]float32)(unsafe.Pointer(p))
	a, b, c := archsimd.LoadFloat32x8(&r[0]), archsimd.LoadFloat32x8(&r[1]), archsimd.LoadFloat32x8(&r[2])
	m03, m14, m25 := a.Select128FromPair(0, 3, b), a.Select128FromPair(1, 2, c), b.Select128FromPair(0, 3, c)
	xy := m14.SelectFromPairGrouped(2, 3, 5, 6, m25) // x2 y2 x3 y3
	yz := m03.SelectFromPairGrouped(1, 2, 4, 5, m14) // y0 z0 y1 z1
	return SoaVec3{m03.SelectFromPairGrouped(0, 3, 4, 6, xy), yz.SelectFromPairGrouped(0, 2, 5, 7, xy), yz.SelectFromPairGrouped(1, 3, 4, 7, m25)}
}

// stv8 stores components as eight Vec3s: ldv8 backwards.
func stv8(p *[8]mgl32.Vec3, v SoaVec3) {
	r := (*[3][8]float32)(unsafe.Pointer(p))
	rxy := v.X.SelectFromPairGrouped(0, 2, 4, 6, v.Y) // x0 x2 y0 y2
	ryz := v.Y.SelectFromPairGrouped(1, 3, 5, 7, v.Z) // y1 y3 z1 z3
	rzx := v.Z.SelectFromPairGrouped(0, 2, 5, 7, v.X) // z0 z2 x1 x3
	m03 := rxy.SelectFromPairGrouped(0, 2, 4, 6, rzx)
	m14 := ryz.SelectFromPairGrouped(0, 2, 5, 7, rxy)
	m25 := rzx.SelectFromPairGrouped(1, 3, 5, 7, ryz)
	m03.Select128FromPair(0, 2, m14).Store(&r[0])
	m25.Select128FromPair(0, 3, m03).Store(&r[1])
	m14.Select128FromPair(1, 3, m25).Store(&r[2])
}

// tr4 transposes the 4x4 matrices in the halves of rows a, b, c, d.
func tr4(a, b, c, d archsimd.Float32x8) (archsimd.Float32x8, archsimd.Float32x8, archsimd.Float32x8, archsimd.Float32x8) {
	t0 := a.SelectFromPairGrouped(0, 1, 4, 5, b) // a0 a1 b0 b1
	t1 := a.SelectFromPairGrouped(2, 3, 6, 7, b) // a2 a3 b2 b3
	t2 := c.SelectFromPairGrouped(0, 1, 4, 5, d)
	t3 := c.SelectFromPairGrouped(2, 3, 6, 7, d)
	return t0.SelectFromPairGrouped(0, 2, 4, 6, t2), t0.SelectFromPairGrouped(1, 3, 5, 7, t2),
		t1.SelectFromPairGrouped(0, 2, 4, 6, t3), t1.SelectFromPairGrouped(1, 3, 5, 7, t3)
}

// ldq8 loads eight Quats (W, then the vector part) as components: joints
// 0|4, 1|5, 2|6, 3|7 in the halves of four rows, transposed (tr4).
func ldq8(p *[8]mgl32.Quat) SoaQuat {
	r := (*[4][8]float32)(unsafe.Pointer(p))
	q01, q23, q45, q67 := archsimd.LoadFloat32x8(&r[0]), archsimd.LoadFloat32x8(&r[1]), archsimd.LoadFloat32x8(&r[2]), archsimd.LoadFloat32x8(&r[3])
	w, x, y, z := tr4(q01.Select128FromPair(0, 2, q45), q01.Select128FromPair(1, 3, q45), q23.Select128FromPair(0, 2, q67), q23.Select128FromPair(1, 3, q67))
	return SoaQuat{w, x, y, z}
}

// stq8 stores components as eight Quats: ldq8 backwards.
func stq8(p *[8]mgl32.Quat, q SoaQuat) {
	r := (*[4][8]float32)(unsafe.Pointer(p))
	a, b, c, d := tr4(q.W, q.X, q.Y, q.Z) // joints 0|4, 1|5, 2|6, 3|7
	a.Select128FromPair(0, 2, b).Store(&r[0])
	c.Select128FromPair(0, 2, d).Store(&r[1])
	a.Select128FromPair(1, 3, b).Store(&r[2])
	c.Select128FromPair(1, 3, d).Store(&r[3])
}

// ClearUpper ends a stretch of lane code (VZEROUPPER): Go 1.26 emits
// none, and scalar SSE code after 256-bit instructions runs with the
// upper halves dirty (a false dependency on every SSE instruction, or a
// state switch on older Intel cores). Call it where a pose op's lane
// loop ends, with no vector live.
func ClearUpper() { archsimd.ClearAVXUpperBits() }
