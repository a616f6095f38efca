// Package humanoid is kinelab's one reading of a skeleton as a body:
// whatever its exporter called the joints and however it laid out its
// bones, which joints are the pelvis, spine, head, legs and arms (Read,
// Classify), which are no part of the body at all (a ground-level root
// that carries root motion, a file's static root metres from the hips:
// Figure.Ground), how the body is laid out for dressing with solids
// (Figure.Parts), which way is up in the file and how tall the figure
// stands (Up, Height), and a bind pose to skin a body to that has straight
// limbs, legs apart and arms away from the torso (BindPose). Nothing else
// in kinelab matches joint names to body parts: code that needs a foot, a
// hand or the head asks the Figure.
//
// Joint names are the first clue ("LeftFoot", "mixamorig:LeftFoot",
// "lFoot", "Bip01 L Foot", "foot_l", "Foot_L", "foot.L"); where they are
// missing the tree's shape decides. Geometry comes from posed frames of the
// clip, not from the OFFSETs alone: many files' zero-rotation rest pose is
// not a standing figure (bones along X, a Z-up T-pose, a root far from the
// hips).
package humanoid

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
)

// Side is the figure's left or right.
type Side int

// The two sides; Figure.Legs and Figure.Arms are indexed by them.
const (
	Left Side = iota
	Right
)

func (s Side) String() string { return [2]string{"left", "right"}[s] }

// Limb is a leg or an arm: the joints from where it leaves the torso to the
// tip of its foot or hand, and the two-bone chain inverse kinematics and
// the bind pose act on.
type Limb struct {
	// Path runs from the limb's first joint (a child of the torso) to its
	// extremity and on to the extremity's longest tip (toe, middle finger).
	Path []int
	// Upper, Mid and End are the thigh, knee and ankle of a leg or the
	// upper arm, elbow and wrist of an arm: the joints at the two bones'
	// ends, each the first joint at its place when zero-length joints
	// share it.
	Upper, Mid, End int
	// Tip is the joint the foot or hand points to (a toe, a knuckle), -1
	// if the extremity is a leaf.
	Tip int
}

// Figure is a skeleton read as a body: indices of its joints. Read makes
// one for any skeleton; when it reads as a human (Human) every field is
// filled, otherwise Hips, Spine, Chest and Head come from the layout of
// its trunk (Parts) and a leg or an arm only where a joint's name says its
// side. Classify makes only human figures.
type Figure struct {
	// Parents and Names are the skeleton read: each joint's parent (-1
	// for roots, parents before children) and name ("" for none).
	Parents []int
	Names   []string
	// Human reports whether the skeleton reads as a human figure with two
	// legs, two arms and a spine; NotHuman says what was missing when it
	// does not.
	Human    bool
	NotHuman string

	Hips  int   // the pelvis: where the legs meet the spine; -1 when unknown
	Spine []int // Hips, then the spine, chest and neck joints up to Head (or to the top)
	Chest int   // the spine joint the arms hang from; -1 when unknown
	Head  int   // -1 when the figure has no joint to call a head
	// Legs and Arms by Side; a limb's Upper is -1 when it was not found.
	Legs [2]Limb
	Arms [2]Limb
	// ByName reports whether the feet and hands were found by their
	// names (else by the shape of the tree and the posed frames).
	ByName bool
	// Ground marks the joints that are no part of the body: roots on the
	// floor above it — the ground-level root that carries root motion
	// ("Entity"), a file's static root metres from the hips — and the
	// floor-level chain from them to the body. They are never dressed and
	// never drawn as bones (Bone); labs draw them as ground markers.
	Ground []bool
}

// Bone reports whether the link from joint j to its parent is a bone of
// the body: both ends are body joints (neither is Ground). Links to a root
// of a skeleton without Ground joints are bones: that root is the pelvis.
func (f *Figure) Bone(j int) bool {
	p := f.Parents[j]
	return p >= 0 && !f.ground(j) && !f.ground(p)
}

func (f *Figure) ground(j int) bool { return j < len(f.Ground) && f.Ground[j] }

