package spring

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// Sinks keep the benchmarked results alive.
var (
	sinkF float32
	sinkQ mgl32.Quat
	sinkV mgl32.Vec3
)

// updateCases are one call of every per-tick function, shared by the
// benchmarks and the allocation test. Inputs vary with i so nothing is
// constant-folded.
func updateCases() []struct {
	name string
	fn   func(i int)
} {
	tr := &Tracker{XGain: 0.01, VGain: 0.2, AGain: 1}
	ht := &HalflifeTracker{XHalflife: 1, VHalflife: 0.05}
	et := &ExactTracker{XGain: 0.01, VGain: 0.2, AGain: 1, GainDt: 1.0 / 60}
	var ctL, ctH, ctE CutTracker
	q := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0.3, -1, 0.5})
	g := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{-0.2, 0.4, 1})
	const dt = 1.0 / 60
	in := func(i int) float32 { return float32(i&1023) * 1e-3 }
	return []struct {
		name string
		fn   func(i int)
	}{
		{"DamperExact", func(i int) { sinkF = DamperExact(in(i), 1, 0.2, dt) }},
		{"SpringDamperExact/under", func(i int) { sinkF, _ = SpringDamperExact(in(i), 1, 2, 0, 100, 2, dt) }},
		{"SpringDamperExact/critical", func(i int) { sinkF, _ = SpringDamperExact(in(i), 1, 2, 0, 25, 10, dt) }},
		{"SpringDamperExact/over", func(i int) { sinkF, _ = SpringDamperExact(in(i), 1, 2, 0.5, 36, 12.48, dt) }},
		{"SpringDamperExact/no-stiffness", func(i int) { sinkF, _ = SpringDamperExact(in(i), 1, 2, 0.5, 0, 3, dt) }},
		{"CriticalSpringDamperExact", func(i int) { sinkF, _ = CriticalSpringDamperExact(in(i), 1, 2, 0.5, 0.2, dt) }},
		{"SimpleSpringDamperExact", func(i int) { sinkF, _ = SimpleSpringDamperExact(in(i), 1, 2, 0.2, dt) }},
		{"DecaySpringDamperExact", func(i int) { sinkF, _ = DecaySpringDamperExact(in(i), 1, 0.2, dt) }},
		{"CriticalDecayWeights", func(i int) { sinkF, _, _, _ = CriticalDecayWeights(0.2, in(i)) }},
		{"QuatSpringDamperExact", func(i int) { sinkQ, sinkV = QuatSpringDamperExact(q, mgl32.Vec3{in(i), 1, 0}, g, 0.2, dt) }},
		{"ScaleSpringDamperExact", func(i int) {
			sinkV, _ = ScaleSpringDamperExact(mgl32.Vec3{1 + in(i), 2, 0.5}, mgl32.Vec3{0.1, 0, 0}, mgl32.Vec3{1, 1, 1}, 0.2, dt)
		}},
		{"TrackingSpringUpdate", func(i int) { sinkF, _ = TrackingSpringUpdate(in(i), 1, 2, 0.5, 3, 0.01, 0.2, 1, dt) }},
		{"TrackingSpringUpdateImproved", func(i int) { sinkF, _ = TrackingSpringUpdateImproved(in(i), 1, 2, 0.5, 3, 1, 0.05, 0, dt) }},
		{"TrackingSpringUpdateExact", func(i int) { sinkF, _ = TrackingSpringUpdateExact(in(i), 1, 2, 0.5, 3, 0.01, 0.2, 1, dt, dt) }},
		{"CutTracker.Update/lerp", func(i int) { ctL.Update(tr, in(i), i%97 == 0, dt) }},
		{"CutTracker.Update/half-life", func(i int) { ctH.Update(ht, in(i), i%97 == 0, dt) }},
		{"CutTracker.Update/exact", func(i int) { ctE.Update(et, in(i), i%97 == 0, dt) }},
		{"ScaleIntegrateVelocity", func(i int) { sinkF = ScaleIntegrateVelocity(in(i), 1.5, dt) }},
		{"ScaleDifferentiateVelocity", func(i int) { sinkF = ScaleDifferentiateVelocity(1+in(i), 1.5, dt) }},
		{"EerpPow", func(i int) { sinkF = EerpPow(0.1, 10, in(i)) }},
		{"EerpLog", func(i int) { sinkF = EerpLog(0.1, 10, in(i)) }},
		{"TransitionCost", func(i int) { sinkF = TransitionCost(in(i), -5, 0.15) }},
		{"TransitionCostApprox", func(i int) { sinkF = TransitionCostApprox(in(i), -5, 0.15) }},
		{"TransitionCostFeature", func(i int) { sinkF = TransitionCostFeature(in(i), -5, 0.15) }},
	}
}

func BenchmarkUpdates(b *testing.B) {
	for _, c := range updateCases() {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				c.fn(i)
			}
		})
	}
}

// Nothing per tick allocates.
func TestUpdatesDoNotAllocate(t *testing.T) {
	for _, c := range updateCases() {
		i := 0
		if n := testing.AllocsPerRun(200, func() { c.fn(i); i++ }); n != 0 {
			t.Errorf("%s allocates %g times per call", c.name, n)
		}
	}
}
