package matching

// Rest is the matcher's idle state (Settings.Idle): while the input asks
// for no motion and the simulation is about to stop, the matcher plays
// the database's idle stretch (Database.IdleFrom..IdleTo), then holds its
// last frame, and does not search, so standing does not search its way
// through walk clips.
type Rest struct {
	// Idle: the matcher stands in the idle state.
	Idle bool
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
func (r *Rest) step(db *Database, s *Settings, in Input, sim *Simulation, pred *Trajectory, rootYaw float32) restStep {
	if !s.Idle || db.IdleFrom < 0 {
		r.Idle = false
		return moving
	}
	asks := !asksToStand(in, sim) || angleDiff(sim.GoalYaw, rootYaw) > idleTurn
	if r.Idle {
		if asks {
			r.Idle = false
			return leave
		}
		return standing
	}
	if asks || groundDist(pred.Pos[PathPoints-1], sim.Pos) > idleTravel*db.Unit ||
		angleDiff(sim.GoalYaw, rootYaw) > idleTurn/2 {
		return moving
	}
	r.Idle = true
	return enter
}
