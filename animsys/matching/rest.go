package matching

// Rest is the matcher's idle state (Settings.Idle): while the input asks
// for no motion and the simulation is about to stop, the matcher stands
// in the stance nearest where the feet are (Database.StanceFor) and does
// not search, so standing does not search its way through walk clips.
// A stance in the database's idle stretch (Database.IdleFrom..IdleTo) is
// played on to its end and held there; any other is held at once.
type Rest struct {
	// Idle: the matcher stands in the idle state; Stance is the database
	// frame it stood in last, Hold the frame it holds.
	Idle         bool
	Stance, Hold int
}

// stand starts standing in stance i (a database frame).
func (r *Rest) stand(db *Database, i int) {
	r.Idle, r.Stance, r.Hold = true, i, i
	if i >= db.IdleFrom && i <= db.IdleTo {
		r.Hold = db.IdleTo
	}
}

// held is the database frame the playback holds at: Hold while idle, else
// -1 (none).
func (r *Rest) held() int {
	if !r.Idle {
		return -1
	}
	return r.Hold
}

// Idle-state thresholds: it is entered when the input asks for no motion
// (Move shorter than stillInput), the simulation will travel less than
// idleTravel on (m for a human, times Database.Unit: about what the
// synchronisation's clamp lets the root lag anyway) and its goal facing
// is within idleTurn/2 (rad) of the root's; asking to move, to face
// idleTurn away, or to turn steadily (Simulation.FaceTurn faster than
// RestTurn: Q or E held, which would otherwise stand still until the
// facing was idleTurn away, then step, then stand) leaves it.
const (
	stillInput = 0.05
	idleTravel = 0.05
	idleTurn   = 0.5
)

// asksToStand reports whether input in asks the simulation sim to stand:
// no movement and no steady turn of the facing. The idle state leaves
// when it does not, and Meter counts rest by it.
func asksToStand(in Input, sim *Simulation) bool {
	return in.Move.Len() < stillInput && abs32(sim.FaceTurn) <= RestTurn
}

// restStep is what the idle state decided for a tick: enter it (the
// matcher transitions to the idle stretch's first frame), stay in it
// (no search), or leave it (the matcher searches at once, obliged to
// transition).
type restStep int

const (
	moving restStep = iota
	enter
	standing
	leave
)

// step runs the idle state for a tick with input in (after the
// prediction pred): the simulation sim, the root's facing rootYaw (rad).
// A facing the input holds (Input.Face) must be faced to stand, within
// idleTurn/2, and turning from it by idleTurn leaves; without one the
// character stands facing the way it stopped.
func (r *Rest) step(db *Database, s *Settings, in Input, sim *Simulation, pred *Trajectory, rootYaw float32) restStep {
	if !s.Idle || db.IdleFrom < 0 {
		r.Idle = false
		return moving
	}
	faces := in.Face.Len() > 1e-3
	asks := !asksToStand(in, sim) || faces && angleDiff(sim.GoalYaw, rootYaw) > idleTurn
	if r.Idle {
		if asks {
			r.Idle = false
			return leave
		}
		return standing
	}
	if asks || groundDist(pred.End(), sim.Pos) > idleTravel*db.Unit ||
		faces && angleDiff(sim.GoalYaw, rootYaw) > idleTurn/2 {
		return moving
	}
	return enter
}
