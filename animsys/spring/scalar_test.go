package spring

import (
	"math"
	"math/rand"
	"testing"
)

// The three eerp forms are algebraically identical; numerically they agree
// to float32 rounding.
func TestEerpFormsAgree(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	worst := 0.0
	for i := 0; i < 10000; i++ {
		x := float32(math.Exp(12*r.Float64() - 6)) // 2.5e-3 .. 400
		y := float32(math.Exp(12*r.Float64() - 6))
		a := 2*r.Float32() - 0.5 // extrapolation too
		p, q, l := EerpPow(x, y, a), EerpRatio(x, y, a), EerpLog(x, y, a)
		e := math.Max(math.Abs(float64(p-q)), math.Abs(float64(p-l))) / float64(p)
		worst = math.Max(worst, e)
		// All three run in float64 and round once: at most 1 float32 ulp
		// (1.2e-7 relative) apart.
		if e > 1.2e-7 {
			t.Fatalf("eerp(%g, %g, %g): pow %g ratio %g log %g", x, y, a, p, q, l)
		}
	}
	logMax(t, "EerpPow / EerpRatio / EerpLog disagreement", worst)
	// Endpoints and the geometric midpoint.
	if EerpLog(0.1, 10, 0) != 0.1 || math.Abs(float64(EerpPow(0.1, 10, 1)-10)) > 1e-6 || math.Abs(float64(EerpRatio(0.1, 10, 0.5)-1)) > 1e-7 {
		t.Fatal("eerp endpoints or midpoint wrong")
	}
}

// A constant natural scalar velocity integrated with exp reaches the same
// scale at every tick rate; the same velocity integrated additively (Euler:
// scale += dt·vel·scale) does not. The article's example: 0.1 to 10 in 3 s.
func TestScaleIntegrationFrameRate(t *testing.T) {
	vel := ScaleDifferentiateVelocityNatural(10, 0.1, 3) // ln(100)/3 per second
	naiveEnd := map[int]float64{}
	for _, hz := range []int{30, 60, 120, 240} {
		dt := float32(1 / float64(hz))
		nat, naive := float32(0.1), float32(0.1)
		for n := 0; n < 3*hz; n++ {
			nat = ScaleIntegrateVelocityNatural(vel, nat, dt)
			naive = ScaleIntegrateVelocityNaive(vel*naive, naive, dt)
		}
		t.Logf("%3d Hz: natural %.6f, additive (Euler) %.4f after 3 s (exact 10)", hz, nat, naive)
		// 3·hz float32 roundings of the scale (6e-8 each) plus the rounding
		// of vel·dt: 720·1.2e-7 ≈ 1e-4 relative at 240 Hz.
		if math.Abs(float64(nat)-10) > 1e-3 {
			t.Fatalf("natural integration at %d Hz reached %g, want 10", hz, nat)
		}
		naiveEnd[hz] = float64(naive)
	}
	// Euler's error is first order in dt: ~10% at 30 Hz, ~1.5% at 240 Hz.
	if d := naiveEnd[240] - naiveEnd[30]; d < 0.5 {
		t.Fatalf("additive integration should depend on the frame rate: 30 Hz %g, 240 Hz %g", naiveEnd[30], naiveEnd[240])
	}
	// The naive velocity (10 - 0.1)/3 reaches 10 too, but through the
	// arithmetic midpoint 5.05 at 1.5 s instead of the geometric 1.
	nv := ScaleDifferentiateVelocityNaive(10, 0.1, 3)
	naiveMid := ScaleIntegrateVelocityNaive(nv, 0.1, 1.5)
	natMid := ScaleIntegrateVelocityNatural(vel, 0.1, 1.5)
	t.Logf("at 1.5 s: naive velocity %.4f, natural velocity %.4f", naiveMid, natMid)
	if math.Abs(float64(naiveMid)-5.05) > 1e-5 || math.Abs(float64(natMid)-1) > 1e-6 {
		t.Fatalf("midpoints: naive %g natural %g", naiveMid, natMid)
	}
}

// Base 2 is the natural velocity over ln2; differentiate and integrate are
// inverses; one over a base-2 velocity is a doublelife (or minus a
// half-life).
func TestScalarVelocityBase2AndLives(t *testing.T) {
	v2 := ScaleDifferentiateVelocity(8, 1, 1)
	ve := ScaleDifferentiateVelocityNatural(8, 1, 1)
	// One float32 rounding each: 1 ulp of 3.
	if math.Abs(float64(v2)-3) > 3e-7 || math.Abs(float64(ve)/math.Ln2-3) > 3e-7 {
		t.Fatalf("log2(8) per second = %g, ln(8)/ln2 = %g", v2, ve/math.Ln2)
	}
	for _, c := range [][3]float32{{0.1, 10, 3}, {2, 0.5, 0.25}, {1, 1, 1}} {
		v := ScaleDifferentiateVelocity(c[1], c[0], c[2])
		// Two float32 roundings of values ~10: 3 ulp relative.
		if got := ScaleIntegrateVelocity(v, c[0], c[2]); math.Abs(float64(got-c[1])) > 4e-7*float64(c[1]) {
			t.Fatalf("integrate(differentiate(%g -> %g)) = %g", c[0], c[1], got)
		}
	}
	// 3 doublings per second: doublelife 1/3 s, and it doubles in that time.
	if d := ScalarVelocityToDoublelife(3); math.Abs(float64(d)-1.0/3) > 1e-7 || DoublelifeToScalarVelocity(d) != 3 {
		t.Fatalf("doublelife of 3 doublings/s: %g", d)
	}
	if s := ScaleIntegrateVelocity(3, 1, ScalarVelocityToDoublelife(3)); math.Abs(float64(s)-2) > 1e-6 {
		t.Fatalf("one doublelife gave scale %g", s)
	}
	// A half-life h is the scalar velocity -1/h: DamperExact's distance to
	// its goal follows exactly that velocity.
	h := float32(0.3)
	v := HalflifeToScalarVelocity(h)
	if ScalarVelocityToHalflife(v) != h {
		t.Fatalf("half-life round trip %g", ScalarVelocityToHalflife(v))
	}
	for _, dt := range checkTimes {
		dist := DamperExact(1, 0, h, dt)
		// One float32 rounding each side.
		if s := ScaleIntegrateVelocity(v, 1, dt); math.Abs(float64(s-dist)) > 2.4e-7 {
			t.Fatalf("dt %g: damper distance %g, scalar velocity -1/h gives %g", dt, dist, s)
		}
	}
	// Zero velocity never doubles: saturated, not Inf.
	if d := ScalarVelocityToDoublelife(0); !finite(d) || d != math.MaxFloat32 {
		t.Fatalf("doublelife of 0 = %g", d)
	}
}
