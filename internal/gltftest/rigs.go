package gltftest

import (
	"fmt"
	"math"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// Rig is a skeleton as exporters name and lay out bones, in a design pose
// standing on y = 0, facing +Z (its left is +X), at any size: what tests
// of the humanoid reader and of size-free views load. Its walk (Clip)
// swings each joint by its Swing about the side axis, at one step a
// second, while the root moves forward by a body length every 4 s.
type Rig struct {
	Name   string
	Joints []RigJoint
}

// RigJoint is a joint of a Rig: its name, parent (-1 for the root), place
// in the design pose and how far (rad) the walk swings it; the sign says
// which phase.
type RigJoint struct {
	Name   string
	Parent int
	Pos    mgl32.Vec3
	Swing  float32
}

// humanPart is a joint of the generic 1.7 m human every human rig is laid
// out as, by role; names are given by each rig style.
type humanPart struct {
	role   string
	parent string
	pos    mgl32.Vec3
	swing  float32
}

// humanParts is a 1.7 m human, hips at 0.95 m; left is +X. "side" roles
// are written once for the left and mirrored for the right.
var humanParts = []humanPart{
	{"hips", "", mgl32.Vec3{0, 0.95, 0}, 0},
	{"upleg", "hips", mgl32.Vec3{0.09, 0.9, 0}, 0.45},
	{"leg", "upleg", mgl32.Vec3{0.09, 0.5, 0.01}, 0.3},
	{"foot", "leg", mgl32.Vec3{0.09, 0.08, -0.02}, 0.1},
	{"toe", "foot", mgl32.Vec3{0.09, 0.01, 0.12}, 0},
	{"spine", "hips", mgl32.Vec3{0, 1.08, 0}, 0.04},
	{"chest", "spine", mgl32.Vec3{0, 1.3, 0}, 0.04},
	{"neck", "chest", mgl32.Vec3{0, 1.5, 0}, 0},
	{"head", "neck", mgl32.Vec3{0, 1.6, 0.02}, 0},
	{"headtop", "head", mgl32.Vec3{0, 1.72, 0.02}, 0},
	{"shoulder", "chest", mgl32.Vec3{0.05, 1.42, 0}, 0},
	{"arm", "shoulder", mgl32.Vec3{0.17, 1.42, 0}, -0.35},
	{"forearm", "arm", mgl32.Vec3{0.2, 1.14, -0.02}, -0.2},
	{"hand", "forearm", mgl32.Vec3{0.22, 0.89, 0}, 0},
	{"finger", "hand", mgl32.Vec3{0.22, 0.8, 0.01}, 0},
}

var sided = map[string]bool{"upleg": true, "leg": true, "foot": true, "toe": true, "shoulder": true, "arm": true,
	"forearm": true, "hand": true, "finger": true}

// human lays the generic human out at height h (m, 1.7 for its own size)
// with the joints name gives names to; a role name gives "" for is left
// out (its children hang from its parent). side is "L" or "R".
func human(rig string, h float32, name func(role, side string) string) Rig {
	r := Rig{Name: rig}
	at := map[string]int{}
	k := h / 1.7
	for _, side := range []string{"", "L", "R"} {
		for _, p := range humanParts {
			if sided[p.role] != (side != "") {
				continue
			}
			nm := name(p.role, side)
			if nm == "" {
				at[p.role+side] = at[p.parent+side]
				if _, ok := at[p.parent+side]; !ok {
					at[p.role+side] = at[p.parent]
				}
				continue
			}
			parent := -1
			if p.parent != "" {
				var ok bool
				if parent, ok = at[p.parent+side]; !ok {
					parent = at[p.parent]
				}
			}
			pos, swing := p.pos, p.swing
			if side == "R" {
				pos[0], swing = -pos[0], -swing
			}
			at[p.role+side] = len(r.Joints)
			r.Joints = append(r.Joints, RigJoint{Name: nm, Parent: parent, Pos: pos.Mul(k), Swing: swing})
		}
	}
	return r
}

// MixamoRig is a human h metres tall named as Mixamo names ("mixamorig:Hips",
// "mixamorig:LeftUpLeg", ..., "mixamorig:HeadTop_End").
func MixamoRig(h float32) Rig {
	names := map[string]string{"hips": "Hips", "upleg": "UpLeg", "leg": "Leg", "foot": "Foot", "toe": "ToeBase",
		"spine": "Spine", "chest": "Spine2", "neck": "Neck", "head": "Head", "headtop": "HeadTop_End",
		"shoulder": "Shoulder", "arm": "Arm", "forearm": "ForeArm", "hand": "Hand", "finger": "HandMiddle1"}
	return human("mixamo", h, func(role, side string) string {
		s := map[string]string{"L": "Left", "R": "Right"}[side]
		return "mixamorig:" + s + names[role]
	})
}

// CesiumRig is a human h metres tall named and laid out as COLLADA2GLTF
// exported the Khronos CesiumMan: "Skeleton_torso_joint_1" (the hips),
// "leg_joint_L_1".."leg_joint_L_5" (no 4: hip, knee, ankle, toe),
// "Skeleton_torso_joint_2", "torso_joint_3", "Skeleton_neck_joint_1" and
// "_2" (a short neck, no head joint above it), and arms of three joints
// whose last is the wrist: "Skeleton_arm_joint_L__4_", "__3_", "__2_" and
// "Skeleton_arm_joint_R", "__2_", "__3_". No joint says foot or hand.
// suffix is added to every name (".001": Blender's re-export).
func CesiumRig(h float32, suffix string) Rig {
	left := map[string]string{"upleg": "leg_joint_L_1", "leg": "leg_joint_L_2", "foot": "leg_joint_L_3",
		"toe": "leg_joint_L_5", "arm": "Skeleton_arm_joint_L__4_", "forearm": "Skeleton_arm_joint_L__3_",
		"hand": "Skeleton_arm_joint_L__2_"}
	right := map[string]string{"upleg": "leg_joint_R_1", "leg": "leg_joint_R_2", "foot": "leg_joint_R_3",
		"toe": "leg_joint_R_5", "arm": "Skeleton_arm_joint_R", "forearm": "Skeleton_arm_joint_R__2_",
		"hand": "Skeleton_arm_joint_R__3_"}
	mid := map[string]string{"hips": "Skeleton_torso_joint_1", "spine": "Skeleton_torso_joint_2",
		"chest": "torso_joint_3", "neck": "Skeleton_neck_joint_1", "head": "Skeleton_neck_joint_2"}
	r := human("cesium"+suffix, h, func(role, side string) string {
		var nm string
		switch side {
		case "L":
			nm = left[role]
		case "R":
			nm = right[role]
		default:
			nm = mid[role]
		}
		if nm == "" {
			return ""
		}
		return nm + suffix
	})
	// CesiumMan's chest is at its shoulders, its neck two short joints
	// (6.5 and 5.2 cm) with nothing above: too short for a branch of its
	// own beside the arms.
	k := h / 1.7
	for i, y := range map[string]float32{"torso_joint_3": 1.42, "Skeleton_neck_joint_1": 1.485, "Skeleton_neck_joint_2": 1.537} {
		for j := range r.Joints {
			if r.Joints[j].Name == i+suffix {
				r.Joints[j].Pos = mgl32.Vec3{0, y * k, 0}
			}
		}
	}
	return r
}

// BoneRig is a human h metres tall whose joints are named as Blender
// names new bones: "Bone", "Bone.001", "Bone.002", ...; only its shape
// tells its parts.
func BoneRig(h float32) Rig {
	n := 0
	return human("bones", h, func(role, side string) string {
		if role == "finger" || role == "headtop" {
			return ""
		}
		nm := "Bone"
		if n > 0 {
			nm = fmt.Sprintf("Bone.%03d", n)
		}
		n++
		return nm
	})
}

// QuadrupedRig is a four-legged animal length units long from nose to tail
// tip (71 for the issue's), standing on four legs of four joints, with a
// spine, a neck and head, and a tail; its feet are named ("foot.L"), as
// rigs of animals often are, so a reader that takes any two named feet
// for a human's would be fooled.
func QuadrupedRig(length float32) Rig {
	k := length / 71
	r := Rig{Name: "quadruped"}
	add := func(name string, parent int, x, y, z, swing float32) int {
		r.Joints = append(r.Joints, RigJoint{Name: name, Parent: parent, Pos: mgl32.Vec3{x, y, z}.Mul(k), Swing: swing})
		return len(r.Joints) - 1
	}
	pelvis := add("pelvis", -1, 0, 30, -15, 0)
	spine := add("spine", pelvis, 0, 31, 0, 0.03)
	chest := add("chest", spine, 0, 31, 15, 0.03)
	neck := add("neck", chest, 0, 36, 22, 0)
	head := add("head", neck, 0, 40, 28, 0.05)
	add("nose", head, 0, 38, 38, 0)
	t := pelvis
	for i, z := range []float32{-21, -27, -33} {
		t = add(fmt.Sprintf("tail.%03d", i+1), t, 0, 29-2*float32(i), z, 0.1)
	}
	for _, side := range []struct {
		s string
		x float32
		w float32
	}{{"L", 6, 1}, {"R", -6, -1}} {
		for _, leg := range []struct {
			kind string
			base int
			z    float32
			w    float32
		}{{"back_", pelvis, -15, 1}, {"front_", chest, 15, -1}} {
			w := side.w * leg.w
			j := add(leg.kind+"thigh."+side.s, leg.base, side.x, 28, leg.z, 0.4*w)
			j = add(leg.kind+"shin."+side.s, j, side.x, 16, leg.z-2, 0.3*w)
			j = add(leg.kind+"foot."+side.s, j, side.x, 3, leg.z-1, 0.1*w)
			add(leg.kind+"toe."+side.s, j, side.x, 0, leg.z+4, 0)
		}
	}
	return r
}

// Skeleton is the rig's skeleton: each joint's offset from its parent in
// the design pose, no rest rotations.
func (r Rig) Skeleton() animsys.Skeleton {
	var sk animsys.Skeleton
	for _, j := range r.Joints {
		off := j.Pos
		if j.Parent >= 0 {
			off = j.Pos.Sub(r.Joints[j.Parent].Pos)
		}
		sk.Names, sk.Parents, sk.Offsets = append(sk.Names, j.Name), append(sk.Parents, j.Parent), append(sk.Offsets, off)
	}
	return sk
}

// Clip is the rig's walk, 2 s at 30 frames/s: each joint swings by its
// Swing about X, one step a second, and the root moves forward (+Z) a
// quarter of the rig's extent a second.
func (r Rig) Clip() animsys.Clip {
	const fps, frames = 30, 61
	sk := r.Skeleton()
	lo, hi := r.Joints[0].Pos, r.Joints[0].Pos
	for _, j := range r.Joints {
		for a := range 3 {
			lo[a], hi[a] = min(lo[a], j.Pos[a]), max(hi[a], j.Pos[a])
		}
	}
	ext := hi.Sub(lo)
	speed := 0.25 * max(ext[0], ext[1], ext[2])
	c := animsys.NewClip("walk", frames, sk.Len(), 1.0/fps)
	for f := range frames {
		t := float64(f) / fps
		for j, jt := range r.Joints {
			a := jt.Swing * float32(math.Sin(2*math.Pi*t))
			c.Rot[c.At(f, j)] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{a, 0, 0})
			p := sk.Offsets[j]
			if jt.Parent < 0 {
				p = p.Add(mgl32.Vec3{0, 0, speed * float32(t)})
			}
			c.SetPos(f, j, p)
		}
	}
	c.Prepare()
	return c
}

// WriteRig writes rig r to path (Write, with no mesh: kinelab generates a
// body for it) with its walk.
func WriteRig(path string, r Rig, opt Options) error {
	sk := r.Skeleton()
	return Write(path, &sk, nil, []animsys.Clip{r.Clip()}, opt)
}

// String names the rig and its joints.
func (r Rig) String() string {
	var names []string
	for _, j := range r.Joints {
		names = append(names, j.Name)
	}
	return r.Name + ": " + strings.Join(names, ", ")
}
