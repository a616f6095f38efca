package export

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
	"kinelab/animsys/character"
)

// Source is a clip read one frame at a time: the local positions (m),
// rotations and scales of every joint of its skeleton at each of its
// frames, FrameTime seconds apart. Frame is called with f = 0, 1, 2, ...
// in order, each f once, so a source may keep what it needs from the frame
// before (a BVH file's rotation signs).
type Source interface {
	Name() string
	Skeleton() *animsys.Skeleton
	// EndSites marks the joints that are a BVH file's End Sites (nil: none).
	EndSites() []bool
	Frames() int
	FrameTime() float32
	// Units is the unit lengths are given in by the source itself (the
	// BVH file's: cm, in...) and its size in metres; metres for a clip.
	Units() bvh.Units
	Frame(f int, pos []mgl32.Vec3, rot []mgl32.Quat, scl []mgl32.Vec3)
}

// BVHSource streams a BVH file's frames exactly as the app reads the file
// (bvh.File.ClipWith): in metres, stood up on +Y, its leading rest frames
// dropped, each joint's quaternions sign-continuous from frame to frame —
// without building the clip, whose frames and sampling cache would take
// about 100 bytes per joint and frame.
type BVHSource struct {
	file  *bvh.File
	imp   bvh.Import
	units bvh.Units
	skel  animsys.Skeleton
	end   []bool
	prev  []mgl32.Quat // the last frame's rotations, for their signs
	name  string
	// root stands the frames on the character's joints: the Entity the
	// app adds at 0 (character.Rooting), so that an export's joints are
	// the app's, as a glTF file's and an embedded clip's are.
	root *character.Rooting
	at   int // the file's joint 0 in the export: 1 after an Entity
}

// ReadBVH opens the BVH file at path as kinelab reads every file
// (character.Open: units, up axis and rest frames chosen with opt or
// detected, as the app does for the first file it loads). It returns the
// notes that say what was detected and why.
func ReadBVH(path string, opt bvh.ReadOptions) (*BVHSource, []string, error) {
	return ReadBVHContext(context.Background(), path, opt)
}

// ReadBVHContext is ReadBVH stopping once ctx is done
// (character.OpenContext).
func ReadBVHContext(ctx context.Context, path string, opt bvh.ReadOptions) (*BVHSource, []string, error) {
	file, err := character.OpenContext(ctx, path, opt)
	if err != nil {
		return nil, nil, err
	}
	return FileSource(file), file.Notes, nil
}

// NewBVHSource reads a parsed file with opt (see ReadBVH).
func NewBVHSource(f *bvh.File, opt bvh.ReadOptions) (*BVHSource, []string, error) {
	file, err := character.Read(f, opt)
	if err != nil {
		return nil, nil, err
	}
	return FileSource(file), file.Notes, nil
}

// FileSource streams a file read by package character.
func FileSource(file *character.File) *BVHSource {
	f, imp := file.BVH, file.Import
	s := &BVHSource{file: f, imp: imp, units: file.Units, skel: f.SkeletonWith(imp),
		prev: make([]mgl32.Quat, len(f.Joints)), root: file.Rooting(),
		name: strings.TrimSuffix(filepath.Base(f.Name), filepath.Ext(f.Name))}
	if s.root.Entity {
		s.at = 1
		sk := animsys.Skeleton{Names: []string{"Entity"}, Parents: []int{-1}, Offsets: []mgl32.Vec3{{}}}
		for j := range s.skel.Parents {
			sk.Names = append(sk.Names, s.skel.Names[j])
			sk.Parents = append(sk.Parents, s.skel.Parents[j]+1) // a file root hangs from the Entity
			sk.Offsets = append(sk.Offsets, s.skel.Offsets[j])
		}
		s.skel = sk
	}
	s.end = make([]bool, s.skel.Len())
	for j := range f.Joints {
		s.end[j+s.at] = f.Joints[j].EndSite
	}
	return s
}

// Import is how the file is read: scale, up axis and frames skipped.
func (s *BVHSource) Import() bvh.Import { return s.imp }

