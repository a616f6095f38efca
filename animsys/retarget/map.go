package retarget

import (
	"errors"
	"fmt"
	"slices"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/character"
	"kinelab/animsys/humanoid"
	"kinelab/animsys/mathx"
)

// Map turns poses of a source figure into poses of a target figure (see
// the package doc). It is built once (New) and only read after, so
// goroutines may share it, each with its own Scratch.
type Map struct {
	// Scale is the hips' motion's scale (target over source leg length,
	// the thigh and shin). HipsLift and AnkleLift (m, along +Y) lift the
	// scaled hips and the scaled ankles' goals so that each figure
	// stands on its own floor, the target's knees a little bent where
	// the source's legs are straight (kneeSlack).
	Scale, HipsLift, AnkleLift float32
	// Feet keeps the target's ankles where the source's stood, scaled,
	// by two-bone IK (see the package doc); New turns it on where both
	// figures have two legs it can bend.
	Feet bool
	// Pairs lists which source joint drives which target joint, in the
	// target's joint order; Rest the target joints that hold their rest
	// pose (every other joint but the root carrying the root motion).
	Pairs []Pair
	Rest  []int
	// Source and Target name the figures and their joints, for readouts.
	Source, Target Names

	src, dst []int  // the skeletons' parents
	joints   []rule // per target joint
	order    []int  // the target joints in the order Pose places them
	srcHips  int
	dstHips  int
	root     int // the target's root above its hips, carrying the root motion; -1 when the hips are the root
	legs     [2]leg
	srcLeg   float32 // the source's leg length (m): the feet's stance thresholds (stance.go)
}

// Pair is a target joint driven by a source joint.
type Pair struct{ Source, Target int }

// Names are a figure's name and its joints' names.
type Names struct {
	Name   string
	Joints []string
}

// kind is how Pose places a target joint.
type kind uint8

const (
	rest    kind = iota // its rest pose in its parent's frame
	copied              // the world rotation of its source joint times its offset
	hips                // copied, at the source's hips position scaled
	ground              // the hips' ground projection (the root motion)
	carried             // copied, at its place in its knee's frame (a carried foot)
)

// rule places one target joint.
type rule struct {
	kind   kind
	from   int           // the source joint (copied, hips, carried)
	offset mgl32.Quat    // target world rotation = source world rotation * offset
	rest   animsys.Kform // the joint's rest pose in its parent's frame
	knee   int           // carried: the knee carrying it
	shin   mgl32.Vec3    // carried: its place in the knee's frame
}

// leg is one leg the feet's IK bends: the source's ankle, the target's
// thigh, knee and ankle joints and the knee's hinge (in its own frame).
type leg struct {
	ok              bool
	srcAnkle        int
	upper, mid, end int
	hinge           mgl32.Vec3
	// aside (m) moves the ankle's goal across the source's foot (across:
	// its left, +X in the bind pose, in the source ankle's frame) by the
	// difference of the stances: the target's ankle's distance to the
	// left of its hips in the bind pose, less the source's scaled. A wide
	// robot stands with its feet as far apart as its hips are.
	aside  float32
	across mgl32.Vec3
}

// New builds the map from character src's figure onto character dst's.
// Both must read as human (character.Character.NotHuman): the error says
// which does not, and why.
func New(src, dst *character.Character) (*Map, error) {
	switch {
	case src == nil || dst == nil:
		return nil, errors.New("retarget: no character")
	case src.NotHuman() != "":
		return nil, fmt.Errorf("the source, %s, is %s", src.Name, src.NotHuman())
	case dst.NotHuman() != "":
		return nil, fmt.Errorf("the target, %s, is %s", dst.Name, dst.NotHuman())
	}
	s, err := newSide(src)
	if err != nil {
		return nil, fmt.Errorf("the source, %s: %w", src.Name, err)
	}
	d, err := newSide(dst)
	if err != nil {
		return nil, fmt.Errorf("the target, %s: %w", dst.Name, err)
	}
	m := &Map{src: src.Skel.Parents, dst: dst.Skel.Parents, srcHips: s.fig.Hips, dstHips: d.fig.Hips, root: -1,
		Source: Names{src.Name, src.Skel.Names}, Target: Names{dst.Name, dst.Skel.Names}}
	m.joints = make([]rule, dst.Skel.Len())
	for j := range m.joints {
		m.joints[j] = rule{kind: rest, from: -1, knee: -1, rest: d.rest[j]}
	}
	for _, p := range pairs(s, d) {
		m.pair(p.Source, p.Target, s, d)
	}
	m.followers(s, d)
	m.place(s, d)
	m.feet(s, d)
	m.readout()
	return m, nil
}

