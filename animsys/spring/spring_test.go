package spring

import (
	"math"
	"testing"
)

// springStates are (x, v, g, q) starting points: displaced at rest, moving at
// the goal, and mixed signs with a goal velocity.
var springStates = [][4]float32{
	{1, 0, 0, 0},
	{0, 1, 0, 0},
	{-2, 3, 1, 0.5},
	{0.3, -4, -1, -2},
	{5, 5, 5, 0},
}

// springRegimes cover every branch of SpringDamperExact.
var springRegimes = []struct {
	name               string
	stiffness, damping float32
}{
	{"under-damped", 100, 2},
	{"under-damped, light", 400, 0.5},
	{"undamped", 50, 0},
	{"critical", 25, 10},
	{"critical - 1e-4", 25, 10 * (1 - 1e-4)},
	{"critical + 1e-4", 25, 10 * (1 + 1e-4)},
	{"over-damped (tracking 36/12.48)", 36, 12.48},
	{"over-damped, strong", 4, 20},
	{"no stiffness (velocity damper)", 0, 3},
	{"no stiffness, no damping", 0, 0},
}

// Every regime of the general spring-damper against RK4 of
// d²x/dt² = s(g - x) + d(q - v).
func TestSpringDamperExactMatchesRK4(t *testing.T) {
	for _, rg := range springRegimes {
		worst := 0.0
		for _, st := range springStates {
			x, v, g, q := st[0], st[1], st[2], st[3]
			s, d := float64(rg.stiffness), float64(rg.damping)
			acc := func(xx, vv float64) float64 { return s*(float64(g)-xx) + d*(float64(q)-vv) }
			for _, dt := range checkTimes {
				wx, wv := rk4(float64(x), float64(v), float64(dt), rk4Step, acc)
				gx, gv := SpringDamperExact(x, v, g, q, rg.stiffness, rg.damping, dt)
				scale := math.Max(math.Abs(wx), math.Abs(wv))
				e := math.Max(relErr(gx, wx, scale), relErr(gv, wv, scale))
				worst = math.Max(worst, e)
				// The result is rounded once to float32 (6e-8 relative);
				// 1e-6 leaves room for RK4's own error at 1e-4 s steps.
				if e > 1e-6 {
					t.Fatalf("%s: state %v dt %g: got (%g, %g), RK4 (%g, %g)", rg.name, st, dt, gx, gv, wx, wv)
				}
			}
		}
		logMax(t, "SpringDamperExact "+rg.name, worst)
	}
}

