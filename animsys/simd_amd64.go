//go:build goexperiment.simd && amd64

package animsys

import (
	"math/bits"
	"simd/archsimd"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// The SIMD path of the per-joint loops (GOEXPERIMENT=simd on amd64): eight
// joints at once, one joint a lane of archsimd.Float32x8 (AVX2). Each
// block of eight joints is loaded from the pose's array-of-structures
// layout, transposed into one vector per component, computed with the
// same float32 operations in the same order as the scalar loop (mathx's
// eight-lane forms: QuatMulX8 is QuatMulS per lane, and so on), and
// transposed back: the results are the scalar path's bits. Joints beyond
// the polynomials' ranges are marked and redone by the scalar path's
// general functions, as there.

// clearUpper: each eight-joint kernel ends with archsimd.ClearAVXUpperBits
// (VZEROUPPER), as Go 1.26 emits none: the scalar code after it (the
// redo of slow joints, the next op) is SSE, which on Intel pays for
// upper halves left dirty by 256-bit instructions (a false dependency
// on every SSE instruction, or a state switch). A kernel's vectors are
// all stored or reduced to bits by then, and the callers keep none.

// useSIMD chooses the SIMD loops: on a CPU without AVX2 this build runs
// the scalar ones.
var useSIMD = archsimd.X86.AVX2()

type f8 = archsimd.Float32x8

// simdK holds the constant vectors the kernels use: a load from memory is
// one instruction, a broadcast of a constant two. It is filled only where
// useSIMD, as filling it takes AVX2.
var simdK = func() (k struct{ half, one, quarter f8 }) {
	if useSIMD {
		k.half, k.one, k.quarter = bc(0.5), bc(1), bc(0.25)
	}
	return k
}()

func bc(x float32) f8 { return archsimd.BroadcastFloat32x8(x) }

// The helpers below take and return vectors one by one, not in structs
// (see mathx's eight-lane forms).

// ld2 is the four float32s at byte lo of p, then the four at byte hi.
func ld2(p unsafe.Pointer, lo, hi uintptr) f8 {
	var z f8
	return z.SetLo(archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(p, lo)))).SetHi(archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(p, hi))))
}

// tr4 transposes the 4x4 matrices in the halves of rows a, b, c, d.
func tr4(a, b, c, d f8) (f8, f8, f8, f8) {
	t0 := a.SelectFromPairGrouped(0, 1, 4, 5, b) // a0 a1 b0 b1
	t1 := a.SelectFromPairGrouped(2, 3, 6, 7, b) // a2 a3 b2 b3
	t2 := c.SelectFromPairGrouped(0, 1, 4, 5, d)
	t3 := c.SelectFromPairGrouped(2, 3, 6, 7, d)
	return t0.SelectFromPairGrouped(0, 2, 4, 6, t2), t0.SelectFromPairGrouped(1, 3, 5, 7, t2),
		t1.SelectFromPairGrouped(0, 2, 4, 6, t3), t1.SelectFromPairGrouped(1, 3, 5, 7, t3)
}

// The load and store helpers move 32 bytes at a time: the chain's SIMD
// tick took 25.3k instructions with them, 26.8k with pairs of 16-byte
// halves.

// ld8 is the eight float32s at byte off of p.
func ld8(p unsafe.Pointer, off uintptr) f8 {
	return archsimd.LoadFloat32x8((*[8]float32)(unsafe.Add(p, off)))
}

// st8 stores v at byte off of p.
func st8(p unsafe.Pointer, off uintptr, v f8) { v.Store((*[8]float32)(unsafe.Add(p, off))) }

