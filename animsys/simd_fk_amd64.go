//go:build goexperiment.simd && amd64

package animsys

import (
	"simd/archsimd"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// FK on the SIMD path (op_fk): one joint at a time, as its parent must be
// done first, its values four float32s a vector (archsimd.Float32x4). A
// quaternion is one vector (w, x, y, z), a Vec3 one with a spare lane.
// The three rotations by the parent's rotation (of the lever arm, the
// velocity term, the angular velocity) run as one, each vector a lane of
// x, y and z vectors. Every lane computes FK's scalar body's float32 operations in
// its order (a quaternion product's w lane subtracts where the other
// lanes add: both are computed and the lanes picked, so a NaN keeps its
// sign), so the results are the scalar path's bits.

type f4 = archsimd.Float32x4

// simdK4 holds the four-lane constants, filled only where useSIMD (see
// simdK).
var simdK4 = func() (k struct{ half, iota f4 }) {
	if useSIMD {
		k.half = archsimd.BroadcastFloat32x4(0.5)
		k.iota = archsimd.LoadFloat32x4(&[4]float32{0, 1, 2, 3})
	}
	return k
}()

// p4 is the four float32s at byte off of p. fkSIMD writes its loads and
// stores out on it (archsimd.LoadFloat32x4(p4(..)), v.Store(p4(..)))
// rather than through load and store helpers: Go marked each inlined
// helper call with a NOP where it had no instruction of its own to carry
// the mark, eight a joint (measured: 4% of FK).
func p4(p unsafe.Pointer, off uintptr) *[4]float32 { return (*[4]float32)(unsafe.Add(p, off)) }

// fkSIMD runs FK's loop (see there) from joint 0 on, for n =
// len(parents) >= 2 joints, and returns the joint the scalar loop goes on
// from: n-1, whose Vec3s have no float32 after them within the channels;
// or the first joint whose parent is not before it (the scalar loop then
// reads what it reads, as without SIMD: this loop has written no float32
// of that joint's or a later one's parent); or 0 if global shares a
// channel with local (the stores of four float32s write the next joint's
// X early, which an in-place FK would read). FK checked that every
// channel has n joints or more.
func fkSIMD(global, local *Pose, parents []int) int {
	n := len(parents)
	pv := func(s []mgl32.Vec3) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }
	gp, gs, gv, ga, gsv := pv(global.Pos), pv(global.Scl), pv(global.Vel), pv(global.Ang), pv(global.Svl)
	lp, ls, lv, la, lsv := pv(local.Pos), pv(local.Scl), pv(local.Vel), pv(local.Ang), pv(local.Svl)
	gr, lr := unsafe.Pointer(unsafe.SliceData(global.Rot)), unsafe.Pointer(unsafe.SliceData(local.Rot))
	if gp == lp || gr == lr || gs == ls || gv == lv || ga == la || gsv == lsv {
		return 0
	}
	// Lane 0 of a quaternion product (w), which subtracts where the
	// other lanes add.
	lane0 := simdK4.iota.Less(simdK4.half)
	// Each joint checks the next one's parent before it stores (its
	// stores write the next joint's X).
	p := parents[0]
	if p >= 0 {
		return 0
	}
	for i := 0; i < n-1; i++ {
		next := parents[i+1]
		if next > i {
			archsimd.ClearAVXUpperBits() // see clearUpper
			return i
		}
		// Byte offsets of joint i and its parent p in the Vec3 channels
		// (v) and the rotations (q). p < i < n-1: every load and store of
		// four float32s stays within the first n joints.
		vi, qi := uintptr(i)*12, uintptr(i)*16
		if p < 0 {
			archsimd.LoadFloat32x4(p4(lr, qi)).Store(p4(gr, qi))
			archsimd.LoadFloat32x4(p4(lp, vi)).Store(p4(gp, vi))
			archsimd.LoadFloat32x4(p4(ls, vi)).Store(p4(gs, vi))
			archsimd.LoadFloat32x4(p4(lv, vi)).Store(p4(gv, vi))
			archsimd.LoadFloat32x4(p4(la, vi)).Store(p4(ga, vi))
			archsimd.LoadFloat32x4(p4(lsv, vi)).Store(p4(gsv, vi))
			p = next
			continue
		}
		vp, qp := uintptr(p)*12, uintptr(p)*16
		pr, l := archsimd.LoadFloat32x4(p4(gr, qp)), archsimd.LoadFloat32x4(p4(lr, qi))
		ps := archsimd.LoadFloat32x4(p4(gs, vp))
		archsimd.LoadFloat32x4(p4(ls, vi)).Mul(ps).Store(p4(gs, vi))
		// QuatMulS: w = aw bw - ax bx - ay by - az bz, x = aw bx + ax bw
		// + ay bz - az by, and so on; a column of products at a time.
		pw := pr.Broadcast1To4()
		t := pr.SelectFromPair(1, 1, 2, 3, pr).Mul(l.SelectFromPair(1, 0, 0, 0, l))
		q := pw.Mul(l)
		q = q.Sub(t).Merge(q.Add(t), lane0)
		t = pr.SelectFromPair(2, 2, 3, 1, pr).Mul(l.SelectFromPair(2, 3, 1, 2, l))
		q = q.Sub(t).Merge(q.Add(t), lane0)
		t = pr.SelectFromPair(3, 3, 1, 2, pr).Mul(l.SelectFromPair(3, 2, 3, 1, l))
		q.Sub(t).Store(p4(gr, qi))
		// The vectors to rotate: local.pos * par_scl (the arm), (local.vel
		// + local.pos * par_svl) * par_scl, local.ang.
		pos := archsimd.LoadFloat32x4(p4(lp, vi))
		psv := archsimd.LoadFloat32x4(p4(gsv, vp))
		archsimd.LoadFloat32x4(p4(lsv, vi)).Add(psv).Store(p4(gsv, vi))
		ax := pos.Mul(ps)
		lvs := archsimd.LoadFloat32x4(p4(lv, vi)).Add(pos.Mul(psv)).Mul(ps)
		w := archsimd.LoadFloat32x4(p4(la, vi))
		// Transposed: lane 0 the arm, 1 the velocity term, 2 (and 3) the
		// angular velocity.
		u := ax.SelectFromPair(0, 1, 4, 5, lvs) // ax.x ax.y lvs.x lvs.y
		vx, vy := u.SelectFromPair(0, 2, 4, 4, w), u.SelectFromPair(1, 3, 5, 5, w)
		vz := ax.SelectFromPair(2, 2, 6, 6, lvs).SelectFromPair(0, 2, 6, 6, w)
		// QuatMulVec3S by par_rot: t = 2 (u x v) (2 t as t + t, the same
		// bits), r = v + w t + u x t.
		px, py, pz := pr.SelectFromPair(1, 1, 1, 1, pr), pr.SelectFromPair(2, 2, 2, 2, pr), pr.SelectFromPair(3, 3, 3, 3, pr)
		tx, ty, tz := py.Mul(vz).Sub(pz.Mul(vy)), pz.Mul(vx).Sub(px.Mul(vz)), px.Mul(vy).Sub(py.Mul(vx))
		tx, ty, tz = tx.Add(tx), ty.Add(ty), tz.Add(tz)
		rx := vx.Add(pw.Mul(tx)).Add(py.Mul(tz).Sub(pz.Mul(ty)))
		ry := vy.Add(pw.Mul(ty)).Add(pz.Mul(tx).Sub(px.Mul(tz)))
		rz := vz.Add(pw.Mul(tz)).Add(px.Mul(ty).Sub(py.Mul(tx)))
		// Back to one vector a Vec3.
		u = rx.SelectFromPair(0, 1, 4, 5, ry) // arm.x v.x arm.y v.y
		arm := u.SelectFromPair(0, 2, 4, 4, rz)
		rv := u.SelectFromPair(1, 3, 5, 5, rz)
		rw := rx.SelectFromPair(2, 2, 6, 6, ry).SelectFromPair(0, 2, 6, 6, rz)
		arm.Add(archsimd.LoadFloat32x4(p4(gp, vp))).Store(p4(gp, vi))
		// vel: rotated term + par_vel + cross(par_ang, arm).
		pa := archsimd.LoadFloat32x4(p4(ga, vp))
		c := pa.SelectFromPair(1, 2, 0, 0, pa).Mul(arm.SelectFromPair(2, 0, 1, 1, arm)).
			Sub(pa.SelectFromPair(2, 0, 1, 1, pa).Mul(arm.SelectFromPair(1, 2, 0, 0, arm)))
		rv.Add(archsimd.LoadFloat32x4(p4(gv, vp))).Add(c).Store(p4(gv, vi))
		rw.Add(pa).Store(p4(ga, vi))
		p = next
	}
	archsimd.ClearAVXUpperBits() // see clearUpper
	return n - 1
}
