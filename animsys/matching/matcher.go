package matching

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
)

// Input is what the player asks for, in the world's ground plane (x, z).
type Input struct {
	// Move is the direction of travel, length at most 1 (0 stands still).
	Move mgl32.Vec2
	// Run asks for the run speed instead of the walk speed.
	Run bool
	// Face is the direction to face; zero faces the way the character moves.
	Face mgl32.Vec2
}

// Settings are a Matcher's parameters. Those in metres (speeds,
// ForceChange, Sync.Distance) are a human's: the matcher multiplies them
// by its database's Unit, so they fit a figure of any size.
type Settings struct {
	Set Set
	// Transition is how the matcher blends into the frame a search
	// found: any kind but animsys.TransitionBlend, which would need the
	// old clip kept playing (given it, the matcher cuts).
	Transition animsys.TransitionKind
	// Halflife (s) of spring inertialization and of dead blending's
	// velocity decay; the Inertial feature and the exact cost assume it.
	Halflife float32
	// BlendTime (s) of cubic inertialization and of dead blending.
	BlendTime float32
	// SearchPeriod (s) between searches; a change of the desired velocity
	// of ForceChange m/s, or of the facing of 45°, searches at once.
	SearchPeriod float32
	ForceChange  float32
	// Near (s): frames of the playing clip this close to the playing one
	// are skipped (carrying on is costed as the bound instead).
	Near float32
	// Rerank is how many of the Inertial search's best the Exact set
	// re-ranks.
	Rerank int
	// Brute searches by brute force instead of the index.
	Brute bool
	// Speeds (m/s, times Database.Unit): forward walking and running; sideways and backwards
	// travel is capped at SideSpeed and BackSpeed.
	WalkSpeed, RunSpeed, SideSpeed, BackSpeed float32
	// Half-lives (s) of the springs that predict the trajectory: on the
	// velocity, and on the facing angle.
	VelHalflife, FaceHalflife float32
	// Bias is how much (in the set's cost) the best frame must beat
	// carrying on by for the matcher to transition, and BiasShare by what
	// share of carrying on's cost besides: calm over restless.
	Bias, BiasShare float32
	Sync            SyncSettings
	Lock            LockSettings
	// Idle: while the input asks for no motion and the simulation is
	// about to stop, the matcher plays the database's idle stretch
	// (Database.IdleFrom..IdleTo), then holds its last frame, and does not
	// search, so standing does not search its way through walk clips. It
	// is entered and left with the set transition (Matcher.Idle).
	Idle bool
	Rate RateSettings
}

// RateSettings are the playback rate (Matcher.Rate): the clip plays at the
// ratio of the simulation's speed to the clip's own root speed (both on
// the spot, the clip turning: of their turn rates), eased by the scale
// spring of the scalar-velocity article and kept within RateMin..RateMax,
// so a database without the asked speed plays its nearest clip faster or
// slower instead of sliding the root under the feet. A turn on the spot
// played by the ratio of speeds ran at 0.7 (its root's sway is faster
// than a standing simulation's 0), its facing 2-4° further behind.
type RateSettings struct {
	On bool
	// Halflife (s) of the rate's spring.
	Halflife float32
}

// The playback rate's bounds: within them a gait still reads as itself (a
// walk at 0.7 is a slower walk, at 1.4 a brisker one: the speeds a person
// walks at span about that ratio at one cadence); beyond, it reads as slow
// motion or a film run fast, and the search must find a clip of the speed
// instead.
const (
	RateMin = 0.7
	RateMax = 1.4
	// rateFloor (m/s for a human, times Database.Unit) is added to both
	// speeds of the ratio: a clip standing still (an idle, a turn on the
	// spot) has no speed to divide by, and its rate's goal is then 1
	// while the simulation stands too.
	rateFloor = 0.1
)

