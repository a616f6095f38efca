package matching

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
)

// Warps is the matcher's stage that bends the clip playing towards what
// the simulation asks where the database has no clip that does it (the
// industry's answer to captures without the asked motion: Unreal's
// stride and orientation warping), with the warps' own rates in every
// velocity:
//
//   - Stride warping scales the clip's travel by Stride (a ratio): the
//     root motion, and each foot's distance from the hips along the
//     direction of travel, so a planted foot stays planted while the
//     root covers Stride times the clip's ground; the legs' IK reaches
//     the scaled feet (within reach).
//   - Orientation warping turns the clip's direction of travel by Orient
//     (rad about +y): the root motion, and the hips with the legs below
//     them, the turn unwound up the spine so the chest faces as the clip
//     has it.
//
// Each amount follows its goal by a critical spring (WarpSettings): the
// goals are the ratio of the simulation's speed to the clip's root speed
// as it plays (after the playback rate), and the angle from the clip's
// direction of travel to the simulation's, in the root's frame, within
// bounds; 1 and 0 where either barely moves.
type Warps struct {
	// Stride (ratio) and StrideVel (1/s); Orient (rad) and OrientVel
	// (rad/s).
	Stride, StrideVel float32
	Orient, OrientVel float32
	// travel (rad about +y, in the root's frame) is the clip's direction
	// of travel the stride is scaled along, and travelVel its rate: a
	// spring on the root motion's direction, so its rate is known
	// exactly.
	travel, travelVel float32
	// reach is the most stride the legs reach on the last tick (Stride's
	// goal is held under it: strideReach); striding: stride warping is on,
	// and its IK runs every tick, a stride of 1 too (switched on and off
	// where the stride met 1, the IK's own velocity of a near-straight leg
	// stepped from the animation's: 2 m/s at the knee).
	reach    float32
	striding bool
	// temp, a, b are the IK's scratch.
	temp, a, b animsys.Pose
}

// WarpSettings are the warps' settings (Warps).
type WarpSettings struct {
	Stride, Orient bool
	// Halflife (s) of the springs the amounts follow their goals by.
	Halflife float32
	// Turn (rad/s) is how fast the root may turn beyond the clip's own
	// turn while it travels (the synchronisation's adjustment), and so
	// how much of the predicted path's turning the search may leave to
	// it: a straight run is matched to a running curve and bent round it
	// (Searcher.features). 0: none, the reference's behaviour.
	Turn float32
}

// The warps' bounds: a stride from 0.75 to 1.3 times the clip's (a
// human's step lengthens and shortens about that much at one cadence
// before the gait changes; beyond, the legs run out of reach or shuffle),
// and a turn of the direction of travel of at most 30° (beyond, a forward
// walk warped sideways crosses its legs, and the turning hips drag the
// held feet: on ../shared/locomotion's random path, 60° slid the ankles
// 7.7 cm/s on their own labels against 6.2 at 30°; the database's side
// and back steps must do more). warpSpeed (m/s for a human, times Database.Unit):
// below it on either side nothing is warped (a direction or a ratio of
// near-zero speeds means nothing).
const (
	StrideMin = 0.75
	StrideMax = 1.3
	OrientMax = 30 * math.Pi / 180
	warpSpeed = 0.3
)

// newWarps allocates the warps' scratch for a skeleton of n joints.
func newWarps(n int) Warps {
	w := Warps{Stride: 1, reach: StrideMax}
	animsys.NewPoses(n, &w.temp, &w.a, &w.b)
	return w
}

// reset puts both warps at rest: no stride scaled, no turn.
func (w *Warps) reset() {
	w.Stride, w.StrideVel, w.Orient, w.OrientVel, w.travel, w.travelVel = 1, 0, 0, 0, 0, 0
	w.reach = StrideMax
}

