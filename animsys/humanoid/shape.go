package humanoid

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// The shape of a figure, measured along an up direction on its posed
// frames: which limbs reach the ground, what they hang from, how the spine
// lies. The human reading (human.go) decides by it, and says it when the
// figure is no human.

// Shares of the figure's height (its joints' extent along up), of its
// span (the tree's diameter) and of the frames the shape is measured by.
const (
	// A leaf is on the ground in a frame when it lies within groundBand
	// of the height above that frame's lowest leaf or root, and a limb
	// reaches the ground when one of its leaves is on it in groundShare
	// of the frames or more: a walking or running foot is in half of them
	// or more (the shared captures' feet: 48% and up), and a foot whose
	// leaf is its ankle (no toe joint, a paw) stands within the band.
	groundBand  = 0.1
	groundShare = 0.2
	// A limb hangs from the first joint up from its end where another
	// long branch leaves: one reaching longBranch of the span, whose far
	// end lies longBranch of the span from the limb's (a heel, a finger
	// or a second palm bone beside the first is part of the limb).
	longBranch = 0.1
	// spineStands is the least angle (degrees) from the ground at which
	// a spine stands: a walk leans 5-15 degrees from upright, a sprint's
	// start 30; a four-legged animal's spine lies within 30 of level.
	spineStands = 45
)

// shape is a figure measured along up.
type shape struct {
	t      *tree
	frames [][]mgl32.Vec3
	up     mgl32.Vec3
	h      float32 // the height: median over frames of the joints' extent along up
	// lift[i][j] is joint j's height above the ground in frame i: above
	// its lowest leaf or root (a root on the floor under the hips, the
	// Entity, marks the ground when no leaf reaches it).
	lift [][]float32
	med  []float32 // each joint's median lift
}

func (t *tree) measure(frames [][]mgl32.Vec3, up mgl32.Vec3) *shape {
	n := len(t.parents)
	s := &shape{t: t, frames: frames, up: up, lift: make([][]float32, len(frames)), med: make([]float32, n)}
	hs := make([]float32, len(frames))
	for i, fr := range frames {
		lo, hi := extent(fr, up)
		hs[i] = hi - lo
		floor := float32(math.Inf(1))
		for j, p := range fr {
			if len(t.kids[j]) == 0 || t.parents[j] < 0 {
				floor = min(floor, p.Dot(up))
			}
		}
		s.lift[i] = make([]float32, n)
		for j, p := range fr {
			s.lift[i][j] = p.Dot(up) - floor
		}
	}
	s.h = mathx.Median(hs)
	col := make([]float32, len(frames))
	for j := range n {
		for i := range frames {
			col[i] = s.lift[i][j]
		}
		s.med[j] = mathx.Median(col)
	}
	return s
}

// onGround reports whether leaf j is on the ground in groundShare of the
// frames or more.
func (s *shape) onGround(j int) bool {
	n := 0
	for _, l := range s.lift {
		if l[j] <= groundBand*s.h {
			n++
		}
	}
	return float32(n) >= groundShare*float32(len(s.lift))
}

// dist is the median distance between joints a and b over the frames.
func (s *shape) dist(a, b int) float32 {
	d := make([]float32, len(s.frames))
	for i, fr := range s.frames {
		d[i] = fr[a].Sub(fr[b]).Len()
	}
	return mathx.Median(d)
}

// angle is the median angle (degrees) from the ground of the line from
// joint a to joint b.
func (s *shape) angle(a, b int) float32 {
	d := make([]float32, len(s.frames))
	for i, fr := range s.frames {
		v := fr[b].Sub(fr[a])
		if l := v.Len(); l > 0 {
			d[i] = float32(math.Asin(float64(mathx.Clamp(v.Dot(s.up)/l, -1, 1))) * 180 / math.Pi)
		}
	}
	return mathx.Median(d)
}