// ldv8 loads eight Vec3s as components: three 32-byte loads, two lane
// swaps and three blends to x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3 in
// each half (joints 0-3 low, 4-7 high), then five shuffles.
func ldv8(p *[8]mgl32.Vec3) (x, y, z f8) {
	u := unsafe.Pointer(p)
	a, b, c := ld8(u, 0), ld8(u, 32), ld8(u, 64)
	m03, m14, m25 := a.Select128FromPair(0, 3, b), a.Select128FromPair(1, 2, c), b.Select128FromPair(0, 3, c)
	xy := m14.SelectFromPairGrouped(2, 3, 5, 6, m25) // x2 y2 x3 y3
	yz := m03.SelectFromPairGrouped(1, 2, 4, 5, m14) // y0 z0 y1 z1
	return m03.SelectFromPairGrouped(0, 3, 4, 6, xy), yz.SelectFromPairGrouped(0, 2, 5, 7, xy), yz.SelectFromPairGrouped(1, 3, 4, 7, m25)
}

// stv8 stores components as eight Vec3s (ldv8 backwards).
func stv8(p *[8]mgl32.Vec3, x, y, z f8) {
	u := unsafe.Pointer(p)
	rxy := x.SelectFromPairGrouped(0, 2, 4, 6, y) // x0 x2 y0 y2
	ryz := y.SelectFromPairGrouped(1, 3, 5, 7, z) // y1 y3 z1 z3
	rzx := z.SelectFromPairGrouped(0, 2, 5, 7, x) // z0 z2 x1 x3
	m03 := rxy.SelectFromPairGrouped(0, 2, 4, 6, rzx)
	m14 := ryz.SelectFromPairGrouped(0, 2, 5, 7, rxy)
	m25 := rzx.SelectFromPairGrouped(1, 3, 5, 7, ryz)
	st8(u, 0, m03.Select128FromPair(0, 2, m14))
	st8(u, 32, m25.Select128FromPair(0, 3, m03))
	st8(u, 64, m14.Select128FromPair(1, 3, m25))
}

// ldq8 loads eight Quats as components w, x, y, z.
func ldq8(p *[8]mgl32.Quat) (w, x, y, z f8) {
	u := unsafe.Pointer(p)
	q01, q23, q45, q67 := ld8(u, 0), ld8(u, 32), ld8(u, 64), ld8(u, 96)
	return tr4(q01.Select128FromPair(0, 2, q45), q01.Select128FromPair(1, 3, q45), q23.Select128FromPair(0, 2, q67), q23.Select128FromPair(1, 3, q67))
}

// stq8 stores components as eight Quats.
func stq8(p *[8]mgl32.Quat, w, x, y, z f8) {
	u := unsafe.Pointer(p)
	a, b, c, d := tr4(w, x, y, z) // joints 0|4, 1|5, 2|6, 3|7
	st8(u, 0, a.Select128FromPair(0, 2, b))
	st8(u, 32, c.Select128FromPair(0, 2, d))
	st8(u, 64, a.Select128FromPair(1, 3, b))
	st8(u, 96, c.Select128FromPair(1, 3, d))
}

// blendRotSIMD is the rotation loop of Blend (see there) on the SIMD path.
func blendRotSIMD(lr []mgl32.Quat, la []mgl32.Vec3, rr []mgl32.Quat, ra []mgl32.Vec3, or []mgl32.Quat, oa []mgl32.Vec3, alpha, alphaVel float32) {
	n := len(lr)
	la, rr, ra, or, oa = la[:n], rr[:n], ra[:n], or[:n], oa[:n]
	al, av := bc(alpha), bc(alphaVel)
	// The redo of a slow joint reads the inputs, so the kernel leaves
	// those of the input out is in its slow lanes, channel by channel:
	// out may share its rotations with one input and its angular
	// velocities with the other.
	keep := keepRhs{rot: &or[0] == &rr[0], ang: &oa[0] == &ra[0]}
	// Unless out is an input, the last block overlaps the one before if
	// n is no multiple of 8 (its joints computed twice, to the same
	// values, slow ones redone twice): no padded copies.
	overlap := n >= 8 && !keep.rot && !keep.ang && &or[0] != &lr[0] && &oa[0] != &la[0]
	for b := 0; b < n; b += 8 {
		if overlap {
			b = min(b, n-8)
		}
		var slow uint8
		if n-b >= 8 {
			slow = blendRot8((*[8]mgl32.Quat)(lr[b:]), (*[8]mgl32.Vec3)(la[b:]), (*[8]mgl32.Quat)(rr[b:]), (*[8]mgl32.Vec3)(ra[b:]),
				(*[8]mgl32.Quat)(or[b:]), (*[8]mgl32.Vec3)(oa[b:]), al, av, keep)
		} else {
			// The last joints, on padded copies: out is lhs or rhs, or
			// n < 8.
			var l, r, o [8]mgl32.Quat
			var w, u, a [8]mgl32.Vec3
			m := copy(l[:], lr[b:])
			copy(w[:], la[b:])
			copy(r[:], rr[b:])
			copy(u[:], ra[b:])
			slow = blendRot8(&l, &w, &r, &u, &o, &a, al, av, keep) & (1<<m - 1)
			copy(or[b:], o[:m])
			copy(oa[b:], a[:m])
		}
		for ; slow != 0; slow &= slow - 1 {
			i := b + bits.TrailingZeros8(slow)
			rot, ang := blendRot(mathx.LoadQ4(&lr[i]), mathx.LoadV3(&la[i]), mathx.LoadQ4(&rr[i]), mathx.LoadV3(&ra[i]), alpha, alphaVel)
			or[i], oa[i] = rot.Quat(), ang.Vec3()
		}
	}
}

