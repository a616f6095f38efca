package retarget

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// Scratch is the memory one goroutine's Map.Pose works in: the feet's
// IK chains and the world rotations the IK asks of the legs. Make one
// with Map.NewScratch, and use it from one goroutine at a time.
type Scratch struct {
	ik       [4]animsys.Pose // the three-joint chain: now, ikDelta ahead and behind; the world pose of one
	override []bool          // per target joint: its world rotation is set
	want     []animsys.Kform // and what it is (Rot and Ang)
	// stance is each foot's step aside when a clip's curves set it
	// (stance.go), else the foot's own is taken (aside).
	stance [2]step
}

// chainParents is the feet's IK chain: the thigh, the knee, the ankle.
var chainParents = []int{-1, 0, 1}

// NewScratch allocates a Scratch for m.
func (m *Map) NewScratch() *Scratch {
	s := &Scratch{override: make([]bool, len(m.dst)), want: make([]animsys.Kform, len(m.dst))}
	animsys.NewPoses(3, &s.ik[0], &s.ik[1], &s.ik[2], &s.ik[3])
	return s
}

// ikDelta (s) is the step of the feet's IK's central difference (reach):
// its error is second order in it, some 1e-3 rad/s at a knee through a
// stride, and the rounding of the IK's bend (float32, a few 1e-6 rad
// near a straight leg, where the bend moves fastest with the reach)
// over it about as much; half the step doubles that, twice it
// quadruples the first.
const ikDelta = 1e-3

// The leg's soft reach, as the matching lab's foot lock reaches: a goal
// up to softKnee of the leg's length from the thigh is reached; beyond,
// the distance eases towards softTop of it (tanh, its slope continuous),
// never to a straight leg, where two-bone IK's knee speed has no bound.
const (
	softKnee = 0.985
	softTop  = 0.999
)

// Pose writes the target's pose for the source's world pose src (FK of
// a source pose with velocities: m, m/s, rad/s, 1/s) into local and
// world, the target's local pose and its FK, with exact velocities (see
// the package doc): world is animsys.FK of local. It allocates nothing;
// s is the caller's scratch (NewScratch). The poses must hold the
// source's and the target's joints.
func (m *Map) Pose(local, world, src *animsys.Pose, s *Scratch) {
	m.need(local, world, src, s)
	clear(s.override)
	hipsAt := m.hipsAt(src)
	m.placeAll(local, world, src, s, hipsAt)
	if !m.Feet {
		return
	}
	for side, l := range m.legs {
		if l.ok {
			m.reach(side, world, src, s)
		}
	}
	m.placeAll(local, world, src, s, hipsAt)
}

// moveRoot moves the target's local pose by the source's motion along
// the ground at, scaled: its root (the ground root, or the hips where
// they are the root).
func (m *Map) moveRoot(local *animsys.Pose, at mgl32.Vec3) {
	r := m.root
	if r < 0 {
		r = m.dstHips
	}
	local.Pos[r] = local.Pos[r].Add(at.Mul(m.Scale))
}

// need panics, naming Map.Pose, unless the poses hold the joints it
// reads and writes.
func (m *Map) need(local, world, src *animsys.Pose, s *Scratch) {
	for _, p := range []struct {
		name string
		pose *animsys.Pose
		n    int
	}{{"local", local, len(m.dst)}, {"world", world, len(m.dst)}, {"src", src, len(m.src)}} {
		q := p.pose
		if len(q.Pos) < p.n || len(q.Rot) < p.n || len(q.Scl) < p.n || len(q.Vel) < p.n || len(q.Ang) < p.n || len(q.Svl) < p.n {
			panic(fmt.Sprintf("retarget.Map.Pose: %s pose has %d joints, want %d", p.name, q.Len(), p.n))
		}
	}
	if s == nil || len(s.want) != len(m.dst) {
		panic("retarget.Map.Pose: scratch not made by this map's NewScratch")
	}
}

