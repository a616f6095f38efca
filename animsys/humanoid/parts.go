package humanoid

import (
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
)

// Parts is a figure laid out for dressing with solids, in one pose that
// stands on +Y (a bind pose): its torsos, the branches that hang from them
// (legs, arms, and anything else: a tail, a prop, a twist joint), which way
// it faces and how tall it is. Every joint that is not Ground belongs to a
// torso or a branch, or lies past a hand or foot (fingers, toes).
type Parts struct {
	Torsos   []Torso
	Branches []Branch // in dressing order: each torso's, from the pelvis up, each followed by its side branches
	Up       mgl32.Vec3
	Forward  mgl32.Vec3 // horizontal, unit: the way the feet point, else +Z
	// Height is the body joints' extent along Up; for a figure lying flat,
	// their largest horizontal extent. In the pose's units.
	Height float32
}

// Torso is a trunk: its chain of joints from the pelvis up.
type Torso struct {
	Chain []int // the pelvis, the spine up to the chest, then the neck joints and the head
	Chest int   // index in Chain of the last torso joint: the neck starts there
	Head  int   // index in Chain of the head, -1 when none
}

// BranchKind says how a branch is shaped.
type BranchKind uint8

// The kinds of branch.
const (
	OtherBranch BranchKind = iota // a tail, a prop, an extra limb: a plain taper
	ArmBranch                     // tapering to a hand
	LegBranch                     // tapering to a foot
)

// Branch is a chain hanging from a torso joint or from another branch.
type Branch struct {
	Kind BranchKind
	Base int   // the joint it hangs from
	Path []int // its first joint on along its longest way down
	End  int   // index in Path of the hand or foot, -1 when none
}

// Shares of the figure's height used to lay out a trunk whose figure is
// not human: a branch reaching legBelow below the pelvis is a leg; an
// extremity is where less than extremityRest of a limb's length is left.
const (
	legBelow      = 0.25
	extremityRest = 0.3
)

// Parts lays the figure out in pose pos (global joint positions standing
// on +Y, e.g. a bind pose). A human figure's torso runs from its pelvis up
// its Spine, with its Legs and Arms; any other trunk (every trunk of a
// figure that is not human) is read from the pose's shape: the chain up
// through the highest-reaching children, a head where a joint is named so,
// the chest where the last branches leave, legs reaching well below the
// pelvis and arms from the upper spine.
func (f *Figure) Parts(pos []mgl32.Vec3) Parts {
	l := newLayout(f, pos)
	for j, p := range f.Parents {
		switch {
		case p < 0 && !l.ground[j], p >= 0 && l.ground[p] && !l.ground[j]:
			l.addTorso(j)
		}
	}
	l.face()
	return l.Parts
}

// layout is the pose measured for Parts.
type layout struct {
	Parts
	f      *Figure
	pos    []mgl32.Vec3
	kids   [][]int
	ground []bool
	subTop []float32 // highest y in each joint's subtree
	subLen []float32 // longest path from the joint to a leaf below it
	human  bool      // the human torso is not laid out yet
}

func newLayout(f *Figure, pos []mgl32.Vec3) *layout {
	n := len(f.Parents)
	l := &layout{f: f, pos: pos, kids: make([][]int, n), ground: make([]bool, n),
		subTop: make([]float32, n), subLen: make([]float32, n), human: f.Human}
	l.Up, l.Forward = mgl32.Vec3{0, 1, 0}, mgl32.Vec3{0, 0, 1}
	for j, p := range f.Parents {
		l.ground[j] = f.ground(j)
		if p >= 0 {
			l.kids[p] = append(l.kids[p], j)
		}
	}
	lo, hi := jointBounds(pos, l.ground)
	ext := hi.Sub(lo)
	l.Height = ext[1]
	if l.Height <= 1e-3*max(ext[0], ext[2]) {
		l.Height = max(ext[0], ext[2]) // lying flat: measured by its length
	}
	for j, p := range f.Parents {
		if p < 0 {
			l.measure(j)
		}
	}
	return l
}

