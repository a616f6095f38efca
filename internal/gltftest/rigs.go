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
// in the design pose, how far (rad) the walk swings it (the sign says
// which phase) and the part of the body it is, whatever its name says:
// "footL" (a left ankle), "handR" (a right wrist), "head", "" for the
// rest; tests compare what a reader found with it.
type RigJoint struct {
	Name   string
	Parent int
	Pos    mgl32.Vec3
	Swing  float32
	Role   string
}

// Find is the index of the joint playing role ("footL", "head"), -1 for
// none.
func (r Rig) Find(role string) int {
	for j, jt := range r.Joints {
		if jt.Role == role {
			return j
		}
	}
	return -1
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
	"forearm": true, "hand": true, "finger": true, "claw": true, "footik": true, "pole": true}

// roles are the parts RigJoint.Role names, by the role of the parts.
var roles = map[string]string{"foot": "foot", "hand": "hand", "head": "head"}

// human lays the generic human out at height h (m, 1.7 for its own size)
// with the joints name gives names to; a role name gives "" for is left
// out (its children hang from its parent). side is "L" or "R".
func human(rig string, h float32, name func(role, side string) string) Rig {
	return layout(rig, humanParts, h/1.7, name)
}

// layout lays parts out scaled by k, named by name as human says.
func layout(rig string, parts []humanPart, k float32, name func(role, side string) string) Rig {
	r := Rig{Name: rig}
	at := map[string]int{}
	for _, side := range []string{"", "L", "R"} {
		for _, p := range parts {
			if sided[p.role] != (side != "") {
				continue
			}
			nm := name(p.role, side)
			if nm == "" && p.parent == "" {
				at[p.role+side] = -1 // a root left out: its children are roots
				continue
			}
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
			role := roles[p.role]
			if role != "" {
				role += side
			}
			r.Joints = append(r.Joints, RigJoint{Name: nm, Parent: parent, Pos: pos.Mul(k), Swing: swing, Role: role})
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

// ArmedQuadrupedRig is a four-legged animal length units long from nose
// to tail tip, its bones named as the Khronos Fox sample names them
// ("b_Root_00", "b_Hip_01", "b_Spine01_02", "b_LeftUpperArm_09",
// "b_LeftForeArm_010", "b_LeftHand_011", "b_LeftLeg01_015" to
// "b_LeftFoot02_018"): its front legs are named as a human's arms, its
// hind legs end in feet, and its hocks stand behind its hips, so from the
// hips the feet lie as much behind as below. A reader that takes names
// for parts, or the angle between the spine and the legs for the shape,
// takes it for a human.
func ArmedQuadrupedRig(length float32) Rig {
	k := length / 100
	r := Rig{Name: "armed-quadruped"}
	add := func(part string, parent int, x, y, z, swing float32) int {
		r.Joints = append(r.Joints, RigJoint{Name: fmt.Sprintf("b_%s_0%d", part, len(r.Joints)), Parent: parent,
			Pos: mgl32.Vec3{x, y, z}.Mul(k), Swing: swing})
		return len(r.Joints) - 1
	}
	root := add("Root", -1, 0, 0, -20, 0)
	hip := add("Hip", root, 0, 40, -25, 0)
	spine := add("Spine01", hip, 0, 44, -10, 0.03)
	chest := add("Spine02", spine, 0, 46, 12, 0.03)
	neck := add("Neck", chest, 0, 50, 25, 0)
	add("Head", neck, 0, 58, 34, 0.05)
	sides := []struct {
		name string
		x, w float32
	}{{"Right", -6, -1}, {"Left", 6, 1}}
	for _, sd := range sides {
		j := add(sd.name+"UpperArm", chest, sd.x, 42, 16, -0.35*sd.w)
		j = add(sd.name+"ForeArm", j, sd.x, 22, 15, -0.25*sd.w)
		add(sd.name+"Hand", j, sd.x, 5, 16, -0.1*sd.w)
	}
	t := hip
	for i, p := range [][2]float32{{48, -38}, {40, -48}, {26, -62}} {
		t = add(fmt.Sprintf("Tail%02d", i+1), t, 0, p[0], p[1], 0.1)
	}
	for _, sd := range []int{1, 0} {
		s := sides[sd]
		j := add(s.name+"Leg01", hip, s.x, 44, -28, 0.35*s.w)
		j = add(s.name+"Leg02", j, s.x, 28, -24, 0.25*s.w)
		j = add(s.name+"Foot01", j, s.x, 14, -36, 0.15*s.w)
		add(s.name+"Foot02", j, s.x, 1, -31, 0)
	}
	return r
}

// robotParts is a biped robot 1.8 tall, wide-hipped, its arms ending in
// a claw, with what robot rigs hang beside the body under a root on the
// floor: an IK control on the floor under each ankle ("footik") and a
// pole target in front of each knee ("pole").
var robotParts = []humanPart{
	{"root", "", mgl32.Vec3{0, 0, 0}, 0},
	{"hips", "root", mgl32.Vec3{0, 0.95, 0}, 0},
	{"upleg", "hips", mgl32.Vec3{0.16, 0.93, 0}, 0.4},
	{"leg", "upleg", mgl32.Vec3{0.16, 0.53, 0.03}, 0.3},
	{"foot", "leg", mgl32.Vec3{0.16, 0.12, 0}, 0.1},
	{"toe", "foot", mgl32.Vec3{0.16, 0.02, 0.16}, 0},
	{"spine", "hips", mgl32.Vec3{0, 1.12, 0}, 0.03},
	{"chest", "spine", mgl32.Vec3{0, 1.38, 0}, 0.03},
	{"neck", "chest", mgl32.Vec3{0, 1.52, 0}, 0},
	{"head", "neck", mgl32.Vec3{0, 1.62, 0.02}, 0},
	{"headtop", "head", mgl32.Vec3{0, 1.8, 0.02}, 0},
	{"shoulder", "chest", mgl32.Vec3{0.12, 1.45, 0}, 0},
	{"arm", "shoulder", mgl32.Vec3{0.26, 1.45, 0}, -0.3},
	{"forearm", "arm", mgl32.Vec3{0.29, 1.17, -0.02}, -0.2},
	{"hand", "forearm", mgl32.Vec3{0.3, 0.9, 0}, 0},
	{"claw", "hand", mgl32.Vec3{0.3, 0.78, 0.04}, 0},
	{"footik", "root", mgl32.Vec3{0.16, 0.06, 0.02}, 0},
	{"pole", "root", mgl32.Vec3{0.16, 0.55, 0.6}, 0},
}

// IKRobotRig is a biped robot h tall named and laid out as Quaternius's
// robot.glb (raylib's example) is: under a root "Bone" on the floor the
// body ("Body", "Abdomen", "Torso", "Neck", "Head"), legs of two joints
// ("UpperLeg.L" at the hip, "LowerLeg.L" at the knee, nothing below it),
// arms "Shoulder.L", "UpperArm.L", "LowerArm.L", "Palm.L", "Finger.L",
// and beside the body the leg's IK control "Foot.L" on the floor and
// "PoleTarget.L" before the knee. With ankles its legs go on to the
// floor ("Ankle.L", "Toe.L"), as a rig exported with both its deforming
// bones and its controls: the "Foot.L" named so is then no foot.
func IKRobotRig(h float32, ankles bool) Rig {
	names := map[string]string{"root": "Bone", "hips": "Body", "upleg": "UpperLeg", "leg": "LowerLeg",
		"spine": "Abdomen", "chest": "Torso", "neck": "Neck", "head": "Head", "shoulder": "Shoulder",
		"arm": "UpperArm", "forearm": "LowerArm", "hand": "Palm", "claw": "Finger", "footik": "Foot",
		"pole": "PoleTarget"}
	if ankles {
		names["foot"], names["toe"] = "Ankle", "Toe"
	}
	rig := "ik-robot"
	if ankles {
		rig += "-ankles"
	}
	return layout(rig, robotParts, h/1.8, func(role, side string) string {
		nm := names[role]
		if nm != "" && side != "" {
			nm += "." + side
		}
		return nm
	})
}

// PartRobotRig is the robot of IKRobotRig with ankles and no root or
// controls, its joints named by number as some exporters name a model's
// parts: "part_01", "part_02", ...: only its shape tells its parts.
func PartRobotRig(h float32) Rig {
	n := 0
	return layout("part-robot", robotParts, h/1.8, func(role, side string) string {
		if role == "root" || role == "footik" || role == "pole" {
			return ""
		}
		n++
		return fmt.Sprintf("part_%02d", n)
	})
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
