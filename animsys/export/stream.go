package export

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/bvh"
)

// Options say what to export.
type Options struct {
	// FPS is the output frame rate; 0 exports the source's own frames.
	FPS float64
	// Linear samples between frames by linear interpolation
	// (op_sample_linear) instead of cubic (animsys.SampleCubic).
	Linear bool
	// FD adds the finite difference of the exported poses beside the
	// propagated velocities (central, one-sided at the first and last
	// frame).
	FD bool
	// Units is the length unit of the output: positions and linear
	// velocities are divided by its size in metres. The zero value is
	// metres.
	Units bvh.Units
}

// Header describes an export before its first frame.
type Header struct {
	Name    string   // the source's name
	Joints  []string // joint names, End Sites included
	Parents []int    // parent index per joint, -1 for a root
	EndSite []bool   // which joints are a BVH file's End Sites
	Frames  int      // output frames
	FPS     float64  // output frames per second
	Sample  string   // "linear" or "cubic"
	Units   string   // length unit of positions and linear velocities
	FD      bool     // Frame.LocalFD and WorldFD are filled
}

// Frame is one exported frame. Local holds each joint relative to its
// parent (animsys.SampleCubic or SampleLinear), World the result of
// animsys.FK: positions and linear velocities in the output unit,
// rotations as unit quaternions, scales as ratios, angular velocities in
// rad/s on the world side (in the parent's frame for Local), scalar
// velocities in natural-log scale per second. LocalFD and WorldFD hold,
// in their Vel, Ang and Svl only, the finite differences of Local's and
// World's positions, rotations and scales when Header.FD is set.
type Frame struct {
	Index            int
	Time             float64 // s from the first exported frame
	Local, World     animsys.Pose
	LocalFD, WorldFD animsys.Pose
}

// Writer receives an export: Begin once, Frame for every frame in order,
// then End. The Frame it is given is reused for the next frame.
type Writer interface {
	Begin(h *Header) error
	Frame(f *Frame) error
	End() error
}

// Stream samples a source at the output frames and runs FK, holding only
// the four source frames around the time sampled.
type Stream struct {
	src    Source
	opt    Options
	parent []int
	n      int

	frames int     // output frames
	step   float64 // output frame time (s); 0 for the source's own frames

	// ring holds the last four source frames read (frame i in slot i%4);
	// read is the number read so far.
	ring [4]struct {
		pos []mgl32.Vec3
		rot []mgl32.Quat
		scl []mgl32.Vec3
	}
	read int
	// curves is the source's exact curves (CurveSource), nil to sample
	// its frames.
	curves animsys.Curves
	// win[k] holds the k frames around the time sampled (fewer than 4 at
	// the source's ends).
	win [5]animsys.Clip
}

// NewStream prepares to export src with opt. The source must have at
// least one frame and a positive frame time.
func NewStream(src Source, opt Options) (*Stream, error) {
	sk := src.Skeleton()
	if err := sk.Validate(); err != nil {
		return nil, err
	}
	n, frames, ft := sk.Len(), src.Frames(), src.FrameTime()
	switch {
	case frames < 1:
		return nil, fmt.Errorf("%s: no frames to export", src.Name())
	case !(ft > 0) || math.IsInf(float64(ft), 0):
		return nil, fmt.Errorf("%s: frame time %g: want a positive number of seconds", src.Name(), ft)
	case !(opt.FPS >= 0) || math.IsInf(opt.FPS, 0):
		return nil, fmt.Errorf("fps %g: want 0 (the source's frames) or a positive rate", opt.FPS)
	}
	s := &Stream{src: src, opt: opt, parent: sk.Parents, n: n, frames: frames}
	if cs, ok := src.(CurveSource); ok {
		s.curves = cs.Curves()
	}
	if opt.FPS > 0 {
		s.step = 1 / opt.FPS
		// The frames k/fps up to the source's last frame; the 1e-9
		// keeps a last frame that rounding would put just past it.
		s.frames = int(math.Floor(float64(frames-1)*float64(ft)*opt.FPS+1e-9)) + 1
		if s.frames > 1<<31 {
			return nil, fmt.Errorf("fps %g: %d frames is too many", opt.FPS, s.frames)
		}
	}
	for i := range s.ring {
		s.ring[i].pos = make([]mgl32.Vec3, n)
		s.ring[i].rot = make([]mgl32.Quat, n)
		s.ring[i].scl = make([]mgl32.Vec3, n)
	}
	for k := 1; k <= 4; k++ {
		s.win[k] = animsys.NewClip(src.Name(), k, n, ft)
		s.win[k].TrackAll() // rewritten every frame: without allocating
	}
	return s, nil
}