// keepRhs says which of out's channels are rhs's: blendRot8 then leaves
// rhs's values, not lhs's, in its slow lanes.
type keepRhs struct{ rot, ang bool }

// blendRot8 is Blend's rotation loop for eight joints, on the scalar
// loop's operations in its order. It returns the lanes that loop would
// mark slow, to be redone, and writes into them the lhs rotation and
// angular velocity unchanged, or where keep says so the rhs ones: out
// may be either, and the redo reads both.
func blendRot8(lr *[8]mgl32.Quat, la *[8]mgl32.Vec3, rr *[8]mgl32.Quat, ra *[8]mgl32.Vec3, or *[8]mgl32.Quat, oa *[8]mgl32.Vec3, alpha, alphaVel f8, keep keepRhs) uint8 {
	k := &simdK
	lw, lx, ly, lz := ldq8(lr)
	rw, rx, ry, rz := ldq8(rr)
	dw, dx, dy, dz := mathx.QuatMulInvX8(rw, rx, ry, rz, lw, lx, ly, lz)
	kq, ok := mathx.LogFactorShortX8(dw, dx, dy, dz)
	ddx, ddy, ddz := dx.Mul(kq), dy.Mul(kq), dz.Mul(kq)
	th2 := ddx.Mul(ddx).Add(ddy.Mul(ddy)).Add(ddz.Mul(ddz))
	v2 := alpha.Mul(alpha).Mul(th2)
	// !ok || v2 >= 1, as the scalar loop tests (NaN is not slow there).
	big := v2.GreaterEqual(k.one)
	slow := ^ok.ToBits() | big.ToBits()
	wx, wy, wz := ldv8(la)
	qx, qy, qz := mathx.QuatMulVec3X8(dw, dx, dy, dz, wx, wy, wz)
	ux, uy, uz := ldv8(ra)
	ux, uy, uz = ux.Sub(qx), uy.Sub(qy), uz.Sub(qz)
	c := mathx.LogRateSeriesX8(k.quarter.Mul(th2))
	sc, kc, kc2 := mathx.ExpSmallX8(v2)
	c1 := k.half.Mul(sc).Mul(sc).Mul(alpha)
	c2 := kc2.Mul(alpha).Mul(alpha)
	ct := k.one.Sub(c.Mul(th2))
	ca := c1.Mul(ct).Add(k.half.Mul(th2).Mul(c2)).Sub(k.half)
	cb := c.Sub(k.half.Mul(c1)).Add(c2.Mul(ct))
	ax, ay, az := mathx.RodriguesX8(ca, cb, ddx, ddy, ddz, ux, uy, uz)
	s := k.half.Mul(sc)
	ex, ey, ez := ddx.Mul(alpha).Mul(s), ddy.Mul(alpha).Mul(s), ddz.Mul(alpha).Mul(s)
	ow, ox, oy, oz := mathx.QuatMulX8(kc, ex, ey, ez, lw, lx, ly, lz)
	qx, qy, qz = mathx.QuatMulVec3X8(kc, ex, ey, ez, wx, wy, wz)
	gx := ddx.Mul(alphaVel).Add(ax.Mul(alpha)).Add(qx)
	gy := ddy.Mul(alphaVel).Add(ay.Mul(alpha)).Add(qy)
	gz := ddz.Mul(alphaVel).Add(az.Mul(alpha)).Add(qz)
	if slow != 0 { // rare
		if keep.rot {
			lw, lx, ly, lz = rw, rx, ry, rz
		}
		if keep.ang {
			wx, wy, wz = ldv8(ra)
		}
		// The kept value where big or !ok (no Not for masks on AVX2).
		kept := func(orig, v f8) f8 { return orig.Merge(v, big).Merge(orig, ok) }
		ow, ox, oy, oz = kept(lw, ow), kept(lx, ox), kept(ly, oy), kept(lz, oz)
		gx, gy, gz = kept(wx, gx), kept(wy, gy), kept(wz, gz)
	}
	stq8(or, ow, ox, oy, oz)
	stv8(oa, gx, gy, gz)
	archsimd.ClearAVXUpperBits() // see clearUpper
	return slow
}

