// Package humanoid reads a skeleton as a human figure, whatever its
// exporter called the joints and however it laid out its bones: which
// joints are the pelvis, spine, head, legs and arms (Classify), which way
// is up in the file and how tall the figure stands (Up, Height), and a
// bind pose to skin a body to that has straight limbs, legs apart and arms
// away from the torso (BindPose).
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

// Figure is a skeleton read as a human: indices of its joints.
type Figure struct {
	Hips  int   // the pelvis: where the legs meet the spine
	Spine []int // Hips, then the spine, chest and neck joints up to Head (or to the top)
	Chest int   // the spine joint the arms hang from
	Head  int   // -1 when the figure has no joint to call a head
	Legs  [2]Limb
	Arms  [2]Limb
	// ByName reports whether the feet and hands were found by their
	// names (else by the shape of the tree and the posed frames).
	ByName bool
}

// tree is a joint hierarchy with lengths measured on posed frames.
type tree struct {
	parents []int
	names   []string // lower case, without a namespace prefix ("mixamorig:")
	raw     []string // as given, for the case of side letters ("lFoot")
	kids    [][]int
	depth   []int
	bone    []float32 // median distance from each joint to its parent over the frames
	down    []float32 // the longest bone-length sum from each joint down to a leaf
	size    float32   // the longest path between two joints (bone lengths summed)
}

func newTree(parents []int, names []string, frames [][]mgl32.Vec3) (*tree, error) {
	n := len(parents)
	if n == 0 {
		return nil, errors.New("humanoid: no joints")
	}
	t := &tree{parents: parents, names: make([]string, n), raw: make([]string, n), kids: make([][]int, n),
		depth: make([]int, n), bone: make([]float32, n)}
	for j, p := range parents {
		if p < -1 || p >= j {
			return nil, fmt.Errorf("humanoid: joint %d has parent %d; want -1 <= parent < %d", j, p, j)
		}
		if j < len(names) {
			t.raw[j] = names[j]
			nm := names[j]
			if i := strings.LastIndexByte(nm, ':'); i >= 0 {
				nm = nm[i+1:]
			}
			t.names[j] = strings.ToLower(nm)
		}
		if p >= 0 {
			t.kids[p] = append(t.kids[p], j)
			t.depth[j] = t.depth[p] + 1
		}
	}
	for _, fr := range frames {
		if len(fr) != n {
			return nil, fmt.Errorf("humanoid: a frame has %d joints, the skeleton %d", len(fr), n)
		}
	}
	d := make([]float32, len(frames))
	reach := make([]float32, n)
	for j := n - 1; j >= 0; j-- {
		if p := parents[j]; p >= 0 {
			for k, fr := range frames {
				d[k] = fr[j].Sub(fr[p]).Len()
			}
			t.bone[j] = median(d)
		}
	}
	// The size: the longest path through any joint is its two longest
	// ways down (the tree's diameter), whichever joint is the root.
	for j := n - 1; j >= 0; j-- {
		var a, b float32
		for _, c := range t.kids[j] {
			switch l := reach[c] + t.bone[c]; {
			case l > a:
				a, b = l, a
			case l > b:
				b = l
			}
		}
		reach[j] = a
		t.size = max(t.size, a+b)
	}
	t.down = reach
	return t, nil
}

func median(xs []float32) float32 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float32(nil), xs...)
	sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
	return s[len(s)/2]
}

// isAncestor reports whether a is b or above it.
func (t *tree) isAncestor(a, b int) bool {
	for ; b >= 0; b = t.parents[b] {
		if a == b {
			return true
		}
	}
	return false
}

// lca is the lowest common ancestor of a and b, -1 if in different trees.
func (t *tree) lca(a, b int) int {
	for t.depth[a] > t.depth[b] {
		a = t.parents[a]
	}
	for t.depth[b] > t.depth[a] {
		b = t.parents[b]
	}
	for a != b && a >= 0 && b >= 0 {
		a, b = t.parents[a], t.parents[b]
	}
	if a != b {
		return -1
	}
	return a
}

