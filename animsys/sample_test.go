package animsys

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

func TestBenchSkeleton(t *testing.T) {
	s := BenchSkeleton()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.Len() != 23 || s.Names[0] != "Entity" || s.Names[14] != "Head" || s.Parents[22] != 21 {
		t.Fatalf("skeleton %v %v", s.Names, s.Parents)
	}
	if s.Offsets[2] != (mgl32.Vec3{.1, -.05, 0}) || s.Offsets[6] != (mgl32.Vec3{-.1, -.05, 0}) ||
		s.Offsets[19] != (mgl32.Vec3{-.04, .12, 0}) {
		t.Fatalf("offsets %v", s.Offsets)
	}
}

// The generator follows bench-spec exactly: xorshift32 seeded with
// seed*2654435761 + 12345, u = (x>>8)/2^24, parameters in draw order.
func TestBenchClipGenerator(t *testing.T) {
	r := mathx.NewXorshift32(1)
	x := uint32(1)*2654435761 + 12345
	x ^= x << 13
	x ^= x >> 17
	x ^= x << 5
	if got, want := r.Float(), float32(x>>8)/(1<<24); got != want {
		t.Fatalf("first draw %v, want %v", got, want)
	}
	m := NewBenchMotion(1)
	r = mathx.NewXorshift32(1)
	if amp := .05 + .25*r.Float(); m.Amp[0][0] != amp {
		t.Fatalf("first amplitude %v, want %v", m.Amp[0][0], amp)
	}
	for _, k := range []int{0, 1, 2} {
		for j := range m.Amp {
			if m.Amp[j][k] < .05 || m.Amp[j][k] > .3 || m.Freq[j][k] < .25 || m.Freq[j][k] > 1.5 {
				t.Fatalf("joint %d axis %d: amp %v freq %v out of range", j, k, m.Amp[j][k], m.Freq[j][k])
			}
		}
	}
	c := GenerateBenchClip(1)
	if c.Frames != 600 || c.Joints != 23 || c.FrameTime != float32(1.0/60) {
		t.Fatalf("clip %d x %d at %v", c.Frames, c.Joints, c.FrameTime)
	}
	// Frame 0: root at (0.2 sin(phi0), 0, 0), hips at 0.95 + 0.03 sin(phi1),
	// offsets elsewhere, unit scale except joints 7, 11, 17.
	if p := c.PosAt(0, 0); p[1] != 0 || p[2] != 0 || mathx.Clamp(p[0], -.2, .2) != p[0] {
		t.Fatalf("root at frame 0: %v", p)
	}
	if p := c.PosAt(599, 0); p[2] < 11.9 || p[2] > 12 {
		t.Fatalf("root z at frame 599: %v, want 1.2*599/60", p)
	}
	if c.PosAt(10, 3) != (mgl32.Vec3{0, -.42, 0}) || c.SclAt(10, 3) != (mgl32.Vec3{1, 1, 1}) {
		t.Fatal("joint 3 should hold its offset and unit scale")
	}
	if s := c.SclAt(10, 7); s[0] == 1 || s[0] != s[1] || s[0] < 0.9 || s[0] > 1.11 {
		t.Fatalf("joint 7 scale %v", s)
	}
	d := GenerateBenchClip(1)
	for f := 0; f < c.Frames; f++ {
		for j := 0; j < c.Joints; j++ {
			if c.Rot[c.At(f, j)] != d.Rot[d.At(f, j)] || c.PosAt(f, j) != d.PosAt(f, j) || c.SclAt(f, j) != d.SclAt(f, j) {
				t.Fatal("generator is not deterministic")
			}
		}
	}
}

// At a frame time both samplers return the frame; between frames the
// linear sampler's velocity is the frame difference over dt.
func TestSamplingHitsFrames(t *testing.T) {
	c := GenerateBenchClip(3)
	p := NewPose(c.Joints)
	for _, sample := range []func(*Pose, *Clip, float32){SampleLinear, SampleCubic} {
		for _, f := range []int{0, 1, 57, 598, 599} {
			sample(&p, &c, float32(f)*c.FrameTime)
			for j := 0; j < c.Joints; j++ {
				i := c.At(f, j)
				q := p.Rot[j]
				if !near3(p.Pos[j], c.PosAt(f, j), 2e-5) || !nearQ(q, c.Rot[i], 2e-6) || !near3(p.Scl[j], c.SclAt(f, j), 1e-6) {
					t.Fatalf("frame %d joint %d: sampled %v %v %v, frame %v %v %v", f, j, p.Pos[j], q, p.Scl[j],
						c.PosAt(f, j), c.Rot[i], c.SclAt(f, j))
				}
			}
		}
	}
	SampleLinear(&p, &c, 10.4*c.FrameTime)
	want := c.PosAt(11, 0).Sub(c.PosAt(10, 0)).Mul(1 / c.FrameTime)
	if !near3(p.Vel[0], want, 1e-4) {
		t.Fatalf("linear root velocity %v, want %v", p.Vel[0], want)
	}
}