// The critical spring with a half-life, with and without goal velocity, and
// the decay spring, against RK4 of the same ODE with s = y², d = 2y.
func TestCriticalSpringsMatchRK4(t *testing.T) {
	worstC, worstS, worstD := 0.0, 0.0, 0.0
	for _, h := range []float32{0.05, 0.2, 1} {
		y := 2 * math.Ln2 / float64(h)
		for _, st := range springStates {
			x, v, g, q := st[0], st[1], st[2], st[3]
			for _, dt := range checkTimes {
				// 1e-6 relative: one float32 rounding plus RK4 error, as above.
				const tol = 1e-6
				acc := func(xx, vv float64) float64 { return y*y*(float64(g)-xx) + 2*y*(float64(q)-vv) }
				wx, wv := rk4(float64(x), float64(v), float64(dt), rk4Step, acc)
				gx, gv := CriticalSpringDamperExact(x, v, g, q, h, dt)
				sc := math.Max(math.Abs(wx), math.Abs(wv))
				e := math.Max(relErr(gx, wx, sc), relErr(gv, wv, sc))
				worstC = math.Max(worstC, e)
				if e > tol {
					t.Fatalf("critical h %g %v dt %g: got (%g,%g) RK4 (%g,%g)", h, st, dt, gx, gv, wx, wv)
				}

				acc0 := func(xx, vv float64) float64 { return y*y*(float64(g)-xx) - 2*y*vv }
				wx, wv = rk4(float64(x), float64(v), float64(dt), rk4Step, acc0)
				gx, gv = SimpleSpringDamperExact(x, v, g, h, dt)
				sc = math.Max(math.Abs(wx), math.Abs(wv))
				e = math.Max(relErr(gx, wx, sc), relErr(gv, wv, sc))
				worstS = math.Max(worstS, e)
				if e > tol {
					t.Fatalf("simple h %g %v dt %g: got (%g,%g) RK4 (%g,%g)", h, st, dt, gx, gv, wx, wv)
				}

				accD := func(xx, vv float64) float64 { return -y*y*xx - 2*y*vv }
				wx, wv = rk4(float64(x), float64(v), float64(dt), rk4Step, accD)
				gx, gv = DecaySpringDamperExact(x, v, h, dt)
				sc = math.Max(math.Abs(wx), math.Abs(wv))
				e = math.Max(relErr(gx, wx, sc), relErr(gv, wv, sc))
				// The weights form rounds the four weights to float32 too.
				w0, w1, w2, w3 := CriticalDecayWeights(h, dt)
				e2 := math.Max(relErr(w0*x+w1*v, wx, sc), relErr(w2*x+w3*v, wv, sc))
				worstD = math.Max(worstD, math.Max(e, e2))
				if e > tol || e2 > 4*tol {
					t.Fatalf("decay h %g %v dt %g: got (%g,%g) weights (%g,%g) RK4 (%g,%g)",
						h, st, dt, gx, gv, w0*x+w1*v, w2*x+w3*v, wx, wv)
				}
			}
		}
	}
	logMax(t, "CriticalSpringDamperExact vs RK4", worstC)
	logMax(t, "SimpleSpringDamperExact vs RK4", worstS)
	logMax(t, "DecaySpringDamperExact / weights vs RK4", worstD)
}

// The decay weights are position weights and their time derivatives:
// w2 = dw0/dt, w3 = dw1/dt; at t = 0 they are the identity.
func TestCriticalDecayWeightsDerivatives(t *testing.T) {
	for _, h := range []float32{0.05, 0.3, 2} {
		w0, w1, w2, w3 := CriticalDecayWeights(h, 0)
		if w0 != 1 || w1 != 0 || w2 != 0 || w3 != 1 {
			t.Fatalf("weights at t=0: %g %g %g %g", w0, w1, w2, w3)
		}
		for _, tt := range []float32{0.01, 0.1, 0.5, 1.5} {
			const dh = 1e-3
			a0, a1, _, _ := CriticalDecayWeights(h, tt-dh)
			b0, b1, _, _ := CriticalDecayWeights(h, tt+dh)
			_, _, w2, w3 := CriticalDecayWeights(h, tt)
			d0 := (float64(b0) - float64(a0)) / (2 * dh)
			d1 := (float64(b1) - float64(a1)) / (2 * dh)
			// Central difference: O(dh²) truncation plus float32 rounding
			// of the weights amplified by 1/(2dh): ~1e-3 of the scale y².
			y := 2 * math.Ln2 / float64(h)
			if math.Abs(d0-float64(w2)) > 1e-3*y*y || math.Abs(d1-float64(w3)) > 1e-3*(1+y) {
				t.Fatalf("h %g t %g: dw0/dt %g vs w2 %g, dw1/dt %g vs w3 %g", h, tt, d0, w2, d1, w3)
			}
		}
	}
}