// measure fills subTop and subLen for joint j and its subtree.
func (l *layout) measure(j int) {
	top, length := l.pos[j][1], float32(0)
	for _, c := range l.kids[j] {
		l.measure(c)
		top = max(top, l.subTop[c])
		length = max(length, l.subLen[c]+l.dist(c, j))
	}
	l.subTop[j], l.subLen[j] = top, length
}

// jointBounds is the box around the joints not skipped.
func jointBounds(pos []mgl32.Vec3, skip []bool) (lo, hi mgl32.Vec3) {
	first := true
	for j, p := range pos {
		if skip != nil && skip[j] {
			continue
		}
		if first {
			lo, hi, first = p, p, false
			continue
		}
		for a := 0; a < 3; a++ {
			lo[a], hi[a] = min(lo[a], p[a]), max(hi[a], p[a])
		}
	}
	return lo, hi
}

func (l *layout) dist(i, j int) float32 { return l.pos[i].Sub(l.pos[j]).Len() }

// named reports whether joint j's name holds one of words (lower case).
func (l *layout) named(j int, words ...string) bool {
	if j >= len(l.f.Names) {
		return false
	}
	return hasAny(strings.ToLower(l.f.Names[j]), words)
}

// addTorso lays out the trunk from pelvis: the human figure's when it
// holds the figure's hips, else one read from the pose.
func (l *layout) addTorso(pelvis int) {
	if l.human && l.f.isAbove(pelvis, l.f.Hips) {
		l.human = false
		l.humanTorso(pelvis)
		return
	}
	chain := []int{pelvis}
	for cur := pelvis; ; {
		best := -1
		for _, c := range l.kids[cur] {
			if best < 0 || l.subTop[c] > l.subTop[best] {
				best = c
			}
		}
		if best < 0 || l.subTop[best] <= l.pos[cur][1] {
			break
		}
		chain = append(chain, best)
		cur = best
	}
	head := -1
	for i, j := range chain {
		if i > 0 && l.named(j, "head") {
			head = i
			break
		}
	}
	chest := -1
	for i := 1; i < len(chain) && (head < 0 || i < head); i++ {
		if len(l.kids[chain[i]]) > 1 {
			chest = i
		}
	}
	switch {
	case chest >= 0 && head < 0:
		head = min(chest+2, len(chain)-1)
		if head == chest {
			head = -1
		}
	case chest < 0 && head > 0:
		chest = head - 1
	case chest < 0:
		chest = len(chain) - 1
	}
	if head >= 0 {
		chain = chain[:head+1]
	}
	l.Torsos = append(l.Torsos, Torso{Chain: chain, Chest: chest, Head: head})

	low := l.pos[pelvis][1] - legBelow*l.Height
	for i := 0; i <= chest; i++ {
		j := chain[i]
		for _, c := range l.kids[j] {
			if i+1 < len(chain) && c == chain[i+1] {
				continue
			}
			kind := OtherBranch
			switch {
			case l.lowest(c) < low:
				// A leg reaches well below the pelvis, whichever joint of
				// the lower spine it hangs from (a 3ds Max biped's thighs
				// hang from its spine).
				kind = LegBranch
			case i > 0 && i >= chest/2:
				kind = ArmBranch
			}
			l.addBranch(kind, j, c)
		}
	}
}

// isAbove reports whether a is b or one of its ancestors.
func (f *Figure) isAbove(a, b int) bool {
	for ; b >= 0; b = f.Parents[b] {
		if a == b {
			return true
		}
	}
	return false
}

// humanTorso lays out the human figure's trunk from pelvis (the hips or a
// body joint above them): down to the hips, up the spine to the head, the
// legs and arms where they leave it, and any other child as a branch.
func (l *layout) humanTorso(pelvis int) {
	f := l.f
	var chain []int
	for j := f.Hips; j != pelvis; j = f.Parents[j] {
		chain = append(chain, j)
	}
	chain = append(chain, pelvis)
	slices.Reverse(chain)
	chain = append(chain, f.Spine[1:]...)
	chest := slices.Index(chain, f.Chest)
	if chest < 0 {
		chest = len(chain) - 1
	}
	head := slices.Index(chain, f.Head)
	if head >= 0 {
		chain = chain[:head+1]
	}
	l.Torsos = append(l.Torsos, Torso{Chain: chain, Chest: chest, Head: head})
	for i := 0; i <= chest; i++ {
		j := chain[i]
		for _, c := range l.kids[j] {
			if i+1 < len(chain) && c == chain[i+1] {
				continue
			}
			limb, kind := l.limbFrom(c)
			if limb == nil {
				l.addBranch(OtherBranch, j, c)
				continue
			}
			l.addPath(Branch{Kind: kind, Base: j, Path: limb.Path, End: slices.Index(limb.Path, limb.End)})
		}
	}
}

