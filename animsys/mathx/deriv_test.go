package mathx

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// Each XxxDx is checked against a central difference of Xxx along a
// random straight-line motion x(t) = x + dx t, at h = 1e-3. The difference
// of float32 values of order 1 carries ~1e-7/2e-3 = 5e-5 of rounding
// noise, and its O(h^2) truncation is ~1e-6 here: tolerances 1e-3 (times
// 1 + the rate's size) leave room for ill-conditioned random draws.
const hdx = 1e-3

func TestScalarAndVectorDx(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 1000; i++ {
		x, dx := 0.2+2*r.Float32(), 2*r.Float32()-1
		fd := (Sqrt(x+dx*hdx) - Sqrt(x-dx*hdx)) / (2 * hdx)
		if got := SqrtDx(x, dx); abs(got-fd) > 1e-3 {
			t.Fatalf("SqrtDx(%v, %v) = %v, fd %v", x, dx, got, fd)
		}
		v, dv, w, dw := randVec(r, 1), randVec(r, 1), randVec(r, 1), randVec(r, 1)
		at := func(a, da mgl32.Vec3, s float32) mgl32.Vec3 { return a.Add(da.Mul(s)) }
		fdc := at(v, dv, hdx).Cross(at(w, dw, hdx)).Sub(at(v, dv, -hdx).Cross(at(w, dw, -hdx))).Mul(1 / (2 * hdx))
		if got := CrossDx(v, dv, w, dw); got.Sub(fdc).Len() > 1e-3 {
			t.Fatalf("CrossDx = %v, fd %v", got, fdc)
		}
		fdd := (at(v, dv, hdx).Dot(at(w, dw, hdx)) - at(v, dv, -hdx).Dot(at(w, dw, -hdx))) / (2 * hdx)
		if got := DotDx(v, dv, w, dw); abs(got-fdd) > 1e-3 {
			t.Fatalf("DotDx = %v, fd %v", got, fdd)
		}
		if v.Len() < 0.2 {
			continue
		}
		fdn := Vec3Normalize(at(v, dv, hdx)).Sub(Vec3Normalize(at(v, dv, -hdx))).Mul(1 / (2 * hdx))
		if got := NormalizeDx(v, dv); got.Sub(fdn).Len() > 1e-3*(1+fdn.Len()) {
			t.Fatalf("NormalizeDx(%v, %v) = %v, fd %v", v, dv, got, fdn)
		}
	}
	if got := Vec3Normalize(mgl32.Vec3{}); got != (mgl32.Vec3{}) {
		t.Fatalf("normalize(0) = %v", got)
	}
}

func TestQuatNormalizeDx(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 1000; i++ {
		q := mgl32.Quat{W: 2*r.Float32() - 1, V: randVec(r, 1)}
		dq := mgl32.Quat{W: 2*r.Float32() - 1, V: randVec(r, 1)}
		if QuatDot(q, q) < 0.1 {
			continue
		}
		n1, n0 := QuatNormalize(q.Add(dq.Scale(hdx))), QuatNormalize(q.Sub(dq.Scale(hdx)))
		fd := n1.Sub(n0).Scale(1 / (2 * hdx))
		if got := QuatNormalizeDx(q, dq); got.Sub(fd).Len() > 1e-3*(1+fd.Len()) {
			t.Fatalf("QuatNormalizeDx = %v, fd %v", got, fd)
		}
	}
}

// quat_between_dx through quat_delta_to_angular_velocity gives the angular
// velocity of the rotation between two moving directions.
func TestQuatBetweenDx(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 1000; i++ {
		p, dp, q, dq := randVec(r, 1), randVec(r, 1), randVec(r, 1), randVec(r, 1)
		if p.Len() < 0.3 || q.Len() < 0.3 || p.Normalize().Dot(q.Normalize()) < -0.9 {
			continue // opposite directions have no unique shortest rotation
		}
		b0 := QuatBetween(p.Sub(dp.Mul(hdx)), q.Sub(dq.Mul(hdx)))
		b1 := QuatBetween(p.Add(dp.Mul(hdx)), q.Add(dq.Mul(hdx)))
		fdq := b1.Sub(b0).Scale(1 / (2 * hdx))
		dr := QuatBetweenDx(p, dp, q, dq)
		if dr.Sub(fdq).Len() > 2e-3*(1+fdq.Len()) {
			t.Fatalf("QuatBetweenDx = %v, fd %v", dr, fdq)
		}
		ang := QuatDeltaToAngularVelocity(QuatBetween(p, q), dr)
		fda := QuatToScaledAngleAxis(QuatAbs(QuatMulInv(b1, b0))).Mul(1 / (2 * hdx))
		if ang.Sub(fda).Len() > 2e-3*(1+fda.Len()) {
			t.Fatalf("angular velocity %v, fd %v", ang, fda)
		}
	}
}