// Words of joint names, matched in lower case inside the name.
var (
	footWords   = []string{"foot", "ankle"}
	handWords   = []string{"hand", "wrist", "palm"}
	fingerWords = []string{"thumb", "index", "middle", "ring", "pinky", "little", "finger", "carpal"}
	endWords    = []string{"_end", "end_", "end site", "endsite", "nub", "top"}
	legWords    = []string{"leg", "thigh"}
	armWords    = []string{"arm", "shoulder", "clavicle", "collar"}
)

func hasAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// SideOf tells which side a joint name is on, from the ways exporters
// write it: "LeftFoot", "mixamorig:LeftFoot", "Character1_LeftFoot",
// "LFoot", "lFoot" (Poser), "Bip01 L Foot" (3ds Max), "l_foot", "L_Foot",
// "foot_l", "Foot_L", "foot.L", "foot-l". ok is false when it names none.
func SideOf(name string) (s Side, ok bool) {
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	l := strings.ToLower(name)
	hasL, hasR := strings.Contains(l, "left"), strings.Contains(l, "right")
	switch {
	case hasL && !hasR:
		return Left, true
	case hasR && !hasL:
		return Right, true
	}
	// One letter, set apart: a word of its own ("Bip01 L Foot"), a prefix
	// ("L_Foot", "LFoot", "lFoot") or a suffix ("foot_l", "foot.L").
	words := strings.FieldsFunc(name, func(r rune) bool { return r == ' ' || r == '_' || r == '.' || r == '-' })
	for _, w := range words {
		if lw := strings.ToLower(w); len(words) > 1 && (lw == "l" || lw == "r") {
			return sideLetter(lw[0]), true
		}
	}
	if len(name) > 1 && (name[0] == 'L' || name[0] == 'R' || name[0] == 'l' || name[0] == 'r') &&
		name[1] >= 'A' && name[1] <= 'Z' {
		return sideLetter(name[0] | 0x20), true
	}
	return Left, false
}

func sideLetter(c byte) Side {
	if c == 'r' {
		return Right
	}
	return Left
}

// extremities finds, per side, the joint nearest the root whose name has
// one of words and no finger or end-site word.
func (t *tree) extremities(words []string) [2]int {
	best := [2]int{-1, -1}
	for j, nm := range t.names {
		if nm == "" || !hasAny(nm, words) || hasAny(nm, fingerWords) || hasAny(nm, endWords) {
			continue
		}
		s, ok := SideOf(t.raw[j])
		if !ok {
			continue
		}
		if best[s] < 0 || t.depth[j] < t.depth[best[s]] {
			best[s] = j
		}
	}
	return best
}

// limbEnd is the foot or hand of the limb on side s named by one of
// words (the limb's joint nearest the root so named and with no word of
// ends, its extremity, or a finger), found by its bones' lengths; -1 when
// no joint is so named.
func (t *tree) limbEnd(s Side, words, ends []string) int {
	first := -1
	for j, nm := range t.names {
		if nm == "" || !hasAny(nm, words) || hasAny(nm, ends) || hasAny(nm, fingerWords) || hasAny(nm, endWords) {
			continue
		}
		if sd, ok := SideOf(t.raw[j]); !ok || sd != s {
			continue
		}
		if first < 0 || t.depth[j] < t.depth[first] {
			first = j
		}
	}
	if first < 0 {
		return -1
	}
	return t.extremityByLength(first)
}

// byName finds feet and hands by their names and the rest from them.
func (t *tree) byName() (Figure, error) {
	feet, hands := t.extremities(footWords), t.extremities(handWords)
	// Rigs that name their limbs but not their ends (COLLADA2GLTF's
	// "leg_joint_L_1".."leg_joint_L_5", "Skeleton_arm_joint_L__4_"): the
	// end of a named limb's two longest bones is its foot or hand.
	for s := Left; s <= Right; s++ {
		if feet[s] < 0 {
			feet[s] = t.limbEnd(s, legWords, footWords)
		}
		if hands[s] < 0 {
			hands[s] = t.limbEnd(s, armWords, handWords)
		}
	}
	var missing []string
	for s := Left; s <= Right; s++ {
		if feet[s] < 0 {
			missing = append(missing, s.String()+" foot")
		}
		if hands[s] < 0 {
			missing = append(missing, s.String()+" hand")
		}
	}
	if len(missing) > 0 {
		return Figure{}, fmt.Errorf("no joint named as the %s", strings.Join(missing, ", "))
	}
	head := -1
	for j, nm := range t.names {
		if strings.Contains(nm, "head") && !hasAny(nm, endWords) && (head < 0 || t.depth[j] < t.depth[head]) {
			head = j
		}
	}
	return t.assemble(feet, hands, head)
}

