package matching

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

// Meter measures a matcher's run tick by tick (Tick after each Update):
// what Metrics reports, for Eval and for the lab's readout. Its parts
// each measure one thing.
type Meter struct {
	clock    meterClock
	feet     feetMeter
	path     pathMeter
	redBlue  redBlueMeter
	learned  learnedMeter
	syncDist float64
	bone     float32
	havePrev bool // a tick was measured before: the feet and red against blue have a last tick
	// Last is what the last tick saw, for a dump (EvalEach).
	Last TickRecord
}

// meterClock counts time and transitions, in all and at rest, and at
// rest after the first SettleTime.
type meterClock struct {
	ticks, idleTicks     int
	trans, idleTrans     int
	seconds, idleSeconds float64
	sinceStart           float64
	settled              float64 // s idle after SettleTime
	settledTrans         int
}

// What the rest measures look at: idle ticks after the run's first
// SettleTime (s) for the settled transitions, and the last LevelWindow
// (s) of the run for the level ankles, within LevelHeight (m for a
// human, times Database.Unit) of each other: a planted heel stands 5-12
// cm over the ground depending on the rig, a lifted one 3-7 cm more.
const (
	SettleTime  = 5
	LevelWindow = 20
	LevelHeight = 0.03
)

// feetMeter measures the feet's sliding: on the lock's own labels
// (Database.Contact), and on the second definition's (Database.Truth) for
// the ankles and the toes: summed ground speeds (m/s), the foot-ticks
// labelled, those labelled after a labelled one (standing), and the last
// tick's labels and joints.
type feetMeter struct {
	slide                        float64
	contact, footTicks, standing int
	prevContact                  [2]bool
	ankleSlide, toeSlide         float64
	ankleStanding, toeStanding   int
	ankleContact, toeContact     int
	prevAnkleTruth, prevToeTruth [2]bool
	prevFeet, prevToes           [2]mgl32.Vec3
	prevLocked                   [2]bool
	turned, toeTicks             int
	// ankleSkate and toeSkate sum the foot skating (skate, m/s) over the
	// skated foot-ticks (those with a tick before).
	ankleSkate, toeSkate float64
	skated               int
	// level is a ring of the last LevelWindow seconds, a slot a second
	// (by the run's time): idle ticks, and those with level ankles.
	level [LevelWindow]struct {
		second      int
		idle, level int
	}
}

// skateHeight (m for a human, times Database.Unit) is the foot skating's
// height band H (Zhang et al. 2018 take 2.5 cm): a joint higher than that
// above its floor is in the air and does not skate.
const skateHeight = 0.025

// skate is the foot skating of a joint moving at speed (m/s) on the
// ground h (m) above its floor, with band top (m): speed x (2 - 2^(h/top))
// below top (all of it at or under the floor, none at top), else 0.
func skate(speed float64, h, top float32) float64 {
	if !(h < top) {
		return 0
	}
	return speed * (2 - math.Exp2(float64(max(h, 0)/top)))
}

// pathMeter measures the trajectory error: the last second's
// predictions (oldest first) come due against where the root is. free is
// a copy of the matcher's simulation steered by the same input and never
// synchronised (neither held back to the root nor pulled to it at rest):
// its error against its own predictions is the part the input's changes
// make alone, the trajectory error's floor. The matcher's own simulation
// will not do once the synchronisation moves it: held back at the clamp
// to a root that cannot keep up, it is wrong by as much as the root, and
// the floor rose with the error (on the captures' circle, 59.7 cm held
// against 7.2 free).
type pathMeter struct {
	ahead                  []meterAhead
	trajErr, simErr, trajN float64
	free                   Simulation
	freePath               Trajectory
	freeOn                 bool
}

// redBlueMeter sums |propagated - finite difference| world velocities
// over joints and ticks; prevPos are the last tick's positions.
type redBlueMeter struct {
	sum     float64
	n       int
	prevPos []mgl32.Vec3
}