// path lists the joints from a (excluded) down to its descendant b (included).
func (t *tree) path(a, b int) []int {
	var p []int
	for j := b; j != a && j >= 0; j = t.parents[j] {
		p = append(p, j)
	}
	for i, k := 0, len(p)-1; i < k; i, k = i+1, k-1 {
		p[i], p[k] = p[k], p[i]
	}
	return p
}

// longest follows, from j, the child with the longest way down to a leaf,
// and returns the joints after j.
func (t *tree) longest(j int) []int {
	var p []int
	for len(t.kids[j]) > 0 {
		best, bl := -1, float32(-1)
		for _, c := range t.kids[j] {
			if l := t.bone[c] + t.reach(c); l > bl {
				best, bl = c, l
			}
		}
		p = append(p, best)
		j = best
	}
	return p
}

// reach is the longest bone-length sum from j down to a leaf.
func (t *tree) reach(j int) float32 { return t.down[j] }

// zero reports whether the bone to j is too short to turn anything: a
// joint that shares its parent's place (CMU's LHipJoint, twist joints).
func (t *tree) zero(j int) bool { return t.bone[j] <= 1e-3*t.size }

// placeOf is the first joint at j's place: j's ancestor reached through
// zero-length bones, stopping at stop.
func (t *tree) placeOf(j, stop int) int {
	for j != stop && t.parents[j] >= 0 && t.parents[j] != stop && t.zero(j) {
		j = t.parents[j]
	}
	return j
}

// above is the joint at the other end of the bone ending at j's place:
// the place of the first ancestor of j's place that is somewhere else.
func (t *tree) above(j, stop int) int {
	j = t.placeOf(j, stop)
	if j == stop || t.parents[j] < 0 {
		return -1
	}
	return t.placeOf(t.parents[j], stop)
}

// Words of joint names, matched in lower case inside the name.
var (
	footWords   = []string{"foot", "ankle"}
	handWords   = []string{"hand", "wrist", "palm"}
	fingerWords = []string{"thumb", "index", "middle", "ring", "pinky", "little", "finger", "carpal"}
	endWords    = []string{"_end", "end_", "end site", "endsite", "nub", "top"}
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

// Classify reads a skeleton as a human figure. parents lists each joint's
// parent (-1 for roots, parents before children), names its names (nil or
// empty names for none), and frames a few posed frames of the figure's
// global joint positions (any unit, any up axis; the more varied, the
// better the lengths), at least one. It returns an error saying what is
// missing when the skeleton does not read as a figure with two legs, two
// arms and a spine.
func Classify(parents []int, names []string, frames [][]mgl32.Vec3) (Figure, error) {
	if len(frames) == 0 {
		return Figure{}, errors.New("humanoid: no posed frame to measure")
	}
	t, err := newTree(parents, names, frames)
	if err != nil {
		return Figure{}, err
	}
	f, err := t.byName()
	if err != nil {
		var gerr error
		if f, gerr = t.byShape(frames); gerr != nil {
			return Figure{}, fmt.Errorf("%v; %v", err, gerr)
		}
	} else {
		f.ByName = true
	}
	t.finish(&f)
	return f, nil
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

// byName finds feet and hands by their names and the rest from them.
func (t *tree) byName() (Figure, error) {
	feet, hands := t.extremities(footWords), t.extremities(handWords)
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
	hub := func(from int) (int, []int) { // the first joint from 'from' down with 3+ long branches
		queue := []int{from}
		for len(queue) > 0 {
			j := queue[0]
			queue = queue[1:]
			if b := long(j); len(b) >= 3 {
				return j, b
			}
			queue = append(queue, t.kids[j]...)
		}
		return -1, nil
	}
	hips := -1
	var branches []int
	for j, p := range t.parents {
		if p < 0 {
			if hips, branches = hub(j); hips >= 0 {
				break
			}
		}
	}
	if hips < 0 {
		return Figure{}, errors.New("no joint where two legs and a spine meet")
	}
	sort.Slice(branches, func(a, b int) bool { return t.count(branches[a]) > t.count(branches[b]) })
	spine := branches[0]
	legs := branches[1:]
	sort.Slice(legs, func(a, b int) bool { return t.bone[legs[a]]+t.reach(legs[a]) > t.bone[legs[b]]+t.reach(legs[b]) })
	chest, arms := hub(spine)
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