// update springs the amounts over dt seconds towards their goals, from
// the simulation sim and the root's yaw (rad) and the output's root
// motion (local's joint 0, in the root's frame), and warps the root
// motion. A warp switched off springs back to none.
func (w *Warps) update(db *Database, s *WarpSettings, sim *Simulation, rootYaw float32, local *animsys.Pose, dt float32) {
	w.striding = s.Stride
	v := local.Vel[0]
	clip := mgl32.Vec2{v[0], v[2]}
	want := rotate2(sim.Vel, -rootYaw) // the simulation's velocity in the root's frame
	slow := warpSpeed * db.Unit
	moving := clip.Len() > slow && want.Len() > slow
	stride, orient := float32(1), float32(0)
	if moving && s.Stride {
		stride = mathx.Clamp(want.Len()/clip.Len(), StrideMin, min(StrideMax, w.reach))
	}
	if moving && s.Orient {
		orient = mathx.Clamp(wrapAngle(yawOf(want)-yawOf(clip)), -OrientMax, OrientMax)
	}
	if moving {
		dir := w.travel + wrapAngle(yawOf(clip)-w.travel)
		w.travel, w.travelVel = spring.SimpleSpringDamperExact(w.travel, w.travelVel, dir, s.Halflife, dt)
		w.travel = wrapAngle(w.travel)
	}
	w.Stride, w.StrideVel = spring.SimpleSpringDamperExact(w.Stride, w.StrideVel, stride, s.Halflife, dt)
	w.Orient, w.OrientVel = spring.SimpleSpringDamperExact(w.Orient, w.OrientVel, orient, s.Halflife, dt)
	if !mathx.Finite(w.Stride) || !mathx.Finite(w.StrideVel) || !mathx.Finite(w.Orient) || !mathx.Finite(w.OrientVel) ||
		!mathx.Finite(w.travel) || !mathx.Finite(w.travelVel) { // a NaN half-life or speed: no warp
		w.reset()
	}
	// The root motion: turned by the orientation, scaled by the stride
	// (a constant-rate map of the velocity: its own rates change the
	// root's acceleration, not its velocity).
	turned := rotate2(clip, w.Orient).Mul(w.Stride)
	local.Vel[0][0], local.Vel[0][2] = turned[0], turned[1]
}

// pose warps the world pose (out.World, and wl, its local pose): the
// hips turned by Orient and the turn unwound up the spine, then each
// leg's IK to its foot scaled by Stride along the direction of travel
// from the hips; rootYaw (rad) and rootTurn (rad/s) are the root's
// facing and turn rate in the world.
func (w *Warps) pose(db *Database, out *Poses, rootYaw, rootTurn float32) {
	if w.Orient != 0 || w.OrientVel != 0 {
		w.orient(db, out)
	}
	w.reach = strideReach(db, &out.World, yawDir(rootYaw+w.travel+w.Orient))
	if w.striding || w.Stride != 1 || w.StrideVel != 0 {
		w.stride(db, out, rootYaw, rootTurn)
	}
}

// stretchWithin is the stride's foot target pos (moving at vel) where it
// lies further from the hip joint than the animated foot anim (moving at
// animVel) does: only the stretch beyond the animated foot's distance is
// eased by the leg's soft reach (softReach: the animated d0 and the
// target d become d0 + softReach(d) - softReach(d0)), so at a stride of
// 1 the target is the animated foot itself, whatever the leg's extent.
// (The soft reach applied to the whole target pulled a near-straight
// animated leg in as the stride left 1: a step of 4.6 m/s at the knee in
// a tick of 1/1200 s.) The velocity is the map's, differenced over
// ikDelta as the IK differences.
func stretchWithin(g *animsys.Pose, leg animsys.TwoBoneJoints, anim, animVel, pos, vel mgl32.Vec3) (mgl32.Vec3, mgl32.Vec3) {
	hip, hipVel := g.Pos[leg.Root], g.Vel[leg.Root]
	length := g.Pos[leg.Mid].Sub(hip).Len() + g.Pos[leg.End].Sub(g.Pos[leg.Mid]).Len()
	ease := func(p, a, hip mgl32.Vec3) mgl32.Vec3 {
		r := p.Sub(hip)
		d, d0 := r.Len(), a.Sub(hip).Len()
		if d <= d0 || d <= softKnee*length {
			return p
		}
		return hip.Add(r.Mul((d0 + softReach(d, length) - softReach(max(d0, softKnee*length), length) + max(softKnee*length-d0, 0)) / d))
	}
	p1 := ease(pos, anim, hip)
	p0 := ease(pos.Sub(vel.Mul(ikDelta)), anim.Sub(animVel.Mul(ikDelta)), hip.Sub(hipVel.Mul(ikDelta)))
	return p1, p1.Sub(p0).Mul(1 / ikDelta)
}

// strideReach is the most stride (from 1 to StrideMax) at which each leg
// of the world pose g still reaches its foot moved along the direction of
// travel d (stride): the foot p, its hip joint h, its distance along d
// from the hips r·d; moved by s = (k-1) r·d it lies |p - h + s d| from
// the hip, strideReachShare of the leg at the most. A held foot stands
// where the stride put it as it landed, so a stride beyond reach drags
// it.
//
// strideReachShare leaves the held foot room to fall further behind than
// the animated one while the stride's spring catches up: on a walk-only
// capture (../shared/mocap's CMU 131) asked to run round the circle, the
// ankles slid 46 cm/s at a fixed bound of 1.3, 30 within the lock's reach
// (0.985 of the leg), 19 within 0.92, 18 within 0.85.
const strideReachShare = 0.85