// ldRec transposes the four float32s at byte off of each of eight joints'
// records (segRot float32s each) at p.
func ldRec(p unsafe.Pointer, off uintptr) (f8, f8, f8, f8) {
	const r = 4 * segRot
	return tr4(ld2(p, off, off+4*r), ld2(p, off+r, off+5*r), ld2(p, off+2*r, off+6*r), ld2(p, off+3*r, off+7*r))
}

// sampleRotSIMD is SampleCubicFrame's loop over the cached rotation
// records of an interval (rec, segRot float32s a joint) on the SIMD path:
// it writes rot and ang and reports whether any joint's offset is 1 rad
// or more (then redone there).
func sampleRotSIMD(rot []mgl32.Quat, ang []mgl32.Vec3, rec []float32, h10, h01, h11, d10, d01, d11, inv float32) bool {
	n := len(rot)
	ang, rec = ang[:n], rec[:segRot*n]
	w := [7]f8{bc(h10), bc(h01), bc(h11), bc(d10), bc(d01), bc(d11), bc(inv)}
	var big uint8
	if n < 8 {
		var x [8 * segRot]float32
		var r [8]mgl32.Quat
		var a [8]mgl32.Vec3
		copy(x[:], rec)
		big = sampleRot8(&x, &r, &a, &w) & (1<<n - 1)
		copy(rot, r[:n])
		copy(ang, a[:n])
		return big != 0
	}
	for b := 0; b < n; b += 8 {
		// The last block overlaps the one before if n is no multiple of
		// 8: its joints are computed twice, to the same values.
		b = min(b, n-8)
		big |= sampleRot8((*[8 * segRot]float32)(rec[segRot*b:]), (*[8]mgl32.Quat)(rot[b:]), (*[8]mgl32.Vec3)(ang[b:]), &w)
	}
	return big != 0
}

