package matching

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
)

// Foot contacts: each frame of the database says which ankles and toes
// stand on the ground, read from the captures' exact velocities; the
// matcher holds an ankle and a toe where they touched down while their
// frames say so (foot locking: the two-bone IK places the ankle, the foot
// turns so the toe reaches its point), and lets them go smoothly.

// Contact thresholds, relative to the figure's size (the median height of
// its hips above the ground, Database.Size): an ankle or a toe is on the
// ground when the joint is within contactHeight of its lowest in the clip
// and moves slower than contactSpeed per second. A human's hips stand
// about 0.9 m high: 5 cm and 0.32 m/s.
const (
	contactHeight = 0.06
	contactSpeed  = 0.35
	// contactMinRun (frames): shorter runs of contact or of no contact
	// are noise (a foot brushing the ground, a frame of jitter): a gap is
	// filled, a blip dropped.
	contactMinRun = 3
)

// Contact reports whether database frame i has foot s's (0 left, 1 right)
// ankle on the ground.
func (db *Database) Contact(i, s int) bool { return db.contacts[i]&(1<<s) != 0 }

// ToeContact reports whether database frame i has foot s's toe on the
// ground by the lock's labels (false for a figure without toes): the
// toe stays planted while the heel lifts before toe-off, when the ankle
// has left the ground.
func (db *Database) ToeContact(i, s int) bool { return db.contacts[i]&(4<<s) != 0 }

// ContactShare is the share of frames and feet whose ankle is labelled in
// contact.
func (db *Database) ContactShare() float64 {
	n := 0
	for _, c := range db.contacts {
		n += int(c&1) + int(c>>1&1)
	}
	return float64(n) / float64(2*max(len(db.contacts), 1))
}

// clipContacts labels clip c's frames for one joint of each foot (the
// ankles with bit 0, the toes with bit 2) from its heights (m above the
// root, which is on the ground) and speeds (m/s), the figure's size in
// the clip (m, its hips' median height) given; it returns the joints'
// floors in the clip (m), left then right.
func (db *Database) clipContacts(c, bit int, height, speed [2][]float32, size float32) [2]float32 {
	var floors [2]float32
	for s := range height {
		floor := mathx.Quantile(height[s], 0.02)
		floors[s] = floor
		on := make([]bool, len(height[s]))
		for f := range on {
			on[f] = height[s][f] < floor+contactHeight*size && speed[s][f] < contactSpeed*size
		}
		cleanRuns(on, true)
		cleanRuns(on, false)
		for f, x := range on {
			if x {
				db.contacts[db.Start[c]+f] |= 1 << (bit + s)
			}
		}
	}
	return floors
}

// cleanRuns flips every run of value v shorter than contactMinRun frames
// that has frames of the other value on both sides.
func cleanRuns(on []bool, v bool) {
	for f := 0; f < len(on); {
		if on[f] != v {
			f++
			continue
		}
		e := f
		for e < len(on) && on[e] == v {
			e++
		}
		if e-f < contactMinRun && f > 0 && e < len(on) {
			for k := f; k < e; k++ {
				on[k] = !v
			}
		}
		f = e
	}
}

// LockSettings are foot locking's settings.
type LockSettings struct {
	On bool
	// Toes locks each foot's toe too (on its own labels,
	// Database.ToeContact): the foot turns about the held ankle so the
	// toe stays where it landed, and the heel lifts about the held toe
	// before toe-off. Off, the foot turns with the shin as the IK bends
	// the leg, and nothing holds a lifting heel's toe.
	Toes bool
	// Radius is how far (a share of the figure's size, Database.Size) the
	// animated foot may stray from where it is held before it is let go.
	Radius float32
	// Halflife (s) of the critical spring that brings a released foot back
	// onto the animated one.
	Halflife float32
}

