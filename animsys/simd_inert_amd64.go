//go:build goexperiment.simd && amd64

package animsys

import (
	"math/bits"
	"simd/archsimd"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// The offLog layout inertia8 loads, six float32s a joint, r then ls,
// checked when compiling: a negative difference overflows its uint.
const _ = uint(unsafe.Sizeof(offLog{})-24) + uint(24-unsafe.Sizeof(offLog{})) + uint(unsafe.Offsetof(offLog{}.ls)-12)

// inertializeSIMD is inertialize (op_inertialize, see InertializeWeights)
// on the SIMD path, for n >= 8 joints with their kept offLogs: eight
// joints at once, on the scalar loop's float32 operations in its order.
// out may be input (then every channel of it: aliased), not offset.
//
// The last block overlaps the one before when n is no multiple of 8.
// Into a separate out its joints are computed twice from the unchanged
// input, to the same values; in place the kernel keeps those joints' values
// (already done). Joints whose decayed rotation is 1 rad or more (ExpLarge)
// or whose decayed log-scale is beyond Exp32's polynomial range are kept
// as the input has them by the kernel, then redone here by the scalar
// loop's operations (inertializeJoint).
func inertializeSIMD(out, offset, input *Pose, logs []offLog, aliased bool, w0, w1, w2, w3 float32) {
	n := len(input.Pos)
	logs = logs[:n]
	// inertia8 indexes the channels unchecked: check their lengths here.
	for _, p := range [...]*Pose{out, offset} {
		_, _, _, _, _, _ = p.Pos[:n], p.Rot[:n], p.Scl[:n], p.Vel[:n], p.Ang[:n], p.Svl[:n]
	}
	_, _, _, _, _ = input.Rot[:n], input.Scl[:n], input.Vel[:n], input.Ang[:n], input.Svl[:n]
	w := [4]f8{bc(w0), bc(w1), bc(w2), bc(w3)}
	for b := 0; b < n; b += 8 {
		bb := min(b, n-8)
		var nd int // lanes of joints an earlier block wrote in place
		if aliased {
			nd = b - bb
		}
		done := uint8(1)<<nd - 1
		slowR, slowS := inertia8(out, offset, input, (*[8]offLog)(logs[bb:]), bb, &w, nd)
		for slowR &^= done; slowR != 0; slowR &= slowR - 1 {
			i := bb + bits.TrailingZeros8(slowR)
			inertializeJoint(out, offset, input, &logs[i], i, w0, w1, w2, w3, jointRot)
		}
		for slowS &^= done; slowS != 0; slowS &= slowS - 1 {
			i := bb + bits.TrailingZeros8(slowS)
			inertializeJoint(out, offset, input, &logs[i], i, w0, w1, w2, w3, jointScl)
		}
	}
}

// inertia8 is inertialize's loop body for joints b to b+7, with w the
// weights w0..w3. It returns the lanes whose rotation (slowR) or scale
// (slowS) is to be redone, into which it writes the input's values, as
// into every channel of its first nd lanes (done).
func inertia8(out, offset, input *Pose, lg *[8]offLog, b int, w *[4]f8, nd int) (slowR, slowS uint8) {
	v8 := func(s []mgl32.Vec3) *[8]mgl32.Vec3 { return v3at(s, b) }
	w0, w1, w2, w3 := w[0], w[1], w[2], w[3]
	done, dm := doneLanes(nd)

	// Positions and velocities: in + x0 w0 + v0 w1, in + x0 w2 + v0 w3.
	px, py, pz := ldv8(v8(offset.Pos))
	vx, vy, vz := ldv8(v8(offset.Vel))
	ix, iy, iz := ldv8(v8(input.Pos))
	ox, oy, oz := ix.Add(px.Mul(w0)).Add(vx.Mul(w1)), iy.Add(py.Mul(w0)).Add(vy.Mul(w1)), iz.Add(pz.Mul(w0)).Add(vz.Mul(w1))
	if done != 0 {
		ox, oy, oz = ix.Merge(ox, dm), iy.Merge(oy, dm), iz.Merge(oz, dm)
	}
	stv8(v8(out.Pos), ox, oy, oz)
	ix, iy, iz = ldv8(v8(input.Vel))
	ox, oy, oz = ix.Add(px.Mul(w2)).Add(vx.Mul(w3)), iy.Add(py.Mul(w2)).Add(vy.Mul(w3)), iz.Add(pz.Mul(w2)).Add(vz.Mul(w3))
	if done != 0 {
		ox, oy, oz = ix.Merge(ox, dm), iy.Merge(oy, dm), iz.Merge(oz, dm)
	}
	stv8(v8(out.Vel), ox, oy, oz)

	// Rotations: the decayed scaled angle-axis x (rad) and its rate v
	// (rad/s), then from_scaled_angle_axis(x) in and its angular velocity
	// exp(x) in.ang + J(x) v.
	u := unsafe.Pointer(lg)
	rx, ry, rz, _ := tr4(ld2(u, 0, 96), ld2(u, 24, 120), ld2(u, 48, 144), ld2(u, 72, 168))
	ax, ay, az := ldv8(v8(offset.Ang))
	xx, xy, xz := rx.Mul(w0).Add(ax.Mul(w1)), ry.Mul(w0).Add(ay.Mul(w1)), rz.Mul(w0).Add(az.Mul(w1))
	vx, vy, vz = rx.Mul(w2).Add(ax.Mul(w3)), ry.Mul(w2).Add(ay.Mul(w3)), rz.Mul(w2).Add(az.Mul(w3))
	x2 := xx.Mul(xx).Add(xy.Mul(xy)).Add(xz.Mul(xz))
	sc, c, c2 := mathx.ExpSmallX8(x2)
	s := simdK.half.Mul(sc)
	jx, jy, jz := mathx.RodriguesX8(s.Mul(sc), c2, xx, xy, xz, vx, vy, vz)
	ex, ey, ez := xx.Mul(s), xy.Mul(s), xz.Mul(s)
	iw, qx, qy, qz := ldq8(q4at(input.Rot, b))
	ow, ox, oy, oz := mathx.QuatMulX8(c, ex, ey, ez, iw, qx, qy, qz)
	big := x2.GreaterEqual(simdK.one) // NaN is not, as in the scalar loop
	slowR = big.ToBits()
	keep := big.Or(dm)
	if slowR|done != 0 {
		ow, ox, oy, oz = iw.Merge(ow, keep), qx.Merge(ox, keep), qy.Merge(oy, keep), qz.Merge(oz, keep)
	}
	stq8(q4at(out.Rot, b), ow, ox, oy, oz)
	ix, iy, iz = ldv8(v8(input.Ang))
	qx, qy, qz = mathx.QuatMulVec3X8(c, ex, ey, ez, ix, iy, iz)
	ox, oy, oz = qx.Add(jx), qy.Add(jy), qz.Add(jz)
	if slowR|done != 0 {
		ox, oy, oz = ix.Merge(ox, keep), iy.Merge(oy, keep), iz.Merge(oz, keep)
	}
	stv8(v8(out.Ang), ox, oy, oz)

	// Scales: in.scl exp(ls w0 + sv w1), in.svl + ls w2 + sv w3.
	_, lx, ly, lz := tr4(ld2(u, 8, 104), ld2(u, 32, 128), ld2(u, 56, 152), ld2(u, 80, 176))
	vx, vy, vz = ldv8(v8(offset.Svl))
	ex, okx := mathx.ExpSmallRangeX8(lx.Mul(w0).Add(vx.Mul(w1)))
	ey, oky := mathx.ExpSmallRangeX8(ly.Mul(w0).Add(vy.Mul(w1)))
	ez, okz := mathx.ExpSmallRangeX8(lz.Mul(w0).Add(vz.Mul(w1)))
	ix, iy, iz = ldv8(v8(input.Scl))
	ox, oy, oz = ix.Mul(ex), iy.Mul(ey), iz.Mul(ez)
	ok := okx.And(oky).And(okz)
	slowS = ^ok.ToBits()
	if slowS|done != 0 { // the input where done or not ok
		ox, oy, oz = ix.Merge(ox, dm).Merge(ix, ok), iy.Merge(oy, dm).Merge(iy, ok), iz.Merge(oz, dm).Merge(iz, ok)
	}
	stv8(v8(out.Scl), ox, oy, oz)
	ix, iy, iz = ldv8(v8(input.Svl))
	ox, oy, oz = ix.Add(lx.Mul(w2)).Add(vx.Mul(w3)), iy.Add(ly.Mul(w2)).Add(vy.Mul(w3)), iz.Add(lz.Mul(w2)).Add(vz.Mul(w3))
	if done != 0 {
		ox, oy, oz = ix.Merge(ox, dm), iy.Merge(oy, dm), iz.Merge(oz, dm)
	}
	stv8(v8(out.Svl), ox, oy, oz)
	archsimd.ClearAVXUpperBits() // see clearUpper
	return slowR, slowS
}

// laneIndex is each lane's index, for doneLanes.
var laneIndex = [8]float32{0, 1, 2, 3, 4, 5, 6, 7}

// doneLanes is the first nd lanes as bits and as a mask, built by a
// comparison: archsimd.Mask32x8FromBits takes AVX-512 (KMOVB), which an
// AVX2 machine does not have.
func doneLanes(nd int) (uint8, archsimd.Mask32x8) {
	if nd <= 0 { // every block but a last one that overlaps
		return 0, archsimd.Mask32x8{}
	}
	return uint8(1)<<nd - 1, archsimd.LoadFloat32x8(&laneIndex).Less(bc(float32(nd)))
}

// v3at is the eight Vec3s of s from joint b, unchecked: the callers have
// checked that s has them (a bounds check a channel would take a tenth
// of a kernel's instructions).
func v3at(s []mgl32.Vec3, b int) *[8]mgl32.Vec3 {
	return (*[8]mgl32.Vec3)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), uintptr(b)*12))
}

// q4at is v3at for Quats.
func q4at(s []mgl32.Quat, b int) *[8]mgl32.Quat {
	return (*[8]mgl32.Quat)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), uintptr(b)*16))
}