// SyncSettings are the synchronisation of the animated root with the
// simulation (the reference controller's "adjustment" and "clamping").
// With both off the simulation stands where the character stands, as a
// matcher without it does.
type SyncSettings struct {
	// Adjust pulls the root towards the simulation: a damper of
	// Halflife (position) and RotHalflife (facing), at most Ratio of the
	// root's own speed and turn rate, so the feet do not visibly slide.
	Adjust                bool
	Halflife, RotHalflife float32
	Ratio                 float32
	// Clamp keeps the root within Distance (m, times Database.Unit) and
	// Angle (rad) of the simulation, whatever the animation does.
	Clamp           bool
	Distance, Angle float32
	// Hold: where the clamp's distance has been reached for longer than
	// HoldAfter (s) without a break, the simulation is held back to it
	// (the reference's synchronisation, bounded) rather than the root
	// dragged on (its clamping). The root then moves only by its root
	// motion and the adjustment, so a character the database cannot move
	// as asked (the captures of ../shared/locomotion have no running
	// turn) falls behind the input instead of skating after it: 37 cm/s
	// of ankle sliding on their circle dragged, 7 held. A shorter lag (a
	// transition's, a sharp turn's: 0.25-0.6 s on the zigzag of either
	// set, against 10 s on the captures' circle) is dragged, as the
	// reference does: held, it would leave the character behind the
	// input on every corner (the embedded zigzag's trajectory error 14
	// cm above its floor, against 3 dragged). HoldAfter's default, 1 s,
	// clears the zigzag's longest corners with room (0.5 s left the
	// embedded zigzag 3.05 cm above its floor, 1 s 2.90, as dragged); the
	// captures' circle then drags 1 s of each 10 s run (ankle 8.8 cm/s,
	// against 7.1 at 0.5 s). The facing is clamped on the root either way.
	Hold      bool
	HoldAfter float32
}

// DefaultSettings are a Matcher's settings to start with.
func DefaultSettings() Settings {
	return Settings{Set: InertialSet, Transition: animsys.TransitionSpring, Halflife: 0.1, BlendTime: 0.3,
		SearchPeriod: 0.1, ForceChange: 1, Near: 0.2, Rerank: 16,
		WalkSpeed: 1.4, RunSpeed: 3.6, SideSpeed: 1.1, BackSpeed: 1.0,
		VelHalflife: 0.25, FaceHalflife: 0.2, Bias: 0.1, BiasShare: 0.3,
		Sync: SyncSettings{Adjust: true, Halflife: 0.1, RotHalflife: 0.2, Ratio: 0.5, Clamp: true, Distance: 0.15, Angle: math.Pi / 2, Hold: true, HoldAfter: 1},
		Lock: LockSettings{On: true, Toes: true, Radius: 1, Halflife: 0.1},
		Idle: true, Rate: RateSettings{On: true, Halflife: 0.1}}
}

// MaxCandidates bounds Settings.Rerank and a Shortlist.
const MaxCandidates = 32

// MaxTick (s) is the longest tick a Matcher plays: a longer dt (a stall, a
// huge dt slider) is played as MaxTick, so playback never skips through
// clips between searches.
const MaxTick = 0.1

// PathPoints is how many points of the predicted trajectory Predicted holds.
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

