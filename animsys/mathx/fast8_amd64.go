//go:build goexperiment.simd && amd64

package mathx

import "simd/archsimd"

// Eight-lane forms (GOEXPERIMENT=simd on amd64): the fast forms that the
// SIMD kernels of package animsys need, on archsimd.Float32x8 (AVX2), one
// joint a lane. Each computes its scalar fast form's float32 operations
// in the same order (Go does not fuse multiply-adds on amd64 below
// GOAMD64=v3, so neither do these), so every lane has the scalar form's
// bits (fast8_amd64_test.go). Call them only where archsimd.X86.AVX2().
//
// They take and return vectors one by one, not in structs: Go inlines a
// function with vector parameters or results up to three times the usual
// cost, and a call would spill every live vector.

type f8 = archsimd.Float32x8

// k8 holds the constant vectors the lane forms use: a load from memory is
// one instruction, a broadcast of a constant two. It is filled only on a
// CPU with AVX2, as filling it takes AVX2.
var k8 = func() (k struct{ one, two, quarter, tiny, tan2Pi8 f8 }) {
	if archsimd.X86.AVX2() {
		k.one, k.two, k.quarter, k.tiny, k.tan2Pi8 = bc(1), bc(2), bc(0.25), bc(tiny), bc(tan2Pi8)
	}
	return k
}()

func bc(x float32) f8 { return archsimd.BroadcastFloat32x8(x) }

// QuatMulX8 is QuatMulS per lane.
func QuatMulX8(aw, ax, ay, az, bw, bx, by, bz f8) (w, x, y, z f8) {
	return aw.Mul(bw).Sub(ax.Mul(bx)).Sub(ay.Mul(by)).Sub(az.Mul(bz)),
		aw.Mul(bx).Add(ax.Mul(bw)).Add(ay.Mul(bz)).Sub(az.Mul(by)),
		aw.Mul(by).Add(ay.Mul(bw)).Add(az.Mul(bx)).Sub(ax.Mul(bz)),
		aw.Mul(bz).Add(az.Mul(bw)).Add(ax.Mul(by)).Sub(ay.Mul(bx))
}

// QuatMulInvX8 is QuatMulInvS per lane.
func QuatMulInvX8(aw, ax, ay, az, bw, bx, by, bz f8) (w, x, y, z f8) {
	return aw.Mul(bw).Add(ax.Mul(bx)).Add(ay.Mul(by)).Add(az.Mul(bz)),
		ax.Mul(bw).Sub(aw.Mul(bx)).Sub(ay.Mul(bz)).Add(az.Mul(by)),
		ay.Mul(bw).Sub(aw.Mul(by)).Sub(az.Mul(bx)).Add(ax.Mul(bz)),
		az.Mul(bw).Sub(aw.Mul(bz)).Sub(ax.Mul(by)).Add(ay.Mul(bx))
}

// QuatInvMulX8 is QuatInvMulS per lane.
func QuatInvMulX8(aw, ax, ay, az, bw, bx, by, bz f8) (w, x, y, z f8) {
	return aw.Mul(bw).Add(ax.Mul(bx)).Add(ay.Mul(by)).Add(az.Mul(bz)),
		aw.Mul(bx).Sub(ax.Mul(bw)).Sub(ay.Mul(bz)).Add(az.Mul(by)),
		aw.Mul(by).Sub(ay.Mul(bw)).Sub(az.Mul(bx)).Add(ax.Mul(bz)),
		aw.Mul(bz).Sub(az.Mul(bw)).Sub(ax.Mul(by)).Add(ay.Mul(bx))
}

// QuatInvMulVec3X8 is QuatInvMulVec3S per lane.
func QuatInvMulVec3X8(w, x, y, z, vx, vy, vz f8) (f8, f8, f8) {
	two := k8.two
	tx := two.Mul(vy.Mul(z).Sub(vz.Mul(y)))
	ty := two.Mul(vz.Mul(x).Sub(vx.Mul(z)))
	tz := two.Mul(vx.Mul(y).Sub(vy.Mul(x)))
	return vx.Add(w.Mul(tx)).Add(ty.Mul(z).Sub(tz.Mul(y))),
		vy.Add(w.Mul(ty)).Add(tz.Mul(x).Sub(tx.Mul(z))),
		vz.Add(w.Mul(tz)).Add(tx.Mul(y).Sub(ty.Mul(x)))
}

// QuatMulVec3X8 is QuatMulVec3S per lane.
func QuatMulVec3X8(w, x, y, z, vx, vy, vz f8) (f8, f8, f8) {
	two := k8.two
	tx := two.Mul(y.Mul(vz).Sub(z.Mul(vy)))
	ty := two.Mul(z.Mul(vx).Sub(x.Mul(vz)))
	tz := two.Mul(x.Mul(vy).Sub(y.Mul(vx)))
	return vx.Add(w.Mul(tx)).Add(y.Mul(tz).Sub(z.Mul(ty))),
		vy.Add(w.Mul(ty)).Add(z.Mul(tx).Sub(x.Mul(tz))),
		vz.Add(w.Mul(tz)).Add(x.Mul(ty).Sub(y.Mul(tx)))
}