// Name is the file's base name without extension.
func (s *BVHSource) Name() string { return s.name }

// Skeleton is the character's: the file's hierarchy, End Sites included,
// in metres, its roots turned to +Y (bvh.File.SkeletonWith), under the
// Entity the app adds (character.Rooting).
func (s *BVHSource) Skeleton() *animsys.Skeleton { return &s.skel }

// EndSites marks the file's End Sites.
func (s *BVHSource) EndSites() []bool { return s.end }

// Frames is the number of frames after the skipped rest frames.
func (s *BVHSource) Frames() int { return s.file.Frames - s.imp.Skip }

// FrameTime is the file's Frame Time (s).
func (s *BVHSource) FrameTime() float32 { return s.file.FrameTime }

// Rate is the file's frames a second, from its Frame Time as written.
func (s *BVHSource) Rate() float64 {
	if s.file.Rate > 0 {
		return s.file.Rate
	}
	return animsys.RateOf(s.file.FrameTime)
}

// Units is the file's unit, chosen or detected.
func (s *BVHSource) Units() bvh.Units { return s.units }

// Frame reads frame f (after the skipped ones) as the app's character
// holds it: ClipWith's frame, on the Entity the character adds.
func (s *BVHSource) Frame(f int, pos []mgl32.Vec3, rot []mgl32.Quat, scl []mgl32.Vec3) {
	fp, fr := pos[s.at:], rot[s.at:]
	s.file.FrameWith(s.imp, f+s.imp.Skip, fp, fr)
	if f > 0 {
		bvh.ContinueSigns(fr, s.prev)
	}
	copy(s.prev, fr)
	for j := range scl {
		scl[j] = mgl32.Vec3{1, 1, 1}
	}
	s.root.Frame(pos, rot, scl)
}

// CurveSource is a Source whose frames are resampled curves (a glTF
// animation, animsys.Clip.Curves): a Stream samples the curves, exactly,
// at every output time, and reads no frame. Curves may return nil: then
// the frames are sampled.
type CurveSource interface {
	Source
	Curves() animsys.Curves
}

// ClipSource reads an animsys.Clip already in memory (an embedded clip,
// or a glTF animation: then its Curves are sampled).
type ClipSource struct {
	Clip *animsys.Clip
	Skel *animsys.Skeleton
	// Unit is the unit its lengths are in: the zero value is metres;
	// FileUnits for a figure that is no body in metres.
	Unit bvh.Units
}

// FileUnits is the unit of lengths given in a file's own unit, whose
// size in metres the file does not say: a glTF figure that is no body in
// metres (a 71-long animal: character.Character.Unit "units"). They are
// exported as they are and labelled "units", as the labs show them.
var FileUnits = bvh.Units{Name: "units", PerUnit: 1}

// Curves is the clip's exact source, nil for one of frames only.
func (s ClipSource) Curves() animsys.Curves { return s.Clip.Curves }

// Name is the clip's name.
func (s ClipSource) Name() string { return s.Clip.Name }

// Skeleton is the clip's skeleton.
func (s ClipSource) Skeleton() *animsys.Skeleton { return s.Skel }

// EndSites is nil: a clip has none.
func (s ClipSource) EndSites() []bool { return nil }

// Frames is the clip's number of frames.
func (s ClipSource) Frames() int { return s.Clip.Frames }

// FrameTime is the clip's frame time (s).
func (s ClipSource) FrameTime() float32 { return s.Clip.FrameTime }

// Units is Unit: metres unless it says otherwise.
func (s ClipSource) Units() bvh.Units {
	if s.Unit.Name == "" {
		return bvh.Metres
	}
	return s.Unit
}

// Frame copies frame f of the clip.
func (s ClipSource) Frame(f int, pos []mgl32.Vec3, rot []mgl32.Quat, scl []mgl32.Vec3) {
	c := s.Clip
	for j := 0; j < c.Joints; j++ {
		pos[j], scl[j] = c.PosAt(f, j), c.SclAt(f, j)
	}
	copy(rot, c.Rot[c.At(f, 0):c.At(f+1, 0)])
}