// Matcher drives one character through a Database. Update ticks it; the
// exported fields are its state for drawing and measuring.
type Matcher struct {
	DB *Database
	S  Settings

	// Sim is the simulated character the input moves; lastGoal and
	// lastYaw its goal at the last search (a jump searches at once).
	Sim      Simulation
	lastGoal mgl32.Vec2
	lastYaw  float32

	// The character's root in the world: ground position (m) and facing;
	// adjVel (m/s) and adjYaw (rad/s) are the rates at which the last
	// tick's synchronisation moved it (propagated into World's velocities).
	RootPos mgl32.Vec3
	RootYaw float32
	adjVel  mgl32.Vec3
	adjYaw  float32
	// clamped (s) is how long the clamp's distance has been reached
	// without a break (SyncSettings.HoldAfter).
	clamped float32
	// Predicted is the predicted path of the root over the next second, in
	// the world, at PathPoints even times; PredFacing its facing.
	Predicted  [PathPoints]mgl32.Vec3
	PredFacing [PathPoints]mgl32.Vec3

	// Playing: clip and time (s) into it; the tick's poses: Local the
	// output's local pose in the character's frame (root motion as joint
	// 0's velocities), Char its FK (the character's frame), World the
	// output in the world (its FK with the root placed, the feet locked),
	// Target the FK of the playing clip alone.
	Clip int
	Time float32
	// Rate is the playback rate (RateSettings; 1 with it off) and RateVel
	// its base-2 scalar velocity (doublings/s); play is the rate the clip
	// plays at this tick: Rate, or 0 where the idle stretch is held.
	// clipSpeed (m/s) is the playing clip's own root speed, at rate 1.
	Rate, RateVel float32
	play          float32
	clipSpeed     float32
	// clipTurn (rad/s) is its root's turn rate, at rate 1.
	clipTurn float32
	// Idle: the matcher stands in the idle state (Settings.Idle).
	Idle   bool
	Local  animsys.Pose
	Char   animsys.Pose
	World  animsys.Pose
	Target animsys.Pose
	samp   animsys.Pose
	root   animsys.Pose       // one joint: scratch of Database.Sample
	wl     animsys.Pose       // Local with the root in the world: World's local pose
	trans  animsys.Transition // the last transition, into the clip playing
	// Locks are the ankles' locks (left, right), ToeLocks the toes'.
	Locks, ToeLocks [2]FootLock
	// ik is the IK's scratch, how far (m) the hips are lowered for the
	// held feet and how fast, and each foot's pull into the leg's reach.
	ik struct {
		temp, a, b    animsys.Pose
		drop, dropVel float32
		pull          [2]decay
	}

	// Searches: the query of the last one, the cost of carrying on then,
	// whether this tick searched and transitioned, and counts.
	Query       []float32
	LastQuery   Query     // the last search's, its Features being Query
	Carry       Candidate // the cost of carrying on, at the last search
	Searched    bool      // this tick searched
	Transited   bool      // this tick transitioned
	Searches    int
	Transitions int
	// SearchNs are the last searches' times (ns), a ring of SearchTimes.
	SearchNs    []int64
	sorted      []int64 // SearchStats' buffer
	sinceSearch float32
	results     []Result
	listed      []Result // Shortlist's
	rerank      []Candidate
	raw         rawFeatures
	// queried is what the last search costed candidates from: its set,
	// and the output's feet (character frame, m and m/s) then.
	queried struct {
		set      Set
		pos, vel [2]mgl32.Vec3
	}

	// Displacement (m·s) the inertializer has added to the feet since the
	// last transition, ∫ Σ|out - target| dt (L1 over axes, both feet);
	// Displacements the finished transitions' totals.
	Displacement  float32
	Displacements []float32
}

// SearchTimes is how many search times a Matcher keeps.
const SearchTimes = 4096

// NewMatcher starts a Matcher on db at the first searchable frame of clip 0,
// standing at the origin facing +z.
func NewMatcher(db *Database, s Settings) *Matcher {
	n := db.Skel.Len()
	m := &Matcher{DB: db, S: s}
	animsys.NewPoses(n, &m.Local, &m.Char, &m.World, &m.Target, &m.samp, &m.wl, &m.ik.temp, &m.ik.a, &m.ik.b)
	m.trans = animsys.NewTransition(n)
	m.root = animsys.NewPose(1)
	m.Query = make([]float32, 0, 64)
	m.results = make([]Result, 0, MaxCandidates)
	m.listed = make([]Result, 0, MaxCandidates)
	m.rerank = make([]Candidate, 0, MaxCandidates)
	m.SearchNs = make([]int64, 0, SearchTimes)
	m.sorted = make([]int64, 0, SearchTimes)
	m.Displacements = make([]float32, 0, 1024)
	m.Reset()
	return m
}