// FootLock is one joint's lock (an ankle's or a toe's): held at a point
// while the frames playing label it in contact, released (its target
// inertialized back onto the animated joint) when the label ends or the
// animated joint strays beyond the radius.
type FootLock struct {
	Contact bool       // the frame playing labels the joint in contact
	Locked  bool       // held at At
	At      mgl32.Vec3 // m, world: where it is held
	// After a release: rel is the target's offset from the animated
	// joint, set at the release (or at a nudge since) and decaying; freed
	// is the time since the release itself (hold); releasing is false
	// once the offset has decayed away.
	rel       decay
	freed     float32
	releasing bool
	strayed   bool // let go while in contact: the animated joint strayed
}

// target is where the lock puts the joint this tick and how fast (world),
// given the animated joint's position and velocity, and whether it acts.
func (l *FootLock) target(anim, animVel mgl32.Vec3, halflife float32) (pos, vel mgl32.Vec3, acts bool) {
	switch {
	case l.Locked:
		return l.At, mgl32.Vec3{}, true
	case l.releasing:
		off, offVel := l.rel.at(halflife)
		return anim.Add(off), animVel.Add(offVel), true
	}
	return anim, animVel, false
}

// hold is how much the lock holds its joint, 1 locked and 0 free,
// decaying after a release as the released offset does (the critical
// decay's weight of the offset, 1 at the release with zero slope), and
// its rate (1/s).
func (l *FootLock) hold(halflife float32) (w, rate float32) {
	switch {
	case l.Locked:
		return 1, 0
	case l.releasing:
		w0, _, w2, _ := spring.CriticalDecayWeights(halflife, l.freed)
		return w0, w2
	}
	return 0, 0
}

// step updates the lock for a tick of dt seconds (advance, then decide):
// contact is the label of the frame playing, anim and animVel the
// animated joint (world); radius (m) how far it may stray from a lock. It
// reports whether the lock engaged.
func (l *FootLock) step(contact bool, anim, animVel mgl32.Vec3, s *LockSettings, radius, dt float32) bool {
	l.advance(s, dt)
	return l.decide(contact, anim, animVel, s, radius)
}

// advance moves a release on by dt seconds and ends it once the offset
// has decayed away.
func (l *FootLock) advance(s *LockSettings, dt float32) {
	if l.releasing {
		l.rel.since += dt
		l.freed += dt
		if l.rel.since > 20*s.Halflife || l.strayed && l.rel.since > 4*s.Halflife { // below a millionth of the offset; a straying foot relocks at 1%
			l.releasing = false
		}
	}
}

// decide locks or lets go by the label of the frame playing (step); it
// reports whether the lock engaged.
func (l *FootLock) decide(contact bool, anim, animVel mgl32.Vec3, s *LockSettings, radius float32) bool {
	cur, curVel, _ := l.target(anim, animVel, s.Halflife)
	landed := contact && !l.Contact
	l.Contact = contact
	if !contact {
		l.strayed = false
	}
	// A foot locks where it lands, stopping there (a velocity step the
	// size of the output foot's speed then, as in the reference); one let
	// go because the animated foot strayed locks again, where the
	// animation has it, once the let-go has brought it there (not at once:
	// it would stray again).
	if contact && !l.Locked && (landed || l.strayed && !l.releasing) {
		l.Locked, l.At, l.releasing = true, cur, false
		return true
	}
	if l.Locked && (!contact || groundDist(anim, l.At) > radius) {
		l.Locked, l.strayed = false, contact
		l.rel = decay{off: cur.Sub(anim), offVel: curVel.Sub(animVel)}
		l.freed, l.releasing = 0, true
	}
	return false
}

// floorBand (m, a human's; times Database.Unit) is how far below its
// floor a toe's aim may dip as aboveFloor eases it onto the floor.
const floorBand = 0.005

// aboveFloor is height y (m, moving at vy m/s) kept above floor - band
// (the floor moving at vfloor): y itself from floor on, floor - band far
// below it, a parabola between (a smooth max, continuous in slope, so a
// toe eased onto the floor has no step in velocity), and its rate.
func aboveFloor(y, vy, floor, vfloor, band float32) (float32, float32) {
	c := floor - band // the middle of the parabola, which spans c ± band
	switch x := y - c; {
	case x >= band:
		return y, vy
	case x <= -band || !(band > 0):
		return max(y, c), vfloor
	default:
		k := (x + band) / (2 * band) // the parabola's slope in y, 0 to 1
		return c + (x+band)*k/2, vfloor + k*(vy-vfloor)
	}
}