// Across the critical boundary the output changes smoothly: moving the
// damping by a relative eps away from critical moves the result by O(eps),
// on both sides, down to float32 resolution, and walking the damping one
// float32 ulp at a time through critical shows no step.
func TestSpringDamperContinuousAcrossCritical(t *testing.T) {
	const s, d0 = 25, 10 // s = d²/4: exactly critical
	moved := map[float64]float64{}
	walk := 0.0
	defer func() {
		for _, eps := range []float64{1e-2, 1e-3, 1e-4, 1e-5, 1e-6} {
			t.Logf("critical ± %-6g relative damping: result moves by at most %.3g", eps, moved[eps])
		}
		t.Logf("largest step between float32-adjacent dampings through critical: %.3g", walk)
	}()
	for _, st := range springStates {
		x, v, g, q := st[0], st[1], st[2], st[3]
		for _, dt := range checkTimes {
			cx, cv := SpringDamperExact(x, v, g, q, s, d0, dt)
			for _, eps := range []float64{1e-2, 1e-3, 1e-4, 1e-5, 1e-6} {
				for _, sign := range []float64{-1, 1} {
					d := float32(d0 * (1 + sign*eps))
					gx, gv := SpringDamperExact(x, v, g, q, s, d, dt)
					dd := math.Abs(float64(d) - d0) // the perturbation actually applied
					diff := math.Max(math.Abs(float64(gx-cx)), math.Abs(float64(gv-cv)))
					moved[eps] = math.Max(moved[eps], diff)
					// Lipschitz in d with a constant of the state's size
					// (|∂(x,v)/∂d| <= ~10·(|x|+|v|+|g|+|q|) here), plus two
					// float32 roundings of outputs up to ~10.
					bound := 10*float64(abs32(x)+abs32(v)+abs32(g)+abs32(q))*dd + 4e-6
					if diff > bound {
						t.Fatalf("%v dt %g: critical%+g moved the result by %g (bound %g)", st, dt, sign*eps, diff, bound)
					}
				}
			}
			// ulp walk: -20..20 float32 steps of damping around 10.
			d := float32(d0)
			for k := 0; k < 20; k++ {
				d = math.Nextafter32(d, 0)
			}
			px, pv := SpringDamperExact(x, v, g, q, s, d, dt)
			for k := 0; k < 40; k++ {
				d = math.Nextafter32(d, 20)
				nx, nv := SpringDamperExact(x, v, g, q, s, d, dt)
				walk = math.Max(walk, math.Max(math.Abs(float64(nx-px)), math.Abs(float64(nv-pv))))
				// One ulp of damping (1e-6) moves the result by ~1e-5 at most;
				// a seam would be a larger step.
				if math.Abs(float64(nx-px)) > 2e-5 || math.Abs(float64(nv-pv)) > 2e-5 {
					t.Fatalf("%v dt %g: step at damping %.9g: (%g,%g) -> (%g,%g)", st, dt, d, px, pv, nx, nv)
				}
				px, pv = nx, nv
			}
		}
	}
}

// The other internal seams: the over-damped formula switches at r·t = 1 and
// stiffness below mathx.Eps switches to the velocity damper.
func TestSpringDamperContinuousAcrossInternalSeams(t *testing.T) {
	// Over-damped s = 4, d = 20: r = sqrt(100 - 4) = 9.798; r·t = 1 at t = 0.10206.
	r := math.Sqrt(100 - 4)
	dt := float32(1 / r)
	for k := 0; k < 10; k++ {
		dt = math.Nextafter32(dt, 0)
	}
	px, pv := SpringDamperExact(1, -2, 0.5, 0.3, 4, 20, dt)
	for k := 0; k < 20; k++ {
		dt = math.Nextafter32(dt, 1)
		nx, nv := SpringDamperExact(1, -2, 0.5, 0.3, 4, 20, dt)
		// One ulp of dt (7e-9 s) times velocities ~10: 1e-7, plus rounding.
		if math.Abs(float64(nx-px)) > 1e-6 || math.Abs(float64(nv-pv)) > 1e-6 {
			t.Fatalf("step at dt %.9g: (%g,%g) -> (%g,%g)", dt, px, pv, nx, nv)
		}
		px, pv = nx, nv
	}
	// Stiffness just above and below the velocity-damper threshold.
	for _, dtt := range checkTimes {
		ax, av := SpringDamperExact(1, 2, 0, 0.5, 0.99e-8, 3, dtt)
		bx, bv := SpringDamperExact(1, 2, 0, 0.5, 1.01e-8, 3, dtt)
		// Ignoring a stiffness of 1e-8 changes x by ~1e-8·|g-x|·dt²: the
		// two sides agree to float32 precision of values ~1.
		if math.Abs(float64(ax-bx)) > 1e-6 || math.Abs(float64(av-bv)) > 1e-6 {
			t.Fatalf("dt %g: stiffness seam (%g,%g) vs (%g,%g)", dtt, ax, av, bx, bv)
		}
	}
}