// Reset puts the character back at the origin on clip 0's first
// searchable frame, at rest.
func (m *Matcher) Reset() {
	m.Sim, m.lastGoal, m.lastYaw = Simulation{}, mgl32.Vec2{}, 0
	m.RootPos, m.RootYaw, m.adjVel, m.adjYaw, m.clamped = mgl32.Vec3{}, 0, mgl32.Vec3{}, 0, 0
	m.Locks, m.ToeLocks = [2]FootLock{}, [2]FootLock{}
	m.ik.drop, m.ik.dropVel, m.ik.pull = 0, 0, [2]decay{}
	m.Clip, m.Time = 0, 0
	m.Rate, m.RateVel, m.play, m.clipSpeed, m.Idle = 1, 0, 1, 0, false
	for i, ok := range m.DB.Searchable {
		if ok {
			c, f := m.DB.Locate(i)
			m.Clip, m.Time = c, float32(f)*m.DB.Clips[c].FrameTime
			break
		}
	}
	m.trans.Start(animsys.TransitionCut, nil, nil)
	m.Searches, m.Transitions, m.sinceSearch = 0, 0, 0
	m.SearchNs, m.Displacements, m.Displacement = m.SearchNs[:0], m.Displacements[:0], 0
	m.evaluate()
	m.predict()
	m.world(0)
}

// Playing is the rate the clip plays at (its time's seconds a second):
// Rate, or 0 while the idle stretch is held.
func (m *Matcher) Playing() float32 { return m.play }

// Frame is the database index of the frame playing.
func (m *Matcher) Frame() int {
	c := &m.DB.Clips[m.Clip]
	f := int(m.Time/c.FrameTime + 0.5)
	return m.DB.At(m.Clip, min(max(f, 0), c.Frames-1))
}

// Update ticks the matcher by dt seconds (at most MaxTick) with input in:
// the simulation moves, the clip plays on at the playback rate, a search
// runs when due (not while idle) and a better frame is blended to, then
// the root moves by the output's root motion and towards the simulation,
// and the feet are locked. dt <= 0 changes nothing.
func (m *Matcher) Update(in Input, dt float32) {
	m.Searched, m.Transited = false, false
	if !(dt > 0) {
		return
	}
	dt = min(dt, MaxTick)
	m.Sim.steer(in, &m.S, m.DB.Unit, dt)

	clip := &m.DB.Clips[m.Clip]
	hold := m.advance(dt)
	m.trans.Advance(dt)
	atEnd := m.Time > clip.Duration()
	if atEnd {
		m.Time = clip.Duration()
	}
	m.evaluate()
	if hold { // the idle stretch's end: blend into holding it
		m.play = 0
		m.blendTo(m.Clip, m.Time)
	}
	m.measure(dt)
	m.predict()

	// A clip plays on to its end (its last EndMargin has features, only
	// it is not searched for): forcing a transition where a clip stops
	// being searchable would land on another's last searchable frame and
	// be forced again a tick later, ping-ponging between clips.
	m.sinceSearch += dt
	goalDelta := m.Sim.GoalVel.Sub(m.lastGoal).Len()
	if idle, left := m.rest(in); !idle && (left || atEnd || m.sinceSearch >= m.S.SearchPeriod ||
		goalDelta > m.S.ForceChange*m.DB.Unit || angleDiff(m.Sim.GoalYaw, m.lastYaw) > math.Pi/4) {
		m.search(atEnd || left)
	}
	m.moveRoot(dt)
	m.synchronise(dt)
	m.world(dt)
}

// predict fills Predicted and PredFacing: the simulation's path over the
// next second.
func (m *Matcher) predict() { m.Sim.predict(&m.S, &m.Predicted, &m.PredFacing) }

// advance updates the playback rate and plays the clip on by dt seconds
// at it; it reports whether the idle stretch's end was reached this tick
// (the time is held there from now on: Update blends into the hold).
func (m *Matcher) advance(dt float32) bool {
	m.updateRate(dt)
	held := m.Idle && m.play == 0
	if !held {
		m.play = m.Rate
	}
	m.Time += m.play * dt
	return !held && m.holding()
}