// TickRecord is one tick of a run as Meter saw it: the rows of `kinelab
// matching eval --dump`. Positions are metres in the world.
type TickRecord struct {
	Time       float64 // s since the start, at the tick's end
	Frame      int     // the database frame playing (Matcher.Frame)
	Transition bool    // the matcher transitioned on this tick (a search chose another frame)
	Rate       float32 // the rate the clip played at (Playback.Playing: 0 while the idle stretch is held)
	Idle       bool    // the matcher stands in the idle state (Rest.Idle)
	// Stride (ratio) and Orient (rad) are the warps' amounts (Warps);
	// Bent: the search left a turn to the root (Searcher.Bent).
	Stride, Orient float32
	Bent           bool
	// Root is the character's root and Sim the simulation (ground
	// level); Predicted where the root was predicted, on this tick, to
	// stand a second on (the last point of Matcher.Predicted).
	Root, Sim, Predicted mgl32.Vec3
	// FreeSim and FreePredicted are the same for the simulation only the
	// input steers (Meter.free), the trajectory error's floor.
	FreeSim, FreePredicted mgl32.Vec3
	// Ankle and Toe are the output's (Matcher.World, the feet locked),
	// left then right; SourceAnkle and SourceToe those of the clip
	// playing alone (Matcher.Target, sampled at the time playing) placed
	// at the output's root. The toes are zero for a figure without toes.
	Ankle, Toe, SourceAnkle, SourceToe [2]mgl32.Vec3
	// LockContact is the lock's label of the frame playing
	// (Database.Contact) and Locked whether the lock holds the ankle,
	// ToeLocked whether the toe's lock holds the toe (Matcher.ToeLocks);
	// AnkleContact and ToeContact the second definition's labels
	// (Database.Truth) of the frame playing.
	LockContact, Locked, ToeLocked, AnkleContact, ToeContact [2]bool
	// Released: the ankle's lock let go this tick (its label ended, the
	// animated foot strayed, or the foot stepped to uncross the legs).
	Released [2]bool
}

// meterAhead is one tick's prediction of where the root and the
// simulation will be a second on, and when (s since the start).
type meterAhead struct {
	at   float64
	pred mgl32.Vec3
	// free is the free simulation's own prediction (pathMeter.free).
	free mgl32.Vec3
}

// meterTail (s) is how far ahead the trajectory error looks.
const meterTail = 1.0

// Begin starts the floor's free simulation (pathMeter.free) where m's
// simulation stands before its first tick. Without it, the first Tick
// starts it where that tick left m's.
func (mt *Meter) Begin(m *Matcher) { mt.path.free, mt.path.freeOn = m.Sim, true }

// Tick measures the tick of dt seconds the matcher m just played with
// input in.
func (mt *Meter) Tick(m *Matcher, in Input, dt float32) {
	db := m.DB
	idle := mt.clock.tick(m, in, dt)
	rec := &mt.Last
	rec.Time, rec.Frame, rec.Transition = mt.clock.sinceStart, m.Frame(), m.Search.Transited
	rec.Rate, rec.Idle = m.Play.Playing(), m.Rest.Idle
	rec.Stride, rec.Orient, rec.Bent = m.Warps.Stride, m.Warps.Orient, m.Search.Bent
	rec.Root, rec.Sim, rec.Predicted = m.Root.Pos, m.Sim.Pos, m.Predicted.End()
	mt.feet.tick(m, rec, mt.havePrev, dt)
	mt.feet.rest(m.DB, rec, idle)
	mt.syncDist += float64(groundDist(m.Root.Pos, m.Sim.Pos))
	mt.bone = max(mt.bone, db.BoneLengthError(&m.World))
	mt.redBlue.tick(&m.World, mt.havePrev, dt)
	mt.learned.tick(m, rec.Frame)
	mt.havePrev = true
	mt.path.tick(m, in, rec, mt.clock.sinceStart, dt)
}

