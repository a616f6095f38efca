package character

import (
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/humanoid"
	"kinelab/animsys/mathx"
)

// roles takes the joints the procedural stages act on from the figure: its
// hips and head, its left leg and right arm as two-bone chains (the other
// side's when a side has none), and its facing.
func (ch *Character) roles() {
	f := ch.Figure
	ch.Hips, ch.Head = max(f.Hips, 0), f.Head
	if ch.Hips == 0 {
		// A figure read as no human, whose trunk (if any) starts at joint
		// 0, the Entity at the ground: its hips are the first joint of
		// the body on the trunk, else the Entity's first child, where the
		// camera and the paths should look, not the origin.
		for _, j := range append(slices.Clone(f.Spine), slices.Index(ch.Skel.Parents, 0)) {
			if j > 0 && !f.Ground[j] {
				ch.Hips = j
				break
			}
		}
	}
	parents := ch.Skel.Parents
	chain := func(l humanoid.Limb) animsys.TwoBoneJoints {
		// Two-bone IK bends a parent chain: not a limb whose thigh, knee
		// and ankle are none (twist joints between), nor one whose foot
		// hangs elsewhere (humanoid.Limb.Carried).
		if l.Upper < 0 || l.Mid < 0 || l.End < 0 || parents[l.Mid] != l.Upper || parents[l.End] != l.Mid {
			return animsys.TwoBoneJoints{Root: -1}
		}
		return animsys.TwoBoneJoints{Root: l.Upper, Mid: l.Mid, End: l.End}
	}
	ch.Leg, ch.Arm = chain(f.Legs[humanoid.Left]), chain(f.Arms[humanoid.Right])
	if ch.Leg.Root < 0 {
		ch.Leg = chain(f.Legs[humanoid.Right])
	}
	if ch.Arm.Root < 0 {
		ch.Arm = chain(f.Arms[humanoid.Left])
	}
	first := func(l humanoid.Limb) int {
		if len(l.Path) == 0 {
			return -1
		}
		return l.Path[0]
	}
	l, r := first(f.Legs[humanoid.Left]), first(f.Legs[humanoid.Right])
	if u, v := f.Legs[humanoid.Left].Upper, f.Legs[humanoid.Right].Upper; u >= 0 && v >= 0 {
		l, r = u, v
	}
	ch.face(l, r)
	ch.hinges()
}

// face sets the facing from the left and right thighs l and r (-1 when
// unknown): left to right crossed with up, on the first frame of clip
// Start; the head's forward axis is that direction in the head's frame.
func (ch *Character) face(l, r int) {
	local, global := animsys.NewPose(ch.Skel.Len()), animsys.NewPose(ch.Skel.Len())
	animsys.SampleLinear(&local, &ch.Clips[ch.Start], 0)
	animsys.FKStatic(&global, &local, ch.Skel.Parents)
	ch.Facing = mgl32.Vec3{0, 0, 1}
	if l > 0 && r > 0 {
		if f := global.Pos[l].Sub(global.Pos[r]).Cross(mgl32.Vec3{0, 1, 0}); f.Len() > 1e-6 {
			ch.Facing = f.Normalize()
		}
	}
	ch.HeadFwd = ch.Facing
	if ch.Head >= 0 {
		ch.HeadFwd = mathx.QuatInvMulVec3(global.Rot[ch.Head], ch.Facing)
	}
}

// hinges sets the IK chains' hinges (animsys.TwoBoneJoints.Hinge), once
// the facing is known.
func (ch *Character) hinges() {
	if ch.Leg.Root >= 0 {
		ch.Leg.Hinge = ch.hinge(ch.Leg, 1)
	}
	parents := ch.Skel.Parents
	for s := range ch.Legs {
		l := ch.Figure.Legs[s]
		ch.Legs[s] = animsys.TwoBoneJoints{Root: -1}
		if l.Upper > 0 && l.Mid > 0 && l.End > 0 && parents[l.Mid] == l.Upper && parents[l.End] == l.Mid {
			j := animsys.TwoBoneJoints{Root: l.Upper, Mid: l.Mid, End: l.End}
			j.Hinge = ch.hinge(j, 1)
			ch.Legs[s] = j
		}
	}
	if ch.Arm.Root >= 0 {
		ch.Arm.Hinge = ch.hinge(ch.Arm, -1)
	}
}

// hingeBent is the mean sine of a chain's bend, over clip Start, above
// which its clip shows which way it bends (about 1 degree).
const hingeBent = 0.02

