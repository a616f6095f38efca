package character_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kinelab/animsys/character"
	"kinelab/animsys/humanoid"
	"kinelab/internal/gltftest"
	"kinelab/internal/mocap"
)

// rigCase is a generated rig written as glTF and what reading it must
// find: a human, or the facts a figure that is none is refused for.
type rigCase struct {
	name     string
	rig      gltftest.Rig
	opt      gltftest.Options
	human    bool
	notHuman []string // what the reason must say, in order
	ground   []string // a human's joints that are no part of its body (Figure.Ground), but the Entity
	// knees names, for a human whose legs end at their knees (their feet
	// IK bones under the root), the left and right knee: the legs' End,
	// with no two-bone chain (Upper and Mid -1).
	knees [2]string
}

func rigCases() []rigCase {
	return []rigCase{
		{name: "cesium", rig: gltftest.CesiumRig(1.7, ""), opt: gltftest.Options{ZUp: true}, human: true},
		{name: "cesium-blender", rig: gltftest.CesiumRig(1.7, ".001"), opt: gltftest.Options{ZUp: true, Scale: 0.01}, human: true},
		{name: "mixamo", rig: gltftest.MixamoRig(1.7), opt: gltftest.Options{Scale: 0.01}, human: true},
		{name: "bones", rig: gltftest.BoneRig(1.7), opt: gltftest.Options{ZUp: true}, human: true},
		{name: "cesium-unnamed", rig: unnamed(gltftest.CesiumRig(1.7, "")), human: true},
		{name: "small", rig: gltftest.MixamoRig(0.5), human: true},
		{name: "giant", rig: gltftest.MixamoRig(50), human: true},
		{name: "part-robot", rig: gltftest.PartRobotRig(1.8), human: true},
		{name: "ik-robot-ankles", rig: gltftest.IKRobotRig(1.8, true), human: true,
			ground: []string{"Bone", "Foot.L", "PoleTarget.L", "Foot.R", "PoleTarget.R"}},
		{name: "quadruped", rig: gltftest.QuadrupedRig(71),
			notHuman: []string{"4 limbs reach the ground (", "); the spine lies level with the ground ("}},
		{name: "armed-quadruped", rig: gltftest.ArmedQuadrupedRig(100),
			notHuman: []string{"4 limbs reach the ground (", "b_LeftHand_", "b_LeftFoot01_", "); the spine lies level with the ground ("}},
		// robot.glb's rig with its IK controls left on the floor while the
		// knees swing: a control that does not follow a knee is no foot
		// (robot.glb's own controls do, and it reads as human:
		// TestRobotReadsAsHuman, humanoid's TestRobotGLB).
		{name: "ik-robot", rig: gltftest.IKRobotRig(1.8, false),
			notHuman: []string{"no limb of the body reaches the ground; its lowest joints (LowerLeg.L and LowerLeg.R) stay ",
				"% of its height above the ground; Foot.L and Foot.R, on the ground, hang from Bone, at the ground's level, not from the body"}},
	}
}

// unnamed is rig r with its joints named "Bone", "Bone.001", ...: only its
// shape tells its parts.
func unnamed(r gltftest.Rig) gltftest.Rig {
	r.Joints = append([]gltftest.RigJoint(nil), r.Joints...)
	for j := range r.Joints {
		r.Joints[j].Name = "Bone"
		if j > 0 {
			r.Joints[j].Name = fmt.Sprintf("Bone.%03d", j)
		}
	}
	return r
}