// sampleRot8 is SampleCubicFrame's cached rotation loop for eight joints,
// with w the Hermite weights h10, h01, h11, d10, d01, d11 and 1/dt; it
// returns the lanes whose offset is 1 rad or more.
func sampleRot8(x *[8 * segRot]float32, rot *[8]mgl32.Quat, ang *[8]mgl32.Vec3, w *[7]f8) uint8 {
	p := unsafe.Pointer(x)
	m1x, m1y, m1z, d12x := ldRec(p, 16)
	d12y, d12z, m2x, m2y := ldRec(p, 32)
	_, _, _, m2z := ldRec(p, 36)
	h10, h01, h11, d10, d01, d11 := w[0], w[1], w[2], w[3], w[4], w[5]
	ox := m1x.Mul(h10).Add(d12x.Mul(h01)).Add(m2x.Mul(h11))
	oy := m1y.Mul(h10).Add(d12y.Mul(h01)).Add(m2y.Mul(h11))
	oz := m1z.Mul(h10).Add(d12z.Mul(h01)).Add(m2z.Mul(h11))
	dx := m1x.Mul(d10).Add(d12x.Mul(d01)).Add(m2x.Mul(d11))
	dy := m1y.Mul(d10).Add(d12y.Mul(d01)).Add(m2y.Mul(d11))
	dz := m1z.Mul(d10).Add(d12z.Mul(d01)).Add(m2z.Mul(d11))
	o2 := ox.Mul(ox).Add(oy.Mul(oy)).Add(oz.Mul(oz))
	sc, c, c2 := mathx.ExpSmallX8(o2)
	ax, ay, az := mathx.RodriguesX8(simdK.half.Mul(sc).Mul(sc), c2, ox, oy, oz, dx, dy, dz)
	inv := w[6]
	stv8(ang, ax.Mul(inv), ay.Mul(inv), az.Mul(inv))
	s := simdK.half.Mul(sc)
	r1w, r1x, r1y, r1z := ldRec(p, 0)
	qw, qx, qy, qz := mathx.QuatMulX8(c, ox.Mul(s), oy.Mul(s), oz.Mul(s), r1w, r1x, r1y, r1z)
	stq8(rot, qw, qx, qy, qz)
	big := o2.GreaterEqual(simdK.one).ToBits()
	archsimd.ClearAVXUpperBits() // see clearUpper
	return big
}

// gather4 loads the 4x4 float32s at byte offsets off[j] of p, lane j of
// each result the j-th (the last the fourth float32s).
func gather4(p unsafe.Pointer, off *[8]uintptr) (f8, f8, f8, f8) {
	var v f8
	ld := func(j int) archsimd.Float32x4 { return archsimd.LoadFloat32x4((*[4]float32)(unsafe.Add(p, off[j]))) }
	return tr4(v.SetLo(ld(0)).SetHi(ld(4)), v.SetLo(ld(1)).SetHi(ld(5)), v.SetLo(ld(2)).SetHi(ld(6)), v.SetLo(ld(3)).SetHi(ld(7)))
}

// gv8 loads the Vec3s of s at joints off[j]/12 as components x, y, z. It
// loads four float32s a joint, the fourth the next joint's X: the caller
// makes sure each joint has one after it in s.
func gv8(s []mgl32.Vec3, off *[8]uintptr) (x, y, z f8) {
	x, y, z, _ = gather4(unsafe.Pointer(unsafe.SliceData(s)), off)
	return x, y, z
}

// bkSIMD is BK (see there) on the SIMD path, for n = len(parents) >= 8
// joints, each parent before its child: eight joints at once, their
// parents' values gathered. BK's joints are independent (each reads the
// global pose only), so the last block may overlap the one before, and a
// root's lane computes with joint 0 as its parent, then is overwritten.
// It returns false, for BK's scalar loop to redo it all, if a parent is
// not before its child.
func bkSIMD(local, global *Pose, parents []int) bool {
	n := len(parents)
	// Byte offsets of the parents' Vec3s and Quats.
	var ov, oq [8]uintptr
	for b := 0; b < n; b += 8 {
		b = min(b, n-8)
		var roots uint8
		for j, p := range (*[8]int)(parents[b:]) {
			// A parent index below its child's has a joint after it
			// (p+1 <= b+j < n, and the poses have n joints: BK's check),
			// which gv8 needs; so has joint 0, a root's stand-in, with
			// n >= 8.
			if p >= b+j {
				return false
			}
			if p < 0 {
				roots |= 1 << j
				p = 0
			}
			ov[j], oq[j] = uintptr(p)*12, uintptr(p)*16
		}
		// Joints b to b+7 of each channel, unchecked: BK checked that
		// every channel has n >= b+8 joints (bounds checks and slicing
		// were a tenth of the kernel).
		v8 := func(s []mgl32.Vec3) *[8]mgl32.Vec3 {
			return (*[8]mgl32.Vec3)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), b*12))
		}
		q8 := func(s []mgl32.Quat) *[8]mgl32.Quat {
			return (*[8]mgl32.Quat)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), b*16))
		}
		k := bkBlock{gp: v8(global.Pos), gs: v8(global.Scl), gv: v8(global.Vel), ga: v8(global.Ang), gsv: v8(global.Svl),
			lp: v8(local.Pos), ls: v8(local.Scl), lv: v8(local.Vel), la: v8(local.Ang), lsv: v8(local.Svl),
			gr: q8(global.Rot), lr: q8(local.Rot)}
		bk8(&k, global, &ov, &oq)
		// A root's lanes are overwritten here, after each block that
		// computes them (a root in the overlap of the last two blocks
		// twice).
		for ; roots != 0; roots &= roots - 1 {
			i := b + bits.TrailingZeros8(roots)
			local.Pos[i], local.Rot[i], local.Scl[i] = global.Pos[i], global.Rot[i], global.Scl[i]
			local.Vel[i], local.Ang[i], local.Svl[i] = global.Vel[i], global.Ang[i], global.Svl[i]
		}
	}
	return true
}