// assemble builds the figure from its four extremities and head (-1 to
// find it): the hips where the legs meet, the chest where the arms meet.
func (t *tree) assemble(feet, hands [2]int, head int) (Figure, error) {
	f := Figure{Head: -1}
	f.Hips = t.lca(feet[Left], feet[Right])
	f.Chest = t.lca(hands[Left], hands[Right])
	if f.Hips < 0 || f.Chest < 0 {
		return f, errors.New("the feet or the hands are in different trees")
	}
	if f.Hips == feet[Left] || f.Hips == feet[Right] || f.Chest == hands[Left] || f.Chest == hands[Right] {
		return f, errors.New("a foot or hand is above the other")
	}
	for s := Left; s <= Right; s++ {
		if len(t.path(f.Hips, feet[s])) < 2 {
			// A "foot" hanging straight from where the legs meet is no
			// leg's end: an IK control beside the leg bones (a rig's
			// Foot.L under its root), which the shape reads better.
			return f, fmt.Errorf("the %s foot hangs straight from the hips", s)
		}
	}
	if !t.isAncestor(f.Hips, f.Chest) {
		// The arms hang from a joint beside or below the legs' meeting
		// point: not a figure this package reads.
		return f, errors.New("the arms do not hang above the legs")
	}
	if head >= 0 && !t.isAncestor(f.Chest, head) && !t.isAncestor(head, f.Chest) {
		head = -1 // a "head" elsewhere (a bone named "forehead" on a prop)
	}
	if head < 0 || t.isAncestor(head, f.Chest) {
		// The head: the end of the longest branch from the chest that
		// holds no hand, without its end site (a leaf is taken for an End
		// Site, so an unnamed head with nothing above it reads as the
		// joint below it).
		var best []int
		for _, c := range t.kids[f.Chest] {
			if t.isAncestor(c, hands[Left]) || t.isAncestor(c, hands[Right]) {
				continue
			}
			if p := append([]int{c}, t.longest(c)...); len(best) == 0 || t.bone[c]+t.reach(c) > t.bone[best[0]]+t.reach(best[0]) {
				best = p
			}
		}
		head = -1
		for i := len(best) - 1; i >= 0; i-- {
			if len(t.kids[best[i]]) > 0 || i == 0 {
				head = best[i]
				break
			}
		}
	}
	f.Head = head
	top := f.Chest
	if head >= 0 {
		top = head
	}
	f.Spine = append([]int{f.Hips}, t.path(f.Hips, top)...)
	for s := Left; s <= Right; s++ {
		f.Legs[s] = t.limb(f.Hips, feet[s])
		f.Arms[s] = t.limb(f.Chest, hands[s])
	}
	return f, nil
}

// limb is the limb from base down to extremity end and on to its tip.
func (t *tree) limb(base, end int) Limb {
	l := Limb{Path: t.path(base, end), End: t.placeOf(end, base), Tip: -1}
	l.Mid = t.above(end, base)
	l.Upper = -1
	if l.Mid >= 0 {
		l.Upper = t.above(l.Mid, base)
	}
	if l.Upper < 0 { // a limb of one bone: its first joint bends it
		l.Upper, l.Mid = l.Mid, l.End
	}
	tail := t.longest(end)
	for _, j := range tail {
		if !t.zero(j) {
			l.Tip = j
			break
		}
	}
	l.Path = append(l.Path, tail...)
	return l
}

// finish makes Upper/Mid -1 consistently when a limb is too short.
func (t *tree) finish(f *Figure) {
	for _, ls := range []*[2]Limb{&f.Legs, &f.Arms} {
		for s := range ls {
			l := &ls[s]
			if l.Upper < 0 || l.Mid < 0 {
				l.Upper, l.Mid = -1, -1
			}
		}
	}
}

