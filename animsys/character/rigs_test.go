package character_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"kinelab/animsys/character"
	"kinelab/animsys/humanoid"
	"kinelab/internal/gltftest"
)

// rigCase is a generated rig written as glTF and what reading it must find.
type rigCase struct {
	name  string
	rig   gltftest.Rig
	opt   gltftest.Options
	human bool
}

func rigCases() []rigCase {
	return []rigCase{
		{"cesium", gltftest.CesiumRig(1.7, ""), gltftest.Options{ZUp: true}, true},
		{"cesium-blender", gltftest.CesiumRig(1.7, ".001"), gltftest.Options{ZUp: true, Scale: 0.01}, true},
		{"mixamo", gltftest.MixamoRig(1.7), gltftest.Options{Scale: 0.01}, true},
		{"bones", gltftest.BoneRig(1.7), gltftest.Options{ZUp: true}, true},
		{"cesium-unnamed", unnamed(gltftest.CesiumRig(1.7, "")), gltftest.Options{}, true},
		{"small", gltftest.MixamoRig(0.5), gltftest.Options{}, true},
		{"giant", gltftest.MixamoRig(50), gltftest.Options{}, true},
		{"quadruped", gltftest.QuadrupedRig(71), gltftest.Options{}, false},
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

// Each rig style reads as it should: the human ones as humans with their
// legs and arms on the right sides (the joints' design places: left is
// +X) and their feet and hands where the rig puts them; the quadruped as
// no human, saying why.
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
			if !strings.Contains(f.NotHuman, "legs") {
				t.Errorf("%s: not human for %q, want the legs named", c.name, f.NotHuman)
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
		side := func(j int) float32 { return c.rig.Joints[j-1].Pos[0] }
		for s := humanoid.Left; s <= humanoid.Right; s++ {
			want := float32(1)
			if s == humanoid.Right {
				want = -1
			}
			for what, l := range map[string]humanoid.Limb{"leg": f.Legs[s], "arm": f.Arms[s]} {
				if l.Upper < 1 || l.Mid < 1 || l.End < 1 {
					t.Errorf("%s: %s %s has no two-bone chain: %+v", c.name, s, what, l)
					continue
				}
				if side(l.End)*want <= 0 {
					t.Errorf("%s: %s %s ends at %s, on the other side", c.name, s, what, name(l.End))
				}
			}
			// The ankle stands low, the wrist at the hips' height: the
			// design pose's (m, at 1.7 m tall).
			k := c.rig.Joints[0].Pos[1] / 0.95
			if y := c.rig.Joints[f.Legs[s].End-1].Pos[1] / k; y > 0.2 {
				t.Errorf("%s: %s foot %s stands %.2f m high (at 1.7 m)", c.name, s, name(f.Legs[s].End), y)
			}
			if y := c.rig.Joints[f.Arms[s].End-1].Pos[1] / k; y < 0.8 || y > 1.0 {
				t.Errorf("%s: %s hand %s at %.2f m (at 1.7 m)", c.name, s, name(f.Arms[s].End), y)
			}
		}
		if name(f.Hips) != c.rig.Joints[0].Name {
			t.Errorf("%s: hips %s, want %s", c.name, name(f.Hips), c.rig.Joints[0].Name)
		}
		if f.Head < 1 {
			t.Errorf("%s: no head", c.name)
		}
	}
}
