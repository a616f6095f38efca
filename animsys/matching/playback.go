package matching

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
)

// Playback is the matcher's stage that plays the database: the clip and
// time playing, the rate it plays at, and the transition into it, which
// it blends into the output's local pose each tick (evaluate).
type Playback struct {
	// Clip and Time (s) are what plays.
	Clip int
	Time float32
	// Rate is the playback rate (RateSettings; 1 with it off) and RateVel
	// its base-2 scalar velocity (doublings/s); play is the rate the clip
	// plays at this tick: Rate, or 0 where the idle stretch is held.
	// clipSpeed (m/s) and clipTurn (rad/s) are the playing clip's own
	// root speed and turn rate, at rate 1: the rate's denominators.
	Rate, RateVel       float32
	play                float32
	clipSpeed, clipTurn float32
	samp                animsys.Pose       // the clip's sample at the rate
	root                animsys.Pose       // one joint: scratch of Database.Sample
	trans               animsys.Transition // the last transition, into the clip playing
	// Learned is the learned controller's pose source (Matcher.UseNetworks),
	// nil where the database's clips play: then Clip and Time are its
	// frame's where known (Learned.Frame), else the first clip's start.
	Learned *Learned
}

// newPlayback allocates a Playback for a skeleton of n joints.
func newPlayback(n int) Playback {
	p := Playback{trans: animsys.NewTransition(n), samp: animsys.NewPose(n), root: animsys.NewPose(1)}
	return p
}

// reset puts the playback on the database's first searchable frame at
// rate 1, with no transition.
func (p *Playback) reset(db *Database) {
	p.Clip, p.Time = 0, 0
	p.Rate, p.RateVel, p.play, p.clipSpeed = 1, 0, 1, 0
	for i, ok := range db.Searchable {
		if ok {
			c, f := db.Locate(i)
			p.Clip, p.Time = c, float32(f)*db.Clips[c].FrameTime
			break
		}
	}
	p.trans.Start(animsys.TransitionCut, nil, nil)
	if p.Learned != nil {
		p.jumpTo(db, db.At(p.Clip, int(p.Time/db.Clips[p.Clip].FrameTime+0.5)))
	}
}

// jumpTo puts the learned pose source at database frame i, an anchor of
// its networks (or, should i not be one, the first anchor), and the
// clip and time at it.
func (p *Playback) jumpTo(db *Database, i int) {
	l := p.Learned
	s := l.Nets.anchor(i)
	if s == nil {
		i, s = l.Nets.Anchors[0].Frame, l.Nets.Anchors[0].State
	}
	l.jump(s, i)
	p.locate(db)
}

// locate sets Clip and Time from the learned pose source's frame, where
// it is known.
func (p *Playback) locate(db *Database) {
	if f := p.Learned.Frame; f >= 0 {
		c, k := db.Locate(f)
		p.Clip, p.Time = c, (float32(k)+p.Learned.At)*db.Clips[c].FrameTime
	}
}

// Frame is the database index of the frame playing (for the learned
// controller, the frame it stands for where known, else -1).
func (p *Playback) Frame(db *Database) int {
	if p.Learned != nil {
		return p.Learned.Frame
	}
	c := &db.Clips[p.Clip]
	f := int(p.Time/c.FrameTime + 0.5)
	return db.At(p.Clip, min(max(f, 0), c.Frames-1))
}

// Playing is the rate the clip plays at (its time's seconds a second):
// Rate, or 0 while the idle stretch is held.
func (p *Playback) Playing() float32 { return p.play }

// advance updates the playback rate and plays the clip on by dt seconds
// at it, the transition with it, and evaluates the output (evaluate). It
// reports whether the clip reached its end (the time stays there); where
// the frame to hold at (hold, while idle: Rest.held; -1 for none) is
// reached this tick, the time is held there from now on, and the hold
// blended into.
func (p *Playback) advance(db *Database, s *Settings, sim *Simulation, hold int, out *Poses, dt float32) (atEnd bool) {
	idle := hold >= 0
	p.updateRate(db, &s.Rate, sim, idle, dt)
	held := idle && p.play == 0
	if !held {
		p.play = p.Rate
	}
	var reached bool
	if l := p.Learned; l != nil { // the learned controller plays on for ever
		reached = !held && l.advance(db, p.play*dt/l.Nets.FrameTime, hold)
		p.locate(db)
	} else {
		p.Time += p.play * dt
		reached = !held && p.holding(db, hold)
		clip := &db.Clips[p.Clip]
		if atEnd = p.Time > clip.Duration(); atEnd {
			p.Time = clip.Duration()
		}
	}
	p.trans.Advance(dt)
	p.evaluate(db, s, out)
	if reached { // the hold: blend into holding it
		p.play = 0
		if p.Learned == nil { // the learned state is there already, held
			p.blendTo(db, s, hold, p.Clip, p.Time, out)
		}
	}
	return atEnd
}