// hipsAt is where the target's hips go: the source's hips' position
// scaled and lifted, its velocity scaled (m, m/s), with the source's
// hips' world rotation and angular velocity.
func (m *Map) hipsAt(src *animsys.Pose) animsys.Kform {
	h := src.Kform(m.srcHips)
	k := m.Scale
	h.Pos = h.Pos.Mul(k).Add(mgl32.Vec3{0, m.HipsLift, 0})
	h.Vel = h.Vel.Mul(k)
	return h
}

// placeAll places every target joint in order (rule.kind), each from its
// parent's world kineform: local = KformDiv(parent, wanted), world =
// KformMul(parent, local), so world is FK of local, velocities included.
func (m *Map) placeAll(local, world, src *animsys.Pose, s *Scratch, hipsAt animsys.Kform) {
	for _, j := range m.order {
		r := &m.joints[j]
		p := m.dst[j]
		parent := animsys.KformIdentity()
		if p >= 0 {
			parent = world.Kform(p)
		}
		l := r.rest // at rest in its parent's frame, not moving
		switch r.kind {
		case ground:
			// The hips' ground projection (x, 0, z), with its velocity.
			g := animsys.KformIdentity()
			g.Rot, g.Scl = r.rest.Rot, r.rest.Scl
			g.Pos, g.Vel = mgl32.Vec3{hipsAt.Pos[0], 0, hipsAt.Pos[2]}, mgl32.Vec3{hipsAt.Vel[0], 0, hipsAt.Vel[2]}
			l = m.within(parent, g, r)
		case hips:
			w := hipsAt
			w.Rot = mathx.QuatMul(w.Rot, r.offset)
			w = m.wanted(j, w, s)
			l = m.within(parent, w, r)
		case copied:
			w := m.wanted(j, m.turned(src, r), s)
			l.Rot, l.Ang = rotWithin(parent, w)
		case carried:
			// At its place in its knee's frame, with the knee's motion.
			w := animsys.KformMul(world.Kform(r.knee), animsys.KformFromPosVel(r.shin, mgl32.Vec3{}))
			t := m.wanted(j, m.turned(src, r), s)
			w.Rot, w.Ang = t.Rot, t.Ang
			l = m.within(parent, w, r)
		}
		local.SetKform(j, l)
		if p < 0 {
			world.SetKform(j, l)
		} else {
			world.SetKform(j, animsys.KformMul(parent, l))
		}
	}
}

// turned is rule r's source joint's world rotation times its offset,
// with its angular velocity (a constant offset on the right leaves the
// world-side angular velocity as it is).
func (m *Map) turned(src *animsys.Pose, r *rule) animsys.Kform {
	return animsys.KformFromRotAng(mathx.QuatMul(src.Rot[r.from], r.offset), src.Ang[r.from])
}

// wanted is w with the world rotation the feet's IK set for joint j, if
// it set one.
func (m *Map) wanted(j int, w animsys.Kform, s *Scratch) animsys.Kform {
	if s.override[j] {
		w.Rot, w.Ang = s.want[j].Rot, s.want[j].Ang
	}
	return w
}

// within is world kineform w in the frame of parent (kform_div), its
// scale the joint's rest scale, not moving; its rotation normalized
// (rotWithin).
func (m *Map) within(parent, w animsys.Kform, r *rule) animsys.Kform {
	l := animsys.KformDiv(parent, w)
	l.Rot = mathx.QuatNormalize(l.Rot)
	l.Scl, l.Svl = r.rest.Scl, mgl32.Vec3{}
	return l
}

// rotWithin is world rotation w (with its angular velocity) in the frame
// of parent: BK's rotation and angular velocity, the rotation normalized.
// The inverse is the conjugate, exact only for a unit quaternion: each
// joint's rotation left unnormalized would carry its parent's world
// rotation's length error, and its world rotation twice it, doubling
// down the chain (3e-5 at a robot's fingertips, 1e-4 m of jitter).
func rotWithin(parent, w animsys.Kform) (mgl32.Quat, mgl32.Vec3) {
	return mathx.QuatNormalize(mathx.QuatInvMul(parent.Rot, w.Rot)), mathx.QuatInvMulVec3(parent.Rot, w.Ang.Sub(parent.Ang))
}