// tick counts a tick of dt seconds of m with input in; it reports whether
// the tick was at rest. Idle: the input asks to stand (asksToStand, the
// Matcher's own test to leave its idle state) and the simulation has
// come to rest (the stop itself, while the springs slow it, is still
// moving, and so is a turn on the spot).
func (c *meterClock) tick(m *Matcher, in Input, dt float32) bool {
	c.ticks++
	c.seconds += float64(dt)
	c.sinceStart += float64(dt)
	idle := asksToStand(in, &m.Sim) && m.Sim.Vel.Len() < RestSpeed*m.DB.Unit && abs32(m.Sim.YawVel) < RestTurn
	if idle {
		c.idleTicks++
		c.idleSeconds += float64(dt)
	}
	settled := idle && c.sinceStart > SettleTime
	if settled {
		c.settled += float64(dt)
	}
	if m.Search.Transited {
		c.trans++
		if idle {
			c.idleTrans++
		}
		if settled {
			c.settledTrans++
		}
	}
	return idle
}

// tick measures the feet of m's tick of dt seconds into rec; prev: the
// meter has the last tick's.
func (fm *feetMeter) tick(m *Matcher, rec *TickRecord, prev bool, dt float32) {
	db, w := m.DB, &m.World
	frame := rec.Frame
	// ground is the ground speed (m/s) from a to b over the tick.
	ground := func(a, b mgl32.Vec3) float64 { return float64(groundDist(a, b) / dt) }
	locks, toeLocks := &m.Feet.Locks, &m.Feet.ToeLocks
	for s, j := range db.Feet {
		p := w.Pos[j]
		if c := locks[s].Contact; c {
			fm.contact++
			if prev && fm.prevContact[s] {
				fm.slide += ground(p, fm.prevFeet[s])
				fm.standing++
			}
		}
		fm.footTicks++
		ankle, toe := db.Truth(frame, s)
		if ankle {
			fm.ankleContact++
			if prev && fm.prevAnkleTruth[s] {
				fm.ankleSlide += ground(p, fm.prevFeet[s])
				fm.ankleStanding++
			}
		}
		var tp mgl32.Vec3
		if db.HasToes() {
			tp = w.Pos[db.Toes[s]]
			rec.Toe[s], rec.SourceToe[s] = tp, m.Root.Place(m.Target.Pos[db.Toes[s]])
		}
		if toe {
			fm.toeContact++
			if prev && fm.prevToeTruth[s] {
				fm.toeSlide += ground(tp, fm.prevToes[s])
				fm.toeStanding++
			}
		}
		if prev {
			floor := m.Root.Pos[1] // the ground under the character
			top := skateHeight * db.Unit
			fm.ankleSkate += skate(ground(p, fm.prevFeet[s]), p[1]-floor-db.truth.ankleFloor, top)
			fm.toeSkate += skate(ground(tp, fm.prevToes[s]), tp[1]-floor-db.truth.toeFloor, top)
			fm.skated++
		}
		rec.Ankle[s], rec.SourceAnkle[s] = p, m.Root.Place(m.Target.Pos[j])
		rec.LockContact[s], rec.Locked[s], rec.ToeLocked[s] = locks[s].Contact, locks[s].Locked, toeLocks[s].Locked
		rec.Released[s] = fm.prevLocked[s] && !locks[s].Locked
		fm.prevLocked[s] = locks[s].Locked
		rec.AnkleContact[s], rec.ToeContact[s] = ankle, toe
		fm.prevFeet[s], fm.prevContact[s] = p, locks[s].Contact
		fm.prevToes[s], fm.prevAnkleTruth[s], fm.prevToeTruth[s] = tp, ankle, toe
	}
}

// rest counts the tick's turned feet (rec: the tick's record) and, while
// idle, whether the ankles stand level.
func (fm *feetMeter) rest(db *Database, rec *TickRecord, idle bool) {
	if db.HasToes() {
		for s := range rec.Ankle {
			// The angle in space, not of the feet's headings on the
			// ground: a foot pitched steeply (a running foot kicked up
			// behind, a heel lifted for toe-off) has a heading that
			// flips with a few degrees of pitch, and counted half the
			// turned ticks of the embedded set's random that way.
			out, src := rec.Toe[s].Sub(rec.Ankle[s]), rec.SourceToe[s].Sub(rec.SourceAnkle[s])
			if out.Dot(src) < 0 {
				fm.turned++
			}
			fm.toeTicks++
		}
	}
	if !idle {
		return
	}
	sec := int(rec.Time)
	b := &fm.level[sec%LevelWindow]
	if b.second != sec || b.idle == 0 {
		b.second, b.idle, b.level = sec, 0, 0
	}
	b.idle++
	if abs32(rec.Ankle[0][1]-rec.Ankle[1][1]) <= LevelHeight*db.Unit {
		b.level++
	}
}