// nudge moves the target of a lock that does not hold by d (m) from now
// on, the move decaying as a release's offset does: the release restarts
// from the target's offset and rate now, plus d; how much the lock holds
// (hold) stays as it was.
func (l *FootLock) nudge(d mgl32.Vec3, halflife float32) {
	if l.Locked {
		return
	}
	off, offVel := mgl32.Vec3{}, mgl32.Vec3{}
	if !l.releasing {
		l.freed = 40 * halflife // let go long ago: holds nothing (under 1e-23)
	} else {
		off, offVel = l.rel.at(halflife)
	}
	l.rel, l.releasing = decay{off: off.Add(d), offVel: offVel}, true
}

// groundDist is the distance (m) between a and b on the ground plane.
func groundDist(a, b mgl32.Vec3) float32 {
	d := a.Sub(b)
	return mgl32.Vec2{d[0], d[2]}.Len()
}

// footTarget is where the locks put one foot this tick (world, m and
// m/s): its ankle for the leg's IK, and what its toe aims at for the
// foot's turn (toeAim).
type footTarget struct {
	ankle, ankleVel mgl32.Vec3
	// toe is the toe lock's target; base where the ankle would be carried
	// with it (the animated ankle moved by the toe lock's offset); hold
	// and holdRate how much the toe lock holds (FootLock.hold), held how
	// much it held before it engaged this tick (engaged); floor and
	// floorVel the height the aim is kept above.
	toe, toeVel     mgl32.Vec3
	base, baseVel   mgl32.Vec3
	hold, holdRate  float32
	held            float32
	floor, floorVel float32
	// letGo: a lock was let go this tick and the ankle's lock does not
	// hold: a target out of the leg's reach is pulled in (pullIn, ik.pull).
	letGo, engaged bool
	acts, aims     bool // aims: the foot turns towards the toe's aim (toeAim)
}

