package humanoid_test

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/humanoid"
	"kinelab/internal/gltftest"
)

// walk is rig r's walk as the reader measures it: 48 posed frames.
func walk(r gltftest.Rig) (parents []int, names []string, frames [][]mgl32.Vec3) {
	sk, c := r.Skeleton(), r.Clip()
	frames, _ = humanoid.ClipFrames(&sk, &c, 48)
	return sk.Parents, sk.Names, frames
}

// standing turns frames so that what stands on +Y stands on up.
func standing(frames [][]mgl32.Vec3, up mgl32.Vec3) [][]mgl32.Vec3 {
	q := mgl32.QuatBetweenVectors(mgl32.Vec3{0, 1, 0}, up)
	if up[1] < -0.5 { // half a turn: about X, so forward stays along Z
		q = mgl32.QuatRotate(math.Pi, mgl32.Vec3{1, 0, 0})
	}
	out := make([][]mgl32.Vec3, len(frames))
	for i, fr := range frames {
		out[i] = make([]mgl32.Vec3, len(fr))
		for j, p := range fr {
			out[i][j] = q.Rotate(p)
		}
	}
	return out
}

var axes = []mgl32.Vec3{{0, 1, 0}, {0, 0, 1}, {1, 0, 0}, {0, -1, 0}, {0, 0, -1}, {-1, 0, 0}}

// checkRoles reports where figure f's feet, hands and head are not the
// joints rig r made for them (RigJoint.Role).
func checkRoles(t *testing.T, at string, r gltftest.Rig, f humanoid.Figure) {
	t.Helper()
	for s, sd := range []string{"L", "R"} {
		if got, want := f.Legs[s].End, r.Find("foot"+sd); got != want {
			t.Errorf("%s: %v foot %d, want %s", at, humanoid.Side(s), got, r.Joints[want].Name)
		}
		if got, want := f.Arms[s].End, r.Find("hand"+sd); got != want {
			t.Errorf("%s: %v hand %d, want %s", at, humanoid.Side(s), got, r.Joints[want].Name)
		}
	}
	// A head with nothing above it reads as the joint below it: which
	// leaf is an End Site, the tree does not say.
	head := r.Find("head")
	leaf := true
	for _, jt := range r.Joints {
		leaf = leaf && jt.Parent != head
	}
	if f.Head != head && !(leaf && f.Head == r.Joints[head].Parent) {
		t.Errorf("%s: head %d, want %s", at, f.Head, r.Joints[head].Name)
	}
}

// The shape decides, along whichever axis the frames stand: humans of any
// naming (Mixamo, Blender's Bone.NNN, a robot's numbered parts) read as
// humans with their feet, hands and head where the rig put them; four
// legged animals, whether their feet are named or their front legs are
// named as arms, read as none along every axis, and say why along +Y.
func TestShapeDecidesAlongAnyAxis(t *testing.T) {
	for _, r := range []gltftest.Rig{gltftest.MixamoRig(1.7), gltftest.BoneRig(1.7), gltftest.PartRobotRig(1.8)} {
		parents, names, frames := walk(r)
		for _, up := range axes {
			f, err := humanoid.Classify(parents, names, standing(frames, up))
			if err != nil {
				t.Errorf("%s standing on %v: %v", r.Name, up, err)
				continue
			}
			checkRoles(t, r.Name, r, f)
			if d := f.Up(standing(frames, up)).Dot(up); d < 0.9 {
				t.Errorf("%s standing on %v: up %v", r.Name, up, f.Up(standing(frames, up)))
			}
		}
	}
	for _, r := range []gltftest.Rig{gltftest.QuadrupedRig(71), gltftest.ArmedQuadrupedRig(100)} {
		parents, names, frames := walk(r)
		for _, up := range axes {
			_, err := humanoid.Classify(parents, names, standing(frames, up))
			if err == nil {
				t.Errorf("%s standing on %v: read as a human", r.Name, up)
				continue
			}
			if want := "4 limbs reach the ground ("; !strings.HasPrefix(err.Error(), want) && up[1] > 0 {
				t.Errorf("%s: %q, want it to begin %q", r.Name, err, want)
			}
		}
	}
}

// Names only label what the shape found: a human whose feet are named as
// hands and hands as feet still has its legs on the ground and its arms
// on its spine, the feet and hands then found by the bones' lengths.
func TestNamesOnlyLabel(t *testing.T) {
	r := gltftest.MixamoRig(1.7)
	swap := map[string]string{"Hand": "Foot", "Foot": "Hand"}
	for j, jt := range r.Joints {
		for from, to := range swap {
			if strings.HasSuffix(jt.Name, from) {
				r.Joints[j].Name = strings.TrimSuffix(jt.Name, from) + to
			}
		}
	}
	parents, names, frames := walk(r)
	f, err := humanoid.Read(parents, names, frames)
	if err != nil || !f.Human {
		t.Fatalf("%v: %s", err, f.NotHuman)
	}
	checkRoles(t, "swapped names", r, f)
	if f.ByName {
		t.Error("feet and hands read by their (wrong) names")
	}
}

