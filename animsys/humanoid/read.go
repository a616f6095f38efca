package humanoid

import (
	"errors"

	"github.com/go-gl/mathgl/mgl32"
)

// Read reads any skeleton as a figure: a human one when its shape says so
// (see the package doc and Classify), else one laid out from the shape of
// its trunk; in both cases with the joints that are no part of the body
// (Ground). parents lists each joint's parent (-1 for roots, parents
// before children), names its names (nil or empty names for none), and
// frames a few posed frames of the figure's global joint positions
// standing on +Y (any unit; the more varied, the better: the clip's
// frames tell which limbs reach the ground), at least one. Ground is
// measured along the coordinate axis nearest the figure's up direction
// (Up) for a human figure, along +Y for any other. It returns an error
// only for input it cannot read: no frame, a parent after its child, a
// frame of another size.
func Read(parents []int, names []string, frames [][]mgl32.Vec3) (Figure, error) {
	t, err := readTree(parents, names, frames)
	if err != nil {
		return Figure{}, err
	}
	f, err := t.human(frames, mgl32.Vec3{0, 1, 0})
	return t.figure(f, err, frames), nil
}

func readTree(parents []int, names []string, frames [][]mgl32.Vec3) (*tree, error) {
	if len(frames) == 0 {
		return nil, errors.New("humanoid: no posed frame to measure")
	}
	return newTree(parents, names, frames)
}

// figure completes the reading f (err when not human) of frames.
func (t *tree) figure(f Figure, err error, frames [][]mgl32.Vec3) Figure {
	if err != nil {
		f = Figure{Hips: -1, Chest: -1, Head: -1, NotHuman: err.Error()}
		for s := range f.Legs {
			f.Legs[s], f.Arms[s] = Limb{Upper: -1, Mid: -1, End: -1, Tip: -1}, Limb{Upper: -1, Mid: -1, End: -1, Tip: -1}
		}
	} else {
		f.Human = true
	}
	f.Parents, f.Names = t.parents, t.given
	up := mgl32.Vec3{0, 1, 0}
	if f.Human {
		up = nearestAxis(f.Up(frames))
	}
	f.Ground = t.ground(frames, up, &f)
	if !f.Human {
		f.readTrunk(frames[0])
	}
	return f
}

// axes are the up directions Classify tries, BVH's own first.
var axes = [...]mgl32.Vec3{{0, 1, 0}, {0, 0, 1}, {1, 0, 0}, {0, -1, 0}, {0, 0, -1}, {-1, 0, 0}}

// Classify reads a skeleton as a human figure (Read) whose frames may
// stand along any of the six axes (a Z-up or a sideways file): the first
// axis, +Y, then +Z, +X and the negative ones, along which its shape
// reads as a human. It returns an error saying why the shape along +Y is
// no human's when it reads as one along none.
func Classify(parents []int, names []string, frames [][]mgl32.Vec3) (Figure, error) {
	t, err := readTree(parents, names, frames)
	if err != nil {
		return Figure{}, err
	}
	var first error
	for i, up := range axes {
		f, err := t.human(frames, up)
		if err == nil {
			return t.figure(f, nil, frames), nil
		}
		if i == 0 {
			first = err
		}
	}
	return Figure{}, first
}

// Fractions of the figure's height (its joints' extent along up) that
// tell ground joints: a root whose children all stand groundAbove above it
// is a ground-level root under the body; a joint below groundFloor over
// the lowest joint lies on the floor.
const (
	groundAbove = 0.25
	groundFloor = 0.15
)

// ground marks the joints that are no part of the body, as most frames
// show them: a root whose children all stand well above it (an "Entity"
// carrying root motion under the hips), and the chain of single children
// from a root lying on the floor until the chain rises (a second ground
// root under the first: a file's static root, however far from the hips);
// for a human figure also every joint above its hips that lies on the
// floor, and what hangs from those beside the body (a rig's IK controls
// and pole targets under its root).
func (t *tree) ground(frames [][]mgl32.Vec3, up mgl32.Vec3, f *Figure) []bool {
	n := len(t.parents)
	votes := make([]int, n)
	g := make([]bool, n)
	for _, fr := range frames {
		clear(g)
		t.groundIn(fr, up, g)
		for j, x := range g {
			if x {
				votes[j]++
			}
		}
	}
	out := make([]bool, n)
	for j := range out {
		out[j] = 2*votes[j] > len(frames)
	}
	if !f.Human {
		return out
	}
	for a := t.parents[f.Hips]; a >= 0; a = t.parents[a] {
		floor := 0
		for _, fr := range frames {
			lo, hi := extent(fr, up)
			if fr[a].Dot(up)-lo < groundFloor*(hi-lo) {
				floor++
			}
		}
		out[a] = out[a] || 2*floor > len(frames)
	}
	for below, a := f.Hips, t.parents[f.Hips]; a >= 0; below, a = a, t.parents[a] {
		if !out[a] {
			continue
		}
		for _, c := range t.kids[a] {
			if c != below {
				t.markAll(c, out)
			}
		}
	}
	// A carried foot hangs there too, but is the body's (Limb.Carried).
	for _, l := range f.Legs {
		if l.Carried(t.parents) {
			t.clearAll(l.End, out)
		}
	}
	return out
}