// lockFeet holds the output's feet (World, after FK) where their locks
// say: each leg's two-bone IK with velocities (animsys.TwoBoneIK,
// op_two_bone_ik) places the ankle, after the hips are lowered where a
// held ankle would be out of the leg's reach (dropHips), and the ankle
// turns so the toe points at its aim (toeAim; animsys.LookAt, op_lookat);
// World is FK of the world-rooted local pose wl again after each.
func (m *Matcher) lockFeet(dt float32) {
	db, s := m.DB, &m.S.Lock
	frame := m.Frame()
	var targets [2]footTarget
	for f := range m.Locks {
		l, tl := &m.Locks[f], &m.ToeLocks[f]
		contact, toeContact := db.Contact(frame, f), db.ToeContact(frame, f)
		t := &targets[f]
		leg := db.Legs[f]
		if leg.Root < 0 {
			*l, *tl = FootLock{Contact: contact}, FootLock{Contact: toeContact}
			continue
		}
		t.ankle, t.ankleVel = m.World.Pos[leg.End], m.World.Vel[leg.End]
		if !s.On {
			*l, *tl = FootLock{Contact: contact}, FootLock{Contact: toeContact}
			continue
		}
		radius := s.Radius * db.Size
		if toe := db.Toes[f]; toe > 0 && s.Toes {
			m.lockFoot(t, f, contact, toeContact, toe, s, radius, dt)
			continue
		}
		*tl = FootLock{Contact: toeContact}
		was := l.Locked
		l.step(contact, t.ankle, t.ankleVel, s, radius, dt)
		t.ankle, t.ankleVel, t.acts = l.target(t.ankle, t.ankleVel, s.Halflife)
		t.letGo = was && !l.Locked
	}
	need := float32(0)
	for f, t := range targets {
		if t.acts {
			need = max(need, m.hipsDrop(db.Legs[f], t.ankle))
		}
	}
	// A foot no lock holds still follows the animation while the hips are
	// lowered (the IK to where it was animated): else it would sink with
	// them, and jump back when they rise or its lock stops acting.
	dropped := m.dropHips(need, dt)
	for f := range targets {
		t, leg := &targets[f], db.Legs[f]
		pull := &m.ik.pull[f]
		pull.since += dt
		if !t.acts && !(dropped && leg.Root >= 0) {
			continue
		}
		// A foot let go out of the leg's reach comes back from its edge
		// (pullIn), the pull decaying as a release does; an ankle locked
		// again while pulled is held where it is, the pull ended.
		p, v := pull.at(s.Halflife)
		if d := m.pullIn(leg, t.ankle.Add(p)); t.letGo && d != (mgl32.Vec3{}) {
			p = p.Add(d)
			*pull = decay{off: p, offVel: v}
		}
		if l := &m.Locks[f]; l.Locked && (pull.off != mgl32.Vec3{} || pull.offVel != mgl32.Vec3{}) {
			l.At, t.ankle = l.At.Add(p), t.ankle.Add(p)
			p, v, *pull = mgl32.Vec3{}, mgl32.Vec3{}, decay{}
		}
		t.ankle, t.ankleVel = t.ankle.Add(p), t.ankleVel.Add(v)
		pos, vel := m.withinReach(leg, t.ankle, t.ankleVel)
		animsys.TwoBoneIK(&m.wl, &m.ik.temp, &m.ik.a, &m.ik.b, db.Skel.Parents, leg, pos, vel, ikDelta)
		animsys.FK(&m.World, &m.wl, db.Skel.Parents)
		if !t.aims {
			continue
		}
		// The foot turns so its toe points at the aim (unless the aim is
		// on the ankle, where no direction is defined); the toe's offset
		// in the ankle's frame is taken as fixed in the tick (the toe is
		// the ankle's child on kinelab's figures).
		aim, aimVel := m.toeAim(f, t, pos, vel, s.Halflife)
		if ankle := m.World.Pos[leg.End]; aim.Sub(ankle).Len() > 1e-3*db.Size {
			fwd := mathx.Vec3Normalize(mathx.QuatInvMulVec3(m.World.Rot[leg.End], m.World.Pos[db.Toes[f]].Sub(ankle)))
			animsys.LookAt(&m.wl, &m.World, leg.End, aim, aimVel, fwd)
			animsys.FK(&m.World, &m.wl, db.Skel.Parents)
		}
	}
}

// lockFoot fills t with where the ankle and toe locks of foot side put
// it this tick; t.ankle and t.ankleVel come in as the animated ankle, toe
// is the toe joint. The toe's lock steps first, on the animated toe; the
// ankle's then steps on the animated ankle moved by the toe lock's offset
// (t.base: the foot carried with its toe, keeping its animated turn), so
// a heel lifting about a held toe goes where the toe's hold puts it.
func (m *Matcher) lockFoot(t *footTarget, side int, contact, toeContact bool, toe int, s *LockSettings, radius, dt float32) {
	l, tl, hl := &m.Locks[side], &m.ToeLocks[side], s.Halflife
	animA, animAVel := t.ankle, t.ankleVel
	animT, animTVel := m.World.Pos[toe], m.World.Vel[toe]
	tl.advance(s, dt)
	t.held, _ = tl.hold(hl) // before it decides: a lock engaging takes over from this
	wasA, wasT := l.Locked, tl.Locked
	t.engaged = tl.decide(toeContact, animT, animTVel, s, radius)
	var toeActs, ankleActs bool
	t.toe, t.toeVel, toeActs = tl.target(animT, animTVel, hl)
	t.base, t.baseVel = animA.Add(t.toe.Sub(animT)), animAVel.Add(t.toeVel.Sub(animTVel))
	l.step(contact, t.base, t.baseVel, s, radius, dt)
	t.ankle, t.ankleVel, ankleActs = l.target(t.base, t.baseVel, hl)
	t.hold, t.holdRate = tl.hold(hl)
	// The aim stays above the floor, or the animated toe where it is
	// lower (so an unheld foot's aim stays the animation's), or the toe
	// lock's target where that is (a toe held where it landed below the
	// floor stays there, not lifted as the animated toe rises).
	t.floor, t.floorVel = m.RootPos[1]+m.DB.ToeFloor, 0
	t.lowerFloor(animT[1], animTVel[1])
	t.lowerFloor(t.toe[1], t.toeVel[1])
	t.letGo = !l.Locked && (wasA || wasT && !tl.Locked)
	t.acts, t.aims = ankleActs || toeActs, true
}

