package matching

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// MaxCandidates bounds Settings.Rerank and a Shortlist.
const MaxCandidates = 32

// MaxTick (s) is the longest tick a Matcher plays: a longer dt (a stall, a
// huge dt slider) is played as MaxTick, so playback never skips through
// clips between searches.
const MaxTick = 0.1

// PathPoints is how many points of a predicted Trajectory there are.
const PathPoints = 31

// Candidate is a frame a search found and its cost: the set's total and
// each group's part (for Exact, the Inertial slot holds the exact cost's
// term), and the feet's exact inertialized displacement (m·s) for every
// set, for comparison.
type Candidate struct {
	Frame int
	Cost  float32
	Terms [NumGroups]float32
	Exact float32
}

// Poses are the poses a Matcher makes each tick, every one with its
// propagated velocities: Local the output's local pose in the
// character's frame (root motion as joint 0's velocities), Char its FK
// (the character's frame), World the output in the world (its FK with
// the root placed, the feet locked), Target the FK of the playing clip
// alone. wl is World's local pose: Local with the root in the world, as
// the feet's IK leaves it.
type Poses struct {
	Local, Char, World, Target animsys.Pose
	wl                         animsys.Pose
}

// Matcher drives one character through a Database. Update ticks it; its
// stages hold their state, exported for drawing and measuring. A tick
// runs them in the order of the fields below: the input steers the
// simulation (Sim) and its prediction (Predicted), the clip plays on
// (Play), the idle state decides whether to stand (Rest), a search may
// choose another frame (Search), the root moves and follows the
// simulation (Root), the clip is warped towards it (Warps), and the feet
// are locked (Feet); Disp measures what the transitions cost.
type Matcher struct {
	DB *Database
	S  Settings

	// Sim is the simulated character the input moves; Predicted its path
	// over the next second, in the world.
	Sim       Simulation
	Predicted Trajectory
	Play      Playback
	Rest      Rest
	Search    Searcher
	Root      RootSync
	Warps     Warps
	Feet      Feet
	Disp      Displacement
	Poses
}

// NewMatcher starts a Matcher on db at the first searchable frame of clip 0,
// standing at the origin facing +z.
func NewMatcher(db *Database, s Settings) *Matcher {
	n := db.Skel.Len()
	m := &Matcher{DB: db, S: s, Play: newPlayback(n), Search: newSearcher(), Warps: newWarps(n), Feet: newFeet(n),
		Disp: Displacement{Done: make([]float32, 0, 1024)}}
	animsys.NewPoses(n, &m.Local, &m.Char, &m.World, &m.Target, &m.wl)
	m.Reset()
	return m
}

// Reset puts the character back at the origin, at rest: standing in the
// idle stretch (Rest), or with the idle state off on clip 0's first
// searchable frame.
func (m *Matcher) Reset() {
	m.Sim = Simulation{}
	m.Root = RootSync{}
	m.Warps.reset()
	m.Feet.reset()
	m.Play.reset(m.DB)
	m.Rest = Rest{}
	if db := m.DB; m.S.Idle && db.IdleFrom >= 0 {
		m.Rest.stand(db, db.IdleFrom)
		c, f := db.Locate(db.IdleFrom)
		m.Play.Clip, m.Play.Time = c, float32(f)*db.Clips[c].FrameTime
		if m.Play.Learned != nil {
			// The idle stretch is held at its first frame: the stepper
			// left to play it through drifts from it.
			m.Rest.Hold = db.IdleFrom
			m.Play.jumpTo(db, db.IdleFrom)
			if m.Play.Learned.Frame == m.Rest.held() {
				m.Play.play = 0
			}
		} else if m.Play.holding(db, m.Rest.held()) {
			m.Play.play = 0
		}
	}
	m.Search.reset()
	m.Disp.reset()
	m.Play.evaluate(m.DB, &m.S, &m.Poses)
	m.Sim.predict(&m.S, &m.Predicted)
	m.world(0)
}

