package spring

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// Edge values per kind of argument: zero, tiny, huge, and negative where a
// negative value means something (positions, velocities) or is a plausible
// mistake (half-lives, dt, stiffness).
var (
	edgeVals   = []float32{0, 1e-9, -1e-9, 1, -1, 1e3, 1e9, -1e9}                     // positions, velocities, goals
	edgeTimes  = []float32{0, 1e-9, 1e-3, 1.0 / 60, 1, 1e3, 1e9, -1}                  // half-lives, dt
	edgeCoefs  = []float32{0, 1e-9, 1e-3, 1, 36, 12.48, 1e3, 1e9, -1}                 // stiffness, damping
	edgeGains  = []float32{0, 1e-9, 0.01, 0.2, 1}                                     // lerp gains
	edgeScales = []float32{0, -1, 1e-9, 1e-3, 1, 1e3, 1e9}                            // scales
	edgeLimits = []float32{0, 1, 1e9}                                                 // clip limits
	edgePick   = func(r *rand.Rand, s []float32) float32 { return s[r.Intn(len(s))] } // one value of a kind
)

// edgeTrials random combinations are tried for functions with many
// arguments; functions with few are tried on every combination.
const edgeTrials = 200000

func TestNoNaNOrInfForFiniteInputs(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	checkEdgeTimes(t)
	checkEdgeDampers(t)
	checkEdgeScales(t)
	for i := 0; i < edgeTrials; i++ {
		checkEdgeTrial(t, r)
	}
	checkEdgeTrackers(t, r)
}

// edgeFail stops the test: function name gave a value that is not
// finite for args.
func edgeFail(t *testing.T, name string, args ...any) {
	t.Helper()
	t.Fatalf("%s%v is not finite", name, args)
}

// checkEdgeTimes tries the half-life, frequency and scalar-velocity
// conversions and the decay weights on every edge time.
func checkEdgeTimes(t *testing.T) {
	t.Helper()
	for _, a := range edgeTimes {
		if !finite(HalflifeToDamping(a), DampingToHalflife(a), FrequencyToStiffness(a), StiffnessToFrequency(a),
			HalflifeToScalarVelocity(a), ScalarVelocityToHalflife(a), ScalarVelocityToDoublelife(a), DoublelifeToScalarVelocity(a)) {
			edgeFail(t, "conversions", a)
		}
		for _, b := range edgeTimes {
			if w0, w1, w2, w3 := CriticalDecayWeights(a, b); !finite(w0, w1, w2, w3) {
				edgeFail(t, "CriticalDecayWeights", a, b)
			}
		}
	}
}

// checkEdgeDampers tries the transition costs, dampers and finite
// differences on every combination of edge values and times.
func checkEdgeDampers(t *testing.T) {
	t.Helper()
	for _, x := range edgeVals {
		for _, g := range edgeVals {
			for _, h := range edgeTimes {
				if !finite(DecayZeroCrossing(x, g, h), TransitionCost(x, g, h), TransitionCostApprox(x, g, h), TransitionCostFeature(x, g, h)) {
					edgeFail(t, "transition cost", x, g, h)
				}
				for _, dt := range edgeTimes {
					checkEdgeDamper(t, x, g, h, dt)
				}
			}
			for _, w := range edgeVals {
				if !finite(TransitionCostBaseline(x, g, w, w), ClipTarget(x, g)) {
					edgeFail(t, "baseline/clip", x, g, w)
				}
			}
		}
	}
}

// checkEdgeDamper tries the dampers and finite differences on one
// combination of value x, goal g, half-life h and step dt.
func checkEdgeDamper(t *testing.T, x, g, h, dt float32) {
	t.Helper()
	if !finite(DamperExact(x, g, h, dt)) {
		edgeFail(t, "DamperExact", x, g, h, dt)
	}
	if a, b := DecaySpringDamperExact(x, g, h, dt); !finite(a, b) {
		edgeFail(t, "DecaySpringDamperExact", x, g, h, dt)
	}
	if !finite(TrackingTargetVelocity(x, g, dt), TrackingTargetAcceleration(x, g, h, dt),
		ScaleDifferentiateVelocityNaive(x, g, dt), ScaleIntegrateVelocityNaive(x, g, dt)) {
		edgeFail(t, "finite differences", x, g, h, dt)
	}
}

// checkEdgeScales tries the scale differentiation, integration and
// eerp on every combination of edge scales, times and values.
func checkEdgeScales(t *testing.T) {
	t.Helper()
	for _, a := range edgeScales {
		for _, b := range edgeScales {
			for _, dt := range edgeTimes {
				if !finite(ScaleDifferentiateVelocity(a, b, dt), ScaleDifferentiateVelocityNatural(a, b, dt),
					EerpPow(a, b, dt), EerpRatio(a, b, dt), EerpLog(a, b, dt)) {
					edgeFail(t, "scale differentiate/eerp", a, b, dt)
				}
			}
			for _, v := range edgeVals {
				if !finite(ScaleIntegrateVelocity(v, a, b), ScaleIntegrateVelocityNatural(v, a, b)) {
					edgeFail(t, "scale integrate", v, a, b)
				}
			}
		}
	}
}