// lowerFloor lowers the floor the toe's aim is kept above to height y
// (m, moving at vy m/s) where that is lower.
func (t *footTarget) lowerFloor(y, vy float32) {
	if y < t.floor {
		t.floor, t.floorVel = y, vy
	}
}

// toeAim is where foot side's toe aims (m, world) and how fast, given
// where the IK put its ankle (ankle, ankleVel): the toe lock's target as
// much as it holds (t.hold), else the animated toe carried with the
// ankle's offset from t.base (the foot keeping its animated turn), softly
// above the floor (aboveFloor). A toe lock that engaged this tick takes
// the point where the toe is, a foot's length from the ankle towards the
// aim as it was, so nothing jumps and a toe held with its ankle reaches
// its point; t.base moves with it, the ankle's target staying where it
// is (FootLock.nudge).
func (m *Matcher) toeAim(side int, t *footTarget, ankle, ankleVel mgl32.Vec3, halflife float32) (mgl32.Vec3, mgl32.Vec3) {
	band := floorBand * m.DB.Unit
	off, offVel := ankle.Sub(t.base), ankleVel.Sub(t.baseVel)
	if t.engaged {
		was := t.toe.Add(off.Mul(1 - t.held))
		was[1], _ = aboveFloor(was[1], 0, t.floor, 0, band)
		foot := m.World.Pos[m.DB.Toes[side]].Sub(m.World.Pos[m.DB.Legs[side].End]).Len()
		if r := was.Sub(ankle); r.Len() > mathx.Eps {
			was = ankle.Add(r.Mul(foot / r.Len()))
		}
		shift := was.Sub(t.toe)
		m.ToeLocks[side].At = was
		t.toe, t.base, off = was, t.base.Add(shift), off.Sub(shift)
		m.Locks[side].nudge(shift.Mul(-1), halflife)
		t.lowerFloor(was[1], 0) // as lockFoot's for the toe lock's target
	}
	aim := t.toe.Add(off.Mul(1 - t.hold))
	aimVel := t.toeVel.Add(offVel.Mul(1 - t.hold)).Sub(off.Mul(t.holdRate))
	aim[1], aimVel[1] = aboveFloor(aim[1], aimVel[1], t.floor, t.floorVel, band)
	return aim, aimVel
}

// decay is an offset (m) and its rate (m/s) decaying to zero by the
// critical spring of a lock's release since they were set (s).
type decay struct {
	off, offVel mgl32.Vec3
	since       float32
}

// at is the offset and its rate now, for the release's half-life (s).
func (d *decay) at(halflife float32) (mgl32.Vec3, mgl32.Vec3) {
	w0, w1, w2, w3 := spring.CriticalDecayWeights(halflife, d.since)
	return d.off.Mul(w0).Add(d.offVel.Mul(w1)), d.off.Mul(w2).Add(d.offVel.Mul(w3))
}

// pullIn is the move (m) that brings an ankle target far beyond the
// leg's reach to the edge of where withinReach saturates: where the leg
// stays all but straight whatever the target's distance, so the output
// barely moves (a 10,000th of the soft band, a micrometre). A foot let go from
// there comes back from the edge: from further, its target would sweep
// through the band at the release's full speed, snapping the knee out
// of straight (8-16 m/s at the knee).
func (m *Matcher) pullIn(leg animsys.TwoBoneJoints, pos mgl32.Vec3) mgl32.Vec3 {
	w := &m.World
	hip := w.Pos[leg.Root]
	length := w.Pos[leg.Mid].Sub(hip).Len() + w.Pos[leg.End].Sub(w.Pos[leg.Mid]).Len()
	edge := (softKnee + 5*(softTop-softKnee)) * length // tanh(5) = 0.99991
	r := pos.Sub(hip)
	d := r.Len()
	if d <= edge {
		return mgl32.Vec3{}
	}
	return r.Mul(edge/d - 1)
}