// Outside the clip the samplers hold the end frames, at rest.
func TestSamplingClampsAtEnds(t *testing.T) {
	c := GenerateBenchClip(3)
	p := NewPose(c.Joints)
	for _, sample := range []func(*Pose, *Clip, float32){SampleLinear, SampleCubic} {
		for _, tm := range []float32{-1, -0.001, c.Duration() + 0.001, c.Duration() + 5} {
			sample(&p, &c, tm)
			f := 0
			if tm > 0 {
				f = c.Frames - 1
			}
			if !near3(p.Pos[0], c.PosAt(f, 0), 1e-5) || p.Vel[0] != (mgl32.Vec3{}) || p.Ang[5] != (mgl32.Vec3{}) {
				t.Fatalf("t = %v: pos %v vel %v ang %v", tm, p.Pos[0], p.Vel[0], p.Ang[5])
			}
		}
	}
}

// Cubic sampling follows the analytic motion between frames closely: its
// position error is O(dt^4), its velocity error O(dt^2), about (w dt)^2/6
// of the velocity (4e-3 at 1.5 Hz), where linear sampling's velocity, away
// from mid-frame, is off by O(dt) (dt/4 x acceleration at a quarter frame).
func TestCubicFollowsAnalyticMotion(t *testing.T) {
	c := GenerateBenchClip(2)
	m := NewBenchMotion(2)
	p, lin, exact := NewPose(c.Joints), NewPose(c.Joints), NewPose(c.Joints)
	var cubAng, linAng float32
	for f := 30; f < 570; f += 7 {
		tm := (float32(f) + 0.25) * c.FrameTime
		SampleCubic(&p, &c, tm)
		SampleLinear(&lin, &c, tm)
		m.Eval(&exact, float64(f)/60+0.25/60)
		for j := 0; j < c.Joints; j++ {
			if d := p.Pos[j].Sub(exact.Pos[j]).Len(); d > 1e-5 {
				t.Fatalf("frame %d.25 joint %d: cubic pos off by %g m", f, j, d)
			}
			cubAng = max(cubAng, p.Ang[j].Sub(exact.Ang[j]).Len())
			linAng = max(linAng, lin.Ang[j].Sub(exact.Ang[j]).Len())
		}
	}
	if cubAng > 0.01 || cubAng > linAng/3 {
		t.Fatalf("cubic angular velocity error %g rad/s (linear %g)", cubAng, linAng)
	}
}

func TestTimeScaleAndRemoveRoot(t *testing.T) {
	c := GenerateBenchClip(1)
	p, q := NewPose(c.Joints), NewPose(c.Joints)
	SampleCubic(&p, &c, 2)
	q.CopyFrom(&p)
	TimeScale(&q, -0.5)
	if !near3(q.Vel[3], p.Vel[3].Mul(-0.5), 1e-6) || !near3(q.Ang[3], p.Ang[3].Mul(-0.5), 1e-6) ||
		q.Pos[3] != p.Pos[3] || q.Rot[3] != p.Rot[3] {
		t.Fatal("TimeScale must scale velocities only")
	}
	RemoveGlobalRoot(&p)
	if p.Pos[0] != (mgl32.Vec3{}) || p.Vel[0] != (mgl32.Vec3{}) || p.Rot[0] != mathx.QuatIdentity() {
		t.Fatalf("root not removed: %+v", p.Kform(0))
	}
}