// hangsFrom is the joint the limb ending at leaf hangs from (-1 when the
// tree is one chain) and the child of it the limb starts at: the first
// joint up from leaf where another long branch leaves (longBranch). A
// joint with more than manyBranches long branches is one, whatever their
// ends (no hand has so many fingers and palm bones).
func (s *shape) hangsFrom(leaf int) (base, first int) {
	t := s.t
	long := longBranch * t.size
	first = leaf
	for p := t.parents[leaf]; p >= 0; first, p = p, t.parents[p] {
		n := 0
		for _, c := range t.kids[p] {
			if c == first || t.bone[c]+t.reach(c) < long {
				continue
			}
			if n++; n > manyBranches || s.dist(t.far[c], t.far[first]) >= long {
				return p, first
			}
		}
	}
	return -1, first
}

// manyBranches is more long branches than a hand's fingers and palm bones.
const manyBranches = 16

// footing is a limb that reaches the ground.
type footing struct {
	leaves      []int // its leaves that do, in order
	base, first int   // the joint it hangs from and its first joint (hangsFrom)
	// control marks a limb that hangs from a joint at the ground's
	// level (an IK control or a marker beside the body, under a root on
	// the floor): no limb of the body.
	control bool
	// carried, -1 for none, is the foot of a leg whose foot hangs
	// elsewhere (carry): the leg's leaves are then its last joint, the
	// knee, which carries the foot at a fixed distance.
	carried int
}

// footings finds the limbs that reach the ground: those of the body and
// those hanging from a joint at the ground's level.
func (s *shape) footings() (body, controls []footing) {
	var all []footing
	at := map[[2]int]int{} // index in all of the footing from (base, first)
	for j := range s.t.parents {
		if len(s.t.kids[j]) > 0 || !s.onGround(j) {
			continue
		}
		base, first := s.hangsFrom(j)
		if k, ok := at[[2]int{base, first}]; ok {
			all[k].leaves = append(all[k].leaves, j)
			continue
		}
		at[[2]int{base, first}] = len(all)
		all = append(all, footing{leaves: []int{j}, base: base, first: first, carried: -1,
			control: base >= 0 && s.med[base] <= groundFloor*s.h})
	}
	for _, f := range all {
		if f.control {
			controls = append(controls, f)
		} else {
			body = append(body, f)
		}
	}
	return body, controls
}

// A carried foot's distance from the knee that carries it stays within
// rigidShare of its median in rigidFrames of the frames or more: a rig's
// IK keeps its shin's length to a few tenths of a percent while the foot
// is in reach (robot.glb's walk within 0.3% on 90% of its frames), and
// lets the foot go past the knee's reach for a few frames of a stride
// or a jump (6% and 23% beyond); a control left on the floor while the
// knee swings strays by tens of percent on most frames.
const (
	rigidShare  = 0.02
	rigidFrames = 0.8
)

// carry gives the body the legs whose feet hang elsewhere: a rig (as
// Quaternius's robot.glb) whose legs end at the knee in the tree, each
// foot a control under a root on the floor that its IK keeps at the end
// of the shin. A control on the ground whose distance from a leaf of the
// body stays the same (rigid: rigidShare, rigidFrames; and a long
// branch's length, no joint at its own place) is carried by that leaf,
// the knee, when the knee hangs short of the ground below where its limb
// leaves the body and above the foot; the leg is then a footing of the
// body, its leaves the knee, its foot (carried) the control's joint.
// Each knee carries one foot, the nearest that stays so.
func (s *shape) carry(body, controls []footing) ([]footing, []footing) {
	t := s.t
	taken := map[int]bool{}
	for _, f := range body {
		for _, l := range f.leaves {
			taken[l] = true
		}
	}
	var kept []footing
	for _, c := range controls {
		knee, near := -1, float32(math.Inf(1))
		for k := range t.parents {
			if len(t.kids[k]) > 0 || taken[k] || s.onGround(k) || t.isAncestor(c.first, k) {
				continue
			}
			// A knee hangs down from where its leg leaves the body, the
			// foot below it; not beside the body, as the control is (a
			// pole target under the same root).
			base, _ := s.hangsFrom(k)
			if base < 0 || s.med[base] <= groundFloor*s.h || s.med[k] >= s.med[base] || s.med[c.first] >= s.med[k] {
				continue
			}
			if d, ok := s.rigid(k, c.first); ok && d >= longBranch*t.size && d < near {
				knee, near = k, d
			}
		}
		if knee < 0 {
			kept = append(kept, c)
			continue
		}
		taken[knee] = true
		base, first := s.hangsFrom(knee)
		body = append(body, footing{leaves: []int{knee}, base: base, first: first, carried: c.first})
	}
	return body, kept
}