// pair makes target joint t follow source joint f.
func (m *Map) pair(f, t int, s, d *side) {
	r := &m.joints[t]
	r.kind, r.from = copied, f
	r.offset = mathx.QuatNormalize(mathx.QuatInvMul(s.canonRot[f], d.canonRot[t]))
}

// followers pairs the target joints that stand where a paired sibling
// stands (a palm of three bones side by side, a twist joint beside its
// bone) with that sibling's source joint: they turn with it, not with
// their parent.
func (m *Map) followers(s, d *side) {
	const near = 1e-4 // of the figure's leg length: one place
	for t, r := range m.joints {
		if r.kind != rest || m.dst[t] < 0 || d.fig.Ground[t] {
			continue
		}
		for u, ru := range m.joints {
			if ru.kind == copied && u != t && m.dst[u] == m.dst[t] &&
				d.canonPos[u].Sub(d.canonPos[t]).Len() <= near*d.legLength {
				m.pair(ru.from, t, s, d)
				break
			}
		}
	}
}

// place sets the hips, the root that carries the root motion, the
// carried feet, the scale and the lifts, and the order joints are placed
// in.
func (m *Map) place(s, d *side) {
	m.joints[m.dstHips].kind = hips
	if m.joints[m.dstHips].from < 0 { // always paired: the spine's first pin
		m.pair(m.srcHips, m.dstHips, s, d)
		m.joints[m.dstHips].kind = hips
	}
	for j := m.dstHips; j >= 0; j = m.dst[j] {
		if m.dst[j] < 0 && j != m.dstHips {
			m.root = j
			m.joints[j].kind = ground
		}
	}
	m.Scale, m.srcLeg = d.legLength/s.legLength, s.legLength
	m.AnkleLift = d.floor - m.Scale*s.floor
	m.HipsLift = d.floor + d.hipsStand - m.Scale*(s.floor+s.hipsStand) - kneeSlack*d.legLength
	// A carried foot is placed after its knee: its subtree last.
	late := make([]bool, len(m.dst))
	for _, l := range d.fig.Legs {
		if l.Carried(m.dst) && m.joints[l.End].kind == copied {
			r := &m.joints[l.End]
			r.kind, r.knee = carried, l.Mid
			r.shin = mathx.QuatInvMulVec3(d.canonRot[l.Mid], d.canonPos[l.End].Sub(d.canonPos[l.Mid]))
			if sc := d.canonScl(l.Mid); sc != (mgl32.Vec3{}) {
				r.shin = mathx.Vec3Div(r.shin, sc)
			}
			late[l.End] = true
		}
	}
	for j, p := range m.dst {
		if p >= 0 && late[p] {
			late[j] = true
		}
	}
	for pass := range 2 {
		for j := range m.dst {
			if late[j] == (pass == 1) {
				m.order = append(m.order, j)
			}
		}
	}
}

// kneeSlack is how much lower (in its leg's lengths) the target's hips go
// than where its legs stand straight when the source's do: a source
// standing straight leaves the target's knees a little bent, within the
// feet's IK's reach (softKnee), where the bend follows the reach without
// the stiffness of a leg near straight.
const kneeSlack = 0.025

// feet sets the legs the feet's IK bends: each side where the source has
// an ankle paired with the target's, and the target's thigh, knee and
// ankle are three joints, the knee below the thigh and the ankle below
// the knee or carried by it. The hinge is the knee's as the bind pose
// bends it: the knee forward.
func (m *Map) feet(s, d *side) {
	for sd := range m.legs {
		sl, dl := s.fig.Legs[sd], d.fig.Legs[sd]
		if sl.End < 0 || dl.Upper < 0 || dl.Mid < 0 || dl.End < 0 || !below(m.dst, dl.Upper, dl.Mid) ||
			!(below(m.dst, dl.Mid, dl.End) || dl.Carried(m.dst)) {
			continue
		}
		// cb x ab for a knee bent forward: up the chain x forward.
		up := d.canonPos[dl.Upper].Sub(d.canonPos[dl.Mid])
		h := mathx.Vec3Normalize(up.Cross(mgl32.Vec3{0, 0, 1}))
		dx := d.canonPos[dl.End][0] - d.canonPos[d.fig.Hips][0]
		sx := s.canonPos[sl.End][0] - s.canonPos[s.fig.Hips][0]
		m.legs[sd] = leg{ok: true, srcAnkle: sl.End, upper: dl.Upper, mid: dl.Mid, end: dl.End,
			hinge: mathx.QuatInvMulVec3(d.canonRot[dl.Mid], h), aside: dx - m.Scale*sx,
			across: mathx.QuatInvMulVec3(s.canonRot[sl.End], mgl32.Vec3{1, 0, 0})}
	}
	m.Feet = m.legs[0].ok && m.legs[1].ok
}

