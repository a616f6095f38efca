package humanoid

import (
	"fmt"
	"sort"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
)

// human reads the figure standing along up as a human by its shape
// (shape.go), measured on the frames it stands in (standingFrames): two
// limbs of the body reach the ground (a foot a rig's IK carries at the
// end of a knee counting for its leg: carry; arms that reach the ground
// too left aside: legs), where they meet (the hips) the spine rises and stands, two
// arms hang from it above them, and the head is above the shoulders. Joint names only label what
// the shape found: which joint of a leg is the foot and of an arm the
// hand, which side each is on, which two branches of the spine are the
// arms, which joint the head. When the figure is no human the error lists
// its shape's facts.
func (t *tree) human(frames [][]mgl32.Vec3, up mgl32.Vec3) (Figure, error) {
	s := t.measure(standingFrames(t, frames, up), up)
	if !(s.h > 0) {
		return Figure{}, fmt.Errorf("its joints all lie at one height: no body stands on the ground")
	}
	body, controls := s.footings()
	body, controls = s.carry(body, controls)
	body = s.legs(body)
	if len(body) != 2 {
		return Figure{}, s.notHuman(body, controls)
	}
	fail := func(format string, a ...any) (Figure, error) {
		return Figure{}, s.notHuman(body, controls, fmt.Sprintf(format, a...))
	}
	ends := [2]int{s.end(body[0]), s.end(body[1])}
	hips := t.lca(ends[0], ends[1])
	if hips < 0 {
		return fail("the two are in different trees")
	}
	a, ok := s.spine(body)
	if !ok {
		return fail("nothing rises above where they meet (%s)", t.name(hips))
	}
	if a < spineStands {
		return Figure{}, s.notHuman(body, controls) // which says how it lies
	}

	// The legs: from the hips to each footing's end, the foot the joint
	// named so, else the end of the leg's two longest bones.
	var feet [2]int
	byName := true
	carriedBy := map[int]int{} // a carried foot's knee
	for k, e := range ends {
		path := t.path(hips, e)
		if c := body[k].carried; c >= 0 {
			// The foot hangs elsewhere, carried by the knee that ends
			// the leg (carry): two bones from the hips to the knee and
			// the shin to the foot.
			if len(path) < 1 || len(t.path(hips, t.above(e, hips))) < 1 {
				return fail("the limb to %s has no thigh below %s", t.name(c), t.name(hips))
			}
			feet[k], carriedBy[c] = c, e
			byName = byName && hasAny(t.names[c], footWords)
			continue
		}
		feet[k] = t.named(path, footWords)
		if feet[k] < 0 {
			byName = false
			feet[k] = t.extremityOn(path)
		}
		if feet[k] < 0 || len(t.path(hips, feet[k])) < 2 {
			return fail("the limb to %s has no two long bones below %s", s.footName(body[k]), t.name(hips))
		}
	}

	// The spine: the branch of the hips that holds the top of the body.
	top := s.top(hips, body)
	if top < 0 {
		return fail("nothing rises above where they meet (%s)", t.name(hips))
	}
	trunk := top
	for t.parents[trunk] != hips {
		trunk = t.parents[trunk]
	}
	chest, hands, named := t.arms(trunk)
	if chest < 0 {
		return fail("no two arms hang from the spine above them")
	}
	byName = byName && named
	head := t.head(chest, hands)
	if head >= 0 && s.med[head] <= s.med[chest] {
		return fail("the head (%s) is not above the shoulders (%s)", t.name(head), t.name(chest))
	}
	fwd := s.forward(feet)
	feet, hands = t.sides(s, feet, hips, fwd), t.sides(s, hands, chest, fwd)

	f := Figure{Hips: hips, Chest: chest, Head: head, ByName: byName}
	top = chest
	if head >= 0 {
		top = head
	}
	f.Spine = append([]int{hips}, t.path(hips, top)...)
	for sd := Left; sd <= Right; sd++ {
		if knee, ok := carriedBy[feet[sd]]; ok {
			f.Legs[sd] = t.carriedLimb(hips, knee, feet[sd])
		} else {
			f.Legs[sd] = t.limb(hips, feet[sd])
		}
		f.Arms[sd] = t.limb(chest, hands[sd])
	}
	t.finish(&f)
	return f, nil
}

// named is the first joint of path (from the top) whose name has one of
// words and no finger or end-site word, -1 for none.
func (t *tree) named(path []int, words []string) int {
	for _, j := range path {
		if nm := t.names[j]; nm != "" && hasAny(nm, words) && !hasAny(nm, fingerWords) && !hasAny(nm, endWords) {
			return j
		}
	}
	return -1
}