// hinge is the axis chain j bends about, in its mid joint's frame: the
// bend planes' normals (cb x ab, each as long as the chain is bent) summed
// over frames of clip Start in that frame, so the side it bends to most
// wins. A chain that hardly bends in the clip (an arm held straight) gets
// the anatomical hinge on the first frame: the mid joint moves forward
// (ahead = +1: a knee) or backward (ahead = -1: an elbow) as it bends.
func (ch *Character) hinge(j animsys.TwoBoneJoints, ahead float32) mgl32.Vec3 {
	c := &ch.Clips[ch.Start]
	k := min(c.Frames, 64)
	var sum mgl32.Vec3
	var bent float32
	for i := 0; i < k; i++ {
		pose := ch.rootPose(i * (c.Frames - 1) / max(1, k-1))
		ab, cb := pose.Pos[j.Root].Sub(pose.Pos[j.Mid]), pose.Pos[j.End].Sub(pose.Pos[j.Mid])
		cross := cb.Cross(ab)
		if l := ab.Len() * cb.Len(); l > 0 {
			bent += cross.Len() / l
			sum = sum.Add(mathx.QuatInvMulVec3(pose.Rot[j.Mid], cross.Mul(1/l)))
		}
	}
	if bent > hingeBent*float32(k) && sum.Len() > 0 {
		return sum.Normalize()
	}
	// A straight chain moved by a bend: the hinge is up-the-chain x the
	// way the mid joint goes (cb x ab for a small bend; see hingeBend).
	pose := ch.rootPose(0)
	up := mathx.Vec3Normalize(pose.Pos[j.Root].Sub(pose.Pos[j.Mid]))
	h := up.Cross(ch.Facing.Mul(ahead))
	if h.Len() < 1e-3 { // the chain points along the facing
		h = up.Cross(mgl32.Vec3{0, 1, 0})
	}
	return mathx.QuatInvMulVec3(pose.Rot[j.Mid], mathx.Vec3Normalize(h))
}

// bind gives the skeleton a bind pose for its body: the frame of clip
// Start where the figure stands straightest, turned into an A-pose
// (humanoid.Figure.BindPose). A skeleton that is no human figure keeps its
// rest pose.
func (ch *Character) bind() {
	if !ch.Figure.Human {
		return
	}
	pos, rot := humanoid.ClipFrames(&ch.Skel, &ch.Clips[ch.Start], 48)
	i := ch.Figure.BindFrame(pos)
	bp, br := ch.Figure.BindPose(ch.Skel.Parents, pos[i], rot[i])
	n := ch.Skel.Len()
	global, local := animsys.NewPose(n), animsys.NewPose(n)
	copy(global.Pos, bp)
	copy(global.Rot, br)
	animsys.BK(&local, &global, ch.Skel.Parents)
	ch.Skel.Bind = &local
}

// nodAdditive is a generic additive for any skeleton: the head nods and
// the head's parent sways, a one-second loop of rotation deltas.
func nodAdditive(ch *Character) animsys.Clip {
	const fps = 60
	c := animsys.NewClip("nod", fps+1+4, ch.Skel.Len(), 1.0/fps)
	c.LoopStart, c.LoopEnd = 2*c.FrameTime, float32(2+fps)*c.FrameTime
	for f := 0; f < c.Frames; f++ {
		p := 2 * math.Pi * float64(f-2) / fps
		if ch.Head > 0 {
			c.Rot[c.At(f, ch.Head)] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0.35 * float32(math.Sin(p)), 0, 0})
			if par := ch.Skel.Parents[ch.Head]; par > 0 {
				c.Rot[c.At(f, par)] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, 0, 0.2 * float32(math.Sin(p))})
			}
		}
	}
	c.Prepare()
	return c
}

// Reach of the fitted IK paths: every point of the path stays within
// pathFar of the chain's length from the chain's root (two-bone IK is
// singular at full reach: the bend's rate is unbounded) and beyond
// pathNear (a chain folded flat).
const (
	pathFar  = 0.8
	pathNear = 0.35
)