func strideReach(db *Database, g *animsys.Pose, d mgl32.Vec3) float32 {
	most := float32(StrideMax)
	c := g.Pos[db.Hips]
	for _, leg := range db.Legs {
		if leg.Root < 0 {
			continue
		}
		p, h := g.Pos[leg.End], g.Pos[leg.Root]
		along := d.Dot(p.Sub(c))
		if abs32(along) < 1e-6 {
			continue
		}
		r := strideReachShare * (g.Pos[leg.Mid].Sub(h).Len() + p.Sub(g.Pos[leg.Mid]).Len())
		q := p.Sub(h)
		b := q.Dot(d)
		disc := b*b - q.Dot(q) + r*r
		if disc < 0 { // out of reach already
			return 1
		}
		s := -b + mathx.Sqrt(disc) // the stretch along d that reaches, ahead
		if along < 0 {
			s = -b - mathx.Sqrt(disc) // behind
		}
		most = min(most, max(1+s/along, 1))
	}
	return most
}

// orient turns the hips by Orient about +y and unwinds the turn up the
// spine, so the chest keeps its world rotation: the hips and the n spine
// joints above them turn by Orient·(1 - k/n) for their place k (the hips
// 0, the chest n), each a turn in the world with its rate (a rotation
// kineform), made local through its parent's turned rotation (KformDiv,
// the step of BK). Without a spine the legs turn instead, each at its
// hip joint. Positions and velocities follow by FK.
func (w *Warps) orient(db *Database, out *Poses) {
	g, l, parents := &out.World, &out.wl, db.Skel.Parents
	turned := func(j int, share float32) animsys.Kform {
		r := yawQuatAngle(w.Orient * share)
		return animsys.KformFromRotAng(mathx.QuatMul(r, g.Rot[j]),
			mathx.QuatMulVec3(r, g.Ang[j]).Add(mgl32.Vec3{0, w.OrientVel * share, 0}))
	}
	setLocal := func(j int, parent, global animsys.Kform) {
		k := animsys.KformDiv(parent, global)
		l.Rot[j], l.Ang[j] = k.Rot, k.Ang
	}
	rotOf := func(j int) animsys.Kform { return animsys.KformFromRotAng(g.Rot[j], g.Ang[j]) }
	if n := len(db.Spine); n > 0 {
		prev := rotOf(parents[db.Hips])
		for k := 0; k <= n; k++ {
			j := db.Hips
			if k > 0 {
				j = db.Spine[k-1]
			}
			cur := turned(j, 1-float32(k)/float32(n))
			setLocal(j, prev, cur)
			prev = cur
		}
	} else {
		for _, leg := range db.Legs {
			if leg.Root > 0 {
				setLocal(leg.Root, rotOf(parents[leg.Root]), turned(leg.Root, 1))
			}
		}
	}
	animsys.FK(g, l, parents)
}

// stride moves each foot along the direction of travel d (the root's
// facing turned by the clip's travel and Orient: a ground direction at
// yaw φ) by Stride - 1 of its distance from the hips along d, and bends
// the leg to it (its IK with velocities, the soft reach of the foot
// locks), the foot keeping its turn. With r the foot from the hips, k
// the stride, the foot goes to p + (k-1)(d·r) d, moving at
// v + [k'(d·r) + (k-1)(d'·r + d·r')] d + (k-1)(d·r) d', d' = φ' × d.
func (w *Warps) stride(db *Database, out *Poses, rootYaw, rootTurn float32) {
	g := &out.World
	phi := rootYaw + w.travel + w.Orient
	phiVel := rootTurn + w.travelVel + w.OrientVel
	d := yawDir(phi)
	dd := mgl32.Vec3{d[2], 0, -d[0]}.Mul(phiVel) // d/dt (sin φ, 0, cos φ)
	c, cv := g.Pos[db.Hips], g.Vel[db.Hips]
	k, kv := w.Stride, w.StrideVel
	for _, leg := range db.Legs {
		if leg.Root < 0 {
			continue
		}
		a, av := g.Pos[leg.End], g.Vel[leg.End]
		r, rv := a.Sub(c), av.Sub(cv)
		along, alongVel := d.Dot(r), dd.Dot(r)+d.Dot(rv)
		p := a.Add(d.Mul((k - 1) * along))
		v := av.Add(d.Mul(kv*along + (k-1)*alongVel)).Add(dd.Mul((k - 1) * along))
		p, v = stretchWithin(g, leg, a, av, p, v)
		animsys.TwoBoneIK(&out.wl, &w.temp, &w.a, &w.b, db.Skel.Parents, leg, p, v, ikDelta)
		animsys.FK(g, &out.wl, db.Skel.Parents)
	}
}