// Two limbs on the ground are no human's legs without a spine standing on
// them, two arms on it and the head above the shoulders: a human bent
// level from the hips (a bird, a biped dinosaur), and a walker with no
// arms, each says which.
func TestTwoLegsNoHuman(t *testing.T) {
	bent := gltftest.MixamoRig(1.7)
	hips := bent.Joints[0].Pos
	q := mgl32.QuatRotate(80*math.Pi/180, mgl32.Vec3{1, 0, 0}) // forward, about the side axis
	var above func(j int) bool
	above = func(j int) bool {
		p := bent.Joints[j].Parent
		return p >= 0 && (strings.HasSuffix(bent.Joints[j].Name, ":Spine") || above(p))
	}
	for j := range bent.Joints {
		if above(j) {
			bent.Joints[j].Pos = hips.Add(q.Rotate(bent.Joints[j].Pos.Sub(hips)))
		}
	}
	armless := gltftest.MixamoRig(1.7)
	var keep []gltftest.RigJoint
	at := map[int]int{}
	for j, jt := range armless.Joints {
		if strings.Contains(jt.Name, "Arm") || strings.Contains(jt.Name, "Hand") || strings.Contains(jt.Name, "Shoulder") {
			continue
		}
		if jt.Parent >= 0 {
			jt.Parent = at[jt.Parent]
		}
		at[j] = len(keep)
		keep = append(keep, jt)
	}
	armless.Joints = keep
	for _, c := range []struct {
		rig  gltftest.Rig
		want string
	}{
		{bent, "2 limbs reach the ground (mixamorig:LeftFoot, mixamorig:RightFoot); the spine lies level with the ground ("},
		{armless, "2 limbs reach the ground (mixamorig:LeftFoot, mixamorig:RightFoot); no two arms hang from the spine above them"},
	} {
		parents, names, frames := walk(c.rig)
		f, err := humanoid.Read(parents, names, frames)
		if err != nil || f.Human || !strings.HasPrefix(f.NotHuman, c.want) {
			t.Errorf("%v: human %v for %q, want it to begin %q", err, f.Human, f.NotHuman, c.want)
		}
	}
}

// crouched is frame fr of rig r crouched: every joint at half its height,
// and the hands and what hangs from them on the floor in front.
func crouched(r gltftest.Rig, fr []mgl32.Vec3) []mgl32.Vec3 {
	out := make([]mgl32.Vec3, len(fr))
	inHand := make([]bool, len(fr))
	for j, jt := range r.Joints {
		inHand[j] = strings.HasPrefix(jt.Role, "hand") || jt.Parent >= 0 && inHand[jt.Parent]
		out[j] = mgl32.Vec3{fr[j][0], 0.5 * fr[j][1], fr[j][2]}
		if inHand[j] {
			out[j] = mgl32.Vec3{fr[j][0], 0.01, fr[j][2] + 0.3}
		}
	}
	return out
}

// A capture that crouches with its hands on the floor in some frames
// (here a quarter) reads as the human the frames it stands in show: the
// standing frames decide. Read on every frame, its wrists reached the
// ground ("4 limbs reach the ground (LeftWrist, ...)"). And a human whose
// hands hang to the floor as it walks (a long-armed robot's fingers, in a
// third of the frames) still stands on its two legs: arms hanging from a
// joint well above the legs' are no legs.
func TestStandingFramesDecide(t *testing.T) {
	r := gltftest.MixamoRig(1.7)
	parents, names, frames := walk(r)
	for i := range frames {
		if i%4 == 3 {
			frames[i] = crouched(r, frames[i])
		}
	}
	f, err := humanoid.Read(parents, names, frames)
	if err != nil || !f.Human {
		t.Fatalf("crouching in a quarter of its frames: %v, %s", err, f.NotHuman)
	}
	checkRoles(t, "crouching", r, f)

	_, _, frames = walk(r)
	for i := range frames {
		if i%3 != 0 {
			continue
		}
		for j, jt := range r.Joints {
			if strings.HasPrefix(jt.Role, "hand") || jt.Parent >= 0 && strings.HasPrefix(r.Joints[jt.Parent].Role, "hand") {
				frames[i][j][1] = 0.02 // the hand and its finger on the floor, the arm stretched to it
			}
		}
	}
	f, err = humanoid.Read(parents, names, frames)
	if err != nil || !f.Human {
		t.Fatalf("hands at the floor in a third of its frames: %v, %s", err, f.NotHuman)
	}
	checkRoles(t, "long arms", r, f)
}