// arms finds the two arms on the spine from its first joint trunk: the
// chest, the hands (by side where names say) and whether names chose the
// hands. A hand is the joint of the two named so (left and right) that
// meet on the spine; else the arms are the two longest of the first
// joint up the spine with three long branches (two arms and the neck),
// or with two and a short third (CesiumMan's neck of two short joints
// with no head joint above it), and the hand the end of each arm's two
// longest bones (or the joint in it named so). chest is -1 when there
// are no two arms.
func (t *tree) arms(trunk int) (chest int, hands [2]int, byName bool) {
	hands = t.extremities(handWords)
	for s := Left; s <= Right; s++ {
		if hands[s] < 0 {
			hands[s] = t.limbEnd(s, armWords, handWords)
		}
	}
	if hands[Left] >= 0 && hands[Right] >= 0 {
		c := t.lca(hands[Left], hands[Right])
		if c >= 0 && t.isAncestor(trunk, c) && c != hands[Left] && c != hands[Right] {
			return c, hands, true
		}
	}
	chest, branches := t.hub(trunk, true)
	if chest < 0 {
		return -1, hands, false
	}
	sort.Slice(branches, func(a, b int) bool {
		return t.bone[branches[a]]+t.reach(branches[a]) > t.bone[branches[b]]+t.reach(branches[b])
	})
	for k := range hands {
		path := append([]int{branches[k]}, t.longest(branches[k])...)
		if hands[k] = t.named(path, handWords); hands[k] < 0 {
			hands[k] = t.extremityOn(path)
		}
		if hands[k] < 0 {
			return -1, hands, false
		}
	}
	return chest, hands, false
}

// long lists the branches of j reaching a tenth of the figure's span.
func (t *tree) long(j int) []int {
	var out []int
	for _, c := range t.kids[j] {
		if t.bone[c]+t.reach(c) >= longBranch*t.size {
			out = append(out, c)
		}
	}
	return out
}

// hub is the first joint from 'from' down with 3+ long branches, and
// those; with shortTop, else the first with two long branches and a
// third short one (COLLADA2GLTF's CesiumMan: a neck of two short joints,
// no head joint beyond them, between its arms). -1 for none.
func (t *tree) hub(from int, shortTop bool) (int, []int) {
	queue := []int{from}
	second, sb := -1, []int(nil)
	for len(queue) > 0 {
		j := queue[0]
		queue = queue[1:]
		b := t.long(j)
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

// head is the figure's head above chest, whose arms end at hands: the
// joint nearest the root named so, else the end of the longest branch
// from the chest that holds no hand, without its end site (a leaf is
// taken for an End Site, so an unnamed head with nothing above it reads
// as the joint below it); -1 when the chest has no other branch.
func (t *tree) head(chest int, hands [2]int) int {
	inArm := func(j int) bool { return t.isAncestor(j, hands[Left]) || t.isAncestor(j, hands[Right]) }
	head := -1
	for j, nm := range t.names {
		if !strings.Contains(nm, "head") || hasAny(nm, endWords) || j == chest || !t.isAncestor(chest, j) || inArm(j) {
			continue
		}
		if head < 0 || t.depth[j] < t.depth[head] {
			head = j
		}
	}
	if head >= 0 {
		return head
	}
	var best []int
	for _, c := range t.kids[chest] {
		if inArm(c) {
			continue
		}
		if p := append([]int{c}, t.longest(c)...); len(best) == 0 || t.bone[c]+t.reach(c) > t.bone[best[0]]+t.reach(best[0]) {
			best = p
		}
	}
	for i := len(best) - 1; i >= 0; i-- {
		if len(t.kids[best[i]]) > 0 || i == 0 {
			return best[i]
		}
	}
	return -1
}

// sides orders two limb ends (feet or hands) meeting at base left then
// right: by their names where one says a side (the other is then the
// other side), else by where they are in the first frame, left being up
// x forward.
func (t *tree) sides(s *shape, ends [2]int, base int, fwd mgl32.Vec3) [2]int {
	side := func(j int) (Side, bool) {
		for k := j; k >= 0 && k != base; k = t.parents[k] {
			if sd, ok := SideOf(t.raw[k]); ok {
				return sd, true
			}
		}
		return Left, false
	}
	a, aok := side(ends[0])
	b, bok := side(ends[1])
	var swap bool
	switch {
	case aok && (!bok || a != b):
		swap = a == Right
	case bok && !aok:
		swap = b == Left
	default:
		fr := s.frames[0]
		swap = fr[ends[0]].Sub(fr[ends[1]]).Dot(s.up.Cross(fwd)) < 0
	}
	if swap {
		ends[0], ends[1] = ends[1], ends[0]
	}
	return ends
}

// forward is the way the feet point in the first frame (each foot to the
// far end of its longest tip: the toes), along the ground.
func (s *shape) forward(feet [2]int) mgl32.Vec3 {
	fr := s.frames[0]
	var fwd mgl32.Vec3
	for _, ft := range feet {
		fwd = fwd.Add(fr[s.t.far[ft]].Sub(fr[ft]))
	}
	return fwd.Sub(s.up.Mul(fwd.Dot(s.up)))
}