// Each rig style reads as it should: the human ones as humans whose feet,
// hands and head are the joints the rig made for them (RigJoint.Role,
// whatever their names say), left on the left (+X in the design), with
// what hangs beside the body from a root on the floor no part of it; the
// others as no human, for the facts of their shape.
func TestRigStyles(t *testing.T) {
	dir := t.TempDir()
	for _, c := range rigCases() {
		path := filepath.Join(dir, c.name+".gltf")
		if err := gltftest.WriteRig(path, c.rig, c.opt); err != nil {
			t.Fatal(err)
		}
		ch, err := character.LoadGLTF(path)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		f := ch.Figure
		if f.Human != c.human {
			t.Errorf("%s: human %v (%s), want %v", c.name, f.Human, f.NotHuman, c.human)
			continue
		}
		if !c.human {
			at := 0
			for _, want := range c.notHuman {
				i := strings.Index(f.NotHuman[at:], want)
				if i < 0 {
					t.Errorf("%s: not human for %q, want it to say %q (after %q)", c.name, f.NotHuman, want, f.NotHuman[:at])
					break
				}
				at += i + len(want)
			}
			if ch.NotHuman() != "not read as a human figure: "+f.NotHuman || !slices.Contains(ch.Notes, ch.NotHuman()) {
				t.Errorf("%s: NotHuman %q, notes %q", c.name, ch.NotHuman(), ch.Notes)
			}
			continue
		}
		// The file's joints are the rig's after gltf.Open's Entity.
		name := func(j int) string {
			if j < 1 {
				return "(none)"
			}
			return c.rig.Joints[j-1].Name
		}
		for s, sd := range []string{"L", "R"} {
			for _, l := range []struct {
				part string
				limb humanoid.Limb
			}{{"foot", f.Legs[s]}, {"hand", f.Arms[s]}} {
				if l.part == "foot" && c.knees[s] != "" {
					if name(l.limb.End) != c.knees[s] || l.limb.Upper != -1 || l.limb.Mid != -1 {
						t.Errorf("%s: %s leg %+v, want it to end at %s with no two-bone chain", c.name, humanoid.Side(s), l.limb, c.knees[s])
					}
					continue
				}
				want := c.rig.Find(l.part+sd) + 1
				if l.limb.End != want || l.limb.Upper < 1 || l.limb.Mid < 1 {
					t.Errorf("%s: %s %s is %s (a chain %+v), want %s", c.name, humanoid.Side(s), l.part, name(l.limb.End), l.limb, name(want))
				}
			}
		}
		// A head with nothing above it reads as the joint below it: which
		// leaf is an End Site, the tree does not say.
		head := c.rig.Find("head") + 1
		if f.Head != head && !(f.Head == c.rig.Joints[head-1].Parent+1 && !hasChild(c.rig, head-1)) {
			t.Errorf("%s: head %s, want %s", c.name, name(f.Head), name(head))
		}
		if ch.NotHuman() != "" {
			t.Errorf("%s: a human with NotHuman %q", c.name, ch.NotHuman())
		}
		// The IK controls and pole targets under a root on the floor
		// are no part of the body: never dressed, drawn as markers.
		var ground []string
		for j := 1; j < len(f.Ground); j++ {
			if f.Ground[j] {
				ground = append(ground, name(j))
			}
		}
		if !slices.Equal(ground, c.ground) {
			t.Errorf("%s: joints no part of the body %q, want %q", c.name, ground, c.ground)
		}
	}
}

func hasChild(r gltftest.Rig, j int) bool {
	for _, jt := range r.Joints {
		if jt.Parent == j {
			return true
		}
	}
	return false
}

// The humanoid robot of ../shared/gltf (robot.glb: legs ending at the
// knee, feet IK bones under the root "Bone", arms reaching nearly to the
// floor) reads as a human on its start clip, by its names and with every
// name taken away (glTF nodes may have none): its legs end at the IK
// controls its knees carry (Limb.Carried), its hands at the palms. It read as no human
// ("1 limb reaches the ground (Palm3.R)", and unnamed "no two arms hang
// from the spine above them").
func TestRobotReadsAsHuman(t *testing.T) {
	var robot string
	for _, p := range mocap.NeedGLTF(t) {
		if filepath.Base(p) == "robot.glb" {
			robot = p
		}
	}
	if robot == "" {
		t.Skip("SKIPPED: no robot.glb in ../shared/gltf")
	}
	b, err := os.ReadFile(robot)
	if err != nil {
		t.Fatal(err)
	}
	unnamed := filepath.Join(t.TempDir(), "unnamed.glb")
	if err := os.WriteFile(unnamed, glbWithoutNames(t, b), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{robot, unnamed} {
		ch, err := character.LoadGLTF(path)
		if err != nil {
			t.Fatal(err)
		}
		f := ch.Figure
		if !f.Human {
			t.Errorf("%s: not human: %s", path, f.NotHuman)
			continue
		}
		// The joints by the file's names, whatever the copy read calls them.
		real, err := character.LoadGLTF(robot)
		if err != nil {
			t.Fatal(err)
		}
		nm := func(j int) string {
			if j < 0 {
				return "(none)"
			}
			return real.Skel.Names[j]
		}
		got := []string{nm(f.Hips), nm(f.Chest), nm(f.Legs[0].End), nm(f.Legs[1].End), nm(f.Arms[0].End), nm(f.Arms[1].End)}
		want := []string{"Body", "Torso", "Foot.L", "Foot.R", "Palm", "Palm"}
		for i := range want {
			if !strings.HasPrefix(got[i], want[i]) {
				t.Errorf("%s: hips, chest, legs and hands %q, want %q", filepath.Base(path), got, want)
				break
			}
		}
		if !strings.HasSuffix(got[4], ".L") || !strings.HasSuffix(got[5], ".R") {
			t.Errorf("%s: hands %q and %q on the wrong sides", filepath.Base(path), got[4], got[5])
		}
	}
}

// glbWithoutNames is GLB data b with no node named, its JSON chunk
// re-encoded (and padded with spaces, as the spec pads it).
func glbWithoutNames(t *testing.T, b []byte) []byte {
	t.Helper()
	n := binary.LittleEndian.Uint32(b[12:])
	var doc map[string]any
	if err := json.Unmarshal(b[20:20+n], &doc); err != nil {
		t.Fatal(err)
	}
	for _, nd := range doc["nodes"].([]any) {
		delete(nd.(map[string]any), "name")
	}
	js, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	js = append(js, bytes.Repeat([]byte(" "), -len(js)&3)...)
	out := append([]byte(nil), b[:12]...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(js)))
	out = append(out, "JSON"...)
	out = append(out, js...)
	out = append(out, b[20+n:]...)
	binary.LittleEndian.PutUint32(out[8:], uint32(len(out)))
	return out
}