// checkEdgeTrial tries the functions of many arguments on one random
// combination of edge values drawn from r: the spring dampers, the
// tracking updates, and the rotation and scale springs.
func checkEdgeTrial(t *testing.T, r *rand.Rand) {
	t.Helper()
	x, v, g, q := edgePick(r, edgeVals), edgePick(r, edgeVals), edgePick(r, edgeVals), edgePick(r, edgeVals)
	s, d := edgePick(r, edgeCoefs), edgePick(r, edgeCoefs)
	h, dt := edgePick(r, edgeTimes), edgePick(r, edgeTimes)
	if a, b := SpringDamperExact(x, v, g, q, s, d, dt); !finite(a, b) {
		edgeFail(t, "SpringDamperExact", x, v, g, q, s, d, dt)
	}
	if a, b := CriticalSpringDamperExact(x, v, g, q, h, dt); !finite(a, b) {
		edgeFail(t, "CriticalSpringDamperExact", x, v, g, q, h, dt)
	}
	if a, b := SimpleSpringDamperExact(x, v, g, h, dt); !finite(a, b) {
		edgeFail(t, "SimpleSpringDamperExact", x, v, g, h, dt)
	}
	checkEdgeTracking(t, r, x, v, g, q, dt)
	// Rotations and scales: velocities up to 1e9 rad/s or doublings/s.
	qx := mathx.QuatFromScaledAngleAxis(randVec3(r, 4))
	qg := mathx.QuatFromScaledAngleAxis(randVec3(r, 4))
	w := mgl32.Vec3{edgePick(r, edgeVals), edgePick(r, edgeVals), edgePick(r, edgeVals)}
	if a, b := QuatSpringDamperExact(qx, w, qg, h, dt); !mathx.QuatFinite(a) || !mathx.Vec3Finite(b) {
		edgeFail(t, "QuatSpringDamperExact", qx, w, qg, h, dt)
	}
	sx := mgl32.Vec3{edgePick(r, edgeScales), edgePick(r, edgeScales), edgePick(r, edgeScales)}
	sg := mgl32.Vec3{edgePick(r, edgeScales), edgePick(r, edgeScales), edgePick(r, edgeScales)}
	if a, b := ScaleSpringDamperExact(sx, w, sg, h, dt); !mathx.Vec3Finite(a) || !mathx.Vec3Finite(b) {
		edgeFail(t, "ScaleSpringDamperExact", sx, w, sg, h, dt)
	}
}

// checkEdgeTracking tries every tracking update on value x, velocity v,
// goals g and q and step dt, with the other goal, gains, half-lives and
// gain step drawn from r.
func checkEdgeTracking(t *testing.T, r *rand.Rand, x, v, g, q, dt float32) {
	t.Helper()
	ag := edgePick(r, edgeVals)
	gx, gv, ga := edgePick(r, edgeGains), edgePick(r, edgeGains), edgePick(r, edgeGains)
	hx, hv, ha := edgePick(r, edgeTimes), edgePick(r, edgeTimes), edgePick(r, edgeTimes)
	gdt := edgePick(r, edgeTimes)
	outs := make([]float32, 0, 18)
	add := func(a, b float32) { outs = append(outs, a, b) }
	add(TrackingSpringUpdate(x, v, g, q, ag, gx, gv, ga, dt))
	add(TrackingSpringUpdateNoAcceleration(x, v, g, q, gx, gv, dt))
	add(TrackingSpringUpdateNoVelocityAcceleration(x, v, g, gx, dt))
	add(TrackingSpringUpdateImproved(x, v, g, q, ag, hx, hv, ha, dt))
	add(TrackingSpringUpdateImprovedNoAcceleration(x, v, g, q, hx, hv, dt))
	add(TrackingSpringUpdateImprovedNoVelocityAcceleration(x, v, g, hx, dt))
	add(TrackingSpringUpdateExact(x, v, g, q, ag, gx, gv, ga, dt, gdt))
	add(TrackingSpringUpdateNoAccelerationExact(x, v, g, q, gx, gv, dt, gdt))
	add(TrackingSpringUpdateNoVelocityAccelerationExact(x, v, g, gx, dt, gdt))
	add(TrackingSpringExactStiffnessDamping(gx, gv, gdt))
	if !finite(outs...) {
		t.Fatalf("tracking update not finite: x %g v %g goals %g %g %g gains %g %g %g half-lives %g %g %g dt %g gain_dt %g: %v",
			x, v, g, q, ag, gx, gv, ga, hx, hv, ha, dt, gdt, outs)
	}
}

