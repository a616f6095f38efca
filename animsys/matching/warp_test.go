package matching

import (
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// redBlue is the 90th percentile over ticks of the largest |red - blue|
// (m/s) over the joints of m played for seconds of path at tick dt: the
// propagated world velocities against the finite difference of the
// positions over the tick; a tick where a lock engaged or a held toe
// began to pivot is left out (a deliberate step in velocity,
// TestControllerVelocities).
// It also reports the share of ticks each warp acted (Stride off 1 by
// over 0.02, Orient off 0 by over 0.02 rad).
func redBlue(m *Matcher, path Path, seconds, dt float32) (median float64, stride, orient float64) {
	prev := append([]mgl32.Vec3(nil), m.World.Pos...)
	var means []float64
	n := int(seconds/dt + 0.5)
	var strided, oriented int
	for k := 0; k < n; k++ {
		before, toes := m.Feet.Locks, m.Feet.ToeLocks
		m.Update(path.Input(float32(k)*dt, 1), dt)
		engaged := false
		for f := range before {
			engaged = engaged || m.Feet.Locks[f].Locked && !before[f].Locked || m.Feet.ToeLocks[f].Locked && !toes[f].Locked ||
				m.Feet.ToeLocks[f].AtVel != (mgl32.Vec3{}) && toes[f].AtVel == (mgl32.Vec3{})
		}
		if abs32(m.Warps.Stride-1) > 0.02 {
			strided++
		}
		if abs32(m.Warps.Orient) > 0.02 {
			oriented++
		}
		if !engaged {
			var most float64
			for j := 1; j < len(prev); j++ {
				most = max(most, float64(m.World.Pos[j].Sub(prev[j]).Mul(1/dt).Sub(m.World.Vel[j]).Len()))
			}
			means = append(means, most)
		}
		copy(prev, m.World.Pos)
	}
	slices.Sort(means)
	return means[len(means)*9/10], float64(strided) / float64(n), float64(oriented) / float64(n)
}

// TestWarpVelocities: with both warps on, the output's propagated
// velocities (the warps' own rates in them: the stride's and the turn's
// springs, the direction of travel turning, the legs' IK to the warped
// feet) agree with the finite difference better as the tick falls: the
// 90th percentile over ticks of the worst joint's |red - blue| falls at
// least fourfold from 1/60 s to 1/600 s (a first-order difference's
// error falls tenfold: 9.4-10.2x measured, 0.42-0.66 to 0.04-0.07 m/s),
// on paths where the warps act (the stride on at least 5% of the ticks,
// the orientation on 10%: 10-40% and 52-79%; the stride held within the
// legs' reach, strideReach, acts less on the circle). Mutation check: with the warps' rates left out of
// the velocities (the turn's rate, the stride's, the direction's), it
// falls 2.4-3.4x, to 0.19-0.24 m/s, and the test fails.
func TestWarpVelocities(t *testing.T) {
	db := embedded(t)
	for _, p := range []Path{Circle, Random, StopGo} {
		coarse, stride, orient := redBlue(NewMatcher(db, DefaultSettings()), p, 8, 1.0/60)
		fine, _, _ := redBlue(NewMatcher(db, DefaultSettings()), p, 8, 1.0/600)
		if !(fine < coarse/4) || !(stride > 0.05) || !(orient > 0.1) {
			t.Errorf("%s: |red - blue| %.4f m/s at 1/60 s, %.4f at 1/600; stride warped on %.0f%% of ticks, orientation %.0f%%",
				p, coarse, fine, 100*stride, 100*orient)
		}
		t.Logf("%s: |red - blue| %.4f m/s at 1/60 s, %.4f at 1/600 (%.1fx); stride warped on %.0f%% of ticks, orientation %.0f%%",
			p, coarse, fine, coarse/fine, 100*stride, 100*orient)
	}
}