// reach bends leg l (in world, placed) so that its ankle reaches its
// goal (ankleGoal, softly: softReach) by two-bone IK on the thigh, knee
// and ankle alone (animsys.TwoBoneIKStatic, op_two_bone_ik_static, on a
// chain of three joints: the thigh's world kineform, the knee's in the
// thigh's frame, the ankle's in the knee's, which also carries a foot
// hanging elsewhere), and sets the thigh's and knee's world rotations for
// the next placeAll.
//
// Their angular velocities are the central difference of the IK over
// ikDelta either side: the chain moved along its own velocities
// (ExtrapolatePrev, forwards and back) to the goal moved along its own,
// which differentiates the IK along the motion with an error second
// order in ikDelta. The article's op_two_bone_ik differences one side
// (animsys.TwoBoneIK), first order: at 1/2400 s a knee swinging through
// a stride was off by up to 0.3 rad/s, past verify's tolerances.
func (m *Map) reach(side int, world, src *animsys.Pose, s *Scratch) {
	l := m.legs[side]
	upper, mid, end := world.Kform(l.upper), world.Kform(l.mid), world.Kform(l.end)
	cur := &s.ik[0]
	length := mid.Pos.Sub(upper.Pos).Len() + end.Pos.Sub(mid.Pos).Len()
	cur.SetKform(1, animsys.KformDiv(upper, mid))
	cur.SetKform(2, animsys.KformDiv(mid, end))
	// The chain about the thigh: float32 positions metres from the
	// origin would round the bend to 1e-6 rad, its rate to 1e-2 rad/s.
	at := upper.Pos
	upper.Pos = mgl32.Vec3{}
	cur.SetKform(0, upper)
	cur.Rot[1], cur.Rot[2] = mathx.QuatNormalize(cur.Rot[1]), mathx.QuatNormalize(cur.Rot[2]) // as rotWithin
	goal, goalVel := m.ankleGoal(side, src, s)
	goal, goalVel = softReach(goal.Sub(at), goalVel, upper.Pos, upper.Vel, length)
	j := animsys.TwoBoneJoints{Root: 0, Mid: 1, End: 2, Hinge: l.hinge}
	// The IK moved along the motion ikDelta ahead and behind, then now
	// (cur last, as the others extrapolate from it).
	for k, d := range [2]float32{1, -1} {
		p := &s.ik[1+k]
		animsys.ExtrapolatePrev(p, cur, -d*ikDelta)
		s.solve(p, j, goal.Add(goalVel.Mul(d*ikDelta)))
	}
	s.solve(cur, j, goal)
	for _, i := range [2]int{0, 1} {
		d := mathx.QuatAbs(mathx.QuatMulInv(s.ik[1].Rot[i], s.ik[2].Rot[i]))
		cur.Ang[i] = mathx.QuatToScaledAngleAxis(d).Mul(1 / (2 * ikDelta))
	}
	knee := animsys.KformMul(cur.Kform(0), cur.Kform(1))
	s.override[l.upper], s.want[l.upper] = true, cur.Kform(0)
	s.override[l.mid], s.want[l.mid] = true, knee
}

// ankleGoal is where leg side's ankle goes (m, world) and how fast (m/s):
// the source's ankle scaled and lifted (Scale, AnkleLift), moved aside by
// the difference of the two figures' stances: by the clip's step aside
// where the scratch holds one (Curves: constant while the foot stands,
// stance.go), else by the foot's own (aside).
func (m *Map) ankleGoal(side int, src *animsys.Pose, s *Scratch) (mgl32.Vec3, mgl32.Vec3) {
	l := m.legs[side]
	if !l.ok {
		return mgl32.Vec3{}, mgl32.Vec3{}
	}
	a := src.Kform(l.srcAnkle)
	goal := a.Pos.Mul(m.Scale).Add(mgl32.Vec3{0, m.AnkleLift, 0})
	vel := a.Vel.Mul(m.Scale)
	off, offVel := aside(l, a)
	if s != nil && s.stance[side].set {
		off, offVel = s.stance[side].off, s.stance[side].vel
	}
	return goal.Add(off), vel.Add(offVel)
}

