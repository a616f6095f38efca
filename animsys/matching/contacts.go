package matching

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
)

// Foot contacts: each frame of the database says which feet stand on the
// ground, read from the captures' exact velocities; the matcher holds a
// foot where it touched down while its frames say so (foot locking, by
// the two-bone IK), and lets it go smoothly.

// Contact thresholds, relative to the figure's size (the median height of
// its hips above the ground, Database.Size): a foot is on the ground when
// its joint is within contactHeight of its lowest in the clip and moves
// slower than contactSpeed per second. A human's hips stand about 0.9 m
// high: 5 cm and 0.32 m/s.
const (
	contactHeight = 0.06
	contactSpeed  = 0.35
	// contactMinRun (frames): shorter runs of contact or of no contact
	// are noise (a foot brushing the ground, a frame of jitter): a gap is
	// filled, a blip dropped.
	contactMinRun = 3
)

// Contact reports whether database frame i has foot s (0 left, 1 right)
// on the ground.
func (db *Database) Contact(i, s int) bool { return db.contacts[i]&(1<<s) != 0 }

// ContactShare is the share of frames and feet labelled in contact.
func (db *Database) ContactShare() float64 {
	n := 0
	for _, c := range db.contacts {
		n += int(c&1) + int(c>>1&1)
	}
	return float64(n) / float64(2*max(len(db.contacts), 1))
}

// clipContacts labels clip c's frames from its feet's heights (m above
// the root, which is on the ground) and speeds (m/s), and the hips' heights.
func (db *Database) clipContacts(c int, height, speed [2][]float32, hips []float32) {
	size := mathx.Median(hips)
	for s := range height {
		floor := mathx.Quantile(height[s], 0.02)
		on := make([]bool, len(height[s]))
		for f := range on {
			on[f] = height[s][f] < floor+contactHeight*size && speed[s][f] < contactSpeed*size
		}
		cleanRuns(on, true)
		cleanRuns(on, false)
		for f, x := range on {
			if x {
				db.contacts[db.Start[c]+f] |= 1 << s
			}
		}
	}
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
	// Radius is how far (a share of the figure's size, Database.Size) the
	// animated foot may stray from where it is held before it is let go.
	Radius float32
	// Halflife (s) of the critical spring that brings a released foot back
	// onto the animated one.
	Halflife float32
}

// FootLock is one foot's lock: held at a point while the frames playing
// label it in contact, released (its target inertialized back onto the
// animated foot) when the label ends or the animated foot strays beyond
// the radius.
type FootLock struct {
	Contact bool       // the frame playing labels the foot in contact
	Locked  bool       // held at At
	At      mgl32.Vec3 // m, world: where it is held
	// After a release: the target's offset from the animated foot and its
	// rate at the release, and the time since (s); releasing is false once
	// the offset has decayed away.
	off, offVel mgl32.Vec3
	since       float32
	releasing   bool
	strayed     bool // let go while in contact: the animated foot strayed
}

// target is where the lock puts the foot this tick and how fast (world),
// given the animated foot's position and velocity, and whether it acts.
func (l *FootLock) target(anim, animVel mgl32.Vec3, halflife float32) (pos, vel mgl32.Vec3, acts bool) {
	switch {
	case l.Locked:
		return l.At, mgl32.Vec3{}, true
	case l.releasing:
		w0, w1, w2, w3 := spring.CriticalDecayWeights(halflife, l.since)
		pos = anim.Add(l.off.Mul(w0)).Add(l.offVel.Mul(w1))
		vel = animVel.Add(l.off.Mul(w2)).Add(l.offVel.Mul(w3))
		return pos, vel, true
	}
	return anim, animVel, false
}

// step updates the lock for a tick of dt seconds: contact is the label of
// the frame playing, anim and animVel the animated foot (world); radius
// (m) how far it may stray from a lock.
func (l *FootLock) step(contact bool, anim, animVel mgl32.Vec3, s *LockSettings, radius, dt float32) {
	if l.releasing {
		l.since += dt
		if l.since > 20*s.Halflife || l.strayed && l.since > 4*s.Halflife { // below a millionth of the offset; a straying foot relocks at 1%
			l.releasing = false
		}
	}
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
		return
	}
	if l.Locked && (!contact || groundDist(anim, l.At) > radius) {
		l.Locked, l.strayed = false, contact
		l.off, l.offVel = cur.Sub(anim), curVel.Sub(animVel)
		l.since, l.releasing = 0, true
	}
}

// groundDist is the distance (m) between a and b on the ground plane.
func groundDist(a, b mgl32.Vec3) float32 {
	d := a.Sub(b)
	return mgl32.Vec2{d[0], d[2]}.Len()
}

// lockFeet holds the output's feet (World, after FK) where their locks
// say, bending each leg with the two-bone IK with velocities
// (animsys.TwoBoneIK, op_two_bone_ik) after lowering the hips where a
// held foot would be out of the leg's reach (dropHips); World is FK of
// the world-rooted local pose wl again after each.
func (m *Matcher) lockFeet(dt float32) {
	db, s := m.DB, &m.S.Lock
	frame := m.Frame()
	var targets [2]struct {
		pos, vel mgl32.Vec3
		acts     bool
	}
	for f := range m.Locks {
		l := &m.Locks[f]
		leg := db.Legs[f]
		if leg.Root < 0 {
			*l = FootLock{Contact: db.Contact(frame, f)}
			continue
		}
		t := &targets[f]
		anim, animVel := m.World.Pos[leg.End], m.World.Vel[leg.End]
		t.pos, t.vel = anim, animVel
		if !s.On {
			*l = FootLock{Contact: db.Contact(frame, f)}
			continue
		}
		l.step(db.Contact(frame, f), anim, animVel, s, s.Radius*db.Size, dt)
		t.pos, t.vel, t.acts = l.target(anim, animVel, s.Halflife)
	}
	need := float32(0)
	for f, t := range targets {
		if t.acts {
			need = max(need, m.hipsDrop(db.Legs[f], t.pos))
		}
	}
	// A foot no lock holds still follows the animation while the hips are
	// lowered (the IK to where it was animated): else it would sink with
	// them, and jump back when they rise or its lock stops acting.
	dropped := m.dropHips(need, dt)
	for f, t := range targets {
		if t.acts || dropped && db.Legs[f].Root >= 0 {
			pos, vel := m.withinReach(db.Legs[f], t.pos, t.vel)
			animsys.TwoBoneIK(&m.wl, &m.ik.temp, &m.ik.a, &m.ik.b, db.Skel.Parents, db.Legs[f], pos, vel, ikDelta)
			animsys.FK(&m.World, &m.wl, db.Skel.Parents)
		}
	}
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