// rigid is the median distance between joints a and b over the frames,
// and whether it stays within rigidShare of it in rigidFrames of them.
func (s *shape) rigid(a, b int) (float32, bool) {
	d := s.dist(a, b)
	n := 0
	for _, fr := range s.frames {
		if e := fr[a].Sub(fr[b]).Len() - d; e <= rigidShare*d && e >= -rigidShare*d {
			n++
		}
	}
	return d, d > 0 && float32(n) >= rigidFrames*float32(len(s.frames))
}

// legs picks the legs among more than two footings of a figure whose
// arms reach the ground too (a long-armed robot's fingers trailing at a
// walk, a hand on the floor): the first two that meet where a spine
// rises, standing (spineStands) from their meet up to where each other
// footing's limb leaves it. A four-legged animal has no such pair: its
// front legs leave a spine that lies level. Without one, body as it is.
func (s *shape) legs(body []footing) []footing {
	if len(body) <= 2 || len(body) > maxLegs {
		return body
	}
	t := s.t
	for a := range body {
		for b := a + 1; b < len(body); b++ {
			pair := []footing{body[a], body[b]}
			meet := s.meet(pair)
			if meet < 0 {
				continue
			}
			top := s.top(meet, pair)
			if top < 0 {
				continue
			}
			arms := true
			for c := range body {
				if c == a || c == b {
					continue
				}
				leave := t.lca(s.end(body[c]), top)
				if leave < 0 || leave == meet || !t.isAncestor(meet, leave) || s.angle(meet, leave) < spineStands {
					arms = false
					break
				}
			}
			if arms {
				return pair
			}
		}
	}
	return body
}

// end is the footing's leaf farthest from its first joint: a toe's tip
// rather than its heel.
func (s *shape) end(f footing) int {
	best, bl := f.leaves[0], float32(-1)
	for _, j := range f.leaves {
		if l := s.t.pathLength(f.first, j); l > bl {
			best, bl = j, l
		}
	}
	return best
}

// pathLength is the sum of the bones from a down to its descendant b.
func (t *tree) pathLength(a, b int) float32 {
	var l float32
	for j := b; j != a && j >= 0; j = t.parents[j] {
		l += t.bone[j]
	}
	return l
}

// spine is the angle (degrees) from the ground of the spine the body's
// footings carry, and whether there is one to measure: between the two
// joints they hang from that lie farthest apart, when a long branch
// apart (a four-legged animal's hips and shoulders), else from where
// they meet up to the highest joint of the branches that reach no ground
// (a biped's hips to the top of its head). Its size: a spine lies level
// whichever end is the higher.
func (s *shape) spine(body []footing) (float32, bool) {
	if len(body) < 2 || len(body) > maxLegs {
		return 0, false
	}
	t := s.t
	var bases []int
	for _, f := range body {
		if f.base >= 0 && !slices.Contains(bases, f.base) {
			bases = append(bases, f.base)
		}
	}
	a, b, far := -1, -1, float32(0)
	for i, x := range bases {
		for _, y := range bases[i+1:] {
			if d := s.dist(x, y); d > far {
				a, b, far = x, y, d
			}
		}
	}
	if a >= 0 && far >= longBranch*t.size {
		return float32(math.Abs(float64(s.angle(a, b)))), true
	}
	meet := s.meet(body)
	if meet < 0 {
		return 0, false
	}
	top := s.top(meet, body)
	if top < 0 {
		return 0, false
	}
	return float32(math.Abs(float64(s.angle(meet, top)))), true
}