// bkBlock points at joints b to b+7 of each channel of BK's global (g)
// and local (l) poses. bk8 loads through these pointers: an address left
// as base + 12 b is recomputed at every load of four float32s.
type bkBlock struct {
	gp, gs, gv, ga, gsv, lp, ls, lv, la, lsv *[8]mgl32.Vec3
	gr, lr                                   *[8]mgl32.Quat
}

// bk8 is BK's loop body for the joints of block k, their parents at byte
// offsets ov in global's Vec3 channels and oq in its rotations, on the
// scalar body's operations in its order.
func bk8(k *bkBlock, global *Pose, ov, oq *[8]uintptr) {
	pw, px, py, pz := gather4(unsafe.Pointer(unsafe.SliceData(global.Rot)), oq)
	gw, gx, gy, gz := ldq8(k.gr)
	lw, lx, ly, lz := mathx.QuatInvMulX8(pw, px, py, pz, gw, gx, gy, gz)
	stq8(k.lr, lw, lx, ly, lz)
	one := simdK.one
	sx, sy, sz := gv8(global.Scl, ov)
	ipx, ipy, ipz := one.Div(sx), one.Div(sy), one.Div(sz)
	sx, sy, sz = ldv8(k.gs)
	stv8(k.ls, sx.Mul(ipx), sy.Mul(ipy), sz.Mul(ipz))
	psx, psy, psz := gv8(global.Svl, ov)
	sx, sy, sz = ldv8(k.gsv)
	stv8(k.lsv, sx.Sub(psx), sy.Sub(psy), sz.Sub(psz))
	ax, ay, az := ldv8(k.gp)
	qx, qy, qz := gv8(global.Pos, ov)
	ax, ay, az = ax.Sub(qx), ay.Sub(qy), az.Sub(qz)
	ox, oy, oz := mathx.QuatInvMulVec3X8(pw, px, py, pz, ax, ay, az)
	ox, oy, oz = ox.Mul(ipx), oy.Mul(ipy), oz.Mul(ipz)
	stv8(k.lp, ox, oy, oz)
	// rel = vel - par_vel - cross(par_ang, arm).
	pax, pay, paz := gv8(global.Ang, ov)
	vx, vy, vz := ldv8(k.gv)
	qx, qy, qz = gv8(global.Vel, ov)
	vx = vx.Sub(qx).Sub(pay.Mul(az).Sub(paz.Mul(ay)))
	vy = vy.Sub(qy).Sub(paz.Mul(ax).Sub(pax.Mul(az)))
	vz = vz.Sub(qz).Sub(pax.Mul(ay).Sub(pay.Mul(ax)))
	vx, vy, vz = mathx.QuatInvMulVec3X8(pw, px, py, pz, vx, vy, vz)
	stv8(k.lv, vx.Mul(ipx).Sub(ox.Mul(psx)), vy.Mul(ipy).Sub(oy.Mul(psy)), vz.Mul(ipz).Sub(oz.Mul(psz)))
	gx, gy, gz = ldv8(k.ga)
	gx, gy, gz = mathx.QuatInvMulVec3X8(pw, px, py, pz, gx.Sub(pax), gy.Sub(pay), gz.Sub(paz))
	stv8(k.la, gx, gy, gz)
	archsimd.ClearAVXUpperBits() // see clearUpper
}

