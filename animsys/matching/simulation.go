package matching

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/spring"
)

// Simulation is the character the input moves directly (the reference
// motion-matching controller's "simulation object"): a point on the ground
// driven by a velocity spring towards the desired velocity
// (spring.VelocitySpringExact, perfect-tracking-with-springs) and a facing
// driven by a critical spring towards the desired facing. The animated
// character follows it (Matcher.synchronise), and the predicted trajectory
// the search matches is its.
type Simulation struct {
	Pos      mgl32.Vec3 // m, on the ground (y = 0)
	Vel, Acc mgl32.Vec2 // m/s and m/s² on the ground (x, z)
	Yaw      float32    // rad about +y, 0 facing +z
	YawVel   float32    // rad/s
	// GoalVel (m/s, x and z) and GoalYaw (rad) are what the input asks for.
	GoalVel mgl32.Vec2
	GoalYaw float32
	// GoalTurn (rad/s) is how fast the input has been turning the goal
	// velocity, smoothed: a stick swept steadily round (a circle) is
	// predicted to go on turning. A jump of the goal's direction (keys,
	// a flick) sets it to 0. faceMoves: the facing follows the movement.
	GoalTurn  float32
	faceMoves bool
	// FaceTurn (rad/s) is the same for a facing the input holds apart
	// from the movement (Input.Face): turned steadily on the spot (Q and
	// E held), the facing is predicted to go on turning.
	FaceTurn float32
}

// Turn-rate estimate: the damper's half-life (s), the fastest steady turn
// it believes (rad/s; faster is a jump, not a sweep), and the speed (m/s
// for a human, times Database.Unit) below which the goal has no direction.
// The facing's estimate is quicker: Q and E turn it at their full rate
// from the first tick, and each search while the estimate rises sees
// another turn (transitions a second on the spin path, moving, embedded
// set and captures: 2.58 and 3.65 at 0.2 s, 2.16 and 3.51 at 0.1, 1.98
// and 3.07 at 0.05, 1.87 and 3.30 at 0.025).
const (
	turnHalflife     = 0.2
	faceTurnHalflife = 0.05
	turnMax          = 3
	turnMinSpeed     = 0.1
)

// steer moves the simulation dt seconds towards what in asks for, with
// settings s's speeds (a human's, times unit: Database.Unit) and
// half-lives.
func (sim *Simulation) steer(in Input, s *Settings, unit, dt float32) {
	move := in.Move
	if l := move.Len(); l > 1 {
		move = move.Mul(1 / l)
	} else if !(l >= 0) { // NaN
		move = mgl32.Vec2{}
	}
	switch {
	case in.Face.Len() > 1e-3:
		y := yawOf(in.Face)
		sim.FaceTurn = turnRate(sim.FaceTurn, wrapAngle(y-sim.GoalYaw), !sim.faceMoves, faceTurnHalflife, dt)
		sim.GoalYaw = y
	case move.Len() > 0.05:
		sim.GoalYaw = yawOf(move)
	}
	// The goal velocity in the goal facing's frame: forward at the walk
	// or run speed, sideways and backwards capped.
	speed := s.WalkSpeed * unit
	if in.Run {
		speed = s.RunSpeed * unit
	}
	local := rotate2(move, -sim.GoalYaw) // x along the goal's +x (left), y forward
	local[0] *= min(speed, s.SideSpeed*unit)
	if local[1] < 0 {
		local[1] *= min(speed, s.BackSpeed*unit)
	} else {
		local[1] *= speed
	}
	goal := rotate2(local, sim.GoalYaw)
	sim.turn(goal, unit, dt)
	sim.GoalVel = goal
	sim.faceMoves = in.Face.Len() <= 1e-3
	if sim.faceMoves {
		sim.FaceTurn = 0
	}
	for a, ax := range [2]int{0, 2} {
		var d float32
		d, sim.Vel[a], sim.Acc[a] = spring.VelocitySpringExact(0, sim.Vel[a], sim.Acc[a], sim.GoalVel[a], s.VelHalflife, dt)
		sim.Pos[ax] += d
	}
	g := sim.Yaw + wrapAngle(sim.GoalYaw-sim.Yaw)
	sim.Yaw, sim.YawVel = spring.SimpleSpringDamperExact(sim.Yaw, sim.YawVel, g, s.FaceHalflife, dt)
	sim.Yaw = wrapAngle(sim.Yaw)
}

