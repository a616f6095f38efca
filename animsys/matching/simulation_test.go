package matching

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// TestTurningPredicted: a facing turned steadily on the spot (Q or E held)
// is predicted to go on turning, and a path swept round (a circle) to go on
// curving: the prediction made after 2 s of steady turning puts the facing
// and the position a second on where the simulation then is, within 1° and
// 2 cm (0.7-0.8° and 1.1 cm measured on a 0.93 m circle: the turn
// estimate's damper has settled, and the goal held at each interval's
// midpoint is the approximation), where holding the goal misses the
// facing by 62°. A jump of the facing (a new direction, not a sweep)
// predicts no turn.
func TestTurningPredicted(t *testing.T) {
	s := DefaultSettings()
	dir := func(a float64) mgl32.Vec2 { return mgl32.Vec2{float32(math.Sin(a)), float32(math.Cos(a))} }
	const dt, rate = 1.0 / 60, 1.5
	for _, c := range []struct {
		name string
		in   func(t float64) Input
	}{
		{"spin", func(t float64) Input { return Input{Face: dir(rate * t)} }},
		{"circle", func(t float64) Input { return Input{Move: dir(rate * t)} }},
	} {
		var sim Simulation
		k := 0
		for ; k < 120; k++ {
			sim.steer(c.in(float64(k)*dt), &s, 1, dt)
		}
		var pred Trajectory
		sim.predict(&s, &pred)
		held := sim
		held.GoalTurn, held.FaceTurn = 0, 0
		var heldPred Trajectory
		held.predict(&s, &heldPred)
		for ; k < 180; k++ {
			sim.steer(c.in(float64(k)*dt), &s, 1, dt)
		}
		angle := func(d mgl32.Vec3) float64 {
			return float64(angleDiff(yawOf(mgl32.Vec2{d[0], d[2]}), sim.Yaw)) * 180 / math.Pi
		}
		got, gotHeld := angle(pred.Facing[PathPoints-1]), angle(heldPred.Facing[PathPoints-1])
		miss := groundDist(pred.End(), sim.Pos)
		if !(got < 1) || !(miss < 0.02) || !(gotHeld > 45) {
			t.Errorf("%s: the facing predicted 1 s on is %.2f° off (%.1f° holding the goal), the position %.4f m", c.name, got, gotHeld, miss)
		}
		t.Logf("%s: facing 1 s on %.3f° off (%.1f° holding the goal), position %.4f m", c.name, got, gotHeld, miss)
	}
	var sim Simulation
	sim.steer(Input{Face: dir(0)}, &s, 1, dt)
	sim.steer(Input{Face: dir(1)}, &s, 1, dt)
	if sim.FaceTurn != 0 {
		t.Errorf("a jump of the facing by 1 rad in a tick estimated a turn of %.2f rad/s", sim.FaceTurn)
	}
}
