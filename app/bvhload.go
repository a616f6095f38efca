package app

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/humanoid"
	"kinelab/animsys/mathx"
)

// LoadOptions say how to read BVH files: units and up axis ("" or "auto"
// to detect, see bvh.Detect), and whether to keep leading rest frames (a
// rest pose, a T-pose row), by default dropped.
type LoadOptions = bvh.Choice

// LoadCharacter is LoadCharacterWith with the units chosen and the rest
// detected.
func LoadCharacter(paths []string, units string) (ch *Character, errs []error) {
	return LoadCharacterWith(paths, LoadOptions{Units: units})
}

// LoadCharacterWith reads BVH files into one character: the first file's
// skeleton, every compatible file's clip, in metres with +Y up, each read
// as bvh.ImportFor says. Units and up axis are the options' or detected
// from the first file, and apply to every file; each file's leading rest
// frames are dropped unless opt.KeepRest. What was detected, and why, is
// in ch.Notes. Files that fail to load or whose skeleton differs from the
// first are reported in errs (each "file:line:col: ..." or "file: ...");
// ch is nil only if none loaded.
func LoadCharacterWith(paths []string, opt LoadOptions) (ch *Character, errs []error) {
	var base *bvh.File
	var baseImp bvh.Import
	for _, path := range paths {
		f, err := bvh.ReadFile(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		imp, _, notes, err := bvh.ImportFor(f, bvh.Detect(f), opt)
		if err != nil {
			return ch, append(errs, err)
		}
		if base == nil {
			base, baseImp = f, imp
			ch = characterFromBVH(f, imp)
			ch.Notes = append(notes[:2:2], ch.Notes...)
			ch.Notes = append(ch.Notes, restNotes(path, notes)...)
			continue
		}
		if err := sameHierarchy(base, f); err != nil {
			errs = append(errs, fmt.Errorf("%s: its skeleton differs from %s's: %v; load it on its own", path, base.Name, err))
			continue
		}
		imp.Scale, imp.Up = baseImp.Scale, baseImp.Up
		ch.Clips = append(ch.Clips, ch.clipFromBVH(f, imp, clipName(path)))
		ch.Notes = append(ch.Notes, restNotes(path, notes)...)
	}
	if ch != nil {
		ch.fitIKPaths()
	}
	return ch, errs
}

// restNotes are ImportFor's notes on a file's rest frames, named by the
// file's clip.
func restNotes(path string, notes []string) []string {
	var out []string
	for _, n := range notes[2:] {
		out = append(out, clipName(path)+": "+n)
	}
	return out
}

func clipName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// sameHierarchy says how b's joints differ from a's: the first joint
// whose name or parent differs, or the joint counts; nil if the same.
func sameHierarchy(a, b *bvh.File) error {
	for i := 0; i < min(len(a.Joints), len(b.Joints)); i++ {
		ja, jb := &a.Joints[i], &b.Joints[i]
		if ja.Name != jb.Name {
			return fmt.Errorf("joint %d is %q, not %q", i+1, jb.Name, ja.Name)
		}
		if ja.Parent != jb.Parent {
			return fmt.Errorf("joint %d (%s) hangs from %s, not %s", i+1, jb.Name, jointName(b, jb.Parent), jointName(a, ja.Parent))
		}
	}
	if len(a.Joints) != len(b.Joints) {
		return fmt.Errorf("it has %d joints, not %d", len(b.Joints), len(a.Joints))
	}
	return nil
}

func jointName(f *bvh.File, j int) string {
	if j < 0 {
		return "nothing (a root)"
	}
	return f.Joints[j].Name
}

// characterFromBVH makes a character of f's skeleton read with imp, with a
// ground-level root joint ("Entity") added above the file's root that
// carries the hips' ground projection as root motion, unless the file's
// root already is such a joint; the procedural stages' joints are found
// by reading the skeleton as a human (humanoid.Classify), and the body is
// bound to a pose of its own (humanoid.BindPose).
func characterFromBVH(f *bvh.File, imp bvh.Import) *Character {
	name := clipName(f.Name)
	fs := f.SkeletonWith(imp)
	fc := f.ClipWith(imp, name)
	ch := &Character{Name: name, Hips: 0, Head: -1,
		Leg: animsys.TwoBoneJoints{Root: -1}, Arm: animsys.TwoBoneJoints{Root: -1}}
	fig, ferr := humanoid.ClassifyClip(&fs, &fc)
	hips := 0
	if ferr == nil {
		hips = fig.Hips
	} else {
		ch.Notes = append(ch.Notes, "not read as a human figure: "+ferr.Error())
	}
	if rootFollows(&fs, &fc, hips) {
		// The file's root already is a ground-level root under the hips
		// (as kinelab's own exports): use the skeleton and clip as they are.
		ch.Skel, ch.Clips, ch.Hips, ch.root = fs, []animsys.Clip{fc}, hips, -1
	} else {
		n := fs.Len() + 1
		sk := animsys.Skeleton{Names: make([]string, n), Parents: make([]int, n), Offsets: make([]mgl32.Vec3, n)}
		sk.Names[0], sk.Parents[0] = "Entity", -1
		for j := 0; j < fs.Len(); j++ {
			sk.Names[j+1], sk.Offsets[j+1] = fs.Names[j], fs.Offsets[j]
			sk.Parents[j+1] = fs.Parents[j] + 1 // a file root (-1) hangs from the Entity (0)
		}
		ch.Skel, ch.Hips, ch.root = sk, hips+1, hips
		ch.Clips = []animsys.Clip{rootedClip(&fs, &fc, hips)}
	}
	ch.findRoles()
	ch.bind()
	ch.Additive = nodAdditive(ch)
	return ch
}

// clipFromBVH reads another file of the character's skeleton as a clip.
func (ch *Character) clipFromBVH(f *bvh.File, imp bvh.Import, name string) animsys.Clip {
	fc := f.ClipWith(imp, name)
	if ch.root < 0 {
		return fc
	}
	fs := f.SkeletonWith(imp)
	return rootedClip(&fs, &fc, ch.root)
}

// rootFollows reports whether the skeleton's root is a ground-level joint
// with a single child that stays under the hips: on every sampled frame
// below 15% of the figure's height and within 10% of it of the hips'
// ground projection.
func rootFollows(sk *animsys.Skeleton, c *animsys.Clip, hips int) bool {
	if hips == 0 || c.Frames == 0 {
		return false
	}
	children := 0
	for _, p := range sk.Parents {
		if p == 0 {
			children++
		}
	}
	if children != 1 {
		return false
	}
	pos, _ := humanoid.ClipFrames(sk, c, 24)
	for _, fr := range pos {
		lo, hi := fr[0][1], fr[0][1]
		for _, p := range fr {
			lo, hi = min(lo, p[1]), max(hi, p[1])
		}
		h := hi - lo
		d := fr[hips].Sub(fr[0])
		if fr[0][1]-lo > 0.15*h || d[0]*d[0]+d[2]*d[2] > 0.01*h*h {
			return false
		}
	}
	return true
}

// rootedClip converts clip c of skeleton sk into a clip on the skeleton
// with an Entity root added: each frame, the Entity takes the hips' ground
// projection (x, 0, z), and the file's roots hang from it where they were.
func rootedClip(sk *animsys.Skeleton, c *animsys.Clip, hips int) animsys.Clip {
	n := c.Joints + 1
	out := animsys.NewClip(c.Name, c.Frames, n, c.FrameTime)
	local, global := animsys.NewPose(c.Joints), animsys.NewPose(c.Joints)
	for fr := 0; fr < c.Frames; fr++ {
		copy(local.Pos, c.Pos[c.At(fr, 0):c.At(fr+1, 0)])
		copy(local.Rot, c.Rot[c.At(fr, 0):c.At(fr+1, 0)])
		animsys.FKStatic(&global, &local, sk.Parents)
		h := global.Pos[hips]
		e := mgl32.Vec3{h[0], 0, h[2]}
		out.Pos[out.At(fr, 0)] = e
		for j := 0; j < c.Joints; j++ {
			p := c.Pos[c.At(fr, j)]
			if sk.Parents[j] < 0 {
				p = p.Sub(e)
			}
			out.Pos[out.At(fr, j+1)] = p
			out.Rot[out.At(fr, j+1)] = c.Rot[c.At(fr, j)]
			out.Scl[out.At(fr, j+1)] = c.Scl[c.At(fr, j)]
		}
	}
	out.Prepare()
	return out
}

// bind gives the skeleton a bind pose for its body: the frame of the
// first clip where the figure stands straightest, turned into an A-pose
// (humanoid.Figure.BindPose). A skeleton that is no human figure keeps
// its rest pose.
func (ch *Character) bind() {
	if ch.Figure == nil {
		return
	}
	pos, rot := humanoid.ClipFrames(&ch.Skel, &ch.Clips[0], 48)
	i := ch.Figure.BindFrame(pos)
	bp, br := ch.Figure.BindPose(ch.Skel.Parents, pos[i], rot[i])
	n := ch.Skel.Len()
	global, local := animsys.NewPose(n), animsys.NewPose(n)
	copy(global.Pos, bp)
	copy(global.Rot, br)
	animsys.BK(&local, &global, ch.Skel.Parents)
	ch.Skel.Bind = &local
}

// findRoles finds the hips, head and IK chains (left leg, right arm) by
// reading the skeleton as a human figure (humanoid.Classify on the first
// clip), or by joint name when it does not read as one (case-blind:
// "head"; a left foot or ankle; a right hand or wrist, falling back to any
// side); a role not found stays -1 and its stage is unavailable.
func (ch *Character) findRoles() {
	if fig, err := humanoid.ClassifyClip(&ch.Skel, &ch.Clips[0]); err == nil {
		ch.Figure = &fig
		ch.Hips, ch.Head = fig.Hips, fig.Head
		chain := func(l humanoid.Limb) animsys.TwoBoneJoints {
			if l.Upper < 0 {
				return animsys.TwoBoneJoints{Root: -1}
			}
			return animsys.TwoBoneJoints{Root: l.Upper, Mid: l.Mid, End: l.End}
		}
		ch.Leg, ch.Arm = chain(fig.Legs[humanoid.Left]), chain(fig.Arms[humanoid.Right])
		l, r := fig.Legs[humanoid.Left].Path[0], fig.Legs[humanoid.Right].Path[0]
		if u, v := fig.Legs[humanoid.Left].Upper, fig.Legs[humanoid.Right].Upper; u >= 0 && v >= 0 {
			l, r = u, v
		}
		ch.face(l, r)
		return
	}
	names := ch.Skel.Names
	find := func(side string, fallback bool, parts ...string) int {
		sides := []string{side}
		if fallback {
			sides = append(sides, "")
		}
		for _, want := range sides {
			for j, nm := range names {
				l := strings.ToLower(nm)
				if j < 1 || strings.Contains(l, "_end") || (want != "" && !isSide(nm, want)) {
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
	ch.face(find("left", false, "upleg", "thigh", "hip"), find("right", false, "upleg", "thigh", "hip"))
}

// face sets the facing from the left and right thighs l and r (-1 when
// unknown): left to right crossed with up, on the first frame; the head's
// forward axis is that direction in the head's frame.
func (ch *Character) face(l, r int) {
	local, global := animsys.NewPose(ch.Skel.Len()), animsys.NewPose(ch.Skel.Len())
	animsys.SampleLinear(&local, &ch.Clips[0], 0)
	animsys.FKStatic(&global, &local, ch.Skel.Parents)
	ch.Facing = mgl32.Vec3{0, 0, 1}
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

// isSide reports whether joint name nm is on side "left" or "right"
// (humanoid.SideOf): "LeftFoot", "mixamorig:LeftFoot", "l_foot", "foot_l",
// "foot.L", "LFoot", "lFoot", "Bip01 L Foot".
func isSide(nm, side string) bool {
	s, ok := humanoid.SideOf(nm)
	return ok && s.String() == side
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
