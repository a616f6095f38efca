package spring

import (
	"math"
	"testing"
)

// numericDisplacement integrates the decay ODE d²x/dt² = -y²x - 2y·dx/dt from (x, v)
// with RK4 and accumulates ∫|x| dt by the trapezoid rule, until e^(-yt) is
// negligible: a reference independent of every closed form.
func numericDisplacement(x, v, y float64) float64 {
	h := 1e-3 / y // 1000 steps per 1/y: trapezoid error ~1e-7 relative
	area := 0.0
	for t := 0.0; t < 50/y; t += h {
		nx, nv := rk4(x, v, h, h, func(xx, vv float64) float64 { return -y*y*xx - 2*y*vv })
		area += h / 2 * (math.Abs(x) + math.Abs(nx))
		x, v = nx, nv
	}
	return area
}

// The exact displacement, split at the zero crossing, equals the numerical
// integral of |offset(t)| for offsets that cross zero and that do not.
func TestTransitionCostMatchesNumericalIntegral(t *testing.T) {
	worst, crossing, cases := 0.0, 0, 0
	for _, h := range []float32{0.05, 0.15, 0.5} {
		for _, x := range []float32{-2, -0.5, 0, 0.1, 1} {
			for _, v := range []float32{-30, -8, -2, -0.3, 0, 0.5, 3, 25} {
				y := 2 * math.Ln2 / float64(h)
				want := numericDisplacement(float64(x), float64(v), y)
				got := TransitionCost(x, v, h)
				if DecayZeroCrossing(x, v, h) > 0 {
					crossing++
				}
				cases++
				e := math.Abs(float64(got)-want) / (want + 1e-6)
				worst = math.Max(worst, e)
				// The trapezoid rule on 1000 steps per 1/y, with a kink at
				// the crossing: ~1e-6 relative; the float32 result 6e-8.
				if e > 1e-5 {
					t.Fatalf("x %g v %g h %g: exact %g, numerical %g", x, v, h, got, want)
				}
			}
		}
	}
	t.Logf("%d cases (%d cross zero): TransitionCost vs numerical ∫|offset|, max relative error %.3g", cases, crossing, worst)
	if crossing < 10 {
		t.Fatalf("only %d crossing cases tested", crossing)
	}
}

// Where does |2xy + v|/y² err? Only where the offset crosses zero: there it
// subtracts the lobes instead of adding them. The figures are logged for
// the article's setting (half-life 0.15 s) over x in [-1, 1], v in [-10, 10].
func TestTransitionCostApproximationError(t *testing.T) {
	const h = 0.15
	worstAbs, worstRel := 0.0, 0.0
	var atAbs, atRel [2]float32
	bad, total := 0, 0
	for i := -50; i <= 50; i++ {
		for j := -50; j <= 50; j++ {
			x, v := float32(i)/50, float32(j)/5
			exact, approx := TransitionCost(x, v, h), TransitionCostApprox(x, v, h)
			if approx > exact*(1+1e-6)+1e-12 {
				t.Fatalf("approximation overestimates at x %g v %g: %g > %g", x, v, approx, exact)
			}
			if DecayZeroCrossing(x, v, h) < 0 && math.Abs(float64(exact-approx)) > 1e-6*float64(exact) {
				t.Fatalf("no crossing at x %g v %g but approx %g != exact %g", x, v, approx, exact)
			}
			d := float64(exact - approx)
			total++
			if exact > 0 && d/float64(exact) > 0.1 {
				bad++
			}
			if d > worstAbs {
				worstAbs, atAbs = d, [2]float32{x, v}
			}
			if exact > 1e-3 && d/float64(exact) > worstRel {
				worstRel, atRel = d/float64(exact), [2]float32{x, v}
			}
		}
	}
	y := 2 * math.Ln2 / h
	t.Logf("half-life 0.15 s, x in [-1,1], v in [-10,10]: worst absolute underestimate %.4g unit·s at (x %g, v %g)", worstAbs, atAbs[0], atAbs[1])
	t.Logf("worst relative underestimate %.3g at (x %g, v %g), on the valley v = -2xy = %.3g; %.1f%% of the grid off by >10%%",
		worstRel, atRel[0], atRel[1], -2*float64(atRel[0])*y, 100*float64(bad)/float64(total))
	// The feature difference is the approximation of the difference.
	for _, c := range [][4]float32{{1, 2, 0.3, -4}, {-0.5, 7, 0.2, 1}, {0, 0, 3, 3}} {
		f := TransitionCostFeature(c[0], c[1], h) - TransitionCostFeature(c[2], c[3], h)
		a := TransitionCostApprox(c[0]-c[2], c[1]-c[3], h)
		// Float32 rounding of two features of size ~0.5 and their difference.
		if math.Abs(math.Abs(float64(f))-float64(a)) > 1e-6 {
			t.Fatalf("feature difference %g vs approx %g", f, a)
		}
	}
	if b := TransitionCostBaseline(1, -4, 1, 0.5); b != 3 {
		t.Fatalf("baseline %g", b)
	}
}

// The crossing time really is a zero of the decaying offset, and offsets
// that keep their sign report -1.
func TestDecayZeroCrossing(t *testing.T) {
	for _, c := range [][3]float32{{1, -20, 0.15}, {-0.5, 9, 0.3}, {2, -50, 1}} {
		tc := DecayZeroCrossing(c[0], c[1], c[2])
		if tc <= 0 {
			t.Fatalf("%v: no crossing found", c)
		}
		x, _ := DecaySpringDamperExact(c[0], c[1], c[2], tc)
		// The float32 crossing time is off by an ulp (~1e-8 s) times a
		// velocity of at most |v|: 1e-6.
		if math.Abs(float64(x)) > 1e-6 {
			t.Fatalf("%v: offset at t=%g is %g", c, tc, x)
		}
	}
	for _, c := range [][3]float32{{1, 0, 0.2}, {1, 5, 0.2}, {0, 3, 0.2}, {-1, -1, 0.2}, {1, -1, 0}} {
		if tc := DecayZeroCrossing(c[0], c[1], c[2]); tc != -1 {
			t.Fatalf("%v: crossing at %g, want none", c, tc)
		}
	}
}