// Frame is the database index of the frame playing. For the learned
// controller it is the frame its state stands for (Learned.Frame): the
// anchor it started or stands in, or the frame whose features are
// nearest the state a projection went to, played on frame by frame; past
// that frame's clip, the frame whose features are nearest the state's.
// The controller itself never reads it: it is for measures and displays.
func (m *Matcher) Frame() int {
	l := m.Play.Learned
	if l == nil || l.Frame >= 0 {
		return m.Play.Frame(m.DB)
	}
	return m.Search.nearest(m.DB, l.Nets.Set, l.State()[:l.Nets.Dims()])
}

// UseNetworks makes the matcher a learned controller driven by nets
// (nil: the database's clips and search again), and resets it; it
// refuses networks trained on another database.
func (m *Matcher) UseNetworks(nets *Networks) error {
	if nets == nil {
		m.Play.Learned = nil
	} else {
		if err := nets.Fits(m.DB); err != nil {
			return err
		}
		m.Play.Learned = newLearned(m.DB, nets)
	}
	m.Reset()
	return nil
}

// contacts are the contact bits of what plays: the frame's labels, or
// the learned controller's decoded ones (bit s the ankle of foot s, 2+s
// its toe). At rest holding a frame that is no stance, with a foot or a
// heel up (a database with no stance, as a single walk cycle, holds its
// stillest frame: findStances), every bit is on and settle is true: the
// feet are put down on the floor where they are (Feet.lock), so the
// character stands on two level feet.
func (m *Matcher) contacts() (c uint8, settle bool) {
	if l := m.Play.Learned; l != nil {
		return l.Contacts, false
	}
	f := m.Frame()
	c = m.DB.contacts[f] & 15
	if m.Rest.Idle && m.Play.Playing() == 0 && !m.DB.stance(f) { // held, not an idle clip playing
		return 15, true
	}
	return c, false
}

// Update ticks the matcher by dt seconds (at most MaxTick) with input in:
// the simulation moves, the clip plays on at the playback rate, a search
// runs when due (not while idle) and a better frame is blended to, then
// the root moves by the output's root motion and towards the simulation,
// and the feet are locked. dt <= 0 changes nothing.
func (m *Matcher) Update(in Input, dt float32) {
	m.Search.Searched, m.Search.Transited = false, false
	if !(dt > 0) {
		return
	}
	dt = min(dt, MaxTick)
	db, s := m.DB, &m.S
	m.Sim.steer(in, s, db.Unit, dt)
	atEnd := m.Play.advance(db, s, &m.Sim, m.Rest.held(), &m.Poses, dt)
	m.Disp.measure(db, &m.Char, &m.Target, dt)
	m.Sim.predict(s, &m.Predicted)

	// A clip plays on to its end (its last EndMargin has features, only
	// it is not searched for): forcing a transition where a clip stops
	// being searchable would land on another's last searchable frame and
	// be forced again a tick later, ping-ponging between clips.
	due := m.Search.due(db, s, &m.Sim, dt)
	switch m.Rest.step(db, s, in, &m.Sim, &m.Predicted, m.Root.Yaw) {
	case enter:
		if l := m.Play.Learned; l != nil { // among its own stances, held at once
			m.Rest.stand(db, l.Nets.stanceFor(m.feet()))
			m.Rest.Hold = m.Rest.Stance
		} else {
			m.Rest.stand(db, db.StanceFor(m.feet()))
		}
		m.transition(m.Rest.Stance)
	case leave:
		m.Play.play = m.Play.Rate
		m.search(true)
	case moving:
		if due || atEnd {
			m.search(atEnd)
		}
	}
	m.Warps.update(db, &s.Warp, &m.Sim, m.Root.Yaw, &m.Local, dt)
	m.Root.move(&m.Local, dt)
	turn := float32(0) // the root turns beyond the clip where the search left it a turn
	if m.Search.Bent {
		turn = s.Warp.Turn
	}
	m.Root.synchronise(&s.Sync, &m.Sim, &m.Local, m.Rest.Idle, turn, db.Unit, dt)
	m.world(dt)
}