// below reports whether joint b is a descendant of joint a.
func below(parents []int, a, b int) bool {
	for j := parents[b]; j >= 0; j = parents[j] {
		if j == a {
			return true
		}
	}
	return false
}

// readout fills Pairs and Rest.
func (m *Map) readout() {
	m.Pairs, m.Rest = nil, nil
	for t, r := range m.joints {
		switch r.kind {
		case rest:
			m.Rest = append(m.Rest, t)
		case ground:
		default:
			m.Pairs = append(m.Pairs, Pair{r.from, t})
		}
	}
}

// Joints is the target's joint count, SourceJoints the source's.
func (m *Map) Joints() int       { return len(m.dst) }
func (m *Map) SourceJoints() int { return len(m.src) }

// side is one figure measured for the map.
type side struct {
	ch        *character.Character
	fig       *humanoid.Figure
	canonPos  []mgl32.Vec3 // the bind pose (humanoid.Figure.BindPose), world
	canonRot  []mgl32.Quat
	bindScl   []mgl32.Vec3    // world scales of the reference pose
	rest      []animsys.Kform // each joint's rest pose in its parent's frame
	legLength float32         // thigh and shin, the mean of the two legs (m)
	hipsStand float32         // the hips' height over the ankles in the bind pose (m)
	floor     float32         // where the ankles stand (m): the 5th percentile of their heights
}

// floorShare is the quantile of the ankles' heights, over a figure's
// clips, taken for the height they stand at (matching's truth labels
// take the same for a joint's floor).
const floorShare = 0.05

func newSide(ch *character.Character) (*side, error) {
	sk := &ch.Skel
	fig := ch.Figure
	ref := sk.BindPose()
	s := &side{ch: ch, fig: fig, bindScl: ref.Scl}
	s.canonPos, s.canonRot = fig.BindPose(sk.Parents, ref.Pos, ref.Rot)
	n := sk.Len()
	s.rest = make([]animsys.Kform, n)
	for j := range n {
		k := animsys.KformIdentity()
		k.Pos = sk.Offsets[j]
		if b := sk.Bind; b != nil && b.Len() == n {
			k.Pos, k.Rot, k.Scl = b.Pos[j], b.Rot[j], b.Scl[j]
		}
		s.rest[j] = k
	}
	var length, stand float32
	for _, l := range fig.Legs {
		if l.Upper < 0 || l.Mid < 0 || l.End < 0 {
			return nil, errors.New("a leg with no thigh, knee and ankle")
		}
		length += s.canonPos[l.Mid].Sub(s.canonPos[l.Upper]).Len() + s.canonPos[l.End].Sub(s.canonPos[l.Mid]).Len()
		stand += s.canonPos[fig.Hips][1] - s.canonPos[l.End][1]
	}
	s.legLength, s.hipsStand = length/2, stand/2
	if !(s.legLength > 0) {
		return nil, errors.New("legs of no length")
	}
	var ys []float32
	for c := range ch.Clips {
		frames, _ := humanoid.ClipFrames(sk, &ch.Clips[c], 48)
		for _, fr := range frames {
			ys = append(ys, fr[fig.Legs[0].End][1], fr[fig.Legs[1].End][1])
		}
	}
	s.floor = mathx.Quantile(ys, floorShare)
	return s, nil
}

// canonScl is joint j's world scale in the reference pose.
func (s *side) canonScl(j int) mgl32.Vec3 { return s.bindScl[j] }

// pairs pairs the source's joints with the target's along their chains
// (see the package doc), each target joint at most once.
func pairs(s, d *side) []Pair {
	var out []Pair
	add := func(ps []Pair) {
		for _, p := range ps {
			if !slices.ContainsFunc(out, func(q Pair) bool { return q.Target == p.Target || q.Source == p.Source }) {
				out = append(out, p)
			}
		}
	}
	sf, df := s.fig, d.fig
	add(chain(s, d, spineKeys(sf), spineKeys(df), sf.Spine, df.Spine))
	for sd := range sf.Legs {
		sl, dl := sf.Legs[sd], df.Legs[sd]
		add(chain(s, d, legKeys(sl), legKeys(dl), limbPath(sl), limbPath(dl)))
		sa, da := sf.Arms[sd], df.Arms[sd]
		add(chain(s, d, armKeys(sa), armKeys(da), limbPath(sa), limbPath(da)))
	}
	return out
}

