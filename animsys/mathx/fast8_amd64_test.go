//go:build goexperiment.simd && amd64

package mathx

import (
	"math"
	"math/rand"
	"simd/archsimd"
	"testing"
)

// lanes is eight float32s, one lane each.
type lanes = [8]float32

func ld8(x *lanes) f8 { return archsimd.LoadFloat32x8(x) }

func st8(v f8) (x lanes) {
	v.Store(&x)
	return x
}

// sameLanes fails t unless got has want's bits in every lane.
func sameLanes(t *testing.T, what string, got f8, want lanes) {
	t.Helper()
	g := st8(got)
	for i := range g {
		if math.Float32bits(g[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s lane %d: %v, scalar form %v", what, i, g[i], want[i])
		}
	}
}

// Every eight-lane form gives its scalar fast form's bits in every lane,
// on rotations of any angle (half with w < 0) and on lengths either side
// of the polynomials' ranges.
func TestLaneFormsSameBits(t *testing.T) {
	if !archsimd.X86.AVX2() {
		t.Skip("no AVX2")
	}
	r := rand.New(rand.NewSource(11))
	rnd := func(s float32) (x lanes) {
		for i := range x {
			x[i] = s * (2*r.Float32() - 1)
		}
		return x
	}
	for trial := 0; trial < 2000; trial++ {
		var a, b [4]lanes // quaternions, component-major
		for i := 0; i < 8; i++ {
			for _, q := range []*[4]lanes{&a, &b} {
				v := randVec(r, 4)
				u := QuatFromScaledAngleAxis(v)
				if r.Intn(2) == 0 {
					u = u.Scale(-1)
				}
				q[0][i], q[1][i], q[2][i], q[3][i] = u.W, u.V[0], u.V[1], u.V[2]
			}
		}
		v, x, s1, s2 := [3]lanes{rnd(2), rnd(2), rnd(2)}, [3]lanes{rnd(3), rnd(3), rnd(3)}, rnd(1), rnd(1)
		a2, h2 := rnd(1.2), rnd(0.25)
		var want [20]lanes
		var okWant uint8
		for i := 0; i < 8; i++ {
			aw, ax, ay, az := a[0][i], a[1][i], a[2][i], a[3][i]
			bw, bx, by, bz := b[0][i], b[1][i], b[2][i], b[3][i]
			want[0][i], want[1][i], want[2][i], want[3][i] = QuatMulS(aw, ax, ay, az, bw, bx, by, bz)
			want[4][i], want[5][i], want[6][i], want[7][i] = QuatMulInvS(aw, ax, ay, az, bw, bx, by, bz)
			want[8][i], want[9][i], want[10][i] = QuatMulVec3S(aw, ax, ay, az, x[0][i], x[1][i], x[2][i])
			k, ok := Q4{aw, ax, ay, az}.LogFactorShort()
			want[11][i] = k
			if ok {
				okWant |= 1 << i
			}
			want[12][i] = LogRateSeries(abs(h2[i]))
			want[13][i], want[14][i], want[15][i], want[16][i] = QuatInvMulS(aw, ax, ay, az, bw, bx, by, bz)
			want[17][i], want[18][i], want[19][i] = QuatInvMulVec3S(aw, ax, ay, az, x[0][i], x[1][i], x[2][i])
		}
		aw, ax, ay, az := ld8(&a[0]), ld8(&a[1]), ld8(&a[2]), ld8(&a[3])
		bw, bx, by, bz := ld8(&b[0]), ld8(&b[1]), ld8(&b[2]), ld8(&b[3])
		w, qx, qy, qz := QuatMulX8(aw, ax, ay, az, bw, bx, by, bz)
		for c, g := range []f8{w, qx, qy, qz} {
			sameLanes(t, "QuatMulX8", g, want[c])
		}
		w, qx, qy, qz = QuatMulInvX8(aw, ax, ay, az, bw, bx, by, bz)
		for c, g := range []f8{w, qx, qy, qz} {
			sameLanes(t, "QuatMulInvX8", g, want[4+c])
		}
		w, qx, qy, qz = QuatInvMulX8(aw, ax, ay, az, bw, bx, by, bz)
		for c, g := range []f8{w, qx, qy, qz} {
			sameLanes(t, "QuatInvMulX8", g, want[13+c])
		}
		rx, ry, rz := QuatInvMulVec3X8(aw, ax, ay, az, ld8(&x[0]), ld8(&x[1]), ld8(&x[2]))
		for c, g := range []f8{rx, ry, rz} {
			sameLanes(t, "QuatInvMulVec3X8", g, want[17+c])
		}
		rx, ry, rz = QuatMulVec3X8(aw, ax, ay, az, ld8(&x[0]), ld8(&x[1]), ld8(&x[2]))
		for c, g := range []f8{rx, ry, rz} {
			sameLanes(t, "QuatMulVec3X8", g, want[8+c])
		}
		k, ok := LogFactorShortX8(aw, ax, ay, az)
		if got := uint8(ok.ToBits()); got != okWant {
			t.Fatalf("LogFactorShortX8: lanes %08b in range, scalar form %08b", got, okWant)
		}
		kk := st8(k)
		for i := range kk {
			if okWant&(1<<i) != 0 && math.Float32bits(kk[i]) != math.Float32bits(want[11][i]) {
				t.Fatalf("LogFactorShortX8 lane %d: %v, scalar form %v", i, kk[i], want[11][i])
			}
		}
		var habs lanes
		for i := range habs {
			habs[i] = abs(h2[i])
		}
		sameLanes(t, "LogRateSeriesX8", LogRateSeriesX8(ld8(&habs)), want[12])

		var rod [3]lanes
		var sc, cs, c2 lanes
		for i := 0; i < 8; i++ {
			rod[0][i], rod[1][i], rod[2][i] = RodriguesS(s1[i], s2[i], v[0][i], v[1][i], v[2][i], x[0][i], x[1][i], x[2][i])
			e := ExpSmall(abs(a2[i]))
			sc[i], cs[i], c2[i] = e.Sinc, e.Cos, e.C2
			a2[i] = abs(a2[i])
		}
		gx, gy, gz := RodriguesX8(ld8(&s1), ld8(&s2), ld8(&v[0]), ld8(&v[1]), ld8(&v[2]), ld8(&x[0]), ld8(&x[1]), ld8(&x[2]))
		for c, g := range []f8{gx, gy, gz} {
			sameLanes(t, "RodriguesX8", g, rod[c])
		}
		// Ratios either side of NearOne's range, and 1.
		var ratio, logs lanes
		var nearWant uint8
		for i := range ratio {
			ratio[i] = 0.6 + 1.0*r.Float32()
			if i == 0 {
				ratio[i] = 1
			}
			logs[i] = LogNearOne(ratio[i])
			if NearOne(ratio[i]) {
				nearWant |= 1 << i
			}
		}
		if got := uint8(NearOneX8(ld8(&ratio)).ToBits()); got != nearWant {
			t.Fatalf("NearOneX8: lanes %08b, scalar form %08b", got, nearWant)
		}
		sameLanes(t, "LogNearOneX8", LogNearOneX8(ld8(&ratio)), logs)

		gs, gc, g2 := ExpSmallX8(ld8(&a2))
		sameLanes(t, "ExpSmallX8 Sinc", gs, sc)
		sameLanes(t, "ExpSmallX8 Cos", gc, cs)
		sameLanes(t, "ExpSmallX8 C2", g2, c2)
	}
}

// ExpSmallRangeX8 gives Exp32's bits in the lanes it marks in range, and
// marks exactly those with |x| < 0.34: zeros of either sign (Exp32's early
// return), values either side of the range's ends, NaN and infinities.
func TestExpSmallRangeX8SameBits(t *testing.T) {
	if !archsimd.X86.AVX2() {
		t.Skip("no AVX2")
	}
	r := rand.New(rand.NewSource(12))
	edge := []float32{0, float32(math.Copysign(0, -1)), 0.34, -0.34, math.Nextafter32(0.34, 0), math.Nextafter32(-0.34, 0),
		float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 1e-30, -1e-30, 0x1p-140, 5, -90}
	for trial := 0; trial < 4000; trial++ {
		var x lanes
		for i := range x {
			switch r.Intn(4) {
			case 0:
				x[i] = edge[r.Intn(len(edge))]
			case 1:
				x[i] = 2 * (2*r.Float32() - 1)
			default:
				x[i] = 0.34 * (2*r.Float32() - 1)
			}
		}
		var want lanes
		var okWant uint8
		for i := range x {
			want[i] = Exp32(x[i])
			if x[i] > -0.34 && x[i] < 0.34 {
				okWant |= 1 << i
			}
		}
		e, ok := ExpSmallRangeX8(ld8(&x))
		if got := ok.ToBits(); got != okWant {
			t.Fatalf("ExpSmallRangeX8 %v: lanes %08b in range, want %08b", x, got, okWant)
		}
		g := st8(e)
		for i := range g {
			if okWant&(1<<i) != 0 && math.Float32bits(g[i]) != math.Float32bits(want[i]) {
				t.Fatalf("ExpSmallRangeX8 lane %d (x = %v): %v, Exp32 %v", i, x[i], g[i], want[i])
			}
		}
	}
}