// fitPaths fits the targets' paths to the figure's size and facing on the
// first pose of clip Start, each carried by a joint so it stays in place
// about the figure however it turns, jumps or dances: the foot circles in
// front of and below its knee, carried by the joint the leg hangs from;
// the hand circles in front of and a little outside its shoulder, carried
// by the joint the arm hangs from; the look-at goal wanders ahead of the
// figure at head height, carried by the hips. Every point of an IK path is
// within [pathNear, pathFar] of its chain's length from the chain's root.
func (ch *Character) fitPaths() {
	pose := ch.rootPose(0)
	up, fwd := mgl32.Vec3{0, 1, 0}, ch.Facing
	left := up.Cross(fwd)
	if j := ch.Leg; j.Root >= 0 {
		l := boneLength(&pose, j)
		p := Path{Center: fwd.Mul(0.3 * l).Sub(up.Mul(0.55 * l)), U: fwd.Mul(0.15 * l), V: up.Mul(0.1 * l), Rate: 2}
		ch.LegPath = carried(&pose, ch.Skel.Parents[j.Root], fitPath(pose.Pos[j.Root], p, l))
	}
	if j := ch.Arm; j.Root >= 0 {
		l := boneLength(&pose, j)
		out := left
		if pose.Pos[j.Root].Sub(pose.Pos[ch.Hips]).Dot(left) < 0 {
			out = out.Mul(-1)
		}
		p := Path{Center: fwd.Mul(0.45 * l).Add(out.Mul(0.1 * l)).Sub(up.Mul(0.25 * l)),
			U: out.Mul(0.15 * l), V: up.Mul(0.15 * l), Rate: 2}
		ch.ArmPath = carried(&pose, ch.Skel.Parents[j.Root], fitPath(pose.Pos[j.Root], p, l))
	}
	// The look-at goal: as the default's (1.6 m ahead of a figure whose
	// hips stand 0.94 m high), scaled to the figure.
	h := ch.HipsHeight
	head := pose.Pos[ch.Hips].Add(up.Mul(0.8 * h))
	if ch.Head >= 0 {
		head = pose.Pos[ch.Head]
	}
	hips := ch.Hips
	inv := mathx.QuatInv(pose.Rot[hips])
	local := func(v mgl32.Vec3) mgl32.Vec3 { return mathx.QuatMulVec3(inv, v) }
	ahead := mgl32.Vec3{head[0], 0, head[2]}.Add(fwd.Mul(1.7 * h)).Add(up.Mul(head[1] + 0.1*h))
	ch.LookPath = LookPath{Joint: hips, Ahead: local(ahead.Sub(pose.Pos[hips])), Side: local(left), Up: local(up),
		Swing: 0.85 * h, Bob: 0.3 * h}
}

// fitPath makes path p (its Center relative to the chain's root at root)
// absolute and draws it in toward the root, a tenth at a time, until every
// point of it is within [pathNear, pathFar] of length l from the root.
func fitPath(root mgl32.Vec3, p Path, l float32) Path {
	off := p.Center
	for try := 0; try < 20; try++ {
		p.Center = root.Add(off)
		near, far := pathSpan(root, p)
		switch {
		case far > pathFar*l:
			off, p.U, p.V = off.Mul(0.9), p.U.Mul(0.9), p.V.Mul(0.9)
		case near < pathNear*l:
			off = off.Mul(1.05)
		default:
			return p
		}
	}
	return p
}

// pathSpan is the least and the greatest distance from root to 32 points
// around path p.
func pathSpan(root mgl32.Vec3, p Path) (near, far float32) {
	near = float32(math.Inf(1))
	for k := 0; k < 32; k++ {
		at, _ := p.At(float32(k) / 32 * 2 * math.Pi / p.Rate)
		d := at.Sub(root).Len()
		near, far = min(near, d), max(far, d)
	}
	return near, far
}

// carried turns path p, given in the pose's frame, into the frame of
// joint j of the pose, which then carries it.
func carried(pose *animsys.Pose, j int, p Path) Path {
	inv := mathx.QuatInv(pose.Rot[j])
	p.Joint = j
	p.Center = mathx.QuatMulVec3(inv, p.Center.Sub(pose.Pos[j]))
	p.U, p.V = mathx.QuatMulVec3(inv, p.U), mathx.QuatMulVec3(inv, p.V)
	return p
}

// rootPose is the global pose of frame fr of clip Start with the root at
// the origin and unturned: the pose the labs move with the root.
func (ch *Character) rootPose(fr int) animsys.Pose {
	c := &ch.Clips[ch.Start]
	n := ch.Skel.Len()
	local, global := animsys.NewPose(n), animsys.NewPose(n)
	for j := range local.Pos {
		local.Pos[j] = c.PosAt(fr, j)
	}
	copy(local.Rot, c.Rot[c.At(fr, 0):c.At(fr+1, 0)])
	local.Pos[0], local.Rot[0] = mgl32.Vec3{}, mathx.QuatIdentity()
	animsys.FKStatic(&global, &local, ch.Skel.Parents)
	return global
}

// boneLength is the two bones' length in the pose.
func boneLength(pose *animsys.Pose, j animsys.TwoBoneJoints) float32 {
	return pose.Pos[j.Mid].Sub(pose.Pos[j.Root]).Len() + pose.Pos[j.End].Sub(pose.Pos[j.Mid]).Len()
}
