package app

import (
	"fmt"
	"testing"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

// handySkeleton is a standing figure of 73 joints, 1.75 m tall, in the
// shape of a finger-tracked capture: hips, a spine of four, neck and head,
// arms with twist joints and five fingers of four joints, legs with a
// twist joint and toes.
func handySkeleton() (*animsys.Skeleton, []mgl32.Vec3) {
	sk := &animsys.Skeleton{}
	var pos []mgl32.Vec3
	add := func(name string, parent int, p mgl32.Vec3) int {
		sk.Names = append(sk.Names, name)
		sk.Parents = append(sk.Parents, parent)
		pos = append(pos, p)
		return len(pos) - 1
	}
	root := add("Root", -1, mgl32.Vec3{})
	j := add("Hips", root, mgl32.Vec3{0, 0.95, 0})
	for k := 1; k <= 4; k++ {
		j = add(fmt.Sprintf("Spine%d", k), j, mgl32.Vec3{0, 0.95 + 0.1*float32(k), 0})
	}
	chest := j
	head := add("Head", add("Neck", chest, mgl32.Vec3{0, 1.5, 0}), mgl32.Vec3{0, 1.6, 0})
	add("HeadEnd", head, mgl32.Vec3{0, 1.75, 0})
	for _, side := range []struct {
		name string
		x    float32
	}{{"Left", 1}, {"Right", -1}} {
		s := side.x
		j := add(side.name+"Shoulder", chest, mgl32.Vec3{0.08 * s, 1.42, 0})
		j = add(side.name+"Arm", j, mgl32.Vec3{0.18 * s, 1.4, 0})
		add(side.name+"ArmRoll", j, mgl32.Vec3{0.2 * s, 1.26, 0})
		j = add(side.name+"ForeArm", j, mgl32.Vec3{0.22 * s, 1.12, 0})
		add(side.name+"ForeArmRoll", j, mgl32.Vec3{0.235 * s, 0.99, 0})
		hand := add(side.name+"Hand", j, mgl32.Vec3{0.25 * s, 0.86, 0})
		for f, finger := range []string{"Thumb", "Index", "Middle", "Ring", "Pinky"} {
			j := hand
			for k := 1; k <= 4; k++ {
				j = add(fmt.Sprintf("%sHand%s%d", side.name, finger, k), j,
					mgl32.Vec3{(0.25 + 0.008*float32(f)) * s, 0.86 - 0.022*float32(k), 0.02 * float32(f-2)})
			}
		}
		j = add(side.name+"UpLeg", 1, mgl32.Vec3{0.1 * s, 0.92, 0})
		add(side.name+"UpLegRoll", j, mgl32.Vec3{0.1 * s, 0.71, 0})
		j = add(side.name+"Leg", j, mgl32.Vec3{0.1 * s, 0.5, 0})
		j = add(side.name+"Foot", j, mgl32.Vec3{0.1 * s, 0.08, 0})
		j = add(side.name+"ToeBase", j, mgl32.Vec3{0.1 * s, 0.02, 0.12})
		add(side.name+"ToeEnd", j, mgl32.Vec3{0.1 * s, 0.02, 0.18})
	}
	sk.Offsets = make([]mgl32.Vec3, len(pos))
	return sk, pos
}

// The joint labels of a 73-joint skeleton, all asked for, are readable:
// no two overlap, the picked and the hovered joints are always labelled,
// and the picked joint's chain comes before the rest — where every label
// at its first spot would be a smear.
func TestJointLabelsDeclutter(t *testing.T) {
	sk, pos := handySkeleton()
	if sk.Len() != 73 {
		t.Fatalf("the test skeleton has %d joints, want 73", sk.Len())
	}
	cam := DefaultCamera()
	sc := labelScene{
		sk:    sk,
		pos:   pos,
		v:     View{Camera: cam.Raylib(), Width: 1280, Height: 720, LabelJoints: true},
		width: func(s string) float32 { return 7.5 * float32(len(s)) }, // about SmallText's
		index: map[string]int{},
	}
	for i, n := range sk.Names {
		sc.index[n] = i
	}

	// Without decluttering: each label at its first spot.
	smear := sc.firstSpotOverlaps()
	t.Logf("every label at its first spot: %d of %d overlap one before them", smear, sk.Len()-1)
	if smear < sk.Len()/2 {
		t.Fatalf("only %d of %d labels at their first spot overlap another: the test scene is no smear", smear, sk.Len()-1)
	}

	for _, c := range []labelCase{
		{"LeftHandIndex2", ""},
		{"RightForeArm", "RightHand"},
		{"Spine2", "Spine3"},
		{"", "LeftHandThumb1"},
		{"LeftHandMiddle3", "LeftHandMiddle3"},
	} {
		sc.checkDeclutter(t, c)
	}

	sc.checkBesidePlot(t)

	// Not asked for: only the picked and the hovered.
	v, index := &sc.v, sc.index
	v.LabelJoints = false
	labels := v.jointLabels(sk, pos, mgl32.Vec3{}, index["Head"], index["LeftHand"], sc.width)
	if len(labels) != 2 || labels[0].joint != index["LeftHand"] || labels[1].joint != index["Head"] {
		t.Errorf("labels not asked for: got %v, want the hovered LeftHand then the picked Head", labels)
	}
}

// labelScene is the scene of TestJointLabelsDeclutter: the skeleton and
// its joints' positions, the view, the joints by name and the labels'
// width.
type labelScene struct {
	sk    *animsys.Skeleton
	pos   []mgl32.Vec3
	v     View
	index map[string]int
	width func(string) float32
}

// labelCase names the picked and the hovered joint ("" for none).
type labelCase struct{ picked, hover string }

// firstSpotOverlaps counts the labels that, each at its first spot,
// overlap one placed before them.
func (sc *labelScene) firstSpotOverlaps() int {
	smear := 0
	var first []rl.Rectangle
	for i := 1; i < sc.sk.Len(); i++ {
		s := sc.v.Project(sc.pos[i])
		r := rl.Rectangle{X: s.X + 8, Y: s.Y - 17, Width: sc.width(sc.sk.Names[i]), Height: 15}
		for _, f := range first {
			if rl.CheckCollisionRecs(r, f) {
				smear++
				break
			}
		}
		first = append(first, r)
	}
	return smear
}

// checkDeclutter checks the labels with c's joints picked and hovered:
// none overlap, both joints are labelled, a readable dozen or more but
// not all are, and the picked joint's chain comes first.
func (sc *labelScene) checkDeclutter(t *testing.T, c labelCase) {
	t.Helper()
	sk, index := sc.sk, sc.index
	picked, hover := -1, -1
	if c.picked != "" {
		picked = index[c.picked]
	}
	if c.hover != "" {
		hover = index[c.hover]
	}
	labels := sc.v.jointLabels(sk, sc.pos, mgl32.Vec3{}, picked, hover, sc.width)
	at := map[int]int{}
	for k, l := range labels {
		at[l.joint] = k
		for _, m := range labels[:k] {
			if rl.CheckCollisionRecs(l.rect, m.rect) {
				t.Errorf("picked %s, hovered %s: the labels of %s %v and %s %v overlap",
					c.picked, c.hover, sk.Names[l.joint], l.rect, sk.Names[m.joint], m.rect)
			}
		}
	}
	for _, must := range []int{picked, hover} {
		if _, ok := at[must]; must > 0 && !ok {
			t.Errorf("picked %s, hovered %s: %s is not labelled", c.picked, c.hover, sk.Names[must])
		}
	}
	t.Logf("picked %s, hovered %s: %d of %d joints labelled", c.picked, c.hover, len(labels), sk.Len()-1)
	if len(labels) < 12 || len(labels) >= sk.Len()-1 {
		t.Errorf("picked %s, hovered %s: %d of %d joints labelled, want a readable dozen or more but not all",
			c.picked, c.hover, len(labels), sk.Len()-1)
	}
	if picked > 0 {
		sc.checkChainFirst(t, c, labels, picked, hover)
	}
}

// checkChainFirst checks that the chain of the picked joint (its
// ancestors, and the path down while it does not branch) is placed
// before any joint off it.
func (sc *labelScene) checkChainFirst(t *testing.T, c labelCase, labels []jointLabel, picked, hover int) {
	t.Helper()
	sk := sc.sk
	chain := map[int]bool{picked: true, hover: true}
	for i := sk.Parents[picked]; i > 0; i = sk.Parents[i] {
		chain[i] = true
	}
	for i := picked; ; {
		var kids []int
		for k, p := range sk.Parents {
			if p == i {
				kids = append(kids, k)
			}
		}
		if len(kids) != 1 {
			break
		}
		i = kids[0]
		chain[i] = true
	}
	off := false
	for _, l := range labels {
		if !chain[l.joint] {
			off = true
		} else if off {
			t.Errorf("picked %s: %s of its chain is labelled after joints off it", c.picked, sk.Names[l.joint])
		}
	}
	if n := len(chain); c.picked == "LeftHandIndex2" && n < 8 {
		t.Errorf("picked %s: a chain of %d joints, want the hand's path to the root and the finger's end", c.picked, n)
	}
}

// checkBesidePlot: with a plot over the right half of the scene, only
// the hovered and picked labels may lie on it, and fewer labels fit.
func (sc *labelScene) checkBesidePlot(t *testing.T) {
	t.Helper()
	sk, pos, v, index, width := sc.sk, sc.pos, &sc.v, sc.index, sc.width
	free := v.jointLabels(sk, pos, mgl32.Vec3{}, -1, index["LeftHand"], width)
	plot := rl.Rectangle{X: v.Area.X + v.Area.Width/2, Y: v.Area.Y, Width: v.Area.Width / 2, Height: v.Area.Height}
	if plot.Width <= 0 {
		plot = rl.Rectangle{X: float32(v.Width) / 2, Width: float32(v.Width) / 2, Height: float32(v.Height)}
	}
	covered := v.jointLabels(sk, pos, mgl32.Vec3{}, -1, index["LeftHand"], width, plot)
	for k, l := range covered {
		if k > 0 && rl.CheckCollisionRecs(l.rect, plot) {
			t.Errorf("the label of %s %v lies on the plot %v", sk.Names[l.joint], l.rect, plot)
		}
	}
	if len(covered) >= len(free) || len(covered) < 3 {
		t.Errorf("%d labels beside a plot over half the scene, %d without it", len(covered), len(free))
	}
}
