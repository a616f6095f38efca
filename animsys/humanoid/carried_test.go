package humanoid_test

import (
	"math"
	"os"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/character"
	"kinelab/animsys/humanoid"
	"kinelab/internal/gltftest"
)

// carriedRobot is IKRobotRig's walk with each foot control moved, in
// every frame, to where a rig's IK keeps it: at a fixed offset in its
// knee's frame (the design pose's, from the knee down to the control),
// so it stands under the knee as the leg swings. With longArms each claw
// hangs to the floor too (a long-armed robot's fingers trailing), beside
// its palm.
func carriedRobot(longArms bool) (parents []int, names []string, frames [][]mgl32.Vec3, rots [][]mgl32.Quat, r gltftest.Rig) {
	r = gltftest.IKRobotRig(1.8, false)
	sk, c := r.Skeleton(), r.Clip()
	pos, rot := humanoid.ClipFrames(&sk, &c, 48)
	for _, sd := range []string{"L", "R"} {
		knee, foot := slices.Index(sk.Names, "LowerLeg."+sd), slices.Index(sk.Names, "Foot."+sd)
		palm, claw := slices.Index(sk.Names, "Palm."+sd), slices.Index(sk.Names, "Finger."+sd)
		off := r.Joints[foot].Pos.Sub(r.Joints[knee].Pos)
		for i := range pos {
			pos[i][foot] = pos[i][knee].Add(rot[i][knee].Rotate(off))
			if longArms {
				pos[i][claw] = mgl32.Vec3{pos[i][palm][0], 0.04, pos[i][palm][2]}
			}
		}
	}
	return sk.Parents, sk.Names, pos, rot, r
}

// A rig whose legs end at the knee, each foot a control under a root on
// the floor that its IK keeps at the end of the shin (Quaternius's
// robot.glb), reads as a human whose feet are those controls, carried by
// the knees: the thigh from the hip, the shin from the knee to the foot,
// no part of it Ground, its pole targets and root still Ground. Its arms
// may reach the ground as well: the legs are the two limbs on the ground
// that meet where the spine rises; the claws on the floor, leaving the
// spine above, are the arms'. A control left on the floor while the
// knee swings (IKRobotRig's own walk) carries no foot: TestRigStyles in
// package character reads that one as no human.
func TestCarriedFeet(t *testing.T) {
	for _, long := range []bool{false, true} {
		parents, names, frames, rots, r := carriedRobot(long)
		f, err := humanoid.Read(parents, names, frames)
		if err != nil || !f.Human {
			t.Fatalf("long arms %v: %v: not human: %s", long, err, f.NotHuman)
		}
		for s, sd := range []string{"L", "R"} {
			leg := f.Legs[s]
			at := func(n string) int { return slices.Index(names, n+"."+sd) }
			want := humanoid.Limb{Upper: at("UpperLeg"), Mid: at("LowerLeg"), End: at("Foot"), Tip: -1}
			if leg.Upper != want.Upper || leg.Mid != want.Mid || leg.End != want.End || leg.Tip != -1 || !leg.Carried(parents) {
				t.Errorf("long arms %v: %v leg %+v, want %+v, carried", long, humanoid.Side(s), leg, want)
			}
			if got, want := f.Arms[s].End, r.Find("hand"+sd); got != want {
				t.Errorf("long arms %v: %v hand %d, want %d", long, humanoid.Side(s), got, want)
			}
		}
		// The bind pose straightens the legs with their carried feet:
		// each foot under its knee, the shin's length kept.
		bp, _ := f.BindPose(parents, frames[0], rots[0])
		for s := range f.Legs {
			l := f.Legs[s]
			shin, was := bp[l.End].Sub(bp[l.Mid]), frames[0][l.End].Sub(frames[0][l.Mid]).Len()
			if d := shin.Normalize()[1]; d > -0.95 || math.Abs(float64(shin.Len()-was)) > 1e-4 {
				t.Errorf("long arms %v: %v shin in the bind pose %v (was %g long), want straight down", long, humanoid.Side(s), shin, was)
			}
		}
		var ground []string
		for j, g := range f.Ground {
			if g {
				ground = append(ground, names[j])
			}
		}
		if want := []string{"Bone", "PoleTarget.L", "PoleTarget.R"}; !slices.Equal(ground, want) {
			t.Errorf("long arms %v: ground %q, want %q", long, ground, want)
		}
	}
}

// robot.glb (../shared/gltf) reads as the human it is: legs from the
// body to the knees, the feet under its root bone carried by them, the
// hands its palms, though its long arms trail its fingers within a
// tenth of its height of the floor at a walk.
func TestRobotGLB(t *testing.T) {
	const path = "../../../shared/gltf/robot.glb"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no %s: %v", path, err)
	}
	ch, err := character.LoadGLTF(path)
	if err != nil {
		t.Fatal(err)
	}
	f := ch.Figure
	if !f.Human {
		t.Fatalf("robot.glb: not human: %s", f.NotHuman)
	}
	name := func(j int) string {
		if j < 0 {
			return "(none)"
		}
		return f.Names[j]
	}
	for s, sd := range []string{"L", "R"} {
		leg, arm := f.Legs[s], f.Arms[s]
		got := []string{name(leg.Upper), name(leg.Mid), name(leg.End), name(arm.End)}
		want := []string{"UpperLeg." + sd, "LowerLeg." + sd, "Foot." + sd, "Palm2." + sd}
		if !slices.Equal(got, want) || !leg.Carried(f.Parents) {
			t.Errorf("%v: leg and hand %q, want %q, the foot carried", humanoid.Side(s), got, want)
		}
	}
	if name(f.Hips) != "Body" || name(f.Head) != "Head" || name(f.Chest) != "Torso" {
		t.Errorf("hips %s, chest %s, head %s; want Body, Torso, Head", name(f.Hips), name(f.Chest), name(f.Head))
	}
	for _, s := range ch.Legs {
		if s.Root >= 0 {
			t.Errorf("two-bone chain %+v on a leg whose foot no knee holds in the tree", s)
		}
	}
}