// The exp-map derivative: the angular velocity of exp(v(t)) is J(v) dv, and
// J^-1 maps it back, over angles from 1e-4 rad to nearly pi (both the
// Taylor and the closed-form branches).
func TestExpMapDx(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 2000; i++ {
		v := randVec(r, []float32{1e-4, 0.03, 0.5, 1.7}[i%4])
		dv := randVec(r, 2)
		q0 := QuatFromScaledAngleAxis(v.Sub(dv.Mul(hdx)))
		q1 := QuatFromScaledAngleAxis(v.Add(dv.Mul(hdx)))
		fd := QuatToScaledAngleAxis(QuatAbs(QuatMulInv(q1, q0))).Mul(1 / (2 * hdx))
		ang := QuatFromScaledAngleAxisDx(v, dv)
		if ang.Sub(fd).Len() > 1e-3*(1+fd.Len()) {
			t.Fatalf("QuatFromScaledAngleAxisDx(%v, %v) = %v, fd %v", v, dv, ang, fd)
		}
		if back := QuatToScaledAngleAxisDx(v, ang); back.Sub(dv).Len() > 1e-4*(1+dv.Len()) {
			t.Fatalf("J^-1 J dv = %v, want %v (v = %v)", back, dv, v)
		}
	}
	// Parallel motion needs no correction: J(v) v = v.
	v := mgl32.Vec3{0.3, -1, 0.7}
	if got := QuatFromScaledAngleAxisDx(v, v); got.Sub(v).Len() > 1e-6 {
		t.Fatalf("J(v) v = %v", got)
	}
}

// Near and beyond pi (an inertializer's decayed offset w0 log(q) + w1 ang
// is not wrapped, and passes pi), J^-1 still inverts J: its coefficient
// 1/a^2 - (1 + cos a)/(2 a sin a) is taken as 1/a^2 - cot(a/2)/(2a), which
// neither cancels near pi nor changes sign beyond it.
func TestExpMapDxNearAndBeyondPi(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for _, a := range []float32{2.5, 3, 3.1, 3.14, math.Pi - 1e-3, math.Pi - 1e-4, math.Pi - 1e-5, math.Pi, math.Pi + 1e-5, 3.2, 4, 5, 6} {
		for i := 0; i < 200; i++ {
			v := randVec(r, 1)
			if v.Len() < 0.1 {
				continue
			}
			v = v.Normalize().Mul(a)
			dv := randVec(r, 2)
			q0 := QuatFromScaledAngleAxis(v.Sub(dv.Mul(hdx)))
			q1 := QuatFromScaledAngleAxis(v.Add(dv.Mul(hdx)))
			fd := QuatToScaledAngleAxis(QuatAbs(QuatMulInv(q1, q0))).Mul(1 / (2 * hdx))
			ang := QuatFromScaledAngleAxisDx(v, dv)
			if ang.Sub(fd).Len() > 1e-3*(1+fd.Len()) {
				t.Fatalf("|v| = %v: QuatFromScaledAngleAxisDx = %v, fd %v", a, ang, fd)
			}
			// Within float32 rounding (the cancelling form erred by 5e-5
			// at pi - 1e-4); J^-1 grows as a nears 2 pi (cot(a/2) -> -inf).
			if back := QuatToScaledAngleAxisDx(v, ang); back.Sub(dv).Len() > 1e-5*(1+dv.Len())*max(1, 1/(2*math.Pi-a)) {
				t.Fatalf("|v| = %v: J^-1 J dv = %v, want %v", a, back, dv)
			}
		}
	}
}

func abs(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}