// clearAll unmarks joint j and every joint below it.
func (t *tree) clearAll(j int, marks []bool) {
	marks[j] = false
	for _, c := range t.kids[j] {
		t.clearAll(c, marks)
	}
}

// markAll marks joint j and every joint below it.
func (t *tree) markAll(j int, marks []bool) {
	marks[j] = true
	for _, c := range t.kids[j] {
		t.markAll(c, marks)
	}
}

// groundIn marks in g the ground joints of one frame (see ground).
func (t *tree) groundIn(fr []mgl32.Vec3, up mgl32.Vec3, g []bool) {
	lo, hi := extent(fr, up)
	h := hi - lo
	for j, p := range t.parents {
		if p >= 0 || len(t.kids[j]) == 0 {
			continue
		}
		far := true
		for _, c := range t.kids[j] {
			far = far && fr[c].Sub(fr[j]).Dot(up) > groundAbove*h
		}
		if far {
			g[j] = true
			continue
		}
		// A chain on the floor that leads up to the body is ground; one
		// that never rises (a figure lying down) is the body.
		var chain []int
		for k := j; ; k = t.kids[k][0] {
			if fr[k].Dot(up) > lo+groundFloor*h {
				for _, c := range chain {
					g[c] = true
				}
				break
			}
			if len(t.kids[k]) != 1 {
				break
			}
			chain = append(chain, k)
		}
	}
}

// nearestAxis is the signed coordinate axis nearest v. A capture's floor
// is square to one of its axes (bvh.Detect reads its up axis so), while
// the figure's own up leans as it does: along a runner's, 18 degrees
// forward, a static root on the floor 4 m from the hips (Bandai's
// joint_Root) stands 1.2 m above or below the feet.
func nearestAxis(v mgl32.Vec3) mgl32.Vec3 {
	k := 0
	for i := 1; i < 3; i++ {
		if max(v[i], -v[i]) > max(v[k], -v[k]) {
			k = i
		}
	}
	var a mgl32.Vec3
	a[k] = 1
	if v[k] < 0 {
		a[k] = -1
	}
	return a
}

// extent is the lowest and highest of the points along up.
func extent(fr []mgl32.Vec3, up mgl32.Vec3) (lo, hi float32) {
	for i, p := range fr {
		y := p.Dot(up)
		if i == 0 {
			lo, hi = y, y
		}
		lo, hi = min(lo, y), max(hi, y)
	}
	return lo, hi
}

// readTrunk fills a figure that is not human from the layout of a frame
// (Parts): the pelvis, spine, chest and head of its first trunk, and a leg
// or an arm wherever a branch's foot or hand is named with its side.
func (f *Figure) readTrunk(pos []mgl32.Vec3) {
	p := f.Parts(pos)
	if len(p.Torsos) > 0 {
		tr := p.Torsos[0]
		top := len(tr.Chain) - 1
		if tr.Head >= 0 {
			top = tr.Head
			f.Head = tr.Chain[tr.Head]
		}
		f.Hips, f.Chest, f.Spine = tr.Chain[0], tr.Chain[tr.Chest], tr.Chain[:top+1]
	}
	for _, b := range p.Branches {
		if b.Kind == OtherBranch || b.End < 1 {
			continue
		}
		end := b.Path[b.End]
		if end >= len(f.Names) {
			continue
		}
		s, ok := SideOf(f.Names[end])
		limbs := &f.Legs
		if b.Kind == ArmBranch {
			limbs = &f.Arms
		}
		if !ok || limbs[s].Upper >= 0 {
			continue
		}
		l := Limb{Path: b.Path, Upper: b.Base, Mid: b.Path[b.End-1], End: end, Tip: -1}
		if b.End >= 2 {
			l.Upper = b.Path[b.End-2]
		}
		if b.End+1 < len(b.Path) {
			l.Tip = b.Path[b.End+1]
		}
		limbs[s] = l
	}
}