// limbFrom is the figure's leg or arm whose first joint is c, or nil.
func (l *layout) limbFrom(c int) (*Limb, BranchKind) {
	for s := range l.f.Legs {
		if leg := &l.f.Legs[s]; len(leg.Path) > 0 && leg.Path[0] == c {
			return leg, LegBranch
		}
		if arm := &l.f.Arms[s]; len(arm.Path) > 0 && arm.Path[0] == c {
			return arm, ArmBranch
		}
	}
	return nil, OtherBranch
}

// lowest is the lowest y in j's subtree.
func (l *layout) lowest(j int) float32 {
	y := l.pos[j][1]
	for _, c := range l.kids[j] {
		y = min(y, l.lowest(c))
	}
	return y
}

// addBranch follows the longest path from first and finds its hand or
// foot (by name, else where the limb nearly ends).
func (l *layout) addBranch(kind BranchKind, base, first int) {
	path := []int{first}
	for cur := first; len(l.kids[cur]) > 0; {
		best := l.kids[cur][0]
		for _, c := range l.kids[cur][1:] {
			if l.subLen[c]+l.dist(c, cur) > l.subLen[best]+l.dist(best, cur) {
				best = c
			}
		}
		path = append(path, best)
		cur = best
	}
	b := Branch{Kind: kind, Base: base, Path: path, End: -1}
	switch kind {
	case LegBranch:
		b.End = l.extremity(path, footWords...)
	case ArmBranch:
		b.End = l.extremity(path, "hand", "wrist", "palm")
	}
	l.addPath(b)
}

// addPath adds branch b and, as branches of their own, the substantial
// side branches off its path before its hand or foot (those at or past it
// are inside it).
func (l *layout) addPath(b Branch) {
	l.Branches = append(l.Branches, b)
	path := b.Path
	total := float32(0)
	for k := 1; k < len(path); k++ {
		total += l.dist(path[k-1], path[k])
	}
	stop := len(path) - 1
	if b.End >= 0 {
		stop = b.End
	}
	for k := 0; k < stop; k++ {
		for _, c := range l.kids[path[k]] {
			if c == path[k+1] {
				continue
			}
			sub := OtherBranch
			if l.subLen[c]+l.dist(c, path[k]) > 0.5*total {
				sub = b.Kind
			}
			l.addBranch(sub, path[k], c)
		}
	}
}

// extremity is the index in path of the hand or foot: the first joint
// named so, else the first with less than extremityRest of the limb after
// it; -1 for a limb of no length.
func (l *layout) extremity(path []int, words ...string) int {
	for k := 1; k < len(path); k++ {
		if l.named(path[k], words...) {
			return k
		}
	}
	arc := make([]float32, len(path))
	for k := 1; k < len(path); k++ {
		arc[k] = arc[k-1] + l.dist(path[k-1], path[k])
	}
	total := arc[len(arc)-1]
	if total <= 0 {
		return -1
	}
	for k := 1; k < len(path); k++ {
		if total-arc[k] < extremityRest*total {
			return k
		}
	}
	return -1
}

// face sets Forward from the legs: the way their feet point.
func (l *layout) face() {
	var f mgl32.Vec3
	for _, b := range l.Branches {
		if b.Kind == LegBranch && b.End >= 0 && b.End+1 < len(b.Path) {
			d := l.pos[b.Path[b.End+1]].Sub(l.pos[b.Path[b.End]])
			d[1] = 0
			f = f.Add(d)
		}
	}
	if f.Len() > 1e-6*l.Height {
		l.Forward = f.Normalize()
	}
}
