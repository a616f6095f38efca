package matching

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
)

// RootSync is the matcher's stage that places the character's root in
// the world: moved by the output's root motion, then towards the
// simulation and kept near it (Settings.Sync).
type RootSync struct {
	// Pos (m, on the ground) and Yaw (rad about +y) are the root in the
	// world.
	Pos mgl32.Vec3
	Yaw float32
	// adjVel (m/s) and adjYaw (rad/s) are the rates at which the last
	// tick's synchronisation moved it (propagated into the world pose's
	// velocities: Kform).
	adjVel mgl32.Vec3
	adjYaw float32
	// clamped (s) is how long the clamp's distance has been reached
	// without a break (SyncSettings.HoldAfter).
	clamped float32
}

// move moves the root by the output's root motion (the local pose's
// joint 0 velocity and yaw rate, in the root's frame) over dt seconds.
func (r *RootSync) move(local *animsys.Pose, dt float32) {
	v := mathx.QuatMulVec3(yawQuatAngle(r.Yaw), local.Vel[0])
	v[1] = 0
	r.Pos = r.Pos.Add(v.Mul(dt))
	r.Yaw = wrapAngle(r.Yaw + local.Ang[0][1]*dt)
}

// synchronise pulls the root towards the simulation sim (while idle, the
// simulation towards the root) and keeps it near (Settings.Sync; lengths
// times unit, Database.Unit), recording the rates it moved it at for the
// propagated velocities; local is the output's local pose, whose root
// motion bounds the adjustment. With neither on, the simulation is put
// where the root stands, as before there was one.
//
// While the root travels faster than warpSpeed, the adjustment may turn
// it by turn (rad/s, WarpSettings.Turn) beyond Ratio of the clip's own
// turn: the turn the search left to it (Searcher.features).
func (r *RootSync) synchronise(s *SyncSettings, sim *Simulation, local *animsys.Pose, idle bool, turnBy, unit, dt float32) {
	r.adjVel, r.adjYaw = mgl32.Vec3{}, 0
	if !s.Adjust && !s.Clamp {
		sim.Pos, sim.Yaw = r.Pos, r.Yaw
		return
	}
	pos, yaw := r.Pos, r.Yaw
	if idle {
		// At rest the simulation is pulled to the root instead (the
		// reference controller's "synchronization"): a root that stopped
		// short of it or beyond does not stand there with its feet
		// sliding towards it, and the prediction, at rest, is where the
		// character stands. A damper of Halflife.
		d := pos.Sub(sim.Pos)
		d[1] = 0
		sim.Pos = sim.Pos.Add(d.Mul(1 - spring.DamperExact(1, 0, s.Halflife, dt)))
	}
	if s.Adjust {
		// The reference's adjustment: a damper's step towards the
		// simulation, no longer than Ratio of the root's own motion.
		v := mathx.QuatMulVec3(yawQuatAngle(r.Yaw), local.Vel[0])
		d := sim.Pos.Sub(pos)
		d[1] = 0
		step := d.Mul(1 - spring.DamperExact(1, 0, s.Halflife, dt))
		speed := mgl32.Vec2{v[0], v[2]}.Len()
		if most := s.Ratio * speed * dt; step.Len() > most {
			step = step.Mul(most / step.Len())
		}
		pos = pos.Add(step)
		a := wrapAngle(sim.Yaw - yaw)
		turn := a * (1 - spring.DamperExact(1, 0, s.RotHalflife, dt))
		most := s.Ratio * abs32(local.Ang[0][1]) * dt
		if speed > warpSpeed*unit {
			most += turnBy * dt
		}
		turn = mathx.Clamp(turn, -most, most)
		yaw += turn
	}
	if s.Clamp {
		// The time at the clamp counts up while its distance is reached.
		d, most := pos.Sub(sim.Pos), s.Distance*unit
		if !(d.Len() > most) {
			r.clamped = 0
		} else if r.clamped += dt; s.Hold && r.clamped > s.HoldAfter {
			sim.Pos = pos.Sub(d.Mul(most / d.Len()))
		} else {
			pos = sim.Pos.Add(d.Mul(most / d.Len()))
		}
		if a := wrapAngle(yaw - sim.Yaw); abs32(a) > s.Angle {
			yaw = sim.Yaw + mathx.Clamp(a, -s.Angle, s.Angle)
		}
	}
	r.adjVel = pos.Sub(r.Pos).Mul(1 / dt)
	r.adjYaw = wrapAngle(yaw-r.Yaw) / dt
	r.Pos, r.Yaw = pos, wrapAngle(yaw)
}

// Kform is the root's kineform in the world: at Pos, turned by Yaw, moving
// with the output's root motion (local's joint 0, in the root's frame)
// plus the synchronisation's rates.
func (r *RootSync) Kform(local *animsys.Pose) animsys.Kform {
	rot := yawQuatAngle(r.Yaw)
	k := animsys.KformIdentity()
	k.Pos, k.Rot = r.Pos, rot
	k.Vel = mathx.QuatMulVec3(rot, local.Vel[0]).Add(r.adjVel)
	k.Ang = mathx.QuatMulVec3(rot, local.Ang[0]).Add(mgl32.Vec3{0, r.adjYaw, 0})
	return k
}

// Place is p, a point in the root's frame, in the world.
func (r *RootSync) Place(p mgl32.Vec3) mgl32.Vec3 {
	return r.Pos.Add(mathx.QuatMulVec3(yawQuatAngle(r.Yaw), p))
}