// updateRate springs Rate over dt seconds towards the ratio of the
// simulation's speed to the clip's root speed (1 while idle: the idle
// stretch plays as captured), by the scalar-velocity article's
// simple_spring_damper_exact_scale: a rate is a scale of time, so it is
// eased in log2 space and RateVel is in doublings per second. Off, the
// rate is 1.
func (p *Playback) updateRate(db *Database, r *RateSettings, sim *Simulation, idle bool, dt float32) {
	if !r.On {
		p.Rate, p.RateVel = 1, 0
		return
	}
	f := rateFloor * db.Unit
	goal := float32(1)
	switch speed := sim.Vel.Len(); {
	case idle:
	case speed < f && p.clipSpeed < f && p.clipTurn > RestTurn:
		// A turn on the spot asked of a turn on the spot: the ratio of
		// the turn rates, as the speeds' is for a walk.
		goal = mathx.Clamp(abs32(sim.YawVel)/p.clipTurn, RateMin, RateMax)
	default:
		goal = mathx.Clamp((speed+f)/(p.clipSpeed+f), RateMin, RateMax)
	}
	if !(goal > 0) || !mathx.Finite(goal) { // a NaN speed: play as captured
		goal = 1
	}
	x, v := spring.ScaleSpringDamperExact(mgl32.Vec3{p.Rate, 1, 1}, mgl32.Vec3{p.RateVel}, mgl32.Vec3{goal, 1, 1}, r.Halflife, dt)
	if !mathx.Finite(x[0]) || !mathx.Finite(v[0]) { // a NaN half-life: at the goal
		x[0], v[0] = goal, 0
	}
	p.Rate, p.RateVel = mathx.Clamp(x[0], RateMin, RateMax), v[0]
	if p.Rate != x[0] || !mathx.Finite(v[0]) { // at a bound the rate stops there
		p.RateVel = 0
	}
}

// holding clamps the clip time at database frame hold (-1: none) while
// playing that clip, and reports whether it is there.
func (p *Playback) holding(db *Database, hold int) bool {
	if hold < 0 {
		return false
	}
	c, f := db.Locate(hold)
	end := float32(f) * db.Clips[c].FrameTime
	if p.Clip != c || p.Time < end {
		return false
	}
	p.Time = end
	return true
}

// sample writes clip c at time t (s) into samp as the matcher plays it:
// the database's sample, its root read as root motion, its velocities
// (linear, angular, scalar) times the rate play, and keeps the clip's
// own root speed and turn rate at rate 1 (the rate's denominators). A
// clip played at rate r is P(τ) with dτ/dt = r, so every velocity is
// r·P'(τ) exactly: the rate's own change (RateVel) enters its
// accelerations, not its velocities.
func (p *Playback) sample(db *Database, c int, t float32) {
	if p.Learned != nil {
		p.Learned.sample(&p.samp)
	} else {
		db.Sample(&p.samp, &p.root, c, t)
		RootMotion(&p.samp)
	}
	v := p.samp.Vel[0]
	p.clipSpeed = mgl32.Vec2{v[0], v[2]}.Len()
	p.clipTurn = abs32(p.samp.Ang[0][1])
	if p.play != 1 {
		animsys.TimeScale(&p.samp, p.play)
		if p.Learned != nil {
			animsys.TimeScale(&p.Learned.Said, p.play)
		}
	}
}

// evaluate samples the playing clip at Time (samp, at the playback
// rate), blends the last transition into it for the output's local pose,
// and runs FK of both in the character's frame (out.Char, out.Target).
func (p *Playback) evaluate(db *Database, s *Settings, out *Poses) {
	p.sample(db, p.Clip, p.Time)
	p.trans.Apply(&out.Local, &p.samp, nil, transitionParams(s))
	// Root motion is joint 0's velocity: its position and rotation stay
	// at the character's origin (the root moves in RootSync.move).
	out.Local.Pos[0], out.Local.Rot[0], out.Local.Scl[0] = mgl32.Vec3{}, mathx.QuatIdentity(), mgl32.Vec3{1, 1, 1}
	animsys.FK(&out.Char, &out.Local, db.Skel.Parents)
	animsys.FK(&out.Target, &p.samp, db.Skel.Parents)
}

// transitionParams are the transitions' durations from the settings:
// BlendTime for the cubic and dead blending's cross-fade, Halflife for the
// spring and dead blending's decay.
func transitionParams(s *Settings) animsys.TransitionParams {
	return animsys.TransitionParams{BlendDuration: s.BlendTime, CubicDuration: s.BlendTime,
		Halflife: s.Halflife, DeadHalflife: s.Halflife}
}

// blendTo starts the set transition from the output pose to clip c at
// time t (s), played at the rate (held, rate 0, at frame hold), and
// evaluates it.
func (p *Playback) blendTo(db *Database, s *Settings, hold int, c int, t float32, out *Poses) {
	if p.Learned != nil {
		p.blendToState(db, s, nil, db.At(c, int(t/db.Clips[c].FrameTime+0.5)), hold, out)
		return
	}
	p.Clip, p.Time = c, t
	if p.holding(db, hold) {
		p.play = 0
	}
	p.start(db, s, out)
}

// blendToState starts the set transition from the output pose to the
// learned state st (x then z; nil: the anchor of database frame i, where
// the learned pose source then knows it is) and evaluates it. The frame
// to hold (Rest.held; -1 for none), jumped to, is held.
func (p *Playback) blendToState(db *Database, s *Settings, st []float32, i, hold int, out *Poses) {
	if st == nil {
		p.jumpTo(db, i)
	} else {
		p.Learned.jump(st, -1)
	}
	if hold >= 0 && p.Learned.Frame == hold {
		p.play = 0
	}
	p.start(db, s, out)
}

// start starts the set transition from the output pose into the clip
// or state the playback is at, and evaluates it.
func (p *Playback) start(db *Database, s *Settings, out *Poses) {
	p.sample(db, p.Clip, p.Time)
	kind := s.Transition
	if kind == animsys.TransitionBlend {
		kind = animsys.TransitionCut
	}
	p.trans.Start(kind, &out.Local, &p.samp)
	p.evaluate(db, s, out)
}