// RodriguesX8 is RodriguesS per lane: x + a (v x x) + b (v x (v x x)).
func RodriguesX8(a, b, vx, vy, vz, x, y, z f8) (f8, f8, f8) {
	cx := vy.Mul(z).Sub(vz.Mul(y))
	cy := vz.Mul(x).Sub(vx.Mul(z))
	cz := vx.Mul(y).Sub(vy.Mul(x))
	return x.Add(a.Mul(cx)).Add(b.Mul(vy.Mul(cz).Sub(vz.Mul(cy)))),
		y.Add(a.Mul(cy)).Add(b.Mul(vz.Mul(cx).Sub(vx.Mul(cz)))),
		z.Add(a.Mul(cz)).Add(b.Mul(vx.Mul(cy).Sub(vy.Mul(cx))))
}

// LogFactorShortX8 is Q4.LogFactorShort per lane, of the quaternions (w,
// x, y, z): the factor k and the lanes where it holds (up to 45 degrees).
func LogFactorShortX8(w, x, y, z f8) (k f8, ok archsimd.Mask32x8) {
	s2 := x.Mul(x).Add(y.Mul(y)).Add(z.Mul(z))
	iw := k8.one.Div(w)
	return k8.two.Mul(atanPolyX8(s2.Mul(iw).Mul(iw))).Mul(iw), s2.Less(k8.tan2Pi8.Mul(w).Mul(w))
}

// atanPolyX8 is atanPoly per lane.
func atanPolyX8(u2 f8) f8 {
	u4 := u2.Mul(u2)
	return bc(atan0).Sub(bc(atan1).Mul(u2)).Add(u4.Mul(bc(atan2).Sub(bc(atan3).Mul(u2)).Add(u4.Mul(bc(atan4)))))
}

// LogRateSeriesX8 is LogRateSeries per lane.
func LogRateSeriesX8(h2 f8) f8 {
	h4 := h2.Mul(h2)
	return bc(lrs0).Add(h2.Mul(bc(lrs1))).Add(h4.Mul(bc(lrs2).Add(h2.Mul(bc(lrs3))).Add(h4.Mul(bc(lrs4)))))
}

// ExpSmallX8 is ExpSmall per lane: its Sinc, Cos and C2.
func ExpSmallX8(a2 f8) (sinc, cos, c2 f8) {
	h2 := k8.quarter.Mul(a2)
	h4 := h2.Mul(h2)
	sinc = bc(sin0).Sub(bc(sin1).Mul(h2)).Add(h4.Mul(bc(sin2).Sub(bc(sin3).Mul(h2))))
	cos = bc(cos0).Sub(bc(cos1).Mul(h2)).Add(h4.Mul(bc(cos2).Sub(bc(cos3).Mul(h2)).Add(h4.Mul(bc(cos4)))))
	return sinc, cos, k8.one.Sub(sinc.Mul(cos)).Div(a2.Add(k8.tiny))
}

// NearOneX8 is NearOne per lane.
func NearOneX8(x f8) archsimd.Mask32x8 {
	return x.Greater(bc(sqrt2 / 2)).And(x.LessEqual(bc(sqrt2)))
}

// LogNearOneX8 is LogNearOne per lane.
func LogNearOneX8(x f8) f8 {
	f := x.Sub(k8.one)
	s := f.Div(k8.two.Add(f))
	s2 := s.Mul(s)
	s4 := s2.Mul(s2)
	return k8.two.Mul(s).Mul(k8.one.Add(s2.Mul(bc(1.0 / 3))).Add(s4.Mul(bc(1.0 / 5).Add(s2.Mul(bc(1.0 / 7))).Add(s4.Mul(bc(1.0 / 9))))))
}

// ExpSmallRangeX8 is Exp32 per lane where ok, the lanes with |x| < 0.34:
// there Exp32 is expPoly(x) (and expPoly(±0) is 1, as Exp32(0) returns),
// the same float32 operations here. Other lanes (larger |x|, NaN) are for
// the caller to redo with Exp32. The coefficients are expPoly's.
func ExpSmallRangeX8(x f8) (e f8, ok archsimd.Mask32x8) {
	x2 := x.Mul(x)
	x4 := x2.Mul(x2)
	e = k8.one.Add(bc(1.0000000377162137).Mul(x)).Add(x2.Mul(bc(0.5000000047117756).Add(bc(0.16666415514653268).Mul(x)))).
		Add(x4.Mul(bc(0.04166635289675798).Add(bc(0.008375126398156).Mul(x)).Add(x2.Mul(bc(0.0013941108435501846)))))
	return e, x.Greater(bc(-0.34)).And(x.Less(bc(0.34)))
}
