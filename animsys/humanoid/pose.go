package humanoid

import (
	"errors"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// top is the highest joint of the figure's spine: the head, else the last
// spine joint.
func (f *Figure) top() int {
	if f.Head >= 0 {
		return f.Head
	}
	return f.Spine[len(f.Spine)-1]
}

// Up is the figure's up direction (unit length) in the frames'
// coordinates: from between its ankles to its head, the median of each
// axis over the frames, so a figure that bends or lies down in a few
// frames does not sway it.
func (f *Figure) Up(frames [][]mgl32.Vec3) mgl32.Vec3 {
	var xs [3][]float32
	for _, fr := range frames {
		feet := fr[f.Legs[Left].End].Add(fr[f.Legs[Right].End]).Mul(0.5)
		d := mathx.Vec3Normalize(fr[f.top()].Sub(feet))
		for k := range xs {
			xs[k] = append(xs[k], d[k])
		}
	}
	up := mathx.Vec3Normalize(mgl32.Vec3{mathx.Median(xs[0]), mathx.Median(xs[1]), mathx.Median(xs[2])})
	if up == (mgl32.Vec3{}) {
		return mgl32.Vec3{0, 1, 0}
	}
	return up
}

// Height is how tall the figure stands along up (unit length), in the
// frames' units: the median over frames of the extent of every joint
// (End Sites included) along up.
func Height(frames [][]mgl32.Vec3, up mgl32.Vec3) float32 {
	hs := make([]float32, 0, len(frames))
	for _, fr := range frames {
		lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
		for _, p := range fr {
			y := p.Dot(up)
			lo, hi = min(lo, y), max(hi, y)
		}
		if hi >= lo {
			hs = append(hs, hi-lo)
		}
	}
	return mathx.Median(hs)
}

// Upright scores how straight the figure stands in a frame whose up is
// +Y: the head's (or spine top's) height above the hips over their
// distance, 1 for a straight spine, and the same for each leg from hip to
// ankle. BindFrame uses it to pick the frame to bind a body to.
func (f *Figure) Upright(fr []mgl32.Vec3) float32 {
	lean := func(a, b int) float32 {
		d := fr[b].Sub(fr[a])
		if l := d.Len(); l > 0 {
			return d[1] / l
		}
		return 0
	}
	s := lean(f.Hips, f.top())
	for _, l := range f.Legs {
		if l.Upper >= 0 {
			s -= lean(l.Upper, l.End) // legs point down: -1 when straight
		}
	}
	return s
}

// BindFrame picks, among frames (global positions, +Y up), the one where
// the figure stands straightest (Upright), the first of equals.
func (f *Figure) BindFrame(frames [][]mgl32.Vec3) int {
	best, score := 0, float32(math.Inf(-1))
	for i, fr := range frames {
		if s := f.Upright(fr); s > score+1e-4 {
			best, score = i, s
		}
	}
	return best
}

// Bind pose angles (radians): each leg turned out from straight down (at
// least), each arm down from horizontal, the clavicles up from horizontal,
// the feet down from horizontal; and how far apart the thighs' middles
// must be, over the figure's height: two thighs' width and a gap, in a
// body of human proportions (render's body: 8.8 cm thighs at 1.53 m).
const (
	legSpread    = 0.12
	armDrop      = 0.75
	clavicleLift = 0.15
	footPitch    = 0.3
	thighsApart  = 0.13
)

// BindPose turns a posed frame of the figure into a pose to bind a skinned
// body to: standing on +Y, facing +Z (left is +X), spine and neck straight
// up, legs straight and a little apart, arms straight and held out and down
// (an A-pose), feet forward. pos and rot are the frame's global joint
// positions and rotations (+Y roughly up, any facing), parents the
// skeleton's. Only rigid turns of whole subtrees change the frame, so every
// bone keeps its length and the result is the forward kinematics of some
// local rotations: skinning against it moves the body with the bones.
// Joints outside the figure (a root above the hips, a prop) turn with the
// whole figure.
func (f *Figure) BindPose(parents []int, pos []mgl32.Vec3, rot []mgl32.Quat) ([]mgl32.Vec3, []mgl32.Quat) {
	b := &binder{parents: parents, pos: append([]mgl32.Vec3(nil), pos...), rot: append([]mgl32.Quat(nil), rot...),
		in: make([]bool, len(parents))}
	for _, l := range f.Legs {
		if l.Carried(parents) {
			b.carried = append(b.carried, [2]int{l.End, l.Mid})
		}
	}
	y := mgl32.Vec3{0, 1, 0}

	// The whole figure upright (hips to spine top along +Y), then turned
	// about +Y so the hips' left-to-right runs along -X.
	hips := f.Hips
	b.turnAll(hips, mathx.QuatBetween(b.pos[f.top()].Sub(b.pos[hips]), y))
	side := b.pos[f.Legs[Left].Path[0]].Sub(b.pos[f.Legs[Right].Path[0]])
	if l, r := f.Legs[Left].Upper, f.Legs[Right].Upper; l >= 0 && r >= 0 {
		side = b.pos[l].Sub(b.pos[r])
	}
	if side[0] != 0 || side[2] != 0 {
		b.turnAll(hips, mgl32.QuatRotate(float32(math.Atan2(float64(side[2]), float64(side[0]))), y))
	}
	// Spine and neck straight up, the head held as the figure holds it in
	// the frame (upright, as people hold their heads): its End Site may
	// point up, forward or sideways (Rokoko's points along the head's X
	// axis, to its left), so it says nothing of which way the head is up.
	var headRot mgl32.Quat
	if f.Head >= 0 {
		headRot = b.rot[f.Head]
	}
	for i := 0; i+1 < len(f.Spine); i++ {
		if f.Spine[i] != hips {
			b.aim(f.Spine[i], f.Spine[i+1], y)
		}
	}
	if f.Head >= 0 {
		b.turn(f.Head, mathx.QuatNormalize(mathx.QuatMul(headRot, mathx.QuatInv(b.rot[f.Head]))))
	}
	spread := b.legSpread(f)
	for s, sign := range [2]float32{1, -1} {
		leg := f.Legs[s]
		down := mgl32.Vec3{sign * sin(spread), -cos(spread), 0}
		if leg.Upper >= 0 {
			b.aim(leg.Upper, leg.Mid, down)
			b.aim(leg.Mid, leg.End, down)
		}
		if leg.Tip >= 0 {
			b.aim(leg.End, leg.Tip, mgl32.Vec3{0, -sin(footPitch), cos(footPitch)})
		}
		arm := f.Arms[s]
		if arm.Upper < 0 {
			continue
		}
		if cl := b.start(arm, f.Chest); cl >= 0 {
			b.aim(cl, arm.Upper, mgl32.Vec3{sign * cos(clavicleLift), sin(clavicleLift), 0})
		}
		out := mgl32.Vec3{sign * cos(armDrop), -sin(armDrop), 0}
		b.aim(arm.Upper, arm.Mid, out)
		b.aim(arm.Mid, arm.End, out)
		// The hand points along the arm (from the wrist to the middle of
		// its joints: a knuckle may sit a centimetre off the wrist in any
		// direction), its fingers straight, each from its first knuckle
		// (the bones from the wrist to the knuckles shape the palm); then
		// the hand once more, its middle having moved.
		b.aimMean(arm.End, out)
		for j := arm.End + 1; j < len(b.parents); j++ {
			if !b.below(j, arm.End) {
				continue
			}
			// Each joint turns once: along its bone when it has one
			// child, toward the middle of its subtree when it branches
			// (a knuckle that holds two fingers).
			switch kids := b.children(j); len(kids) {
			case 0:
			case 1:
				b.aim(j, kids[0], out)
			default:
				b.aimMean(j, out)
			}
		}
		b.aimMean(arm.End, out)
	}
	return b.pos, b.rot
}

// aimMean turns joint j's subtree so that the direction from j to the
// mean of its descendants points along dir.
func (b *binder) aimMean(j int, dir mgl32.Vec3) {
	var sum mgl32.Vec3
	n := 0
	for k := j + 1; k < len(b.parents); k++ {
		if b.below(k, j) {
			sum, n = sum.Add(b.pos[k]), n+1
		}
	}
	if n == 0 {
		return
	}
	b.aimAt(j, sum.Mul(1/float32(n)), dir)
}

// below reports whether k is in the subtree of j (and not j).
func (b *binder) below(k, j int) bool {
	for k = b.parents[k]; k >= 0; k = b.parents[k] {
		if k == j {
			return true
		}
	}
	return false
}

// children lists j's children.
func (b *binder) children(j int) []int {
	var kids []int
	for k := j + 1; k < len(b.parents); k++ {
		if b.parents[k] == j {
			kids = append(kids, k)
		}
	}
	return kids
}

// legSpread is the angle (rad) each leg turns out from straight down:
// legSpread, or more when the hips are narrow (legs together, as Poser's
// figures stand), so that the thighs' middles are thighsApart of the
// figure's height apart; at most 0.4.
func (b *binder) legSpread(f *Figure) float32 {
	l, r := f.Legs[Left], f.Legs[Right]
	if l.Upper < 0 || r.Upper < 0 {
		return legSpread
	}
	thigh := 0.5 * (b.pos[l.Mid].Sub(b.pos[l.Upper]).Len() + b.pos[r.Mid].Sub(b.pos[r.Upper]).Len())
	shin := 0.5 * (b.pos[l.End].Sub(b.pos[l.Mid]).Len() + b.pos[r.End].Sub(b.pos[r.Mid]).Len())
	height := b.pos[f.top()][1] - b.pos[l.Upper][1] + thigh + shin
	width := b.pos[l.Upper].Sub(b.pos[r.Upper]).Len()
	if !(thigh > 0) || !(height > 0) {
		return legSpread
	}
	s := (thighsApart*height - width) / (2 * 0.45 * thigh)
	return min(0.4, max(legSpread, float32(math.Asin(float64(min(1, max(-1, s)))))))
}

// start is the joint the bone into the arm's Upper starts at (the
// clavicle), or -1 when that is the chest itself or nothing.
func (b *binder) start(arm Limb, chest int) int {
	j := b.parents[arm.Upper]
	for j >= 0 && j != chest && b.pos[j].Sub(b.pos[arm.Upper]).Len() < 1e-6 {
		j = b.parents[j]
	}
	if j < 0 || j == chest {
		return -1
	}
	return j
}

func sin(a float32) float32 { return float32(math.Sin(float64(a))) }
func cos(a float32) float32 { return float32(math.Cos(float64(a))) }

// binder turns subtrees of a global pose rigidly.
type binder struct {
	parents []int
	pos     []mgl32.Vec3
	rot     []mgl32.Quat
	in      []bool // scratch: membership of the subtree being turned
	// carried lists the legs' carried feet with their knees (end, mid:
	// humanoid.Limb.Carried), which turn with the knee's subtree.
	carried [][2]int
}

// turn rotates joint j's subtree by q about j's position.
func (b *binder) turn(j int, q mgl32.Quat) {
	c := b.pos[j]
	for k := range b.in {
		b.in[k] = k == j || (k > j && b.parents[k] >= 0 && b.in[b.parents[k]])
	}
	// A carried foot turns with its knee, and what hangs from it.
	for _, em := range b.carried {
		if end, mid := em[0], em[1]; b.in[mid] && !b.in[end] {
			for k := end; k < len(b.in); k++ {
				b.in[k] = b.in[k] || k == end || (k > end && b.parents[k] >= 0 && b.in[b.parents[k]])
			}
		}
	}
	for k, in := range b.in {
		if in {
			b.pos[k] = c.Add(mathx.QuatMulVec3(q, b.pos[k].Sub(c)))
			b.rot[k] = mathx.QuatNormalize(mathx.QuatMul(q, b.rot[k]))
		}
	}
}

// turnAll rotates every joint by q about joint j's position.
func (b *binder) turnAll(j int, q mgl32.Quat) {
	c := b.pos[j]
	for k := range b.pos {
		b.pos[k] = c.Add(mathx.QuatMulVec3(q, b.pos[k].Sub(c)))
		b.rot[k] = mathx.QuatNormalize(mathx.QuatMul(q, b.rot[k]))
	}
}

// aim turns joint j's subtree so that the direction from j to its
// descendant d points along dir. A bone too short to have a direction is
// left as it is.
func (b *binder) aim(j, d int, dir mgl32.Vec3) { b.aimAt(j, b.pos[d], dir) }

// aimAt turns joint j's subtree so that the direction from j to point p
// (which turns with it) points along dir.
func (b *binder) aimAt(j int, p, dir mgl32.Vec3) {
	v := p.Sub(b.pos[j])
	if v.Len() < 1e-6 || dir.Len() == 0 {
		return
	}
	v, dir = v.Normalize(), dir.Normalize()
	if v.Dot(dir) < -0.9999 {
		// Opposite: half a turn about any axis across them.
		ax := v.Cross(mgl32.Vec3{1, 0, 0})
		if ax.Len() < 0.1 {
			ax = v.Cross(mgl32.Vec3{0, 0, 1})
		}
		b.turn(j, mgl32.QuatRotate(math.Pi, ax.Normalize()))
		return
	}
	b.turn(j, mathx.QuatBetween(v, dir))
}

// ClipFrames runs static forward kinematics on up to k frames of clip c
// spread from its first frame to its last, and returns each one's global
// joint positions and rotations: the posed frames Classify, Up, Height
// and BindFrame measure.
func ClipFrames(sk *animsys.Skeleton, c *animsys.Clip, k int) ([][]mgl32.Vec3, [][]mgl32.Quat) {
	n := sk.Len()
	if c.Frames == 0 || c.Joints != n {
		return nil, nil
	}
	local, global := animsys.NewPose(n), animsys.NewPose(n)
	k = max(1, min(k, c.Frames))
	pos, rot := make([][]mgl32.Vec3, k), make([][]mgl32.Quat, k)
	for i := range pos {
		fr := 0
		if k > 1 {
			fr = i * (c.Frames - 1) / (k - 1)
		}
		c.Frame(&local, fr)
		animsys.FKStatic(&global, &local, sk.Parents)
		pos[i] = append([]mgl32.Vec3(nil), global.Pos...)
		rot[i] = append([]mgl32.Quat(nil), global.Rot...)
	}
	return pos, rot
}

// ClassifyClip reads the skeleton of clip c as a human figure standing on
// +Y, as kinelab's clips stand (Read), measured on up to 48 of its frames;
// it returns an error saying why when it is none.
func ClassifyClip(sk *animsys.Skeleton, c *animsys.Clip) (Figure, error) {
	pos, _ := ClipFrames(sk, c, 48)
	if pos == nil {
		return Figure{}, fmt.Errorf("humanoid: clip %q has no frames of the skeleton's %d joints", c.Name, sk.Len())
	}
	f, err := Read(sk.Parents, sk.Names, pos)
	if err == nil && !f.Human {
		return Figure{}, errors.New(f.NotHuman)
	}
	return f, err
}