// byShape finds the figure from the tree's shape, for skeletons whose
// names do not say (no names, another language): the hips are the first
// joint with three long branches (two legs and the spine), the chest the
// first joint of the spine with three (two arms and the neck); a limb's
// extremity is the end of its two longest bones (thigh and shin, upper arm
// and forearm). Left is told from the posed frames: the toes point
// forward, the spine up, and left is up x forward.
func (t *tree) byShape(frames [][]mgl32.Vec3) (Figure, error) {
	long := func(j int) []int { // branches of j longer than a tenth of the figure's span
		var out []int
		for _, c := range t.kids[j] {
			if t.bone[c]+t.reach(c) >= 0.1*t.size {
				out = append(out, c)
			}
		}
		return out
	}
	// hub is the first joint from 'from' down with 3+ long branches; with
	// shortTop, else the first with two long branches and a third short
	// one (COLLADA2GLTF's CesiumMan: a neck of two short joints, no head
	// joint beyond them, between its arms).
	hub := func(from int, shortTop bool) (int, []int) {
		queue := []int{from}
		second, sb := -1, []int(nil)
		for len(queue) > 0 {
			j := queue[0]
			queue = queue[1:]
			b := long(j)
			if len(b) >= 3 {
				return j, b
			}
			if shortTop && second < 0 && len(b) == 2 && len(t.kids[j]) >= 3 {
				second, sb = j, b
			}
			queue = append(queue, t.kids[j]...)
		}
		return second, sb
	}
	hips := -1
	var branches []int
	for j, p := range t.parents {
		if p < 0 {
			if hips, branches = hub(j, false); hips >= 0 {
				break
			}
		}
	}
	if hips < 0 {
		return Figure{}, errors.New("no legs found: no joint where two legs and a spine meet")
	}
	sort.Slice(branches, func(a, b int) bool { return t.count(branches[a]) > t.count(branches[b]) })
	spine := branches[0]
	legs := branches[1:]
	sort.Slice(legs, func(a, b int) bool { return t.bone[legs[a]]+t.reach(legs[a]) > t.bone[legs[b]]+t.reach(legs[b]) })
	chest, arms := hub(spine, true)
	if chest < 0 {
		return Figure{}, errors.New("no joint on the spine where two arms meet")
	}
	// The two longest branches are the arms; assemble finds the head on
	// the branch left over.
	sort.Slice(arms, func(a, b int) bool { return t.bone[arms[a]]+t.reach(arms[a]) > t.bone[arms[b]]+t.reach(arms[b]) })
	feet := [2]int{t.extremityByLength(legs[0]), t.extremityByLength(legs[1])}
	hands := [2]int{t.extremityByLength(arms[0]), t.extremityByLength(arms[1])}
	if feet[0] < 0 || feet[1] < 0 || hands[0] < 0 || hands[1] < 0 {
		return Figure{}, errors.New("a limb without two long bones")
	}
	// Which is left: the first frame, up from hips to chest, forward the
	// way the feet point (else the way the head's branch leans).
	fr := frames[0]
	up := fr[chest].Sub(fr[hips])
	var fwd mgl32.Vec3
	for _, ft := range feet {
		if tail := t.longest(ft); len(tail) > 0 {
			fwd = fwd.Add(fr[tail[len(tail)-1]].Sub(fr[ft]))
		}
	}
	left := up.Cross(fwd)
	if fr[feet[0]].Sub(fr[feet[1]]).Dot(left) < 0 {
		feet[0], feet[1] = feet[1], feet[0]
	}
	if fr[hands[0]].Sub(fr[hands[1]]).Dot(left) < 0 {
		hands[0], hands[1] = hands[1], hands[0]
	}
	return t.assemble(feet, hands, -1)
}

// count is the number of joints in j's subtree.
func (t *tree) count(j int) int {
	n := 1
	for _, c := range t.kids[j] {
		n += t.count(c)
	}
	return n
}

// extremityByLength is the joint ending the later of the two longest bones
// on the longest path from first: the ankle after thigh and shin, the
// wrist after upper arm and forearm.
func (t *tree) extremityByLength(first int) int {
	p := append([]int{first}, t.longest(first)...)
	a, b := -1, -1 // indices in p of the longest and second-longest bones' ends
	for i := 1; i < len(p); i++ {
		switch l := t.bone[p[i]]; {
		case a < 0 || l > t.bone[p[a]]:
			a, b = i, a
		case b < 0 || l > t.bone[p[b]]:
			b = i
		}
	}
	if a < 0 || b < 0 {
		return -1
	}
	return p[max(a, b)]
}