// turn updates GoalTurn from the goal's change to goal over dt seconds
// (unit: Database.Unit).
func (sim *Simulation) turn(goal mgl32.Vec2, unit, dt float32) {
	if least := turnMinSpeed * unit; goal.Len() < least || sim.GoalVel.Len() < least {
		sim.GoalTurn = 0
		return
	}
	sim.GoalTurn = turnRate(sim.GoalTurn, wrapAngle(yawOf(goal)-yawOf(sim.GoalVel)), true, turnHalflife, dt)
}

// turnRate is a turn-rate estimate r (rad/s) damped towards a turn of
// by rad over dt seconds: 0 where the turn is a jump (faster than
// turnMax) or the last direction is not known (!known).
func turnRate(r, by float32, known bool, halflife, dt float32) float32 {
	if !(dt > 0) { // no time passed: nothing to learn (and no 0/0)
		return r
	}
	rate := by / dt
	if !known || abs32(rate) > turnMax {
		return 0
	}
	return spring.DamperExact(r, rate, halflife, dt)
}

// Trajectory is a path over the next second, at PathPoints even times:
// where the root will be (m, world, on the ground) and which way it will
// face (unit ground directions).
type Trajectory struct {
	Pos, Facing [PathPoints]mgl32.Vec3
}

// End is the trajectory's last point: where it is a second on.
func (t *Trajectory) End() mgl32.Vec3 { return t.Pos[PathPoints-1] }

// predict writes the simulation's path over the next second into out:
// the velocity spring's exact integral and the facing spring, with the
// goal held (or, while the input turns steadily, turning on at GoalTurn).
func (sim *Simulation) predict(s *Settings, out *Trajectory) {
	pos, dir := &out.Pos, &out.Facing
	if sim.GoalTurn != 0 || sim.FaceTurn != 0 {
		sim.predictTurning(s, pos, dir)
		return
	}
	g := sim.Yaw + wrapAngle(sim.GoalYaw-sim.Yaw)
	for k := range pos {
		t := float32(k) / (PathPoints - 1)
		var d mgl32.Vec3
		for a, ax := range [2]int{0, 2} {
			d[ax], _, _ = spring.VelocitySpringExact(0, sim.Vel[a], sim.Acc[a], sim.GoalVel[a], s.VelHalflife, t)
		}
		pos[k] = sim.Pos.Add(d)
		yaw, _ := spring.SimpleSpringDamperExact(sim.Yaw, sim.YawVel, g, s.FaceHalflife, t)
		if t == 0 {
			yaw = sim.Yaw
		}
		dir[k] = yawDir(yaw)
	}
}

// predictTurning is predict with the goal turning at GoalTurn: the springs
// stepped exactly over each of the PathPoints-1 intervals, the goal held
// at its value in the middle of each.
func (sim *Simulation) predictTurning(s *Settings, pos, dir *[PathPoints]mgl32.Vec3) {
	const step = float32(1) / (PathPoints - 1)
	p, v, a := sim.Pos, sim.Vel, sim.Acc
	yaw, yawVel := sim.Yaw, sim.YawVel
	pos[0], dir[0] = p, yawDir(yaw)
	for k := 1; k < PathPoints; k++ {
		turn := sim.GoalTurn * (float32(k) - 0.5) * step
		gv := rotate2(sim.GoalVel, turn)
		for i, ax := range [2]int{0, 2} {
			var d float32
			d, v[i], a[i] = spring.VelocitySpringExact(0, v[i], a[i], gv[i], s.VelHalflife, step)
			p[ax] += d
		}
		gy := sim.GoalYaw + sim.FaceTurn*(float32(k)-0.5)*step
		if sim.faceMoves {
			gy += turn
		}
		yaw, yawVel = spring.SimpleSpringDamperExact(yaw, yawVel, yaw+wrapAngle(gy-yaw), s.FaceHalflife, step)
		pos[k], dir[k] = p, yawDir(yaw)
	}
}

// rotate2 turns ground vector v (x, z) by a (rad) about +y.
func rotate2(v mgl32.Vec2, a float32) mgl32.Vec2 {
	sn, cs := math.Sincos(float64(a))
	return mgl32.Vec2{v[0]*float32(cs) + v[1]*float32(sn), -v[0]*float32(sn) + v[1]*float32(cs)}
}
