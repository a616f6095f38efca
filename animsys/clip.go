package animsys

import (
	"math"
	"slices"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// Clip is sampled animation: every joint's local rotation, position (m)
// and scale in Frames frames, one every FrameTime seconds. Rotations are
// stored for every joint and frame (Rot, frame-major: Rot[At(f, j)]);
// positions and scales, which most joints of most clips never change (a
// BVH joint only rotates about its fixed offset), are stored as one value
// per joint plus a track of every frame for the joints that do change (a
// root, a stretching bone). Read them with PosAt and SclAt, write them
// with SetPos and SetScl. Call Prepare once the frames are filled: it
// drops the tracks that turned out constant and caches what sampling would
// recompute every call.
type Clip struct {
	Name      string
	FrameTime float32
	Frames    int
	Joints    int
	// Rot holds joint j's rotation in frame f at At(f, j).
	Rot []mgl32.Quat
	// LoopStart and LoopEnd (s), when LoopEnd > LoopStart, mark a seamless
	// loop inside the clip: the pose at LoopEnd equals the pose at
	// LoopStart (up to root motion), and the frames outside the loop pad
	// it so that cubic sampling near its ends needs no clamping.
	LoopStart, LoopEnd float32

	// Curves, when set, is the clip's exact source (a glTF animation):
	// SampleCubic, SampleLinear and their Frame forms sample it instead
	// of the frames, which then hold it resampled every FrameTime for
	// what reads frames (plots, features, exports at the frame rate).
	// Clips made from this one's frames (NewClip, CopyJoint, MirrorClip)
	// do not carry it.
	Curves Curves

	pos, scl track3

	// Cached by Prepare (see there): the curves' blocks of each interval
	// from frame f to f+1, interval after interval, made with the ends
	// wrapped or not (recsWrap: Wraps then; a loop marked since makes the
	// cache stale, and sampling computes from the frames).
	recs             []rotRec
	posRecs, sclRecs []chanRec
	recsWrap         bool
}

// Curves are animation curves sampled at any time, the exact source of
// a clip (Clip.Curves): SampleCurves writes the local pose at time t (s)
// into out, which has the clip's joints, with the curves' analytic time
// derivatives as velocities (m/s, rad/s world side, 1/s of log scale),
// holding the ends at rest outside the clip. It must not allocate, and
// must be safe to call from several goroutines at once (a crowd samples
// one clip on every thread).
type Curves interface {
	SampleCurves(out *Pose, t float64)
}

// CurvesEnd is implemented by Curves that end at a known time, End (s),
// where SampleCurves holds them at rest from then on: SampleCurvesEnd
// writes the pose at End approached from inside, the values there with
// the derivatives the curves end with (each ending piece's at its end).
// A clip's last frame is sampled so, exactly: a frame time rounded to
// float32 and multiplied back out lands up to 1e-6 s past the end (or
// short of it), which read the rest held there in half the clips of the
// shared glTF files.
type CurvesEnd interface {
	Curves
	End() float64
	SampleCurvesEnd(out *Pose)
}

// CurvePieces is implemented by Curves that are smooth only piecewise
// (keyframed curves: a linear curve's velocity jumps at every key, a step
// curve's value): Piece numbers the piece time t (s) lies in, so that a
// finite difference (package verify) knows not to straddle two.
type CurvePieces interface {
	Piece(t float64) int
}

// track3 is a vector channel (positions or scales) of every joint of a
// clip: a value per joint, which holds in every frame, or for a tracked
// joint a track of one value per frame.
type track3 struct {
	value  []mgl32.Vec3   // per joint: its value in every frame (untracked joints)
	slot   []int32        // per joint: its track, or -1
	joints []int32        // per track: its joint, in increasing order after Prepare
	data   [][]mgl32.Vec3 // per track: its value in every frame
}

func newTrack3(joints int, v mgl32.Vec3) track3 {
	t := track3{value: make([]mgl32.Vec3, joints), slot: make([]int32, joints)}
	for j := range t.value {
		t.value[j], t.slot[j] = v, -1
	}
	return t
}

func (t *track3) at(f, j int) mgl32.Vec3 {
	if k := t.slot[j]; k >= 0 {
		return t.data[k][f]
	}
	return t.value[j]
}

// set sets joint j's value in frame f: a joint first given a value other
// than the one it holds gets a track, holding that value in its other
// frames. A new track is a new layout, made in new slices so that a copy
// of the clip keeps its own.
func (t *track3) set(frames, f, j int, v mgl32.Vec3) {
	if t.slot[j] < 0 {
		if v == t.value[j] {
			return
		}
		t.track(frames, j)
	}
	t.data[t.slot[j]][f] = v
}

// track gives joint j a track holding its value in every frame.
func (t *track3) track(frames, j int) {
	tr := make([]mgl32.Vec3, frames)
	for i := range tr {
		tr[i] = t.value[j]
	}
	t.slot = slices.Clone(t.slot)
	t.slot[j] = int32(len(t.joints))
	t.joints = append(slices.Clip(t.joints), int32(j))
	t.data = append(slices.Clip(t.data), tr)
}

// setAll gives joint j value v in every frame (a track it had holds v
// until compact drops it).
func (t *track3) setAll(j int, v mgl32.Vec3) {
	t.value[j] = v
	if k := t.slot[j]; k >= 0 {
		for i := range t.data[k] {
			t.data[k][i] = v
		}
	}
}

// copyJoint makes joint to hold, frame by frame, what joint from of src
// (a channel of as many frames) holds.
func (t *track3) copyJoint(frames, to int, src *track3, from int) {
	k := src.slot[from]
	if k < 0 {
		t.setAll(to, src.value[from])
		return
	}
	tr := src.data[k]
	t.setAll(to, tr[0])
	for f, v := range tr {
		t.set(frames, f, to, v)
	}
}

// compact drops the tracks whose every frame holds one value (their joint
// then holds it) and puts the others in joint order, in new slices (as set
// does).
func (t *track3) compact() {
	t.slot, t.value = slices.Clone(t.slot), slices.Clone(t.value)
	var joints []int32
	var data [][]mgl32.Vec3
	for j, k := range t.slot {
		if k < 0 {
			continue
		}
		tr := t.data[k]
		constant := true
		for _, v := range tr {
			constant = constant && v == tr[0]
		}
		if constant {
			if len(tr) > 0 {
				t.value[j] = tr[0]
			}
			t.slot[j] = -1
			continue
		}
		t.slot[j] = int32(len(joints))
		joints, data = append(joints, int32(j)), append(data, tr)
	}
	t.joints, t.data = joints, data
}

// NewClip allocates a clip of frames x joints at identity: every joint at
// the origin, unrotated, unscaled.
func NewClip(name string, frames, joints int, frameTime float32) Clip {
	c := Clip{Name: name, FrameTime: frameTime, Frames: frames, Joints: joints,
		Rot: make([]mgl32.Quat, frames*joints),
		pos: newTrack3(joints, mgl32.Vec3{}),
		scl: newTrack3(joints, mgl32.Vec3{1, 1, 1}),
	}
	for i := range c.Rot {
		c.Rot[i] = mathx.QuatIdentity()
	}
	return c
}

// CurvesClip is a clip of joints joints sampled exactly from curves cv
// over [0, duration] (s) (Clip.Curves), with cv resampled into frames
// for what reads frames: ceil(duration fps) + 1 of them, at least 2,
// spread evenly so that the clip ends where the curves do (a duration
// within 1e-3 frames of a whole number of frames takes no extra frame for
// its rounding). fps not positive and finite is 30. The clip is prepared.
func CurvesClip(name string, cv Curves, joints int, duration, fps float32) Clip {
	if !(fps > 0) || math.IsInf(float64(fps), 0) {
		fps = 30
	}
	d := float64(duration)
	if !(d > 0) || math.IsInf(d, 0) {
		d = 0
	}
	frames := max(int(math.Ceil(d*float64(fps)-1e-3))+1, 2)
	step := d / float64(frames-1)
	if step == 0 { // a single pose: two frames of it
		step = 1 / float64(fps)
	}
	c := NewClip(name, frames, joints, float32(step))
	pose := NewPose(joints)
	for f := 0; f < frames; f++ {
		t := float64(f) * step
		if f == frames-1 && d > 0 {
			t = d // the end itself, not its rounding
		}
		cv.SampleCurves(&pose, t)
		c.SetFrame(f, &pose)
	}
	c.Prepare()
	c.Curves = cv
	return c
}

// Duration is the time (s) from the first to the last frame.
func (c *Clip) Duration() float32 { return float32(c.Frames-1) * c.FrameTime }

// Rate is the clip's frames a second (RateOf its FrameTime).
func (c *Clip) Rate() float64 { return RateOf(c.FrameTime) }

// RateOf is the frame rate (frames a second) whose frame time ft (s) is,
// as float32 holds it: the whole number of frames a second whose frame
// time rounds to ft when there is one (a 60 fps clip's float32(1/60), whose
// inverse is 59.9999975...), else 1/ft.
func RateOf(ft float32) float64 {
	r := 1 / float64(ft)
	if n := math.Round(r); n > 0 && float32(1/n) == ft {
		return n
	}
	return r
}

// Loop returns the start (s) and length (s) of the clip's loop: the marked
// loop, or else the whole clip.
func (c *Clip) Loop() (start, length float32) {
	if c.LoopEnd > c.LoopStart {
		return c.LoopStart, c.LoopEnd - c.LoopStart
	}
	return 0, c.Duration()
}

// At returns the index of frame f, joint j in Rot.
func (c *Clip) At(f, j int) int { return f*c.Joints + j }

// PosAt is joint j's local position (m) in frame f.
func (c *Clip) PosAt(f, j int) mgl32.Vec3 { return c.pos.at(f, j) }

// SclAt is joint j's local scale in frame f.
func (c *Clip) SclAt(f, j int) mgl32.Vec3 { return c.scl.at(f, j) }

// SetPos sets joint j's local position (m) in frame f. Call Prepare again
// after changing a prepared clip.
func (c *Clip) SetPos(f, j int, v mgl32.Vec3) { c.pos.set(c.Frames, f, j, v) }

// SetScl sets joint j's local scale in frame f.
func (c *Clip) SetScl(f, j int, v mgl32.Vec3) { c.scl.set(c.Frames, f, j, v) }

// SetPosAll sets joint j's local position (m) to v in every frame.
func (c *Clip) SetPosAll(j int, v mgl32.Vec3) { c.pos.setAll(j, v) }

// SetSclAll sets joint j's local scale to v in every frame.
func (c *Clip) SetSclAll(j int, v mgl32.Vec3) { c.scl.setAll(j, v) }

// TrackAll gives every joint a position and a scale track, so that
// writing frames never allocates: for a small clip rewritten over and over
// (a window of frames to sample). Prepare drops the constant ones again.
func (c *Clip) TrackAll() {
	c.pos.trackAll(c.Frames)
	c.scl.trackAll(c.Frames)
}

// trackAll gives every untracked joint a track, as track does one at a
// time but in one new layout: track's copies, made per joint, would cost
// joints^2 (seconds for the 10,000 joints of a wide export).
func (t *track3) trackAll(frames int) {
	untracked := 0
	for _, k := range t.slot {
		if k < 0 {
			untracked++
		}
	}
	if untracked == 0 {
		return
	}
	t.slot = slices.Clone(t.slot)
	t.joints = slices.Grow(slices.Clip(t.joints), untracked)
	t.data = slices.Grow(slices.Clip(t.data), untracked)
	// One backing array for the new tracks: untracked x frames values.
	buf := make([]mgl32.Vec3, untracked*frames)
	for j, k := range t.slot {
		if k >= 0 {
			continue
		}
		tr := buf[:frames:frames]
		buf = buf[frames:]
		for i := range tr {
			tr[i] = t.value[j]
		}
		t.slot[j] = int32(len(t.joints))
		t.joints = append(t.joints, int32(j))
		t.data = append(t.data, tr)
	}
}

// SetFrame sets every joint's position, rotation and scale in frame f to
// those of p (its first Joints joints; velocities are not stored).
func (c *Clip) SetFrame(f int, p *Pose) {
	need("Clip.SetFrame", "p", p, transforms, c.Joints, "the clip's Joints")
	for j := 0; j < c.Joints; j++ {
		c.SetPos(f, j, p.Pos[j])
		c.SetScl(f, j, p.Scl[j])
	}
	copy(c.Rot[c.At(f, 0):c.At(f+1, 0)], p.Rot[:c.Joints])
}

// CopyJoint makes joint to of c move as joint from of src, a clip of as
// many frames: its rotation, position and scale in every frame.
func (c *Clip) CopyJoint(to int, src *Clip, from int) {
	for f := 0; f < c.Frames; f++ {
		c.Rot[c.At(f, to)] = src.Rot[src.At(f, from)]
	}
	c.pos.copyJoint(c.Frames, to, &src.pos, from)
	c.scl.copyJoint(c.Frames, to, &src.scl, from)
}

// Frame writes frame f's positions, rotations and scales into out (which
// has at least Joints joints); its velocities are left as they are.
func (c *Clip) Frame(out *Pose, f int) {
	need("Clip.Frame", "out", out, transforms, c.Joints, "the clip's Joints")
	for j := 0; j < c.Joints; j++ {
		out.Pos[j], out.Scl[j] = c.PosAt(f, j), c.SclAt(f, j)
	}
	copy(out.Rot[:c.Joints], c.Rot[c.At(f, 0):c.At(f+1, 0)])
}

// Bytes is the memory the clip's frames and its Prepare cache hold
// (bytes): rotations, position and scale tracks and per-joint values, and
// the cache; not Curves, nor the slices' unused capacity.
func (c *Clip) Bytes() int {
	n := 16*len(c.Rot) + int(unsafe.Sizeof(rotRec{}))*len(c.recs) + int(unsafe.Sizeof(chanRec{}))*(len(c.posRecs)+len(c.sclRecs))
	for _, t := range []*track3{&c.pos, &c.scl} {
		n += 12*len(t.value) + 4*len(t.slot) + 4*len(t.joints)
		for _, d := range t.data {
			n += 12 * len(d)
		}
	}
	return n
}