// search runs the Searcher on the output and transitions to what it
// found, if anything (it must find something when must).
func (m *Matcher) search(must bool) {
	if l := m.Play.Learned; l != nil {
		if m.Search.project(m.DB, &m.S, l, &m.Sim, &m.Char, &m.Predicted, &m.Root, must) {
			// The frame the projected state stands for, played on from
			// here: for measures and displays only (Matcher.Frame); the
			// controller's poses and choices never read it.
			f := m.Search.nearest(m.DB, l.Nets.Set, l.Projected[:l.Nets.Dims()])
			m.Play.blendToState(m.DB, &m.S, l.Projected, -1, m.Rest.held(), &m.Poses)
			l.Frame = f
			m.Play.locate(m.DB)
			m.counted()
		}
		return
	}
	if f := m.Search.search(m.DB, &m.S, &m.Sim, &m.Char, &m.Predicted, &m.Root, m.Frame(), must); f >= 0 {
		m.transition(f)
	}
}

// transition blends from the output pose to frame i, and counts it.
func (m *Matcher) transition(i int) {
	c, f := m.DB.Locate(i)
	m.Play.blendTo(m.DB, &m.S, m.Rest.held(), c, float32(f)*m.DB.Clips[c].FrameTime, &m.Poses)
	m.counted()
}

// counted counts a transition just started.
func (m *Matcher) counted() {
	m.Disp.transition(m.Search.Transitions == 0)
	m.Search.Transitions++
	m.Search.Transited = true
}

// feet are the output's ankles as the last tick left them, in the root's
// frame (m).
func (m *Matcher) feet() [2]mgl32.Vec3 {
	var out [2]mgl32.Vec3
	inv := mathx.QuatInv(yawQuatAngle(m.Root.Yaw))
	for s, j := range m.DB.Feet {
		out[s] = mathx.QuatMulVec3(inv, m.World.Pos[j].Sub(m.Root.Pos))
	}
	return out
}

// world makes World, the output in the world: FK of the local pose with
// the root placed by the RootSync, every joint with its propagated
// velocities; then the warps bend it and the feet are locked (a tick of
// dt seconds; 0 at a reset).
func (m *Matcher) world(dt float32) {
	root := m.Root.Kform(&m.Local)
	m.wl.CopyFrom(&m.Local)
	m.wl.SetKform(0, root)
	animsys.FK(&m.World, &m.wl, m.DB.Skel.Parents)
	m.Warps.pose(m.DB, &m.Poses, m.Root.Yaw, root.Ang[1])
	c, settle := m.contacts()
	m.Feet.lock(m.DB, &m.S.Lock, c, settle, &m.Poses, m.Root.Pos[1], dt)
}

// Shortlist appends to out the n (at most MaxCandidates) best candidates
// of the last search (Searcher.Shortlist).
func (m *Matcher) Shortlist(n int, out []Candidate) []Candidate {
	return m.Search.Shortlist(m.DB, n, out)
}

func abs32(x float32) float32 { return float32(math.Abs(float64(x))) }

// yawOf is the angle (rad about +y) of ground direction d (x, z).
func yawOf(d mgl32.Vec2) float32 { return float32(math.Atan2(float64(d[0]), float64(d[1]))) }

// yawDir is the ground direction of yaw a.
func yawDir(a float32) mgl32.Vec3 {
	s, c := math.Sincos(float64(a))
	return mgl32.Vec3{float32(s), 0, float32(c)}
}

// yawQuatAngle is the rotation by a about +y.
func yawQuatAngle(a float32) mgl32.Quat {
	return mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, a, 0})
}

// wrapAngle wraps a into [-π, π).
func wrapAngle(a float32) float32 {
	if !mathx.Finite(a) {
		return 0
	}
	x := math.Mod(float64(a)+math.Pi, 2*math.Pi)
	if x < 0 {
		x += 2 * math.Pi
	}
	return float32(x - math.Pi)
}

// angleDiff is |a - b| wrapped (rad).
func angleDiff(a, b float32) float32 { return abs32(wrapAngle(a - b)) }
