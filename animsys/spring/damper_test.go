package spring

import (
	"math"
	"math/rand"
	"testing"
)

func TestHalflifeDampingRoundTrip(t *testing.T) {
	for _, h := range []float32{0.01, 0.1, 0.15, 1, 7} {
		d := HalflifeToDamping(h)
		// 4 ln2 / h, rounded once to float32: 1 ulp (1.2e-7 relative).
		if want := 4 * math.Ln2 / float64(h); math.Abs(float64(d)-want)/want > 1.2e-7 {
			t.Fatalf("HalflifeToDamping(%g) = %g, want %g", h, d, want)
		}
		// Two float32 roundings: within 3 ulp.
		if back := DampingToHalflife(d); math.Abs(float64(back-h)) > 3*1.2e-7*float64(h) {
			t.Fatalf("round trip of half-life %g gave %g", h, back)
		}
	}
	for _, f := range []float32{0.1, 1, 2.5, 10} {
		// Two float32 roundings around a sqrt: within 3 ulp.
		if back := StiffnessToFrequency(FrequencyToStiffness(f)); math.Abs(float64(back-f)) > 3*1.2e-7*float64(f) {
			t.Fatalf("frequency round trip %g gave %g", f, back)
		}
	}
	if s := FrequencyToStiffness(1); math.Abs(float64(s)-4*math.Pi*math.Pi) > 1e-5 {
		t.Fatalf("1 Hz stiffness %g, want 4π²", s)
	}
}

// The damper x' = (ln2/h)·(g - x) against RK4.
func TestDamperExactMatchesRK4(t *testing.T) {
	worst := 0.0
	for _, h := range []float32{0.05, 0.2, 1} {
		for _, dt := range checkTimes {
			for _, c := range [][2]float32{{1, 0}, {-3, 2}, {10, 10.5}} {
				x, g := c[0], c[1]
				k := math.Ln2 / float64(h)
				// First order: integrate x' = k(g - x) by RK4 on the position alone.
				want := rk4First(float64(x), float64(dt), rk4Step, func(xx float64) float64 { return k * (float64(g) - xx) })
				got := DamperExact(x, g, h, dt)
				e := relErr(got, want, want)
				worst = math.Max(worst, e)
				// Float32 rounding of the result (6e-8) with room for the
				// rounding of the float32 inputs' products: 5e-7.
				if e > 5e-7 {
					t.Fatalf("DamperExact(%g,%g,%g,%g) = %g, RK4 %g", x, g, h, dt, got, want)
				}
			}
		}
	}
	logMax(t, "DamperExact vs RK4 (relative)", worst)
}

// rk4First integrates x' = f(x) over t with steps of at most h.
func rk4First(x, t, h float64, f func(float64) float64) float64 {
	n := int(math.Ceil(t / h))
	dt := t / float64(n)
	for i := 0; i < n; i++ {
		k1 := f(x)
		k2 := f(x + dt/2*k1)
		k3 := f(x + dt/2*k2)
		k4 := f(x + dt*k3)
		x += dt / 6 * (k1 + 2*k2 + 2*k3 + k4)
	}
	return x
}

// Ticking n times with dt/n equals ticking once with dt, up to one float32
// rounding per tick.
func TestDamperExactSplitInvariant(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	worst := 0.0
	for i := 0; i < 2000; i++ {
		x := 20 * (r.Float32() - 0.5)
		g := 20 * (r.Float32() - 0.5)
		h := 0.01 + r.Float32()
		dt := r.Float32() * 0.5
		n := 1 + r.Intn(16)
		once := DamperExact(x, g, h, dt)
		many := x
		for k := 0; k < n; k++ {
			many = DamperExact(many, g, h, dt/float32(n))
		}
		e := math.Abs(float64(once - many))
		worst = math.Max(worst, e)
		// One float32 rounding per tick of a value of magnitude <= 10:
		// n·6e-7 plus the rounding of dt/n.
		if e > float64(n+1)*1.2e-6 {
			t.Fatalf("split %d: once %g, split %g", n, once, many)
		}
	}
	logMax(t, "DamperExact split into n ticks vs one", worst)
}