// checkEdgeTrackers drives the trackers through a stream of edge
// samples drawn from r, with each clip limit.
func checkEdgeTrackers(t *testing.T, r *rand.Rand) {
	t.Helper()
	for _, lim := range edgeLimits {
		f := &ExactTracker{XGain: 0.01, VGain: 0.2, AGain: 1, GainDt: 1.0 / 60}
		l := &Tracker{XGain: 0.01, VGain: 0.2, AGain: 1}
		ct := CutTracker{MaxVel: lim, MaxAcc: lim}
		cl := ct
		for i := 0; i < 1000; i++ {
			s, dt, cut := edgePick(r, edgeVals), edgePick(r, edgeTimes), r.Intn(5) == 0
			ct.Update(f, s, cut, dt)
			cl.Update(l, s, cut, dt)
			if !finite(f.X, f.V, l.X, l.V) {
				t.Fatalf("CutTracker (limit %g) not finite after sample %g dt %g: exact (%g,%g) lerp (%g,%g)", lim, s, dt, f.X, f.V, l.X, l.V)
			}
		}
	}
}

// A half-life of zero snaps to the goal, whatever dt (zero included).
func TestZeroHalflifeSnaps(t *testing.T) {
	for _, dt := range []float32{0, 1e-9, 1.0 / 60, 1e9} {
		if got := DamperExact(3, -2, 0, dt); got != -2 {
			t.Fatalf("DamperExact snapped to %g", got)
		}
		if x, v := CriticalSpringDamperExact(3, 4, -2, 5, 0, dt); x != -2 || v != 0 {
			t.Fatalf("CriticalSpringDamperExact snapped to (%g,%g)", x, v)
		}
		if x, v := SimpleSpringDamperExact(3, 4, -2, 0, dt); x != -2 || v != 0 {
			t.Fatalf("SimpleSpringDamperExact snapped to (%g,%g)", x, v)
		}
		if x, v := DecaySpringDamperExact(3, 4, 0, dt); x != 0 || v != 0 {
			t.Fatalf("DecaySpringDamperExact snapped to (%g,%g)", x, v)
		}
		if w0, w1, w2, w3 := CriticalDecayWeights(0, dt); w0 != 0 || w1 != 0 || w2 != 0 || w3 != 0 {
			t.Fatalf("CriticalDecayWeights(0, %g) = %g %g %g %g", dt, w0, w1, w2, w3)
		}
		g := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0.3, -1, 2})
		if q, w := QuatSpringDamperExact(mathx.QuatIdentity(), mgl32.Vec3{1, 2, 3}, g, 0, dt); q != g || w != (mgl32.Vec3{}) {
			t.Fatalf("QuatSpringDamperExact snapped to (%v,%v)", q, w)
		}
		if s, w := ScaleSpringDamperExact(mgl32.Vec3{1, 2, 3}, mgl32.Vec3{1, 1, 1}, mgl32.Vec3{4, 5, 6}, 0, dt); s != (mgl32.Vec3{4, 5, 6}) || w != (mgl32.Vec3{}) {
			t.Fatalf("ScaleSpringDamperExact snapped to (%v,%v)", s, w)
		}
		if c := TransitionCost(1, 2, 0); c != 0 {
			t.Fatalf("TransitionCost with zero half-life %g", c)
		}
	}
	// All-zero half-lives in the improved tracker: velocity snaps to the
	// position target, so one tick lands on the goal.
	if x, _ := TrackingSpringUpdateImproved(3, 4, -2, 1, 1, 0, 0, 0, 1.0/60); math.Abs(float64(x)+2) > 1e-6 {
		t.Fatalf("improved tracker with zero half-lives reached %g, want -2", x)
	}
}