// aside is the step aside (m, world, and its rate in m/s) the foot of
// leg l takes in the frame a of the source's ankle: leg.aside along the
// ground across the source's foot, its lateral axis (leg.across, in the
// ankle's frame) turned with it and laid on the ground, n = h/|h| for h
// its horizontal part (a foot rolling on its edge does not tilt it). Its
// rate is aside dn/dt, dn/dt = (dh - n (n . dh)) / |h| for dh the
// horizontal part of w x across, w the ankle's angular velocity. A foot
// that turns while it stands (a pivot) carries it round, a wide figure's
// foot then sliding by aside w: clips take their feet's stances instead
// (stance.go).
func aside(l leg, a animsys.Kform) (mgl32.Vec3, mgl32.Vec3) {
	across := mathx.QuatMulVec3(a.Rot, l.across)
	h := mgl32.Vec3{across[0], 0, across[2]}
	hl := h.Len()
	if l.aside == 0 || hl < 1e-6 {
		return mgl32.Vec3{}, mgl32.Vec3{}
	}
	n := h.Mul(1 / hl)
	d := a.Ang.Cross(across)
	dh := mgl32.Vec3{d[0], 0, d[2]}
	dn := dh.Sub(n.Mul(n.Dot(dh))).Mul(1 / hl)
	return n.Mul(l.aside), dn.Mul(l.aside)
}

// AnkleGoal is where the feet's IK puts the target's ankle of leg side
// (humanoid.Left or Right) for the source's world pose src, and how fast
// it goes (m, m/s): the source's ankle scaled, lifted and moved aside by
// the difference of the stances across the foot (aside), before the soft
// reach; a retargeted clip's curves use their stances' steps instead.
// Zero for a leg the IK does not bend.
func (m *Map) AnkleGoal(side int, src *animsys.Pose) (mgl32.Vec3, mgl32.Vec3) {
	return m.ankleGoal(side, src, nil)
}

// solve bends chain p (the three-joint chain) so that its end reaches
// goal (animsys.TwoBoneIKStatic on its FK).
func (s *Scratch) solve(p *animsys.Pose, j animsys.TwoBoneJoints, goal mgl32.Vec3) {
	animsys.FKStatic(&s.ik[3], p, chainParents)
	animsys.TwoBoneIKStatic(p, &s.ik[3], chainParents, j, goal)
}

// softReach brings goal p (moving at v) within a leg of length
// (m) from its thigh at hip (moving at hipVel): its distance d from the
// thigh becomes d up to softKnee of the length, and beyond it softKnee +
// (softTop - softKnee) tanh((d - softKnee) / (softTop - softKnee)) of
// it (lengths in units of the leg's); the velocity is the map's exact
// derivative: d/dt (hip + u r(d)) = hipVel + u r'(d) d' + (dv - u d') r/d,
// with u the unit direction, dv the relative velocity and d' = u . dv.
func softReach(p, v, hip, hipVel mgl32.Vec3, length float32) (mgl32.Vec3, mgl32.Vec3) {
	rel := p.Sub(hip)
	d := rel.Len()
	knee, top := softKnee*length, softTop*length
	if d <= knee || !(length > 0) {
		return p, v
	}
	u := rel.Mul(1 / d)
	dv := v.Sub(hipVel)
	dd := u.Dot(dv)
	x := float64((d - knee) / (top - knee))
	th := float32(math.Tanh(x))
	r := knee + (top-knee)*th
	slope := 1 - th*th // dr/dd
	pos := hip.Add(u.Mul(r))
	vel := hipVel.Add(u.Mul(slope * dd)).Add(dv.Sub(u.Mul(dd)).Mul(r / d))
	return pos, vel
}