// levelShare is the share of the idle ticks of the last LevelWindow
// seconds before now (s) with level ankles, and whether there were any.
func (fm *feetMeter) levelShare(now float64) (float64, bool) {
	var idle, level int
	for _, b := range fm.level {
		if b.idle > 0 && b.second > int(now)-LevelWindow {
			idle, level = idle+b.idle, level+b.level
		}
	}
	return float64(level) / float64(max(idle, 1)), idle > 0
}

// tick adds |red - blue| of world pose w over a tick of dt seconds (from
// the second tick on: prev).
func (rb *redBlueMeter) tick(w *animsys.Pose, prev bool, dt float32) {
	if prev {
		for j := 1; j < len(w.Pos); j++ {
			fd := w.Pos[j].Sub(rb.prevPos[j]).Mul(1 / dt)
			rb.sum += float64(fd.Sub(w.Vel[j]).Len())
			rb.n++
		}
	}
	rb.prevPos = append(rb.prevPos[:0], w.Pos...)
}

// tick steps the free simulation with input in, records the
// simulations into rec, and compares the predictions now due (at
// sinceStart, s) with where the root and the free simulation are.
func (pm *pathMeter) tick(m *Matcher, in Input, rec *TickRecord, sinceStart float64, dt float32) {
	if !pm.freeOn { // no Begin: from the simulation as this tick left it
		pm.free, pm.freeOn = m.Sim, true
	} else {
		pm.free.steer(in, &m.S, m.DB.Unit, min(dt, MaxTick))
	}
	pm.free.predict(&m.S, &pm.freePath)
	rec.FreeSim, rec.FreePredicted = pm.free.Pos, pm.freePath.End()
	pm.due(m, sinceStart) // the predictions made a second ago come due now
	pm.ahead = append(pm.ahead, meterAhead{at: sinceStart + meterTail, pred: m.Predicted.End(), free: pm.freePath.End()})
}

// due compares the predictions made a second ago with where the root and
// the free simulation are now (sinceStart, s), and drops them.
func (pm *pathMeter) due(m *Matcher, sinceStart float64) {
	k := 0
	for ; k < len(pm.ahead) && pm.ahead[k].at <= sinceStart+1e-6; k++ {
		a := &pm.ahead[k]
		pm.trajErr += float64(groundDist(a.pred, m.Root.Pos))
		pm.simErr += float64(groundDist(a.free, pm.free.Pos))
		pm.trajN++
	}
	pm.ahead = pm.ahead[:copy(pm.ahead, pm.ahead[k:])]
}

