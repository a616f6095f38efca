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
// The shape decides, whatever the names say: a figure is human when
// exactly two limbs of its body reach the ground over the clip, the spine
// rises and stands where they meet, two arms hang from it above them and
// the head is above the shoulders; a four-legged animal whose front legs
// are named as arms is none. A leg may end at the knee in the tree, its
// foot a control under a root on the floor that the rig's IK keeps at
// the end of the shin (Limb.Carried), and arms may reach the ground too,
// leaving a spine that stands above where the legs meet. Names only label what the shape found: which
// joint is the foot or the hand ("LeftFoot", "mixamorig:LeftFoot",
// "lFoot", "Bip01 L Foot", "foot_l", "Foot_L", "foot.L"), which side,
// which branch holds the head. Geometry comes from posed frames of the
// clip, not from the OFFSETs alone: many files' zero-rotation rest pose is
// not a standing figure (bones along X, a Z-up T-pose, a root far from the
// hips).
package humanoid

import (
	"fmt"
	"strings"
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
	// extremity and on to the extremity's longest tip (toe, middle finger),
	// each joint the parent of the next but where the extremity is
	// Carried.
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

// Carried reports whether the limb's extremity is no child of its mid
// joint: a rig's foot hanging from a root bone on the floor, which the
// rig's IK keeps at the end of the shin (Quaternius's robot.glb). The
// shin then ends at End with no bone in the tree: two-bone IK on the
// limb, or anything that walks from Mid down to End, must carry End
// along (its place a fixed offset in Mid's frame) itself.
func (l Limb) Carried(parents []int) bool {
	if l.End < 0 || l.Mid < 0 {
		return false
	}
	for j := l.End; j >= 0; j = parents[j] {
		if j == l.Mid {
			return false
		}
	}
	return true
}

// Figure is a skeleton read as a body: indices of its joints. Read makes
// one for any skeleton; when it reads as a human (Human) every field is
// filled (but Head, when nothing above the shoulders is a head), otherwise
// Hips, Spine, Chest and Head come from the layout of its trunk (Parts)
// and a leg or an arm only where a joint's name says its side. Classify
// makes only human figures.
type Figure struct {
	// Parents and Names are the skeleton read: each joint's parent (-1
	// for roots, parents before children) and name ("" for none).
	Parents []int
	Names   []string
	// Human reports whether the skeleton reads as a human figure: two
	// legs on the ground, a spine standing on them, two arms and a head
	// above; NotHuman says why not, by the shape's facts ("4 limbs reach
	// the ground (...); the spine lies level with the ground (22° from
	// it)").
	Human    bool
	NotHuman string

	Hips  int   // the pelvis: where the legs meet the spine; -1 when unknown
	Spine []int // Hips, then the spine, chest and neck joints up to Head (or to the top)
	Chest int   // the spine joint the arms hang from; -1 when unknown
	Head  int   // -1 when the figure has no joint to call a head
	// Legs and Arms by Side; a limb's Upper is -1 when it was not found.
	Legs [2]Limb
	Arms [2]Limb
	// ByName reports whether names chose the feet and hands (else the
	// bones' lengths did) in the limbs the shape found.
	ByName bool
	// Ground marks the joints that are no part of the body: roots on the
	// floor above it — the ground-level root that carries root motion
	// ("Entity"), a file's static root metres from the hips — and the
	// floor-level chain from them to the body. They are never dressed and
	// never drawn as bones (Bone); labs draw them as ground markers.
	Ground []bool
}

// Reading says what the figure was read as, in the words `kinelab info`
// and the app use: "a human: hips Hips, legs to LeftFoot and RightFoot,
// arms to LeftHand and RightHand, head Head" (a joint with no name as
// "joint N"), or "not read as a human figure: " and why.
func (f *Figure) Reading() string {
	if !f.Human {
		return "not read as a human figure: " + f.NotHuman
	}
	name := func(j int) string {
		switch {
		case j < 0:
			return "none"
		case j < len(f.Names) && f.Names[j] != "":
			return f.Names[j]
		}
		return fmt.Sprintf("joint %d", j)
	}
	return fmt.Sprintf("a human: hips %s, legs to %s and %s, arms to %s and %s, head %s", name(f.Hips),
		name(f.Legs[Left].End), name(f.Legs[Right].End), name(f.Arms[Left].End), name(f.Arms[Right].End), name(f.Head))
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
	return t.extremityOn(append([]int{first}, t.longest(first)...))
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
	t.tail(&l, end)
	return l
}

// tail goes on from the limb l's end down the longest branch below it:
// its path takes the branch, and its Tip the first joint of it that is
// not at the end's own place (a toe's tip, a finger's).
func (t *tree) tail(l *Limb, end int) {
	tail := t.longest(end)
	for _, j := range tail {
		if !t.zero(j) {
			l.Tip = j
			break
		}
	}
	l.Path = append(l.Path, tail...)
}

// carriedLimb is the leg from base down to the knee, a leaf, and on to
// the foot it carries, which hangs elsewhere (carry): the thigh from the
// joint above the knee, the shin from the knee to the foot.
func (t *tree) carriedLimb(base, knee, foot int) Limb {
	l := Limb{Path: append(t.path(base, knee), foot), Upper: t.above(knee, base), Mid: t.placeOf(knee, base), End: foot, Tip: -1}
	t.tail(&l, foot)
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

// extremityOn is the joint of path (joints from the top down, each the
// parent of the next) ending the later of its two longest bones: the
// ankle after thigh and shin, the wrist after upper arm and forearm; -1
// for a path of fewer than two bones.
func (t *tree) extremityOn(p []int) int {
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
