package character

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/humanoid"
)

// Options say how to read BVH files: units and up axis ("" or "auto" to
// detect, see bvh.Detect), and whether to keep leading rest frames (a
// rest pose, a T-pose row), by default dropped.
type Options = bvh.Choice

// File is a BVH file read as kinelab reads every file: parsed, with its
// units, up axis and leading rest frames detected or chosen
// (bvh.ImportFor).
type File struct {
	BVH    *bvh.File
	Import bvh.Import
	Units  bvh.Units
	// Notes say what was detected and chosen, and why: units, up axis,
	// then the rest frames.
	Notes []string
}

// Open reads the BVH file at path with opt. Errors are the parser's
// ("file:line:col: ...") or name the option that does not parse.
func Open(path string, opt Options) (*File, error) {
	f, err := bvh.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Read(f, opt)
}

// Read reads a parsed file with opt (see Open).
func Read(f *bvh.File, opt Options) (*File, error) {
	imp, units, notes, err := bvh.ImportFor(f, bvh.Detect(f), opt)
	if err != nil {
		return nil, err
	}
	return &File{BVH: f, Import: imp, Units: units, Notes: notes}, nil
}

// Load reads BVH files into one character: the first file's skeleton,
// every compatible file's clip, in metres with +Y up, each read as Open
// reads it. Units and up axis are the options' or detected from the first
// file, and apply to every file; each file's leading rest frames are
// dropped unless opt.KeepRest. What was detected, and why, is in
// ch.Notes. Files that fail to load or whose skeleton differs from the
// first are reported in errs (each "file:line:col: ..." or "file: ...");
// ch is nil only if none loaded.
func Load(paths []string, opt Options) (ch *Character, errs []error) {
	var base *File
	for _, path := range paths {
		f, err := bvh.ReadFile(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		file, err := Read(f, opt)
		if err != nil { // an option that does not parse: so for every file
			return ch, append(errs, err)
		}
		if base == nil {
			base = file
			ch = fromFile(file)
			ch.Notes = append(file.Notes[:2:2], ch.Notes...)
			ch.Notes = append(ch.Notes, restNotes(path, file.Notes)...)
			continue
		}
		if err := sameHierarchy(base.BVH, f); err != nil {
			errs = append(errs, fmt.Errorf("%s: its skeleton differs from %s's: %v; load it on its own", path, base.BVH.Name, err))
			continue
		}
		file.Import.Scale, file.Import.Up = base.Import.Scale, base.Import.Up
		ch.Clips = append(ch.Clips, ch.clipFrom(file, clipName(path)))
		ch.Notes = append(ch.Notes, restNotes(path, file.Notes)...)
	}
	if ch != nil {
		ch.fitPaths()
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

// fromFile makes a character of a file's skeleton, with a ground-level
// root joint ("Entity") added above the file's root that carries the hips'
// ground projection as root motion, unless the file's root already is
// such a joint. The skeleton is read as a figure (humanoid.Read) for the
// roles of its joints and the bind pose of its body.
func fromFile(file *File) *Character {
	f, imp := file.BVH, file.Import
	name := clipName(f.Name)
	fs := f.SkeletonWith(imp)
	fc := f.ClipWith(imp, name)
	ch := &Character{Name: name}
	hips := 0
	if fig, err := humanoid.ClassifyClip(&fs, &fc); err == nil {
		hips = fig.Hips
	}
	if rootFollows(&fs, &fc, hips) {
		// The file's root already is a ground-level root under the hips
		// (as kinelab's own exports): use the skeleton and clip as they are.
		ch.Skel, ch.Clips, ch.root = fs, []animsys.Clip{fc}, -1
	} else {
		n := fs.Len() + 1
		sk := animsys.Skeleton{Names: make([]string, n), Parents: make([]int, n), Offsets: make([]mgl32.Vec3, n)}
		sk.Names[0], sk.Parents[0] = "Entity", -1
		for j := 0; j < fs.Len(); j++ {
			sk.Names[j+1], sk.Offsets[j+1] = fs.Names[j], fs.Offsets[j]
			sk.Parents[j+1] = fs.Parents[j] + 1 // a file root (-1) hangs from the Entity (0)
		}
		ch.Skel, ch.root = sk, hips
		ch.Clips = []animsys.Clip{rootedClip(&fs, &fc, hips)}
	}
	fig := ch.read()
	ch.Figure = &fig
	if !fig.Human {
		ch.Notes = append(ch.Notes, "not read as a human figure: "+fig.NotHuman)
	}
	ch.roles()
	ch.bind()
	ch.Additive = nodAdditive(ch)
	ch.standing()
	return ch
}

// clipFrom reads another file of the character's skeleton as a clip.
func (ch *Character) clipFrom(file *File, name string) animsys.Clip {
	fc := file.BVH.ClipWith(file.Import, name)
	if ch.root < 0 {
		return fc
	}
	fs := file.BVH.SkeletonWith(file.Import)
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