// Metrics are the measures so far; m gives the search times and the
// displacements.
func (mt *Meter) Metrics(m *Matcher) Metrics {
	c, fm, pm := &mt.clock, &mt.feet, &mt.path
	out := Metrics{Frames: m.DB.Frames, Seconds: c.seconds}
	out.SearchMedian, out.SearchP99, _ = m.Search.SearchStats()
	out.Controller, out.MemoryBytes = "database", m.DB.Bytes().Total()
	for c := range m.DB.Clips {
		out.MemoryBytes += m.DB.Clips[c].Bytes()
	}
	if l := m.Play.Learned; l != nil {
		out.Controller, out.MemoryBytes = "learned", l.Nets.Bytes()
		out.LearnedVelocity, out.LearnedPose = mt.learned.metrics()
	}
	if fm.standing > 0 {
		out.FootSliding = 100 * fm.slide / float64(fm.standing)
	}
	out.ContactShare = float64(fm.contact) / float64(max(fm.footTicks, 1))
	if m.DB.HasToes() {
		if fm.ankleStanding > 0 {
			v := 100 * fm.ankleSlide / float64(fm.ankleStanding)
			out.AnkleSliding = &v
		}
		if fm.toeStanding > 0 {
			v := 100 * fm.toeSlide / float64(fm.toeStanding)
			out.ToeSliding = &v
		}
	}
	if fm.skated > 0 {
		out.AnkleSkating = 100 * fm.ankleSkate / float64(fm.skated)
		if m.DB.HasToes() {
			v := 100 * fm.toeSkate / float64(fm.skated)
			out.ToeSkating = &v
		}
	}
	out.AnkleContactShare = float64(fm.ankleContact) / float64(max(fm.footTicks, 1))
	out.ToeContactShare = float64(fm.toeContact) / float64(max(fm.footTicks, 1))
	if pm.trajN > 0 {
		out.TrajectoryError = 100 * pm.trajErr / pm.trajN
		out.SimTrajectoryError = 100 * pm.simErr / pm.trajN
	}
	out.SyncDistance = 100 * mt.syncDist / float64(max(c.ticks, 1))
	if c.seconds > 0 {
		out.TransitionsPerSecond = float64(c.trans) / c.seconds
	}
	// A rate over less than a second (a tick of standing before the
	// first step) says nothing: 0 then.
	if moving := c.seconds - c.idleSeconds; moving >= 1 {
		out.TransitionsMoving = float64(c.trans-c.idleTrans) / moving
	}
	if c.idleSeconds >= 1 {
		out.TransitionsIdle = float64(c.idleTrans) / c.idleSeconds
	}
	out.IdleSeconds = c.idleSeconds
	if c.settled >= 1 {
		out.TransitionsSettled = float64(c.settledTrans) / c.settled
	}
	if v, ok := fm.levelShare(c.sinceStart); ok {
		out.Level = &v
	}
	if fm.toeTicks > 0 {
		v := float64(fm.turned) / float64(fm.toeTicks)
		out.Turned = &v
	}
	if d := m.Disp.Done; len(d) > 0 {
		var sum float64
		for _, x := range d {
			sum += float64(x)
		}
		out.Displacement = 100 * sum / float64(len(d))
	}
	out.BoneLengthError = 1000 * float64(mt.bone)
	if mt.redBlue.n > 0 {
		out.RedBlue = mt.redBlue.sum / float64(mt.redBlue.n)
	}
	return out
}

// learnedMeter measures the learned controller's decompressor: its own
// velocities against the exact ones of the pose it plays, and that pose
// against the database frame its state stands for, each in the
// character's frame.
type learnedMeter struct {
	vel, pos     float64
	joints       int
	said, db, fk animsys.Pose
	root         animsys.Pose
}

// tick measures a tick of m playing database frame (Matcher.Frame).
func (lm *learnedMeter) tick(m *Matcher, frame int) {
	l := m.Play.Learned
	if l == nil {
		return
	}
	db := m.DB
	n := db.Skel.Len()
	if len(lm.said.Pos) == 0 {
		animsys.NewPoses(n, &lm.said, &lm.db, &lm.fk)
		lm.root = animsys.NewPose(1)
	}
	animsys.FK(&lm.said, &l.Said, db.Skel.Parents)
	c, f := db.Locate(frame)
	db.Sample(&lm.fk, &lm.root, c, float32(f)*db.Clips[c].FrameTime)
	RootMotion(&lm.fk)
	animsys.FK(&lm.db, &lm.fk, db.Skel.Parents)
	for j := 1; j < n; j++ {
		lm.vel += float64(lm.said.Vel[j].Sub(m.Target.Vel[j]).Len())
		lm.pos += float64(m.Target.Pos[j].Sub(lm.db.Pos[j]).Len())
	}
	lm.joints += n - 1
}

// metrics are the means: velocity error (m/s) and pose error (cm).
func (lm *learnedMeter) metrics() (vel, pos *float64) {
	if lm.joints == 0 {
		return nil, nil
	}
	v, p := lm.vel/float64(lm.joints), 100*lm.pos/float64(lm.joints)
	return &v, &p
}