// standingFrames are the frames in which the figure stands (the extent
// along up of its joints but the roots at least standShare of its
// tallest, the 90th percentile):
// those its shape is read by, so that a crouch with the hands on the
// floor reads as the human standing in the other frames.
func standingFrames(t *tree, frames [][]mgl32.Vec3, up mgl32.Vec3) [][]mgl32.Vec3 {
	hs := make([]float32, len(frames))
	for i, fr := range frames {
		lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
		for j, p := range fr {
			if t.parents[j] >= 0 { // a root on the floor is no part of the figure's stance
				lo, hi = min(lo, p.Dot(up)), max(hi, p.Dot(up))
			}
		}
		hs[i] = hi - lo
	}
	tall := mathx.Quantile(hs, 0.9)
	var out [][]mgl32.Vec3
	for i, fr := range frames {
		if hs[i] >= standShare*tall {
			out = append(out, fr)
		}
	}
	if len(out) == 0 { // NaNs, or a skeleton of roots alone
		return frames
	}
	return out
}

// standShare is the least share of its tallest the figure stands at in
// a frame its shape is read by: a walk or a run stays within a tenth, a
// crouch drops to half.
const standShare = 0.8

// maxLegs is the most footings a spine is measured for: a spider's.
const maxLegs = 8

// meet is the joint where the footings meet (-1 in different trees).
func (s *shape) meet(body []footing) int {
	m := s.end(body[0])
	for _, f := range body[1:] {
		if m = s.t.lca(m, s.end(f)); m < 0 {
			return -1
		}
	}
	return m
}

// top is the highest joint (by median lift) of the branches of j that
// hold no footing, -1 when no branch rises above j.
func (s *shape) top(j int, body []footing) int {
	t := s.t
	holds := make([]bool, len(t.parents)) // above a footing's leaf
	for _, f := range body {
		for _, l := range f.leaves {
			for k := l; k >= 0 && !holds[k]; k = t.parents[k] {
				holds[k] = true
			}
		}
	}
	best := -1
	var walk func(k int)
	walk = func(k int) {
		if best < 0 || s.med[k] > s.med[best] {
			best = k
		}
		for _, c := range t.kids[k] {
			walk(c)
		}
	}
	for _, c := range t.kids[j] {
		if !holds[c] {
			walk(c)
		}
	}
	if best < 0 || s.med[best] <= s.med[j] {
		return -1
	}
	return best
}

// name is joint j's name as the file writes it, "joint N" for none.
func (t *tree) name(j int) string {
	if t.raw[j] != "" {
		return t.raw[j]
	}
	return fmt.Sprintf("joint %d", j)
}

// footName names a footing by the foot standing in for its end, or by
// its foot or hand where a joint's name says one (from its first joint
// down to its end), else by where its leaves meet.
func (s *shape) footName(f footing) string {
	t := s.t
	if f.carried >= 0 {
		return t.name(f.carried)
	}
	for _, j := range append([]int{f.first}, t.path(f.first, s.end(f))...) {
		if nm := t.names[j]; (hasAny(nm, footWords) || hasAny(nm, handWords)) && !hasAny(nm, fingerWords) && !hasAny(nm, endWords) {
			return t.name(j)
		}
	}
	j := f.leaves[0]
	for _, k := range f.leaves[1:] {
		j = t.lca(j, k)
	}
	return t.name(j)
}