// updateRate springs Rate over dt seconds towards the ratio of the
// simulation's speed to the clip's root speed (1 while idle: the idle
// stretch plays as captured), by the scalar-velocity article's
// simple_spring_damper_exact_scale: a rate is a scale of time, so it is
// eased in log2 space and RateVel is in doublings per second. Off, the
// rate is 1.
func (m *Matcher) updateRate(dt float32) {
	r := &m.S.Rate
	if !r.On {
		m.Rate, m.RateVel = 1, 0
		return
	}
	f := rateFloor * m.DB.Unit
	goal := float32(1)
	switch speed := m.Sim.Vel.Len(); {
	case m.Idle:
	case speed < f && m.clipSpeed < f && m.clipTurn > RestTurn:
		// A turn on the spot asked of a turn on the spot: the ratio of
		// the turn rates, as the speeds' is for a walk.
		goal = mathx.Clamp(abs32(m.Sim.YawVel)/m.clipTurn, RateMin, RateMax)
	default:
		goal = mathx.Clamp((speed+f)/(m.clipSpeed+f), RateMin, RateMax)
	}
	if !(goal > 0) || !mathx.Finite(goal) { // a NaN speed: play as captured
		goal = 1
	}
	x, v := spring.ScaleSpringDamperExact(mgl32.Vec3{m.Rate, 1, 1}, mgl32.Vec3{m.RateVel}, mgl32.Vec3{goal, 1, 1}, r.Halflife, dt)
	if !mathx.Finite(x[0]) || !mathx.Finite(v[0]) { // a NaN half-life: at the goal
		x[0], v[0] = goal, 0
	}
	m.Rate, m.RateVel = mathx.Clamp(x[0], RateMin, RateMax), v[0]
	if m.Rate != x[0] || !mathx.Finite(v[0]) { // at a bound the rate stops there
		m.RateVel = 0
	}
}

