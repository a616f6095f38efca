package app

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/mathx"
)

// LoadCharacter reads BVH files into one character: the first file's
// skeleton, every compatible file's clip. units is "auto" (detected from
// the skeleton's height) or one of cm, m, in. Files that fail to load or
// whose skeleton differs from the first are reported in errs (each
// "file:line:col: ..." or "file: ..."); ch is nil only if none loaded.
func LoadCharacter(paths []string, units string) (ch *Character, errs []error) {
	var base *bvh.File
	var scale float32
	for _, path := range paths {
		f, err := bvh.ReadFile(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if base == nil {
			base = f
			u, err := bvh.UnitsFor(f, units)
			if err != nil {
				return nil, append(errs, fmt.Errorf("--units: %v", err))
			}
			scale = u.Scale()
			ch = characterFromBVH(f, scale)
			continue
		}
		if !sameHierarchy(base, f) {
			errs = append(errs, fmt.Errorf("%s: its skeleton (%d joints) differs from %s's (%d joints); load it on its own", path, len(f.Joints), base.Name, len(base.Joints)))
			continue
		}
		if groundRoot(base, scale) {
			ch.Clips = append(ch.Clips, f.Clip(scale, clipName(path)))
		} else {
			ch.Clips = append(ch.Clips, rootedClip(f, scale, clipName(path)))
		}
	}
	if ch != nil {
		ch.fitIKPaths()
	}
	return ch, errs
}

func clipName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

func sameHierarchy(a, b *bvh.File) bool {
	if len(a.Joints) != len(b.Joints) {
		return false
	}
	for i := range a.Joints {
		if a.Joints[i].Name != b.Joints[i].Name || a.Joints[i].Parent != b.Joints[i].Parent {
			return false
		}
	}
	return true
}

// characterFromBVH makes a character of f's skeleton scaled to metres,
// with a ground-level root joint ("Entity") added above the file's root so
// the lab's root motion works as for the default character, and the
// procedural stages' joints found by name.
func characterFromBVH(f *bvh.File, scale float32) *Character {
	fs := f.Skeleton(scale)
	if groundRoot(f, scale) {
		// The file's root already is a ground-level root (as kinelab's own
		// exports): use the skeleton and clip as they are.
		ch := &Character{Name: clipName(f.Name), Skel: fs, Hips: 1, Head: -1,
			Leg: animsys.TwoBoneJoints{Root: -1}, Arm: animsys.TwoBoneJoints{Root: -1}}
		ch.Clips = []animsys.Clip{f.Clip(scale, clipName(f.Name))}
		ch.findRoles()
		ch.Additive = nodAdditive(ch)
		return ch
	}
	n := fs.Len() + 1
	sk := animsys.Skeleton{Names: make([]string, n), Parents: make([]int, n), Offsets: make([]mgl32.Vec3, n)}
	sk.Names[0], sk.Parents[0] = "Entity", -1
	for j := 0; j < fs.Len(); j++ {
		sk.Names[j+1], sk.Offsets[j+1] = fs.Names[j], fs.Offsets[j]
		sk.Parents[j+1] = fs.Parents[j] + 1 // a file root (-1) hangs from the Entity (0)
	}
	ch := &Character{Name: clipName(f.Name), Skel: sk, Hips: 1, Head: -1,
		Leg: animsys.TwoBoneJoints{Root: -1}, Arm: animsys.TwoBoneJoints{Root: -1}}
	ch.Clips = []animsys.Clip{rootedClip(f, scale, clipName(f.Name))}
	ch.findRoles()
	ch.Additive = nodAdditive(ch)
	return ch
}

// groundRoot reports whether f's root stays near the floor (below 15% of
// the skeleton's height on the first frame) with a single child: a root
// that carries root motion, not the pelvis.
func groundRoot(f *bvh.File, scale float32) bool {
	children := 0
	for _, j := range f.Joints {
		if j.Parent == 0 {
			children++
		}
	}
	c := f.Clip(scale, "")
	return children == 1 && c.Frames > 0 && c.Pos[0][1] < 0.15*f.Height()*scale
}

// rootedClip converts f into a clip on the skeleton with the added Entity
// root: each frame, the Entity takes the file root's ground projection
// (x, 0, z) and the file root keeps its height.
func rootedClip(f *bvh.File, scale float32, name string) animsys.Clip {
	fc := f.Clip(scale, name)
	n := fc.Joints + 1
	c := animsys.NewClip(name, fc.Frames, n, fc.FrameTime)
	for fr := 0; fr < fc.Frames; fr++ {
		for j := 0; j < fc.Joints; j++ {
			c.Pos[c.At(fr, j+1)] = fc.Pos[fc.At(fr, j)]
			c.Rot[c.At(fr, j+1)] = fc.Rot[fc.At(fr, j)]
			c.Scl[c.At(fr, j+1)] = fc.Scl[fc.At(fr, j)]
		}
		r := fc.Pos[fc.At(fr, 0)]
		c.Pos[c.At(fr, 0)] = mgl32.Vec3{r[0], 0, r[2]}
		c.Pos[c.At(fr, 1)] = mgl32.Vec3{0, r[1], 0}
	}
	c.Prepare()
	return c
}

// findRoles finds the head and the IK chains by joint name (case-blind:
// "head"; a left foot or ankle; a right hand or wrist), falling back to
// any side; a role not found stays -1 and its stage is unavailable.
func (ch *Character) findRoles() {
	names := ch.Skel.Names
	find := func(side string, fallback bool, parts ...string) int {
		sides := []string{side}
		if fallback {
			sides = append(sides, "")
		}
		for _, want := range sides {
			for j, nm := range names {
				l := strings.ToLower(nm)
				if j < 1 || strings.Contains(l, "_end") || (want != "" && !OnSide(nm, want)) {
					continue
				}
				for _, p := range parts {
					if strings.Contains(l, p) {
						return j
					}
				}
			}
		}
		return -1
	}
	ch.Head = find("", false, "head")
	// The hips: a joint named so (or pelvis), else the file's root.
	if h := find("", false, "hips", "pelvis"); h > 0 {
		ch.Hips = h
	}
	chain := func(end int) animsys.TwoBoneJoints {
		if end < 0 || ch.Skel.Parents[end] < 1 || ch.Skel.Parents[ch.Skel.Parents[end]] < 1 {
			return animsys.TwoBoneJoints{Root: -1}
		}
		mid := ch.Skel.Parents[end]
		return animsys.TwoBoneJoints{Root: ch.Skel.Parents[mid], Mid: mid, End: end}
	}
	ch.Leg = chain(find("left", true, "foot", "ankle"))
	ch.Arm = chain(find("right", true, "hand", "wrist"))

	// The facing: left thigh to right thigh crossed with up, on the first
	// frame; the head's forward axis is that direction in the head's frame.
	local, global := animsys.NewPose(ch.Skel.Len()), animsys.NewPose(ch.Skel.Len())
	animsys.SampleLinear(&local, &ch.Clips[0], 0)
	animsys.FKStatic(&global, &local, ch.Skel.Parents)
	ch.Facing = mgl32.Vec3{0, 0, 1}
	l, r := find("left", false, "upleg", "thigh", "hip"), find("right", false, "upleg", "thigh", "hip")
	if l > 0 && r > 0 {
		if f := global.Pos[l].Sub(global.Pos[r]).Cross(mgl32.Vec3{0, 1, 0}); f.Len() > 1e-6 {
			ch.Facing = f.Normalize()
		}
	}
	ch.HeadFwd = ch.Facing
	if ch.Head >= 0 {
		ch.HeadFwd = mathx.QuatInvMulVec3(global.Rot[ch.Head], ch.Facing)
	}
}

// OnSide reports whether joint name nm is on side "left" or "right":
// "LeftFoot", "mixamorig:LeftFoot", "l_foot", "foot_l", "foot.L", "LFoot".
func OnSide(nm, side string) bool {
	l, s := strings.ToLower(nm), side[:1]
	if strings.Contains(l, side) || strings.HasPrefix(l, s+"_") || strings.HasSuffix(l, "_"+s) || strings.HasSuffix(l, "."+s) {
		return true
	}
	if i := strings.LastIndexByte(nm, ':'); i >= 0 {
		nm = nm[i+1:]
	}
	return len(nm) > 1 && nm[0] == strings.ToUpper(s)[0] && nm[1] >= 'A' && nm[1] <= 'Z'
}

// nodAdditive is a generic additive for any skeleton: the head nods and
// the head's parent sways, a one-second loop of rotation deltas.
func nodAdditive(ch *Character) animsys.Clip {
	const fps = 60
	c := animsys.NewClip("nod", fps+1+4, ch.Skel.Len(), 1.0/fps)
	c.LoopStart, c.LoopEnd = 2*c.FrameTime, float32(2+fps)*c.FrameTime
	for f := 0; f < c.Frames; f++ {
		p := 2 * math.Pi * float64(f-2) / fps
		for j := 0; j < c.Joints; j++ {
			c.Pos[c.At(f, j)] = mgl32.Vec3{}
		}
		if ch.Head > 0 {
			c.Rot[c.At(f, ch.Head)] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0.35 * float32(math.Sin(p)), 0, 0})
			if par := ch.Skel.Parents[ch.Head]; par > 0 {
				c.Rot[c.At(f, par)] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, 0, 0.2 * float32(math.Sin(p))})
			}
		}
	}
	c.Prepare()
	return c
}