// withinReach is the foot target pos (moving at vel) brought within the
// leg's reach softly: its distance from the hip joint d becomes
// softReach(d), so the knee never snaps straight (where the IK's knee
// speed has no bound); the velocity is the map's, differenced over ikDelta
// as the IK differences (the hip moving too).
func (m *Matcher) withinReach(leg animsys.TwoBoneJoints, pos, vel mgl32.Vec3) (mgl32.Vec3, mgl32.Vec3) {
	w := &m.World
	hip, hipVel := w.Pos[leg.Root], w.Vel[leg.Root]
	length := w.Pos[leg.Mid].Sub(hip).Len() + w.Pos[leg.End].Sub(w.Pos[leg.Mid]).Len()
	soft := func(p, hip mgl32.Vec3) mgl32.Vec3 {
		r := p.Sub(hip)
		d := r.Len()
		if d <= softKnee*length {
			return p
		}
		return hip.Add(r.Mul(softReach(d, length) / d))
	}
	p1 := soft(pos, hip)
	p0 := soft(pos.Sub(vel.Mul(ikDelta)), hip.Sub(hipVel.Mul(ikDelta)))
	return p1, p1.Sub(p0).Mul(1 / ikDelta)
}

// The leg's soft reach: a target up to softKnee of the leg's length away
// is reached; beyond, the distance eases towards softTop of it (tanh,
// with a continuous slope), never to a straight leg.
const (
	softKnee = 0.985
	softTop  = 0.999
)

// softReach is the distance (m) a leg of length (m) reaches for a target d
// (m) away from its root.
func softReach(d, length float32) float32 {
	k, top := softKnee*length, softTop*length
	if d <= k {
		return d
	}
	return k + (top-k)*float32(math.Tanh(float64((d-k)/(top-k))))
}

// Lowering the hips for a held foot: the leg reaches reachShare of its
// length at most (straight legs are the IK's singular pose), the hips drop
// at most maxDrop of the figure's size, following what is needed with a
// critical spring of dropHalflife seconds.
const (
	reachShare   = softKnee
	maxDrop      = 0.12
	dropHalflife = 0.05
)

// hipsDrop is how far (m) the hips must come down for leg (in World) to
// reach target: 0 when it does.
func (m *Matcher) hipsDrop(leg animsys.TwoBoneJoints, target mgl32.Vec3) float32 {
	w := &m.World
	hip := w.Pos[leg.Root]
	reach := reachShare * (w.Pos[leg.Mid].Sub(hip).Len() + w.Pos[leg.End].Sub(w.Pos[leg.Mid]).Len())
	r := groundDist(hip, target)
	v := hip[1] - target[1]
	if r >= reach {
		return v // as low as it goes; capped by dropHips
	}
	return max(v-mathx.Sqrt(reach*reach-r*r), 0)
}

// dropHips moves the hips' drop (ik.drop, m, with its rate) towards need,
// at most maxDrop of the figure's size, and lowers the root by it in wl
// (its velocity too), then runs FK into World; it reports whether the
// hips are lowered.
func (m *Matcher) dropHips(need, dt float32) bool {
	k := &m.ik
	need = min(need, maxDrop*m.DB.Size)
	if dt > 0 {
		k.drop, k.dropVel = spring.SimpleSpringDamperExact(k.drop, k.dropVel, need, dropHalflife, dt)
	}
	if k.drop == 0 && k.dropVel == 0 {
		return false
	}
	m.wl.Pos[0][1] -= k.drop
	m.wl.Vel[0][1] -= k.dropVel
	animsys.FK(&m.World, &m.wl, m.DB.Skel.Parents)
	return true
}

// ikDelta (s) is the foot IK's finite-difference step (op_two_bone_ik's
// delta): its velocities are first order in it.
const ikDelta = 1.0 / 2400