// list joins names: "a", "a and b", "a, b and c".
func list(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// percent is x as a share of the figure's height, in whole percent.
func (s *shape) percent(x float32) string {
	return fmt.Sprintf("%.0f%% of its height", 100*x/s.h)
}

// notHuman says why the figure is no human, its shape's facts first: how
// many limbs reach the ground and which, then why (each of because, in
// order), how the spine lies when it lies level, what of the body hangs
// in the air below the limbs on the ground, and what stands on the ground
// beside the body.
func (s *shape) notHuman(body, controls []footing, because ...string) error {
	t := s.t
	var facts []string
	var names []string
	for _, f := range body[:min(len(body), maxLegs)] {
		names = append(names, s.footName(f))
	}
	if len(body) > maxLegs {
		names = append(names, fmt.Sprintf("%d more", len(body)-maxLegs))
	}
	switch len(body) {
	case 0:
		facts = append(facts, "no limb of the body reaches the ground")
	case 1:
		facts = append(facts, "1 limb reaches the ground ("+names[0]+")")
	default:
		facts = append(facts, fmt.Sprintf("%d limbs reach the ground (%s)", len(body), strings.Join(names, ", ")))
	}
	if a, ok := s.spine(body); ok && a < spineStands {
		facts = append(facts, fmt.Sprintf("the spine lies level with the ground (%.0f° from it)", a))
	}
	facts = append(facts, because...)
	if len(body) == 0 {
		if low, lift := s.lowest(); len(low) > 0 {
			var ln []string
			for _, j := range low {
				ln = append(ln, t.name(j))
			}
			facts = append(facts, fmt.Sprintf("its lowest joints (%s) stay %s above the ground", list(ln), s.percent(lift)))
		}
	} else if hang, lift := s.hanging(body); len(hang) > 0 {
		if len(hang) > maxLegs {
			hang = append(hang[:maxLegs], fmt.Sprintf("%d more", len(hang)-maxLegs))
		}
		facts = append(facts, fmt.Sprintf("%s, lower on the body, end %s above the ground", list(hang), s.percent(lift)))
	}
	if len(controls) > 0 {
		var cn []string
		var bases []string
		for _, f := range controls[:min(len(controls), maxLegs)] {
			cn = append(cn, s.footName(f))
			if b := t.name(f.base); !slices.Contains(bases, b) {
				bases = append(bases, b)
			}
		}
		if len(controls) > maxLegs {
			cn = append(cn, fmt.Sprintf("%d more", len(controls)-maxLegs))
		}
		verb := "hangs"
		if len(cn) > 1 {
			verb = "hang"
		}
		facts = append(facts, fmt.Sprintf("%s, on the ground, %s from %s, at the ground's level, not from the body", list(cn), verb, list(bases)))
	}
	return errors.New(strings.Join(facts, "; "))
}

// lowest lists the leaves of the body lowest in most frames (within the
// ground band of the lowest of them), at most four, and the least median
// lift: where a figure no limb of which reaches the ground comes nearest
// it. Leaves hanging from a joint at the ground's level (controls,
// markers) are no part of the body.
func (s *shape) lowest() ([]int, float32) {
	t := s.t
	var leaves []int
	lo := float32(math.Inf(1))
	for j := range t.parents {
		if len(t.kids[j]) > 0 {
			continue
		}
		if base, _ := s.hangsFrom(j); base >= 0 && s.med[base] <= groundFloor*s.h {
			continue
		}
		leaves = append(leaves, j)
		lo = min(lo, s.med[j])
	}
	var out []int
	for _, j := range leaves {
		if s.med[j] <= lo+groundBand*s.h {
			out = append(out, j)
		}
	}
	return out[:min(len(out), 4)], lo
}

// hanging lists the long branches that hang down, short of the ground,
// from the joints below the one the body's footings hang from (a robot's
// legs ending at its knees, its feet IK controls on the floor), down to
// the ground's level, with the least median lift of their joints.
func (s *shape) hanging(body []footing) ([]string, float32) {
	t := s.t
	from := body[0].base
	for _, f := range body[1:] {
		if from >= 0 && f.base >= 0 {
			from = t.lca(from, f.base)
		}
	}
	if from < 0 {
		return nil, 0
	}
	var out []string
	low := float32(math.Inf(1))
	for below, a := from, t.parents[from]; a >= 0 && s.med[a] > groundFloor*s.h; below, a = a, t.parents[a] {
		for _, c := range t.kids[a] {
			if c == below || t.bone[c]+t.reach(c) < longBranch*t.size {
				continue
			}
			if l := s.subLow(c); l < s.med[a] && l > groundBand*s.h {
				out = append(out, t.name(c))
				low = min(low, l)
			}
		}
	}
	return out, low
}

// subLow is the least median lift of the joints of j's subtree.
func (s *shape) subLow(j int) float32 {
	l := s.med[j]
	for _, c := range s.t.kids[j] {
		l = min(l, s.subLow(c))
	}
	return l
}