// Sampling by frame and fraction reaches the clip's end from inside: at
// alpha = 1 of the last interval the pose is the last frame and the
// velocities are the curve's own there (continuous with alpha just below
// 1); sampling at the end time gives the same, and past it holds the
// frame at rest. The curve's tangent at the last frame is one-sided (its
// ghost frame carries the motion on), so a non-looping clip ends at the
// last interval's whole rate, cubic and linear alike, and starts at the
// first interval's.
func TestSampleFrameAtEnd(t *testing.T) {
	c := GenerateBenchClip(3)
	last := c.Frames - 1
	end, before, atEnd, past := NewPose(c.Joints), NewPose(c.Joints), NewPose(c.Joints), NewPose(c.Joints)
	for _, s := range []struct {
		name   string
		sample func(*Pose, *Clip, int, float32)
		at     func(*Pose, *Clip, float32)
		tol    float32 // m/s between alpha = 1 and 1 - 1e-4
	}{{"linear", SampleLinearFrame, SampleLinear, 1e-6}, {"cubic", SampleCubicFrame, SampleCubic, 1e-3}} {
		s.sample(&end, &c, last-1, 1)
		s.sample(&before, &c, last-1, 1-1e-4)
		s.at(&atEnd, &c, c.Duration())
		s.at(&past, &c, c.Duration()+c.FrameTime)
		for j := 0; j < c.Joints; j++ {
			i := c.At(last, j)
			if !near3(end.Pos[j], c.PosAt(last, j), 2e-5) || !nearQ(end.Rot[j], c.Rot[i], 2e-6) || !near3(end.Scl[j], c.SclAt(last, j), 1e-6) {
				t.Fatalf("%s joint %d: alpha 1 gives %v %v, last frame %v %v", s.name, j, end.Pos[j], end.Rot[j], c.PosAt(last, j), c.Rot[i])
			}
			if !near3(end.Vel[j], before.Vel[j], s.tol) || !near3(end.Ang[j], before.Ang[j], s.tol) {
				t.Fatalf("%s joint %d: velocity %v %v at the end, %v %v just before", s.name, j, end.Vel[j], end.Ang[j], before.Vel[j], before.Ang[j])
			}
			if atEnd.Kform(j) != end.Kform(j) {
				t.Fatalf("%s joint %d: at the end time %+v, at alpha 1 of the last interval %+v", s.name, j, atEnd.Kform(j), end.Kform(j))
			}
			if past.Vel[j] != (mgl32.Vec3{}) || past.Ang[j] != (mgl32.Vec3{}) || past.Rot[j] != c.Rot[i] {
				t.Fatalf("%s joint %d: past the end %v %v, want the last frame at rest", s.name, j, past.Rot[j], past.Vel[j])
			}
		}
		want := c.PosAt(last, 0).Sub(c.PosAt(last-1, 0)).Mul(1 / c.FrameTime)
		if !near3(end.Vel[0], want, 1e-3) || want.Len() < 0.5 {
			t.Fatalf("%s: root velocity %v at the end, want the last interval's %v", s.name, end.Vel[0], want)
		}
		s.sample(&end, &c, 0, 0)
		want = c.PosAt(1, 0).Sub(c.PosAt(0, 0)).Mul(1 / c.FrameTime)
		if !near3(end.Vel[0], want, 1e-3) {
			t.Fatalf("%s: root velocity %v at the start, want the first interval's %v", s.name, end.Vel[0], want)
		}
	}
}

// A clip that loops as a whole (its loop from the first frame to the
// last, which repeats the first) takes its end tangents across the wrap:
// at frame 0 the velocity is the mean of the last interval's delta and the
// first's, the central difference across the wrap, where a clip that does
// not loop takes the first interval's alone.
func TestSampleWrapsAtLoopEnds(t *testing.T) {
	const frames = 61
	c := NewClip("circle", frames, 2, 1.0/60)
	for f := 0; f < frames; f++ {
		a := 2 * math.Pi * float64(f) / (frames - 1)
		c.SetPos(f, 1, mgl32.Vec3{float32(math.Cos(a)), 0, float32(math.Sin(a))})
		c.Rot[c.At(f, 1)] = mgl32.QuatRotate(float32(a), mgl32.Vec3{0, 1, 0})
	}
	c.Prepare()
	p := NewPose(2)
	inv := 1 / c.FrameTime
	for _, loop := range []bool{false, true} {
		c.LoopStart, c.LoopEnd = 0, 0
		if loop {
			c.LoopEnd = c.Duration()
		}
		if c.Wraps() != loop {
			t.Fatalf("loop %v: Wraps %v", loop, c.Wraps())
		}
		SampleCubicFrame(&p, &c, 0, 0)
		d12 := c.PosAt(1, 1).Sub(c.PosAt(0, 1))
		want := d12.Mul(inv)
		if loop {
			want = c.PosAt(frames-1, 1).Sub(c.PosAt(frames-2, 1)).Add(d12).Mul(0.5 * inv)
		}
		if !near3(p.Vel[1], want, 1e-4) {
			t.Errorf("loop %v: velocity at frame 0 %v, want %v", loop, p.Vel[1], want)
		}
		// The turn is steady: 2 pi per clip, about y.
		if w := float32(2*math.Pi) / c.Duration(); !near3(p.Ang[1], mgl32.Vec3{0, w, 0}, 1e-3*w) {
			t.Errorf("loop %v: angular velocity at frame 0 %v, want %v about y", loop, p.Ang[1], w)
		}
	}
}
