package matching

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/spring"
)

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
	AtVel   mgl32.Vec3 // m/s: how fast that point moves (a toe pivoting about its heel)
	// After a release: rel is the target's offset from the animated
	// joint, set at the release (or at a nudge since) and decaying; freed
	// is the time since the release itself (hold); releasing is false
	// once the offset has decayed away.
	rel       decay
	freed     float32
	releasing bool
	strayed   bool // let go while in contact: the animated joint strayed
	// down is a lock's height (m) above land, the height it holds its
	// joint at, where it engaged above it, decaying as a release's offset
	// does (At follows it down): a foot an inertialized transition still
	// carries in the air from the last clip when the new clip's label
	// comes on comes down where it is, instead of being held there.
	down decay
	land float32
	// lift (m) is how high a release lifts the joint on its way (letGo).
	lift float32
	// twist (rad) is how far the foot may point from the clip's while a
	// toe is held (pivot), known once twisted.
	twist   float32
	twisted bool
}

// target is where the lock puts the joint this tick and how fast (world),
// given the animated joint's position and velocity, and whether it acts.
func (l *FootLock) target(anim, animVel mgl32.Vec3, halflife float32) (pos, vel mgl32.Vec3, acts bool) {
	switch {
	case l.Locked:
		_, offVel := l.down.at(halflife)
		return l.At, offVel.Add(l.AtVel), true
	case l.releasing:
		off, offVel := l.rel.at(halflife)
		// The lift is (4w(1-w))² of its height, w the hold (1 at the
		// release, to 0): none at either end, all of it half-way, and
		// under 1% of it when a straying joint locks again (w 2.5%).
		w, rate := l.hold(halflife)
		b := 4 * w * (1 - w)
		off[1] += l.lift * b * b
		offVel[1] += l.lift * 2 * b * 4 * (1 - 2*w) * rate
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

// advance moves a release on by dt seconds and ends it once the offset
// has decayed away.
func (l *FootLock) advance(s *LockSettings, dt float32) {
	if l.Locked && l.down.off != (mgl32.Vec3{}) {
		l.down.since += dt
		off, _ := l.down.at(s.Halflife)
		l.At[1] = l.land + off[1]
	}
	if l.releasing {
		l.rel.since += dt
		l.freed += dt
		if l.rel.since > 20*s.Halflife || l.strayed && l.rel.since > 4*s.Halflife { // below a millionth of the offset; a straying foot relocks at 1%
			l.releasing = false
		}
	}
}

// decide locks or lets go by the label of the frame playing (after
// advance): contact is that label, anim and animVel the animated joint
// (world); radius (m) how far it may stray from a lock, top (m, world)
// how high it holds it (a joint locked above comes down to it). It
// reports whether the lock engaged.
func (l *FootLock) decide(contact bool, anim, animVel mgl32.Vec3, s *LockSettings, radius, top float32) bool {
	cur, curVel, _ := l.target(anim, animVel, s.Halflife)
	landed := contact && !l.Contact
	l.Contact = contact
	if !contact {
		l.strayed = false
	}
	// A foot locks where it lands, stopping there (a velocity step the
	// size of the output foot's speed then, as in the reference), and
	// comes down to top where it landed above it (down); one let go
	// because the animated foot strayed locks again, where the animation
	// has it, once the let-go has brought it there (not at once: it would
	// stray again).
	if contact && !l.Locked && (landed || l.strayed && !l.releasing) {
		l.Locked, l.At, l.AtVel, l.releasing, l.down, l.land = true, cur, mgl32.Vec3{}, false, decay{}, cur[1]
		l.twisted = false
		if cur[1] > top {
			l.land, l.down.off[1] = top, cur[1]-top
		}
		return true
	}
	if l.Locked && (!contact || groundDist(anim, l.At) > radius) {
		l.letGo(cur, curVel, anim, animVel, contact, radius)
	}
	return false
}

// settle brings a lock holding its joint above top (m, world) down to
// it, as one engaging there comes down (down): a heel held up at rest
// is put down.
func (l *FootLock) settle(top float32) {
	if !l.Locked || !(l.At[1] > top) || !(l.land > top) {
		return
	}
	l.down = decay{off: mgl32.Vec3{0, l.At[1] - top, 0}}
	l.land = top
}

// letGo releases a held lock: its target eases from where it holds it
// (cur, moving at curVel; m and m/s, world) onto the animated joint (anim,
// animVel), lifting on the way by liftShare of the distance on the ground,
// at most liftShare of radius (a step, not a slide, where the two are
// apart); strayed: it locks again where the animation has it once the
// release has brought it there.
func (l *FootLock) letGo(cur, curVel, anim, animVel mgl32.Vec3, strayed bool, radius float32) {
	l.Locked, l.strayed = false, strayed
	l.rel = decay{off: cur.Sub(anim), offVel: curVel.Sub(animVel)}
	l.freed, l.releasing = 0, true
	l.lift = liftShare * min(groundDist(cur, anim), radius)
}

// release lets go of a held lock (letGo) on the animated joint anim
// (moving at animVel) to step: it locks again where the animation has it.
func (l *FootLock) release(anim, animVel mgl32.Vec3, s *LockSettings, radius float32) {
	if !l.Locked {
		return
	}
	cur, curVel, _ := l.target(anim, animVel, s.Halflife)
	l.letGo(cur, curVel, anim, animVel, true, radius)
}

// liftShare is how high a foot let go lifts (at the middle of its
// release) for each metre it moves on the ground: a step of 30 cm lifts
// it 7.5 cm, about a walking step's clearance.
const liftShare = 0.25

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