// finiteDiffSIMD is FiniteDiff's loop (see there) on the SIMD path, for
// n >= 8 joints, with inv = 1/dt. Its joints are independent and it
// writes only velocities, which it does not read, so the last block may
// overlap the one before, and out may be curr. A joint whose rotation
// turned 45 degrees or more, or whose scale changed by a factor beyond
// NearOne's range, is redone by the scalar loop.
func finiteDiffSIMD(out, curr, prev *Pose, inv float32) {
	n := len(curr.Pos)
	for b := 0; b < n; b += 8 {
		b = min(b, n-8)
		for slow := finiteDiff8(out, curr, prev, b, inv); slow != 0; slow &= slow - 1 {
			i := b + bits.TrailingZeros8(slow)
			finiteDiffJoints(out, curr, prev, inv, i, i+1)
		}
	}
}

// finiteDiff8 is FiniteDiff's loop body for joints b to b+7 on the scalar
// body's operations in its order: it returns the lanes to redo, those
// beyond LogFactorShort's range or whose scale changed by a factor
// beyond NearOne's (a NaN compares unequal and is not near one, as in the
// scalar loop).
func finiteDiff8(out, curr, prev *Pose, b int, inv float32) uint8 {
	iv := bc(inv)
	v8 := func(s []mgl32.Vec3) *[8]mgl32.Vec3 { return (*[8]mgl32.Vec3)(s[b:]) }
	q8 := func(s []mgl32.Quat) *[8]mgl32.Quat { return (*[8]mgl32.Quat)(s[b:]) }
	cx, cy, cz := ldv8(v8(curr.Pos))
	px, py, pz := ldv8(v8(prev.Pos))
	stv8(v8(out.Vel), cx.Sub(px).Mul(iv), cy.Sub(py).Mul(iv), cz.Sub(pz).Mul(iv))
	cw, cx, cy, cz := ldq8(q8(curr.Rot))
	pw, px, py, pz := ldq8(q8(prev.Rot))
	dw, dx, dy, dz := mathx.QuatMulInvX8(cw, cx, cy, cz, pw, px, py, pz)
	k, ok := mathx.LogFactorShortX8(dw, dx, dy, dz)
	stv8(v8(out.Ang), dx.Mul(k).Mul(iv), dy.Mul(k).Mul(iv), dz.Mul(k).Mul(iv))
	cx, cy, cz = ldv8(v8(curr.Scl))
	px, py, pz = ldv8(v8(prev.Scl))
	// Where the scales are equal the scale velocity is 0 inv, else the
	// log of their ratio, inline within NearOne's range.
	same := px.Equal(cx).And(py.Equal(cy)).And(pz.Equal(cz))
	rx, ry, rz := cx.Div(px), cy.Div(py), cz.Div(pz)
	near := mathx.NearOneX8(rx).And(mathx.NearOneX8(ry)).And(mathx.NearOneX8(rz))
	var zero f8
	lx := zero.Merge(mathx.LogNearOneX8(rx), same)
	ly := zero.Merge(mathx.LogNearOneX8(ry), same)
	lz := zero.Merge(mathx.LogNearOneX8(rz), same)
	stv8(v8(out.Svl), lx.Mul(iv), ly.Mul(iv), lz.Mul(iv))
	slow := ^ok.ToBits() | ^(same.ToBits() | near.ToBits())
	archsimd.ClearAVXUpperBits() // see clearUpper
	return slow
}