// Frames is the number of output frames.
func (s *Stream) Frames() int { return s.frames }

// FPS is the output frame rate (frames per second): --fps, or the
// source's own rate (a BVH file's as its Frame Time is written, a clip's
// animsys.RateOf), not 1/FrameTime, the float32 (59.99999687 for a 60 fps
// file).
func (s *Stream) FPS() float64 {
	if s.step > 0 {
		return s.opt.FPS
	}
	if r, ok := s.src.(interface{ Rate() float64 }); ok {
		return r.Rate()
	}
	return animsys.RateOf(s.src.FrameTime())
}

// Time is the time (s) of output frame k: k/fps, or k frame times; for
// curves that know their end (animsys.CurvesEnd), the fraction k /
// (frames - 1) of it, so that the last frame is the end exactly.
func (s *Stream) Time(k int) float64 {
	if s.step > 0 {
		return float64(k) * s.step
	}
	if ce, ok := s.curves.(animsys.CurvesEnd); ok && s.frames > 1 {
		return ce.End() * float64(k) / float64(s.frames-1)
	}
	return float64(k) * float64(s.src.FrameTime())
}

// at is where output frame k falls in the source: frame st and fraction
// alpha towards st+1. The source's last frame is the end of the last
// interval (alpha = 1), so its velocities are those the sampled curve ends
// with rather than the rest a clamped sampler holds there.
func (s *Stream) at(k int) (st int, alpha float32) {
	last := s.src.Frames() - 1
	if last == 0 {
		return 0, 0
	}
	if s.step == 0 {
		if k >= last {
			return last - 1, 1
		}
		return k, 0
	}
	u := s.Time(k) / float64(s.src.FrameTime())
	st = int(math.Floor(u))
	if st >= last {
		return last - 1, 1
	}
	return st, float32(u - float64(st))
}

// Sample writes output frame k: its local pose, sampled from the source,
// and its world pose by FK, in the output unit. Frames must be sampled in
// increasing order (the source is read forward only).
func (s *Stream) Sample(k int, local, world *animsys.Pose) {
	if s.curves != nil {
		s.sampleCurves(k, local)
		s.world(local, world)
		return
	}
	st, alpha := s.at(k)
	lo, hi := max(st-1, 0), min(st+2, s.src.Frames()-1)
	if s.opt.Linear {
		lo, hi = st, min(st+1, s.src.Frames()-1)
	}
	for s.read <= hi {
		r := &s.ring[s.read%4]
		s.src.Frame(s.read, r.pos, r.rot, r.scl)
		s.read++
	}
	if lo < s.read-4 {
		panic("export: frames sampled out of order")
	}
	n, w := s.n, &s.win[hi-lo+1]
	for i := 0; i < w.Frames; i++ {
		r := &s.ring[(lo+i)%4]
		for j := 0; j < n; j++ {
			w.SetPos(i, j, r.pos[j])
			w.SetScl(i, j, r.scl[j])
		}
		copy(w.Rot[i*n:(i+1)*n], r.rot)
	}
	if s.opt.Linear {
		animsys.SampleLinearFrame(local, w, st-lo, alpha)
	} else {
		animsys.SampleCubicFrame(local, w, st-lo, alpha)
	}
	s.world(local, world)
}

// sampleCurves writes output frame k sampled from the source's curves:
// exactly, at its time, except that the last frame of the source takes
// the velocities the curves end with, as the frames' sampling does (at),
// rather than the rest held from there: exactly at their end
// (SampleCurvesEnd) when they know it, else just before the last frame.
func (s *Stream) sampleCurves(k int, local *animsys.Pose) {
	t := s.Time(k)
	st, alpha := s.at(k)
	if ce, ok := s.curves.(animsys.CurvesEnd); ok {
		if alpha == 1 || t >= ce.End() {
			ce.SampleCurvesEnd(local)
		} else {
			ce.SampleCurves(local, t)
		}
		return
	}
	if alpha == 1 {
		t = math.Nextafter(float64(st+1)*float64(s.src.FrameTime()), 0)
	}
	s.curves.SampleCurves(local, t)
}