// holding clamps the clip time at the idle stretch's last frame while
// idle and playing that clip, and reports whether it is there.
func (m *Matcher) holding() bool {
	if !m.Idle {
		return false
	}
	c, f := m.DB.Locate(m.DB.IdleTo)
	end := float32(f) * m.DB.Clips[c].FrameTime
	if m.Clip != c || m.Time < end {
		return false
	}
	m.Time = end
	return true
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

// rest runs the idle state for a tick with input in (after predict): it
// enters (a transition to the idle stretch's first frame) and leaves (the
// caller then searches, obliged to transition, at once). idle reports
// that the matcher stands idle this tick and does not search; left that
// it has just left.
func (m *Matcher) rest(in Input) (idle, left bool) {
	db := m.DB
	if !m.S.Idle || db.IdleFrom < 0 {
		m.Idle = false
		return false, false
	}
	asks := !asksToStand(in, &m.Sim) || angleDiff(m.Sim.GoalYaw, m.RootYaw) > idleTurn
	if m.Idle {
		if asks {
			m.Idle, m.play = false, m.Rate
			return false, true
		}
		return true, false
	}
	if asks || groundDist(m.Predicted[PathPoints-1], m.Sim.Pos) > idleTravel*db.Unit ||
		angleDiff(m.Sim.GoalYaw, m.RootYaw) > idleTurn/2 {
		return false, false
	}
	m.Idle = true
	m.transition(db.IdleFrom)
	return true, false
}

// sample writes clip c at time t (s) into samp as the matcher plays it:
// the database's sample, its root read as root motion, its velocities
// (linear, angular, scalar) times the rate play, and keeps the clip's
// own root speed at rate 1 (clipSpeed, the rate's denominator). A clip
// played at rate r is P(τ) with dτ/dt = r, so every velocity is r·P'(τ)
// exactly: the rate's own change (RateVel) enters its accelerations, not
// its velocities.
func (m *Matcher) sample(c int, t float32) {
	m.DB.Sample(&m.samp, &m.root, c, t)
	RootMotion(&m.samp)
	v := m.samp.Vel[0]
	m.clipSpeed = mgl32.Vec2{v[0], v[2]}.Len()
	m.clipTurn = abs32(m.samp.Ang[0][1])
	if m.play != 1 {
		animsys.TimeScale(&m.samp, m.play)
	}
}

// evaluate samples the playing clip at Time into Target's local pose
// (samp, at the playback rate), blends the last transition into it, and
// runs FK of both in the character's frame.
func (m *Matcher) evaluate() {
	m.sample(m.Clip, m.Time)
	m.trans.Apply(&m.Local, &m.samp, nil, m.transitionParams())
	// Root motion is joint 0's velocity: its position and rotation stay
	// at the character's origin (the root moves in moveRoot).
	m.Local.Pos[0], m.Local.Rot[0], m.Local.Scl[0] = mgl32.Vec3{}, mathx.QuatIdentity(), mgl32.Vec3{1, 1, 1}
	animsys.FK(&m.Char, &m.Local, m.DB.Skel.Parents)
	animsys.FK(&m.Target, &m.samp, m.DB.Skel.Parents)
}

// transitionParams are the transitions' durations from the settings:
// BlendTime for the cubic and dead blending's cross-fade, Halflife for the
// spring and dead blending's decay.
func (m *Matcher) transitionParams() animsys.TransitionParams {
	s := &m.S
	return animsys.TransitionParams{BlendDuration: s.BlendTime, CubicDuration: s.BlendTime,
		Halflife: s.Halflife, DeadHalflife: s.Halflife}
}

// measure adds the tick's inertialized displacement of the feet.
func (m *Matcher) measure(dt float32) {
	for _, j := range m.DB.Feet {
		d := m.Char.Pos[j].Sub(m.Target.Pos[j])
		m.Displacement += (abs32(d[0]) + abs32(d[1]) + abs32(d[2])) * dt
	}
}

// features gathers the query's raw features: the output's feet and hips
// (exact velocities, propagated through the blend) and the predicted
// trajectory, in the character's root frame.
func (m *Matcher) features() *rawFeatures {
	r := &m.raw
	for s, j := range m.DB.Feet {
		copy(r[FootPos][3*s:], m.Char.Pos[j][:])
		copy(r[FootVel][3*s:], m.Char.Vel[j][:])
	}
	copy(r[HipVel][:3], m.Char.Vel[m.DB.Hips][:])
	inv := mathx.QuatInv(yawQuatAngle(m.RootYaw))
	for k, tau := range TrajectoryTimes {
		i := int(tau*(PathPoints-1) + 0.5)
		d := mathx.QuatMulVec3(inv, m.Predicted[i].Sub(m.RootPos))
		f := mathx.QuatMulVec3(inv, m.PredFacing[i])
		r[TrajPos][2*k], r[TrajPos][2*k+1] = d[0], d[2]
		r[TrajDir][2*k], r[TrajDir][2*k+1] = f[0], f[2]
	}
	y := halfDamping(m.DB.Halflife)
	for i := 0; i < 6; i++ {
		r[Inertial][i] = 2*r[FootPos][i]/y + r[FootVel][i]/(y*y)
	}
	return r
}

// search finds the best frame for the output pose and the predicted
// trajectory and blends to it if it beats carrying on (or must: the clip
// is ending).
func (m *Matcher) search(must bool) {
	db, s := m.DB, &m.S
	m.Searched, m.sinceSearch = true, 0
	m.lastGoal, m.lastYaw = m.Sim.GoalVel, m.Sim.GoalYaw
	m.Searches++
	set := s.Set
	r := m.features()
	dims := db.Dims(set)
	m.Query = m.Query[:dims]
	db.normalise(set, r, m.Query)
	idx := db.Index(set)
	m.queried.set = set
	for s, j := range db.Feet {
		m.queried.pos[s], m.queried.vel[s] = m.Char.Pos[j], m.Char.Vel[j]
	}

	cur := m.Frame()
	c, f := db.Locate(cur)
	near := int(s.Near/db.Clips[c].FrameTime + 0.5)
	q := Query{Features: m.Query, N: 1, SkipLo: db.At(c, max(f-near, 0)),
		SkipHi: db.At(c, min(f+near+1, db.Clips[c].Frames)), Bound: float32(math.Inf(1))}
	m.Carry = m.candidate(cur)
	if !must {
		q.Bound = m.Carry.Cost
	}
	// The decision: the best frame below the cost of carrying on (Exact:
	// the Inertial search's best Rerank, re-ranked by the exact cost).
	// Only this search is timed.
	if set == Exact {
		q.N, q.Bound = min(max(s.Rerank, 1), MaxCandidates), float32(math.Inf(1))
	}
	m.LastQuery = q
	t0 := time.Now()
	if s.Brute {
		m.results = idx.SearchBrute(q, m.results[:0])
	} else {
		m.results = idx.Search(q, m.results[:0])
	}
	m.rerank = m.rerank[:0]
	for _, res := range m.results {
		m.rerank = append(m.rerank, m.candidate(res.Frame))
	}
	if set == Exact { // the exact cost re-ranks what the feature found
		slices.SortStableFunc(m.rerank, func(a, b Candidate) int { return cmp.Compare(a.Cost, b.Cost) })
	}
	ns := time.Since(t0).Nanoseconds()
	if len(m.SearchNs) == cap(m.SearchNs) {
		copy(m.SearchNs, m.SearchNs[1:])
		m.SearchNs = m.SearchNs[:len(m.SearchNs)-1]
	}
	m.SearchNs = append(m.SearchNs, ns)
	if len(m.rerank) == 0 {
		return
	}
	best := m.rerank[0]
	if !must && (!(best.Cost < (1-m.S.BiasShare)*m.Carry.Cost-m.S.Bias)) {
		return
	}
	m.transition(best.Frame)
}

// Shortlist appends to out the n (at most MaxCandidates) best candidates
// of the last search's query whatever carrying on costs, best first: the
// Exact set's re-ranked list, else an untimed search of its own. It may
// be called at any time until the next search (with the costs as that
// search saw them); out may be a buffer of MaxCandidates to allocate
// nothing.
func (m *Matcher) Shortlist(n int, out []Candidate) []Candidate {
	n = min(n, MaxCandidates)
	if m.Searches == 0 || n <= 0 {
		return out
	}
	if m.queried.set == Exact {
		return append(out, m.rerank[:min(len(m.rerank), n)]...)
	}
	q := m.LastQuery
	q.N, q.Bound = n, float32(math.Inf(1))
	m.listed = m.DB.Index(m.queried.set).Search(q, m.listed[:0])
	for _, res := range m.listed {
		out = append(out, m.candidate(res.Frame))
	}
	return out
}

// candidate costs database frame i against the last query: each group's
// part, the set's total (for Exact, with the exact cost's term in place
// of the Inertial feature's) and the feet's exact displacement.
func (m *Matcher) candidate(i int) Candidate {
	db, set := m.DB, m.queried.set
	k := Candidate{Frame: i}
	for _, g := range setGroups[set] {
		k.Terms[g] = db.GroupCost(set, g, m.Query, i)
	}
	pos, vel := db.FootState(i)
	h := db.Halflife
	var exactTerm float32
	kI := db.weights[Inertial] / db.scale[Inertial]
	for s := range db.Feet {
		dx, dv := m.queried.pos[s].Sub(pos[s]), m.queried.vel[s].Sub(vel[s])
		for a := 0; a < 3; a++ {
			e := spring.TransitionCost(dx[a], dv[a], h)
			k.Exact += e
			exactTerm += e * kI * e * kI
		}
	}
	if set == Exact {
		k.Terms[Inertial] = exactTerm
	}
	for _, g := range setGroups[set] {
		k.Cost += k.Terms[g]
	}
	if set != Exact { // the index's own sum, bit for bit, so bounds agree with it
		k.Cost = db.Index(set).Cost(m.Query, i)
	}
	return k
}

// transition blends from the output pose to frame i, and counts it.
func (m *Matcher) transition(i int) {
	c, f := m.DB.Locate(i)
	m.blendTo(c, float32(f)*m.DB.Clips[c].FrameTime)
	if m.Transitions > 0 || m.Displacement > 0 {
		m.Displacements = append(m.Displacements, m.Displacement)
	}
	m.Displacement = 0
	m.Transitions++
	m.Transited = true
}

// blendTo starts the set transition from the output pose to clip c at
// time t (s), played at the rate (held, rate 0, at the idle stretch's
// end), and evaluates it.
func (m *Matcher) blendTo(c int, t float32) {
	m.Clip, m.Time = c, t
	if m.holding() {
		m.play = 0
	}
	m.sample(c, m.Time)
	kind := m.S.Transition
	if kind == animsys.TransitionBlend {
		kind = animsys.TransitionCut
	}
	m.trans.Start(kind, &m.Local, &m.samp)
	m.evaluate()
}

// moveRoot moves the character's root by the output's root motion (joint
// 0's velocity and yaw rate, in the root's frame) over dt.
func (m *Matcher) moveRoot(dt float32) {
	v := mathx.QuatMulVec3(yawQuatAngle(m.RootYaw), m.Local.Vel[0])
	v[1] = 0
	m.RootPos = m.RootPos.Add(v.Mul(dt))
	m.RootYaw = wrapAngle(m.RootYaw + m.Local.Ang[0][1]*dt)
}

// synchronise pulls the root towards the simulation (while idle, the
// simulation towards the root) and keeps it near
// (Settings.Sync), recording the rates it moved it at (adjVel, adjYaw)
// for the propagated velocities. With neither on, the simulation is put
// where the root stands, as before there was one.
func (m *Matcher) synchronise(dt float32) {
	s, sim := &m.S.Sync, &m.Sim
	m.adjVel, m.adjYaw = mgl32.Vec3{}, 0
	if !s.Adjust && !s.Clamp {
		sim.Pos, sim.Yaw = m.RootPos, m.RootYaw
		return
	}
	pos, yaw := m.RootPos, m.RootYaw
	if m.Idle {
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
		v := mathx.QuatMulVec3(yawQuatAngle(m.RootYaw), m.Local.Vel[0])
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
		most := s.Ratio * abs32(m.Local.Ang[0][1]) * dt
		turn = mathx.Clamp(turn, -most, most)
		yaw += turn
	}
	if s.Clamp {
		// The time at the clamp counts up while its distance is reached.
		d, most := pos.Sub(sim.Pos), s.Distance*m.DB.Unit
		if !(d.Len() > most) {
			m.clamped = 0
		} else if m.clamped += dt; s.Hold && m.clamped > s.HoldAfter {
			sim.Pos = pos.Sub(d.Mul(most / d.Len()))
		} else {
			pos = sim.Pos.Add(d.Mul(most / d.Len()))
		}
		if a := wrapAngle(yaw - sim.Yaw); abs32(a) > s.Angle {
			yaw = sim.Yaw + mathx.Clamp(a, -s.Angle, s.Angle)
		}
	}
	m.adjVel = pos.Sub(m.RootPos).Mul(1 / dt)
	m.adjYaw = wrapAngle(yaw-m.RootYaw) / dt
	m.RootPos, m.RootYaw = pos, wrapAngle(yaw)
}

// world makes World, the output in the world: FK of the local pose with
// the root at RootPos, turned by RootYaw and moving with the root motion
// plus the synchronisation's rates, every joint with its propagated
// velocities; then the feet are locked (a tick of dt seconds; 0 at a
// reset).
func (m *Matcher) world(dt float32) {
	r := yawQuatAngle(m.RootYaw)
	root := animsys.KformIdentity()
	root.Pos, root.Rot = m.RootPos, r
	root.Vel = mathx.QuatMulVec3(r, m.Local.Vel[0]).Add(m.adjVel)
	root.Ang = mathx.QuatMulVec3(r, m.Local.Ang[0]).Add(mgl32.Vec3{0, m.adjYaw, 0})
	m.wl.CopyFrom(&m.Local)
	m.wl.SetKform(0, root)
	animsys.FK(&m.World, &m.wl, m.DB.Skel.Parents)
	m.lockFeet(dt)
}

// SearchStats are the median, 99th percentile and largest (µs) of the
// kept search times, sorted in a buffer the matcher keeps (no allocation).
func (m *Matcher) SearchStats() (median, p99, worst float64) {
	m.sorted = append(m.sorted[:0], m.SearchNs...)
	slices.Sort(m.sorted)
	if len(m.sorted) == 0 {
		return 0, 0, 0
	}
	return rank(m.sorted, 0.5) / 1e3, rank(m.sorted, 0.99) / 1e3, float64(m.sorted[len(m.sorted)-1]) / 1e3
}

// rank is the q-quantile (nearest rank) of sorted, which is not empty.
func rank(sorted []int64, q float64) float64 {
	k := int(math.Ceil(q*float64(len(sorted)))) - 1
	return float64(sorted[min(max(k, 0), len(sorted)-1)])
}

// Percentile is the q-quantile of xs (nearest rank), 0 for none; xs is
// not changed.
func Percentile(xs []int64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return rank(s, q)
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