// An exact solution is a flow: splitting a step changes nothing beyond one
// float32 rounding per piece. Checked for every regime.
func TestSpringDamperExactSplitInvariant(t *testing.T) {
	worst := 0.0
	for _, rg := range springRegimes {
		for _, st := range springStates {
			x, v, g, q := st[0], st[1], st[2], st[3]
			ox, ov := SpringDamperExact(x, v, g, q, rg.stiffness, rg.damping, 0.5)
			mx, mv := x, v
			for k := 0; k < 8; k++ {
				mx, mv = SpringDamperExact(mx, mv, g, q, rg.stiffness, rg.damping, 0.0625)
			}
			e := math.Max(math.Abs(float64(ox-mx)), math.Abs(float64(ov-mv))) / (1 + math.Max(math.Abs(float64(ox)), math.Abs(float64(ov))))
			worst = math.Max(worst, e)
			// 8 roundings to float32, each amplified by at most the
			// spring's growth over the remaining steps (~2): 8·2·1.2e-7.
			if e > 2e-6 {
				t.Fatalf("%s %v: one step (%g,%g), eight (%g,%g)", rg.name, st, ox, ov, mx, mv)
			}
		}
	}
	logMax(t, "SpringDamperExact 1 step vs 8 (relative)", worst)
}

// The two-exponential and amplitude/phase forms of the spring notes, written
// out directly in float64, agree with the unified form used by the code.
func TestSpringDamperMatchesTextbookForms(t *testing.T) {
	for _, c := range []struct{ s, d float64 }{{100, 2}, {36, 12.48}, {4, 20}} {
		for _, st := range springStates {
			x, v, g, q := float64(st[0]), float64(st[1]), float64(st[2]), float64(st[3])
			cc := g + c.d*q/c.s
			y := c.d / 2
			for _, dt := range checkTimes {
				tt := float64(dt)
				var wx, wv float64
				if D := c.s - c.d*c.d/4; D > 0 {
					w := math.Sqrt(D)
					j := math.Sqrt(((v+y*(x-cc))*(v+y*(x-cc)))/(w*w) + (x-cc)*(x-cc))
					p := math.Atan2(-(v + (x-cc)*y), (x-cc)*w)
					wx = j*math.Exp(-y*tt)*math.Cos(w*tt+p) + cc
					wv = -y*j*math.Exp(-y*tt)*math.Cos(w*tt+p) - w*j*math.Exp(-y*tt)*math.Sin(w*tt+p)
				} else {
					y0 := (c.d + math.Sqrt(c.d*c.d-4*c.s)) / 2
					y1 := (c.d - math.Sqrt(c.d*c.d-4*c.s)) / 2
					j1 := (cc*y0 - x*y0 - v) / (y1 - y0)
					j0 := x - j1 - cc
					wx = j0*math.Exp(-y0*tt) + j1*math.Exp(-y1*tt) + cc
					wv = -y0*j0*math.Exp(-y0*tt) - y1*j1*math.Exp(-y1*tt)
				}
				gx, gv := SpringDamperExact(st[0], st[1], st[2], st[3], float32(c.s), float32(c.d), dt)
				sc := math.Max(math.Abs(wx), math.Abs(wv))
				// The float32 parameters (12.48 is not exact) differ from the
				// float64 ones by 1 ulp: 1e-6 relative covers it.
				if e := math.Max(relErr(gx, wx, sc), relErr(gv, wv, sc)); e > 1e-6 {
					t.Fatalf("s %g d %g %v dt %g: got (%g,%g) textbook (%g,%g)", c.s, c.d, st, dt, gx, gv, wx, wv)
				}
			}
		}
	}
}

func abs32(x float32) float32 { return float32(math.Abs(float64(x))) }