// world runs FK on local into world and converts both to the output
// unit.
func (s *Stream) world(local, world *animsys.Pose) {
	n := s.n
	animsys.FK(world, local, s.parent)
	if u := s.opt.Units.Scale(); u != 1 {
		inv := 1 / u
		for j := 0; j < n; j++ {
			local.Pos[j], local.Vel[j] = local.Pos[j].Mul(inv), local.Vel[j].Mul(inv)
			world.Pos[j], world.Vel[j] = world.Pos[j].Mul(inv), world.Vel[j].Mul(inv)
		}
	}
}

// Header is the header of the export.
func (s *Stream) Header() Header {
	sk := s.src.Skeleton()
	end := s.src.EndSites()
	if end == nil {
		end = make([]bool, s.n)
	}
	sample := "cubic"
	switch {
	case s.curves != nil:
		sample = "curves" // the source's own, exactly
	case s.opt.Linear:
		sample = "linear"
	}
	return Header{Name: s.src.Name(), Joints: sk.Names, Parents: sk.Parents, EndSite: end,
		Frames: s.frames, FPS: s.FPS(), Sample: sample, Units: unitLabel(s.opt.Units), FD: s.opt.FD}
}

// unitLabel names a length unit in headers: its name ("m", "cm", "in",
// "cmu"), or for a factor its size, "0.05m" (a unit of 0.05 m).
func unitLabel(u bvh.Units) string {
	if _, err := strconv.ParseFloat(u.String(), 64); err == nil {
		return u.String() + "m"
	}
	return u.String()
}

// Export streams every output frame of src to w. It holds three frames of
// output (the finite difference looks one frame ahead) and four of input,
// whatever the length of the source. It stops with ctx's error when ctx
// is done (an interrupted command): the caller then aborts w.
func Export(ctx context.Context, src Source, opt Options, w Writer) error {
	s, err := NewStream(src, opt)
	if err != nil {
		return err
	}
	return s.Run(ctx, w)
}

// Run streams every output frame to w, checking ctx before each.
func (s *Stream) Run(ctx context.Context, w Writer) error {
	h := s.Header()
	if err := w.Begin(&h); err != nil {
		return err
	}
	// Three frames in turn: the one written, the one before (the finite
	// difference's past) and the one after (its future).
	var fr [3]Frame
	for i := range fr {
		animsys.NewPoses(s.n, &fr[i].Local, &fr[i].World, &fr[i].LocalFD, &fr[i].WorldFD)
	}
	sample := func(k int) *Frame {
		f := &fr[k%3]
		f.Index, f.Time = k, s.Time(k)
		s.Sample(k, &f.Local, &f.World)
		return f
	}
	if !s.opt.FD {
		for k := 0; k < s.frames; k++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := w.Frame(sample(k)); err != nil {
				return err
			}
		}
		return w.End()
	}
	sample(0)
	for k := 0; k < s.frames; k++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if k+1 < s.frames {
			sample(k + 1)
		}
		cur := &fr[k%3]
		a, b := cur, cur // the difference from frame a to frame b
		if k > 0 {
			a = &fr[(k-1)%3]
		}
		if k+1 < s.frames {
			b = &fr[(k+1)%3]
		}
		finiteDiff(&cur.LocalFD, &b.Local, &a.Local, b.Time-a.Time)
		finiteDiff(&cur.WorldFD, &b.World, &a.World, b.Time-a.Time)
		if err := w.Frame(cur); err != nil {
			return err
		}
	}
	return w.End()
}

// finiteDiff writes into out's velocities the finite difference from pose a
// to pose b, dt seconds later (op_finite_diff); zero for a single frame.
func finiteDiff(out, b, a *animsys.Pose, dt float64) {
	if !(dt > 0) {
		clear(out.Vel)
		clear(out.Ang)
		clear(out.Svl)
		return
	}
	animsys.FiniteDiff(out, b, a, float32(dt))
}