// A chain's named joints, by role: the keys pair with each other where
// both chains have them.
const (
	keyHips = iota
	keyChest
	keyTop
	keyFirst // the limb's first joint below the torso (a clavicle, a hip joint)
	keyUpper
	keyMid
	keyEnd
	keyTip
	keys
)

func spineKeys(f *humanoid.Figure) [keys]int {
	k := noKeys()
	k[keyHips], k[keyChest], k[keyTop] = f.Hips, f.Chest, f.Spine[len(f.Spine)-1]
	if f.Head >= 0 {
		k[keyTop] = f.Head
	}
	return k
}

func legKeys(l humanoid.Limb) [keys]int {
	k := limbKeys(l)
	k[keyTip] = l.Tip
	return k
}

// armKeys are the arm's: the hand's fingers hold their rest pose.
func armKeys(l humanoid.Limb) [keys]int { return limbKeys(l) }

func limbKeys(l humanoid.Limb) [keys]int {
	k := noKeys()
	if len(l.Path) > 0 && l.Path[0] != l.Upper {
		k[keyFirst] = l.Path[0]
	}
	k[keyUpper], k[keyMid], k[keyEnd] = l.Upper, l.Mid, l.End
	return k
}

func noKeys() [keys]int {
	var k [keys]int
	for i := range k {
		k[i] = -1
	}
	return k
}

// limbPath is the limb's path up to its tip (the fingers beyond it are
// never paired).
func limbPath(l humanoid.Limb) []int {
	if i := slices.Index(l.Path, l.Tip); l.Tip >= 0 && i >= 0 {
		return l.Path[:i+1]
	}
	if i := slices.Index(l.Path, l.End); i >= 0 {
		return l.Path[:i+1]
	}
	return l.Path
}

// chain pairs chains a (the source's, keys ka) and b (the target's, keys
// kb), each a list of joints from the top down: the keys both have pair,
// and between two consecutive ones the joints of each chain between them
// pair by their share of the segment's length (chainSegment).
func chain(s, d *side, ka, kb [keys]int, a, b []int) []Pair {
	var out []Pair
	var prevA, prevB = -1, -1 // the index in a and b of the last key paired
	for k := range keys {
		ja, jb := ka[k], kb[k]
		ia, ib := slices.Index(a, ja), slices.Index(b, jb)
		if ja < 0 || jb < 0 || ia < 0 || ib < 0 || ia <= prevA || ib <= prevB {
			continue
		}
		if prevA >= 0 {
			out = append(out, segment(s, d, a[prevA:ia+1], b[prevB:ib+1])...)
		}
		out = append(out, Pair{ja, jb})
		prevA, prevB = ia, ib
	}
	return out
}

// segment pairs the inner joints of two chain segments (their ends are
// keys, paired already) by their share of the segment's length in the
// bind pose: each inner joint of the chain with fewer, in order, takes
// the nearest inner joint of the other after the one taken before it,
// leaving one for each still to come (nearest).
func segment(s, d *side, a, b []int) []Pair {
	fa, fb := shares(s.canonPos, a), shares(d.canonPos, b)
	fa, fb = fa[1:len(fa)-1], fb[1:len(fb)-1] // the inner joints
	var out []Pair
	if len(fa) >= len(fb) {
		for i, k := range nearest(fb, fa) {
			out = append(out, Pair{a[1+k], b[1+i]})
		}
		return out
	}
	for k, i := range nearest(fa, fb) {
		out = append(out, Pair{a[1+k], b[1+i]})
	}
	return out
}

// nearest matches each of the shares few, in order, to the nearest of
// the shares many (len(many) >= len(few)) after the one matched before
// it, leaving one of many for each of few still to come: the index in
// many of each.
func nearest(few, many []float32) []int {
	out := make([]int, len(few))
	next := 0
	for i, f := range few {
		last := len(many) - (len(few) - i) // room for the rest
		best := next
		for k := next; k <= last; k++ {
			if abs(many[k]-f) < abs(many[best]-f) {
				best = k
			}
		}
		out[i], next = best, best+1
	}
	return out
}

// shares is each joint's share of the chain's length from its first
// joint (0) to its last (1), in pose pos; even shares for a chain of no
// length.
func shares(pos []mgl32.Vec3, js []int) []float32 {
	f := make([]float32, len(js))
	for i := 1; i < len(js); i++ {
		f[i] = f[i-1] + pos[js[i]].Sub(pos[js[i-1]]).Len()
	}
	total := f[len(f)-1]
	for i := range f {
		if total > 0 {
			f[i] /= total
		} else {
			f[i] = float32(i) / float32(max(len(f)-1, 1))
		}
	}
	return f
}

func abs(x float32) float32 { return max(x, -x) }
