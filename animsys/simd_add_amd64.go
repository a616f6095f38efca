//go:build goexperiment.simd && amd64

package animsys

import (
	"math/bits"
	"simd/archsimd"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// The addLog layout add8 loads, sixteen float32s a joint (r, dr, ls, r x
// dr, r x (r x dr), |r|^2), checked when compiling: a negative difference
// overflows its uint.
const _ = uint(unsafe.Sizeof(addLog{})-64) + uint(64-unsafe.Sizeof(addLog{})) +
	uint(unsafe.Offsetof(addLog{}.ls)-24) + uint(unsafe.Offsetof(addLog{}.rr)-60)

// additiveSIMD is additive (op_additive_inplace, see Additive) on the SIMD
// path, for n >= 8 joints with their kept addLogs: eight joints at once,
// on the scalar loops' float32 operations in their order (the loops' three
// passes touch separate channels, so one pass a block gives their bits).
// The last block overlaps the one before when n is no multiple of 8: the
// kernel keeps the joints already done. Joints whose weighted additive
// rotation is 1 rad or more (ExpLarge) or whose weighted log-scale is
// beyond Exp32's polynomial range are left unchanged by the kernel, then
// redone here by the loops' operations (additiveRot1, additiveScl1).
func additiveSIMD(out, add *Pose, logs []addLog, alpha, alphaVel float32) {
	n := len(out.Pos)
	logs = logs[:n]
	// add8 indexes the channels unchecked: check their lengths here.
	for _, p := range [...]*Pose{out, add} {
		_, _, _, _, _, _ = p.Pos[:n], p.Rot[:n], p.Scl[:n], p.Vel[:n], p.Ang[:n], p.Svl[:n]
	}
	a2, a3 := alpha*alpha, alpha*alpha*alpha // as additive computes them
	k := [4]f8{bc(alpha), bc(alphaVel), bc(a2), bc(a3)}
	for b := 0; b < n; b += 8 {
		bb := min(b, n-8)
		nd := b - bb // lanes of joints the block before did
		done := uint8(1)<<nd - 1
		slowR, slowS := add8(out, add, (*[8]addLog)(logs[bb:]), bb, &k, nd)
		for slowR &^= done; slowR != 0; slowR &= slowR - 1 {
			i := bb + bits.TrailingZeros8(slowR)
			additiveRot1(out, &logs[i], i, alpha, alphaVel)
		}
		for slowS &^= done; slowS != 0; slowS &= slowS - 1 {
			i := bb + bits.TrailingZeros8(slowS)
			additiveScl1(out, nil, &logs[i], i, alpha, alphaVel)
		}
	}
}

// ldLogs8 transposes the float32s at byte off to off+31 of eight 64-byte
// records at p: eight vectors, lane j from record j.
func ldLogs8(p unsafe.Pointer, off uintptr) (f8, f8, f8, f8, f8, f8, f8, f8) {
	// Record j's eight in the low half and j+4's in the high one, first
	// and last four.
	r0, r4 := ld8(p, off), ld8(p, off+256)
	r1, r5 := ld8(p, off+64), ld8(p, off+320)
	r2, r6 := ld8(p, off+128), ld8(p, off+384)
	r3, r7 := ld8(p, off+192), ld8(p, off+448)
	a, b, c, d := tr4(r0.Select128FromPair(0, 2, r4), r1.Select128FromPair(0, 2, r5), r2.Select128FromPair(0, 2, r6), r3.Select128FromPair(0, 2, r7))
	e, f, g, h := tr4(r0.Select128FromPair(1, 3, r4), r1.Select128FromPair(1, 3, r5), r2.Select128FromPair(1, 3, r6), r3.Select128FromPair(1, 3, r7))
	return a, b, c, d, e, f, g, h
}

// add8 is additive's loop bodies for joints b to b+7, with k alpha,
// alphaVel, alpha^2 and alpha^3. It returns the lanes whose rotation
// (slowR) or scale (slowS) is to be redone, which it leaves unchanged,
// as it leaves every channel of its first nd lanes (done).
func add8(out, add *Pose, lg *[8]addLog, b int, k *[4]f8, nd int) (slowR, slowS uint8) {
	v8 := func(s []mgl32.Vec3) *[8]mgl32.Vec3 { return v3at(s, b) }
	al, av := k[0], k[1]
	done, dm := doneLanes(nd)

	// Positions and velocities: pos += alpha add.pos, vel += alpha
	// add.vel + alphaVel add.pos.
	px, py, pz := ldv8(v8(add.Pos))
	ox, oy, oz := ldv8(v8(out.Pos))
	nx, ny, nz := ox.Add(px.Mul(al)), oy.Add(py.Mul(al)), oz.Add(pz.Mul(al))
	if done != 0 {
		nx, ny, nz = ox.Merge(nx, dm), oy.Merge(ny, dm), oz.Merge(nz, dm)
	}
	stv8(v8(out.Pos), nx, ny, nz)
	vx, vy, vz := ldv8(v8(add.Vel))
	ox, oy, oz = ldv8(v8(out.Vel))
	nx, ny, nz = ox.Add(vx.Mul(al)).Add(px.Mul(av)), oy.Add(vy.Mul(al)).Add(py.Mul(av)), oz.Add(vz.Mul(al)).Add(pz.Mul(av))
	if done != 0 {
		nx, ny, nz = ox.Merge(nx, dm), oy.Merge(ny, dm), oz.Merge(nz, dm)
	}
	stv8(v8(out.Vel), nx, ny, nz)

	// Rotations: from_scaled_angle_axis(alpha r) on the world side, and
	// its angular velocity (addLog.rate) added to the turned one.
	u := unsafe.Pointer(lg)
	lz, cx, cy, cz, ex, ey, ez, rr := ldLogs8(u, 32)
	v2 := k[2].Mul(rr)
	sc, c, c2 := mathx.ExpSmallX8(v2)
	big := v2.GreaterEqual(simdK.one) // NaN is not, as in the scalar loop
	slowR = big.ToBits()
	keep := big.Or(dm)
	s := simdK.half.Mul(sc)
	c1a2, c2a3 := s.Mul(sc).Mul(k[2]), c2.Mul(k[3])
	rx, ry, rz, dx, dy, dz, lx, ly := ldLogs8(u, 0)
	qx, qy, qz := rx.Mul(al).Mul(s), ry.Mul(al).Mul(s), rz.Mul(al).Mul(s)
	iw, ix, iy, iz := ldq8(q4at(out.Rot, b))
	ow, nx, ny, nz := mathx.QuatMulX8(c, qx, qy, qz, iw, ix, iy, iz)
	if slowR|done != 0 {
		ow, nx, ny, nz = iw.Merge(ow, keep), ix.Merge(nx, keep), iy.Merge(ny, keep), iz.Merge(nz, keep)
	}
	stq8(q4at(out.Rot, b), ow, nx, ny, nz)
	ix, iy, iz = ldv8(v8(out.Ang))
	wx, wy, wz := mathx.QuatMulVec3X8(c, qx, qy, qz, ix, iy, iz)
	nx = wx.Add(dx.Mul(al).Add(cx.Mul(c1a2)).Add(ex.Mul(c2a3)).Add(rx.Mul(av)))
	ny = wy.Add(dy.Mul(al).Add(cy.Mul(c1a2)).Add(ey.Mul(c2a3)).Add(ry.Mul(av)))
	nz = wz.Add(dz.Mul(al).Add(cz.Mul(c1a2)).Add(ez.Mul(c2a3)).Add(rz.Mul(av)))
	if slowR|done != 0 {
		nx, ny, nz = ix.Merge(nx, keep), iy.Merge(ny, keep), iz.Merge(nz, keep)
	}
	stv8(v8(out.Ang), nx, ny, nz)

	// Scales: scl = exp(alpha ls) scl, svl += alpha add.svl + alphaVel ls.
	sx, okx := mathx.ExpSmallRangeX8(lx.Mul(al))
	sy, oky := mathx.ExpSmallRangeX8(ly.Mul(al))
	sz, okz := mathx.ExpSmallRangeX8(lz.Mul(al))
	ox, oy, oz = ldv8(v8(out.Scl))
	nx, ny, nz = sx.Mul(ox), sy.Mul(oy), sz.Mul(oz)
	ok := okx.And(oky).And(okz)
	slowS = ^ok.ToBits()
	if slowS|done != 0 { // unchanged where done or not ok
		nx, ny, nz = ox.Merge(nx, dm).Merge(ox, ok), oy.Merge(ny, dm).Merge(oy, ok), oz.Merge(nz, dm).Merge(oz, ok)
	}
	stv8(v8(out.Scl), nx, ny, nz)
	vx, vy, vz = ldv8(v8(add.Svl))
	ox, oy, oz = ldv8(v8(out.Svl))
	nx, ny, nz = ox.Add(vx.Mul(al)).Add(lx.Mul(av)), oy.Add(vy.Mul(al)).Add(ly.Mul(av)), oz.Add(vz.Mul(al)).Add(lz.Mul(av))
	if done != 0 {
		nx, ny, nz = ox.Merge(nx, dm), oy.Merge(ny, dm), oz.Merge(nz, dm)
	}
	stv8(v8(out.Svl), nx, ny, nz)
	archsimd.ClearAVXUpperBits() // see clearUpper
	return slowR, slowS
}
