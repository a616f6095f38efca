package velocities

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kinelab/animsys/character"
	"kinelab/app"
	"kinelab/internal/gltftest"
)

// loadRig writes rig r as glTF and loads it.
func loadRig(t *testing.T, r gltftest.Rig) *character.Character {
	t.Helper()
	path := filepath.Join(t.TempDir(), r.Name+".gltf")
	if err := gltftest.WriteRig(path, r, gltftest.Options{}); err != nil {
		t.Fatal(err)
	}
	ch, err := character.LoadGLTF(path)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// On a figure that is no human — a four-legged animal whose feet are
// named, so it has a "leg" to bend; one whose front legs are named as
// arms (UpperArm, ForeArm, Hand), so names alone read a human — look-at
// and IK switched on change nothing: the pose is the one with them off, tick for tick, and
// the reason given is the shape's; so on a robot whose feet are IK
// controls left on the floor beside its legs (robot.glb's own controls
// follow its knees, and it reads as human). On a human they do change it
// (the test could fail). Linear velocities are labelled in the file's
// units when they are no metres.
func TestNoIKOnNonHuman(t *testing.T) {
	for _, c := range []struct {
		rig   gltftest.Rig
		human bool
		unit  string
		why   string // what the reason begins with
	}{
		{gltftest.QuadrupedRig(71), false, "units/s", "not read as a human figure: 4 limbs reach the ground ("},
		{gltftest.ArmedQuadrupedRig(100), false, "units/s", "not read as a human figure: 4 limbs reach the ground (b_RightHand_08"},
		{gltftest.IKRobotRig(1.8, false), false, "m/s", "not read as a human figure: no limb of the body reaches the ground"},
		{gltftest.MixamoRig(1.7), true, "m/s", ""},
	} {
		ch := loadRig(t, c.rig)
		if (ch.NotHuman() == "") != c.human || !strings.HasPrefix(ch.NotHuman(), c.why) {
			t.Fatalf("%s: NotHuman %q, want human %v or a reason beginning %q", c.rig.Name, ch.NotHuman(), c.human, c.why)
		}
		on, off := newLab(ch), newLab(ch)
		on.S.LookAt, on.S.IK = true, true
		moved := false
		for i := range 120 {
			on.Update(1.0 / 60)
			off.Update(1.0 / 60)
			for j := range on.global.Pos {
				if on.global.Pos[j] != off.global.Pos[j] {
					if !c.human {
						t.Fatalf("%s, tick %d: joint %s moved by look-at or IK", c.rig.Name, i, ch.Skel.Names[j])
					}
					moved = true
				}
			}
		}
		if c.human && !moved {
			t.Errorf("%s: look-at and IK moved no joint of a human", c.rig.Name)
		}
		if u := on.unit(0); u != c.unit || !strings.HasSuffix(on.CSVHeader()[11], c.unit) {
			t.Errorf("%s: linear velocities in %q (CSV %q), want %q", c.rig.Name, u, on.CSVHeader()[11], c.unit)
		}
	}
}

// The CSV's look_at and ik columns say what acted on the pose: on a
// figure that is no human, with both switched on, false (they said true,
// the switches); on a human, true once switched on, the leg's IK and the
// arm's.
func TestCSVSaysWhatRan(t *testing.T) {
	for _, c := range []struct {
		rig      gltftest.Rig
		chain    int32 // 0 the leg, 1 the arm
		look, ik bool
	}{
		{gltftest.QuadrupedRig(71), 0, false, false},
		{gltftest.MixamoRig(1.7), 0, true, true},
		{gltftest.MixamoRig(1.7), 1, true, true},
		{gltftest.IKRobotRig(1.8, false), 0, false, false},
	} {
		l := newLab(loadRig(t, c.rig))
		head := l.CSVHeader()
		col := func(name string) int { return slices.Index(head, name) }
		l.S.LookAt, l.S.IK, l.S.IKChain = true, true, c.chain
		for range 30 {
			l.Update(1.0 / 60)
		}
		row := l.CSVRows(nil)[0]
		if got, want := row[col("look_at")], app.CSVBool(c.look); got != want {
			t.Errorf("%s: look_at %s, want %s", c.rig.Name, got, want)
		}
		if got, want := row[col("ik")], app.CSVBool(c.ik); got != want {
			t.Errorf("%s, chain %d: ik %s, want %s", c.rig.Name, c.chain, got, want)
		}
	}
}
