package matching

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
)

// Feet is the matcher's stage that stands the output on its feet: the
// ankles and toes locked where the frames playing label them in contact
// (FootLock), the legs bent by the two-bone IK with velocities to reach
// the held points, the hips lowered where they cannot, the feet turned so
// a held toe stays on its point.
type Feet struct {
	// Locks are the ankles' locks (left, right), ToeLocks the toes'.
	Locks, ToeLocks [2]FootLock
	// ik is the IK's scratch, how far (m) the hips are lowered for the
	// held feet and how fast, and each foot's pull into the leg's reach.
	ik struct {
		temp, a, b    animsys.Pose
		drop, dropVel float32
		pull          [2]decay
	}
}

// newFeet allocates the feet's IK scratch for a skeleton of n joints.
func newFeet(n int) Feet {
	var ft Feet
	animsys.NewPoses(n, &ft.ik.temp, &ft.ik.a, &ft.ik.b)
	return ft
}

// reset lets every foot go, the hips up.
func (ft *Feet) reset() {
	ft.Locks, ft.ToeLocks = [2]FootLock{}, [2]FootLock{}
	ft.ik.drop, ft.ik.dropVel, ft.ik.pull = 0, 0, [2]decay{}
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
	// floorVel the height the aim is kept above; ankleTop and top (m,
	// world) the highest the ankle's and the toe's locks hold their
	// joints (landTop of the clip's, or of the floors: Feet.lock).
	toe, toeVel     mgl32.Vec3
	base, baseVel   mgl32.Vec3
	hold, holdRate  float32
	held            float32
	ankleTop, top   float32
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
//
// Feet turn with the body: a foot held while the body turns over it
// pivots about its heel once it points pivotAngle from where the clip
// has it (pivot); and legs never cross: where the held ankles have
// crossed the hips' lateral axis, the one held furthest from where the
// clip has it steps (crossed).
//
// A lock engaging above the clip's joint brings it down to the clip's
// (FootLock.down); settle brings it to the floor instead (the joint's
// floor, Database.AnkleFloor and ToeFloor): at rest in a frame with a
// foot up (Matcher.contacts).
func (ft *Feet) lock(db *Database, s *LockSettings, contacts uint8, settle bool, out *Poses, floorY, dt float32) {
	var targets [2]footTarget
	step := -1 // a settled stance is where the feet stay, crossed or not
	if !settle {
		step = ft.crossed(db, &out.World)
	}
	for f := range ft.Locks {
		l, tl := &ft.Locks[f], &ft.ToeLocks[f]
		contact, toeContact := contacts&(1<<f) != 0, contacts&(4<<f) != 0
		t := &targets[f]
		leg := db.Legs[f]
		if leg.Root < 0 {
			*l, *tl = FootLock{Contact: contact}, FootLock{Contact: toeContact}
			continue
		}
		t.ankle, t.ankleVel = out.World.Pos[leg.End], out.World.Vel[leg.End]
		t.ankleTop = floorY + db.landTop(out.Target.Pos[leg.End][1])
		if toe := db.Toes[f]; toe > 0 {
			t.top = floorY + db.landTop(out.Target.Pos[toe][1])
		}
		if settle {
			t.ankleTop, t.top = floorY+db.AnkleFloor, floorY+db.ToeFloor
			l.settle(t.ankleTop)
			tl.settle(t.top)
		}
		if !s.On {
			*l, *tl = FootLock{Contact: contact}, FootLock{Contact: toeContact}
			continue
		}
		radius := s.Radius * db.Size
		if toe := db.Toes[f]; toe > 0 && s.Toes {
			ft.lockFoot(db, out, floorY, t, f, contact, toeContact, toe, s, radius, step == f, dt)
			continue
		}
		*tl = FootLock{Contact: toeContact}
		was := l.Locked
		l.advance(s, dt)
		if step == f {
			l.release(t.ankle, t.ankleVel, s, radius)
		}
		l.decide(contact, t.ankle, t.ankleVel, s, radius, t.ankleTop)
		t.ankle, t.ankleVel, t.acts = l.target(t.ankle, t.ankleVel, s.Halflife)
		t.letGo = was && !l.Locked
	}
	need := float32(0)
	for f, t := range targets {
		if t.acts {
			need = max(need, hipsDrop(&out.World, db.Legs[f], t.ankle))
		}
	}
	// A foot no lock holds still follows the animation while the hips are
	// lowered (the IK to where it was animated): else it would sink with
	// them, and jump back when they rise or its lock stops acting.
	dropped := ft.dropHips(db, out, need, dt)
	for f := range targets {
		t, leg := &targets[f], db.Legs[f]
		pull := &ft.ik.pull[f]
		pull.since += dt
		if !t.acts && !(dropped && leg.Root >= 0) {
			continue
		}
		// A foot let go out of the leg's reach comes back from its edge
		// (pullIn), the pull decaying as a release does; an ankle locked
		// again while pulled is held where it is, the pull ended.
		p, v := pull.at(s.Halflife)
		if d := pullIn(&out.World, leg, t.ankle.Add(p)); t.letGo && d != (mgl32.Vec3{}) {
			p = p.Add(d)
			*pull = decay{off: p, offVel: v}
		}
		if l := &ft.Locks[f]; l.Locked && (pull.off != mgl32.Vec3{} || pull.offVel != mgl32.Vec3{}) {
			l.At, l.land, t.ankle = l.At.Add(p), l.land+p[1], t.ankle.Add(p)
			p, v, *pull = mgl32.Vec3{}, mgl32.Vec3{}, decay{}
		}
		t.ankle, t.ankleVel = t.ankle.Add(p), t.ankleVel.Add(v)
		pos, vel := withinReach(&out.World, leg, t.ankle, t.ankleVel)
		animsys.TwoBoneIK(&out.wl, &ft.ik.temp, &ft.ik.a, &ft.ik.b, db.Skel.Parents, leg, pos, vel, ikDelta)
		animsys.FK(&out.World, &out.wl, db.Skel.Parents)
		if !t.aims {
			continue
		}
		// The foot turns so its toe points at the aim (unless the aim is
		// on the ankle, where no direction is defined); the toe's offset
		// in the ankle's frame is taken as fixed in the tick (the toe is
		// the ankle's child on kinelab's figures).
		aim, aimVel := ft.toeAim(db, out, f, t, pos, vel, s.Halflife)
		if ankle := out.World.Pos[leg.End]; aim.Sub(ankle).Len() > 1e-3*db.Size {
			fwd := mathx.Vec3Normalize(mathx.QuatInvMulVec3(out.World.Rot[leg.End], out.World.Pos[db.Toes[f]].Sub(ankle)))
			animsys.LookAt(&out.wl, &out.World, leg.End, aim, aimVel, fwd)
			animsys.FK(&out.World, &out.wl, db.Skel.Parents)
		}
	}
}

// lockFoot fills t with where the ankle and toe locks of foot side put
// it this tick; t.ankle and t.ankleVel come in as the animated ankle, toe
// is the toe joint. The toe's lock steps first, on the animated toe; the
// ankle's then steps on the animated ankle moved by the toe lock's offset
// (t.base: the foot carried with its toe, keeping its animated turn), so
// a heel lifting about a held toe goes where the toe's hold puts it.
func (ft *Feet) lockFoot(db *Database, out *Poses, floorY float32, t *footTarget, side int, contact, toeContact bool, toe int, s *LockSettings, radius float32, step bool, dt float32) {
	l, tl, hl := &ft.Locks[side], &ft.ToeLocks[side], s.Halflife
	animA, animAVel := t.ankle, t.ankleVel
	animT, animTVel := out.World.Pos[toe], out.World.Vel[toe]
	tl.advance(s, dt)
	l.advance(s, dt)
	if tl.Locked && l.Locked {
		pivot(tl, l.At, animA, animAVel, animT, animTVel)
	}
	if step {
		tl.release(animT, animTVel, s, radius)
	}
	if tl.strayed && !tl.releasing && l.strayed && !l.Locked {
		// A foot that stepped puts its heel down first: its toe locks
		// again once the heel has (both at once, the toe jumped 5-10 mm).
		tl.releasing = true
	}
	t.held, _ = tl.hold(hl) // before it decides: a lock engaging takes over from this
	wasA, wasT := l.Locked, tl.Locked
	t.engaged = tl.decide(toeContact, animT, animTVel, s, radius, float32(math.Inf(1)))
	var toeActs, ankleActs bool
	t.toe, t.toeVel, toeActs = tl.target(animT, animTVel, hl)
	t.base, t.baseVel = animA.Add(t.toe.Sub(animT)), animAVel.Add(t.toeVel.Sub(animTVel))
	if step {
		l.release(t.base, t.baseVel, s, radius)
	}
	l.decide(contact, t.base, t.baseVel, s, radius, t.ankleTop)
	t.ankle, t.ankleVel, ankleActs = l.target(t.base, t.baseVel, hl)
	t.hold, t.holdRate = tl.hold(hl)
	// The aim stays above the floor, or the animated toe where it is
	// lower (so an unheld foot's aim stays the animation's), or the toe
	// lock's target where that is (a toe held where it landed below the
	// floor stays there, not lifted as the animated toe rises).
	t.floor, t.floorVel = floorY+db.ToeFloor, 0
	t.lowerFloor(animT[1], animTVel[1])
	t.lowerFloor(t.toe[1], t.toeVel[1])
	t.letGo = !l.Locked && (wasA || wasT && !tl.Locked)
	t.acts, t.aims = ankleActs || toeActs, true
}

// pivotAngle (rad) is how far a held foot may point from where the clip
// has it: a leg twists about 40° at the hip and knee together before
// the foot must turn.
const pivotAngle = 40 * math.Pi / 180

// pivot turns the held toe tl about the held heel at (world, m) where
// the foot (heel to toe) points further from the clip's (animated ankle
// animA to toe animT, moving at animAVel and animTVel) than it may: than
// pivotAngle, or than it did when it was first held (FootLock.twist: a
// foot that lands twisted is not snapped round). It is turned onto that
// limit, and turns on as the clip's foot turns (its yaw rate about the
// heel: the toe's held velocity).
func pivot(tl *FootLock, at, animA, animAVel, animT, animTVel mgl32.Vec3) {
	held, anim, animVel := tl.At.Sub(at), animT.Sub(animA), animTVel.Sub(animAVel)
	tl.AtVel = mgl32.Vec3{}
	if (mgl32.Vec2{held[0], held[2]}).Len() < 1e-6 || (mgl32.Vec2{anim[0], anim[2]}).Len() < 1e-6 {
		return
	}
	twist := wrapAngle(yawOf(mgl32.Vec2{anim[0], anim[2]}) - yawOf(mgl32.Vec2{held[0], held[2]}))
	if !tl.twisted {
		tl.twisted, tl.twist = true, abs32(twist)
	}
	most := max(pivotAngle, min(tl.twist, abs32(twist)))
	tl.twist = most
	if abs32(twist) <= most {
		return
	}
	excess := twist - mathx.Clamp(twist, -most, most)
	turned := mathx.QuatMulVec3(yawQuatAngle(excess), held)
	tl.At = at.Add(turned)
	// d/dt atan2(x, z) = (x' z - x z') / (x² + z²)
	rate := (animVel[0]*anim[2] - anim[0]*animVel[2]) / (anim[0]*anim[0] + anim[2]*anim[2])
	tl.AtVel = mgl32.Vec3{0, rate, 0}.Cross(turned)
}

// crossed is the foot to let go so that the legs uncross: where both
// ankles are held and the left one's hold lies right of the right one's
// across the hips (World, the output before the locks: the line through
// the hip joints), the one held further from where the clip has it; -1
// for none.
func (ft *Feet) crossed(db *Database, w *animsys.Pose) int {
	l, r := &ft.Locks[0], &ft.Locks[1]
	legL, legR := db.Legs[0], db.Legs[1]
	if !l.Locked || !r.Locked || legL.Root < 0 || legR.Root < 0 {
		return -1
	}
	across := w.Pos[legL.Root].Sub(w.Pos[legR.Root])
	if d := l.At.Sub(r.At); d[0]*across[0]+d[2]*across[2] >= 0 {
		return -1
	}
	if groundDist(l.At, w.Pos[legL.End]) > groundDist(r.At, w.Pos[legR.End]) {
		return 0
	}
	return 1
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
func (ft *Feet) toeAim(db *Database, out *Poses, side int, t *footTarget, ankle, ankleVel mgl32.Vec3, halflife float32) (mgl32.Vec3, mgl32.Vec3) {
	band := floorBand * db.Unit
	off, offVel := ankle.Sub(t.base), ankleVel.Sub(t.baseVel)
	if t.engaged {
		was := t.toe.Add(off.Mul(1 - t.held))
		was[1], _ = aboveFloor(was[1], 0, t.floor, 0, band)
		foot := out.World.Pos[db.Toes[side]].Sub(out.World.Pos[db.Legs[side].End]).Len()
		if r := was.Sub(ankle); r.Len() > mathx.Eps {
			was = ankle.Add(r.Mul(foot / r.Len()))
		}
		shift := was.Sub(t.toe)
		tl := &ft.ToeLocks[side]
		tl.At = was
		// A toe held above the clip's comes down to it as the ankle's
		// lock brings its ankle down (FootLock.down): held where a
		// transition carried it, a foot kicked up would stand on its
		// heel, toes raised (on the captures' spin, 45° up through the
		// rest after it).
		if was[1] > t.top {
			tl.land, tl.down = t.top, decay{off: mgl32.Vec3{0, was[1] - t.top, 0}}
		}
		t.toe, t.base, off = was, t.base.Add(shift), off.Sub(shift)
		ft.Locks[side].nudge(shift.Mul(-1), halflife)
		t.lowerFloor(was[1], 0) // as lockFoot's for the toe lock's target
	}
	aim := t.toe.Add(off.Mul(1 - t.hold))
	aimVel := t.toeVel.Add(offVel.Mul(1 - t.hold)).Sub(off.Mul(t.holdRate))
	aim[1], aimVel[1] = aboveFloor(aim[1], aimVel[1], t.floor, t.floorVel, band)
	return aim, aimVel
}

// pullIn is the move (m) that brings an ankle target far beyond the
// leg's reach to the edge of where withinReach saturates: where the leg
// stays all but straight whatever the target's distance, so the output
// barely moves (a 10,000th of the soft band, a micrometre). A foot let go from
// there comes back from the edge: from further, its target would sweep
// through the band at the release's full speed, snapping the knee out
// of straight (8-16 m/s at the knee).
func pullIn(w *animsys.Pose, leg animsys.TwoBoneJoints, pos mgl32.Vec3) mgl32.Vec3 {
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
func withinReach(w *animsys.Pose, leg animsys.TwoBoneJoints, pos, vel mgl32.Vec3) (mgl32.Vec3, mgl32.Vec3) {
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
func hipsDrop(w *animsys.Pose, leg animsys.TwoBoneJoints, target mgl32.Vec3) float32 {
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
func (ft *Feet) dropHips(db *Database, out *Poses, need, dt float32) bool {
	k := &ft.ik
	need = min(need, maxDrop*db.Size)
	if dt > 0 {
		k.drop, k.dropVel = spring.SimpleSpringDamperExact(k.drop, k.dropVel, need, dropHalflife, dt)
	}
	if k.drop == 0 && k.dropVel == 0 {
		return false
	}
	out.wl.Pos[0][1] -= k.drop
	out.wl.Vel[0][1] -= k.dropVel
	animsys.FK(&out.World, &out.wl, db.Skel.Parents)
	return true
}

// ikDelta (s) is the foot IK's finite-difference step (op_two_bone_ik's
// delta): its velocities are first order in it.
const ikDelta = 1.0 / 2400