// dt = 0 (or negative) leaves every state unchanged.
func TestZeroDtLeavesStateUnchanged(t *testing.T) {
	for _, dt := range []float32{0, -1} {
		same := func(name string, x, v, wx, wv float32) {
			t.Helper()
			if x != wx || v != wv {
				t.Fatalf("%s with dt %g changed (%g,%g) to (%g,%g)", name, dt, wx, wv, x, v)
			}
		}
		same("DamperExact", DamperExact(3, -2, 0.2, dt), 0, 3, 0)
		x, v := SpringDamperExact(3, 4, -2, 5, 36, 12.48, dt)
		same("SpringDamperExact", x, v, 3, 4)
		x, v = CriticalSpringDamperExact(3, 4, -2, 5, 0.2, dt)
		same("CriticalSpringDamperExact", x, v, 3, 4)
		x, v = SimpleSpringDamperExact(3, 4, -2, 0.2, dt)
		same("SimpleSpringDamperExact", x, v, 3, 4)
		x, v = DecaySpringDamperExact(3, 4, 0.2, dt)
		same("DecaySpringDamperExact", x, v, 3, 4)
		x, v = TrackingSpringUpdate(3, 4, -2, 1, 1, 0.01, 0.2, 1, dt)
		same("TrackingSpringUpdate", x, v, 3, 4)
		x, v = TrackingSpringUpdateImproved(3, 4, -2, 1, 1, 1, 0.05, 0, dt)
		same("TrackingSpringUpdateImproved", x, v, 3, 4)
		x, v = TrackingSpringUpdateExact(3, 4, -2, 1, 1, 0.01, 0.2, 1, dt, 1.0/60)
		same("TrackingSpringUpdateExact", x, v, 3, 4)
		same("ScaleIntegrateVelocity", ScaleIntegrateVelocity(3, 2, dt), ScaleIntegrateVelocityNatural(3, 2, dt), 2, 2)
		q0 := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{1, 0.5, -0.2})
		if q, w := QuatSpringDamperExact(q0, mgl32.Vec3{1, 2, 3}, mathx.QuatIdentity(), 0.2, dt); q != q0 || w != (mgl32.Vec3{1, 2, 3}) {
			t.Fatal("QuatSpringDamperExact moved with dt 0")
		}
		if s, w := ScaleSpringDamperExact(mgl32.Vec3{1, 2, 3}, mgl32.Vec3{1, 1, 1}, mgl32.Vec3{4, 5, 6}, 0.2, dt); s != (mgl32.Vec3{1, 2, 3}) || w != (mgl32.Vec3{1, 1, 1}) {
			t.Fatal("ScaleSpringDamperExact moved with dt 0")
		}
		f := &Tracker{X: 3, V: 4, XGain: 0.01, VGain: 0.2, AGain: 1}
		var ct CutTracker
		ct.Update(f, 10, false, dt)
		same("CutTracker", f.X, f.V, 3, 4)
	}
}

// A huge dt settles every damped spring at its rest point, at rest.
func TestHugeDtSettles(t *testing.T) {
	for _, dt := range []float32{1e3, 1e9, math.MaxFloat32} {
		if got := DamperExact(3, -2, 0.2, dt); got != -2 {
			t.Fatalf("DamperExact dt %g: %g", dt, got)
		}
		for _, rg := range springRegimes {
			if rg.damping == 0 || rg.stiffness == 0 {
				continue // undamped keeps oscillating; no stiffness keeps drifting
			}
			x, v := SpringDamperExact(3, 4, -2, 0.5, rg.stiffness, rg.damping, dt)
			rest := -2 + float64(rg.damping)*0.5/float64(rg.stiffness)
			// The rest point is rounded to float32 once: 1 ulp of ~2.
			if math.Abs(float64(x)-rest) > 4e-7 || v != 0 {
				t.Fatalf("%s dt %g: (%g,%g), rest point %g", rg.name, dt, x, v, rest)
			}
		}
		if x, v := CriticalSpringDamperExact(3, 4, -2, 0, 0.2, dt); x != -2 || v != 0 {
			t.Fatalf("CriticalSpringDamperExact dt %g: (%g,%g)", dt, x, v)
		}
		if x, v := SimpleSpringDamperExact(3, 4, -2, 0.2, dt); x != -2 || v != 0 {
			t.Fatalf("SimpleSpringDamperExact dt %g: (%g,%g)", dt, x, v)
		}
		if x, v := DecaySpringDamperExact(3, 4, 0.2, dt); x != 0 || v != 0 {
			t.Fatalf("DecaySpringDamperExact dt %g: (%g,%g)", dt, x, v)
		}
		g := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0.3, -1, 2})
		q, w := QuatSpringDamperExact(mathx.QuatIdentity(), mgl32.Vec3{1, 2, 3}, g, 0.2, dt)
		if !q.ApproxEqualThreshold(g, 1e-6) || w != (mgl32.Vec3{}) {
			t.Fatalf("QuatSpringDamperExact dt %g: (%v,%v), goal %v", dt, q, w, g)
		}
		s, sv := ScaleSpringDamperExact(mgl32.Vec3{1, 2, 3}, mgl32.Vec3{1, 1, 1}, mgl32.Vec3{4, 5, 6}, 0.2, dt)
		if s != (mgl32.Vec3{4, 5, 6}) || sv != (mgl32.Vec3{}) {
			t.Fatalf("ScaleSpringDamperExact dt %g: (%v,%v)", dt, s, sv)
		}
		x, v := TrackingSpringUpdateExact(3, 4, -2, 0, 0, 0.01, 0.2, 1, dt, 1.0/60)
		if math.Abs(float64(x)+2) > 4e-7 || v != 0 {
			t.Fatalf("TrackingSpringUpdateExact dt %g: (%g,%g)", dt, x, v)
		}
	}
}
