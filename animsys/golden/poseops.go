package golden

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// The operations of "Propagating Velocities through Animation Systems"
// (docs/articles.md), on poses of the bench-spec skeleton
// (docs/bench-spec.md: 23 joints, clips A and B from seeds 1 and 2) and on
// hand-picked edge cases.

const pvArticle = "propagating-velocities"

// bench holds the bench-spec skeleton and clips the cases sample.
type bench struct {
	skel animsys.Skeleton
	a, b animsys.Clip
}

func newBench() *bench {
	return &bench{skel: animsys.BenchSkeleton(), a: animsys.GenerateBenchClip(1), b: animsys.GenerateBenchClip(2)}
}

// local samples clip c at t (s), cubic.
func (d *bench) local(c *animsys.Clip, t float32) animsys.Pose {
	p := animsys.NewPose(d.skel.Len())
	animsys.SampleCubic(&p, c, t)
	return p
}

// global is FK of the local pose of c at t.
func (d *bench) global(c *animsys.Clip, t float32) animsys.Pose {
	l, g := d.local(c, t), animsys.NewPose(d.skel.Len())
	animsys.FK(&g, &l, d.skel.Parents)
	return g
}

// benchTimes are the times (s) the bench cases sample, clip A or B each,
// between frames.
var benchTimes = []struct {
	clip string
	t    float32
}{{"A", 1.2345}, {"B", 5.6789}, {"A", 9.4321}}

func (d *bench) clip(name string) *animsys.Clip {
	if name == "B" {
		return &d.b
	}
	return &d.a
}

// turned returns p with every rotation turned a further deg degrees about
// a fixed oblique axis (on the world side), every other value kept: with
// deg near 180, a pose almost opposite to p.
func turned(p animsys.Pose, deg float32) animsys.Pose {
	out := animsys.NewPose(p.Len())
	out.CopyFrom(&p)
	r := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0.48, 0.6, -0.64}.Normalize().Mul(deg * math.Pi / 180))
	for j := range out.Rot {
		out.Rot[j] = mathx.QuatMul(r, out.Rot[j])
	}
	return out
}

// stillScales returns p with constant, non-unit scales (1.1, 0.95, 1.05)
// on every joint (compounding to about (2, 0.7, 1.4) at the hands): zero
// scalar velocity, which must still scale the leverage.
func stillScales(p animsys.Pose) animsys.Pose {
	out := animsys.NewPose(p.Len())
	out.CopyFrom(&p)
	for j := range out.Scl {
		out.Scl[j] = mgl32.Vec3{1.1, 0.95, 1.05}
		out.Svl[j] = mgl32.Vec3{}
	}
	return out
}

// randomPose is a pose of large random kineforms: positions +-1 m,
// rotations up to 2.6 rad, non-uniform scales exp(+-0.5), velocities +-1
// m/s, +-2 rad/s, +-0.5 /s.
func randomPose(n int, seed uint32) animsys.Pose {
	r := mathx.NewXorshift32(seed)
	rv := func(s float32) mgl32.Vec3 { return mgl32.Vec3{r.Range(s), r.Range(s), r.Range(s)} }
	p := animsys.NewPose(n)
	for j := 0; j < n; j++ {
		p.Pos[j], p.Rot[j], p.Scl[j] = rv(1), mathx.QuatFromScaledAngleAxis(rv(1.5)), mathx.Vec3Exp(rv(.5))
		p.Vel[j], p.Ang[j], p.Svl[j] = rv(1), rv(2), rv(.5)
	}
	return p
}

func randomKform(seed uint32) Kform {
	p := randomPose(1, seed)
	return fromKform(p.Kform(0))
}

// frameDiff is the tolerance of files whose velocities are differences of
// positions over one frame (1/60 s): float32 positions 11 m from the
// origin (bench A at 9.4 s) step by 1e-6 m, 6e-5 m/s over a frame.
var frameDiff = Tolerance{Abs: 1e-3, Rel: 1e-4}

const frameDiffTol = "Tolerance: the velocities are differences of positions over one frame (1/60 s); float32 positions 11 m from the origin step by 1e-6 m, 6e-5 m/s each, so abs is 1e-3."

// --- sampling ---

// SampleIn is a clip of a few frames (the frames around the time sampled,
// every joint) and a time (s) from its first frame.
type SampleIn struct {
	FrameTime float32 `json:"frame_time"`
	Frames    []Frame `json:"frames"`
	Time      float32 `json:"time"`
}

func (in *SampleIn) clip() animsys.Clip {
	n := len(in.Frames[0].Pos)
	c := animsys.NewClip("golden", len(in.Frames), n, in.FrameTime)
	for f, fr := range in.Frames {
		for j := 0; j < n; j++ {
			c.SetPos(f, j, vec(fr.Pos[j]))
			c.Rot[c.At(f, j)] = quat(fr.Rot[j])
			c.SetScl(f, j, vec(fr.Scl[j]))
		}
	}
	return c
}

// window is the frames of c from first to last (clamped), as a SampleIn at
// time t (s) of the whole clip.
func window(c *animsys.Clip, first, last int, t float64) SampleIn {
	first, last = max(first, 0), min(last, c.Frames-1)
	in := SampleIn{FrameTime: c.FrameTime, Time: float32(t - float64(first)*float64(c.FrameTime))}
	for f := first; f <= last; f++ {
		fr := Frame{}
		for j := 0; j < c.Joints; j++ {
			fr.Pos, fr.Rot, fr.Scl = append(fr.Pos, v3(c.PosAt(f, j))), append(fr.Rot, q4(c.Rot[c.At(f, j)])), append(fr.Scl, v3(c.SclAt(f, j)))
		}
		in.Frames = append(in.Frames, fr)
	}
	return in
}

func sampleCases() []Case[SampleIn, Pose] {
	d := newBench()
	var cs []Case[SampleIn, Pose]
	for _, bt := range benchTimes {
		c := d.clip(bt.clip)
		k := int(float64(bt.t) / float64(c.FrameTime))
		cs = append(cs, Case[SampleIn, Pose]{Name: fmt.Sprintf("bench %s, frames %d-%d, at %g s", bt.clip, k-1, k+2, bt.t),
			Inputs: window(c, k-1, k+2, float64(bt.t))})
	}
	c := &d.a
	ft := float64(c.FrameTime)
	cs = append(cs,
		Case[SampleIn, Pose]{Name: "on a frame (fraction 0): the frame itself", Inputs: window(c, 99, 102, 100*ft)},
		Case[SampleIn, Pose]{Name: "first interval: one-sided, the frame before carries the motion on", Inputs: window(c, 0, 3, 0.4*ft)},
		Case[SampleIn, Pose]{Name: "past the last frame: held, at rest", Inputs: window(c, 596, 599, 599.5*ft)},
		Case[SampleIn, Pose]{Name: "before the first frame: held, at rest", Inputs: window(c, 0, 3, -0.25*ft)},
		Case[SampleIn, Pose]{Name: "a single frame", Inputs: window(c, 300, 300, 300.5*ft)},
	)
	return cs
}

// --- kinematics ---

// FKIn is a pose and its skeleton's parents (-1 for a root, parents
// before children).
type FKIn struct {
	Parents []int `json:"parents"`
	Pose    Pose  `json:"pose"`
}

func fkCases(global bool) []Case[FKIn, Pose] {
	d := newBench()
	var cs []Case[FKIn, Pose]
	add := func(name string, local animsys.Pose) {
		p := local
		if global {
			p = animsys.NewPose(local.Len())
			animsys.FK(&p, &local, d.skel.Parents)
		}
		cs = append(cs, Case[FKIn, Pose]{Name: name, Inputs: FKIn{Parents: d.skel.Parents, Pose: fromPose(&p)}})
	}
	for _, bt := range benchTimes {
		add(fmt.Sprintf("bench %s at %g s (animated scales on joints 7, 11, 17)", bt.clip, bt.t), d.local(d.clip(bt.clip), bt.t))
	}
	add("random kineforms: non-uniform scales and scalar velocities on every joint", randomPose(23, 5))
	add("zero scalar velocity, non-unit scales (1.1, 0.95, 1.05) on every joint", stillScales(d.local(&d.a, 3.3)))
	add("every rotation turned 179.5 degrees", turned(d.local(&d.b, 2.2), 179.5))
	return cs
}

// FiniteDiffIn is two poses dt seconds apart.
type FiniteDiffIn struct {
	Curr Pose    `json:"curr"`
	Prev Pose    `json:"prev"`
	Dt   float32 `json:"dt"`
}

func finiteDiffCases() []Case[FiniteDiffIn, Pose] {
	d := newBench()
	var cs []Case[FiniteDiffIn, Pose]
	for _, bt := range benchTimes {
		c := d.clip(bt.clip)
		cur, prev := d.global(c, bt.t), d.global(c, bt.t-c.FrameTime)
		cs = append(cs, Case[FiniteDiffIn, Pose]{Name: fmt.Sprintf("bench %s world pose at %g s against one frame before", bt.clip, bt.t),
			Inputs: FiniteDiffIn{fromPose(&cur), fromPose(&prev), c.FrameTime}})
	}
	cur, prev := d.global(&d.a, 4), d.global(&d.a, 4-d.a.FrameTime)
	for j := range cur.Pos {
		cur.Pos[j] = cur.Pos[j].Add(mgl32.Vec3{3, 0, 0})
	}
	cs = append(cs, Case[FiniteDiffIn, Pose]{Name: "a 3 m teleport: the spike the article starts from",
		Inputs: FiniteDiffIn{fromPose(&cur), fromPose(&prev), d.a.FrameTime}})
	return cs
}

// ExtrapolateIn is a pose and a time (s).
type ExtrapolateIn struct {
	Pose     Pose    `json:"pose"`
	Time     float32 `json:"time"`
	Halflife float32 `json:"halflife"`
}

// --- blends ---

// BlendIn is two poses, a weight and its rate (1/s).
type BlendIn struct {
	Lhs      Pose    `json:"lhs"`
	Rhs      Pose    `json:"rhs"`
	Alpha    float32 `json:"alpha"`
	AlphaVel float32 `json:"alpha_vel"`
}

func blendCases() []Case[BlendIn, Pose] {
	d := newBench()
	var cs []Case[BlendIn, Pose]
	for _, bt := range benchTimes {
		l, r := d.local(&d.a, bt.t), d.local(&d.b, bt.t+0.3)
		w, dw := animsys.CosineWeight(bt.t, 4)
		cs = append(cs, Case[BlendIn, Pose]{Name: fmt.Sprintf("bench A at %.4g s to B at %.4g s, bench-spec weight", bt.t, bt.t+0.3),
			Inputs: BlendIn{fromPose(&l), fromPose(&r), w, dw}})
	}
	l := d.local(&d.a, 2.5)
	far := turned(l, 179.5)
	cs = append(cs,
		Case[BlendIn, Pose]{Name: "rotations 179.5 degrees apart", Inputs: BlendIn{fromPose(&l), fromPose(&far), 0.4, 1.5}},
		Case[BlendIn, Pose]{Name: "weight rate 0: the blend's own velocity ignored", Inputs: BlendIn{fromPose(&l), fromPose(&far), 0.4, 0}},
		Case[BlendIn, Pose]{Name: "weight 0 with a rate", Inputs: BlendIn{fromPose(&l), fromPose(&far), 0, 2}},
		Case[BlendIn, Pose]{Name: "weight 1", Inputs: BlendIn{fromPose(&l), fromPose(&far), 1, 0}},
	)
	return cs
}

// BlendAlphaIn is a time into a blend and its duration (s).
type BlendAlphaIn struct {
	Time     float32 `json:"time"`
	Duration float32 `json:"duration"`
}

// BlendAlphaOut is the weight and its rate (1/s).
type BlendAlphaOut struct {
	Alpha    float32 `json:"alpha"`
	AlphaVel float32 `json:"alpha_vel"`
}

var blendTimes = []BlendAlphaIn{{0, 0.5}, {0.1, 0.5}, {0.25, 0.5}, {0.45, 0.5}, {0.5, 0.5}, {0.7, 0.5}, {-0.1, 0.5}, {0.2, 0}}

// AdditiveIn is a base pose, an additive pose, the weight and its rate
// (1/s; 0 for the static variants).
type AdditiveIn struct {
	Base     Pose    `json:"base"`
	Add      Pose    `json:"add"`
	Alpha    float32 `json:"alpha"`
	AlphaVel float32 `json:"alpha_vel"`
}

func additiveCases(static bool) []Case[AdditiveIn, Pose] {
	d := newBench()
	n := d.skel.Len()
	add := animsys.NewPose(n)
	animsys.RandomAdditive(&add, 7)
	var cs []Case[AdditiveIn, Pose]
	for _, bt := range benchTimes {
		b := d.local(d.clip(bt.clip), bt.t)
		w, dw := animsys.CosineWeight(bt.t, 3)
		if static {
			dw = 0
		}
		cs = append(cs, Case[AdditiveIn, Pose]{Name: fmt.Sprintf("bench %s at %g s, bench-spec additive (seed 7) and weight", bt.clip, bt.t),
			Inputs: AdditiveIn{fromPose(&b), fromPose(&add), w, dw}})
	}
	b := d.local(&d.a, 6)
	big := animsys.NewPose(n)
	big.CopyFrom(&add)
	for j := range big.Rot {
		big.Rot[j] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0.48, 0.6, -0.64}.Normalize().Mul(179.5 * math.Pi / 180))
	}
	unit := animsys.NewPose(n)
	unit.CopyFrom(&add)
	for j := range unit.Scl {
		unit.Scl[j], unit.Svl[j] = mgl32.Vec3{1, 1, 1}, mgl32.Vec3{}
	}
	rate := float32(1.2)
	if static {
		rate = 0
	}
	cs = append(cs,
		Case[AdditiveIn, Pose]{Name: "additive rotations of 179.5 degrees", Inputs: AdditiveIn{fromPose(&b), fromPose(&big), 0.7, rate}},
		Case[AdditiveIn, Pose]{Name: "unit scales, zero scalar velocity in the additive", Inputs: AdditiveIn{fromPose(&b), fromPose(&unit), 0.7, rate}},
		Case[AdditiveIn, Pose]{Name: "weight 0", Inputs: AdditiveIn{fromPose(&b), fromPose(&add), 0, rate}},
	)
	return cs
}

// --- inertialization and dead blending ---

// OffsetIn is the source and destination poses at a transition.
type OffsetIn struct {
	Src Pose `json:"src"`
	Dst Pose `json:"dst"`
}

// InertializeIn is an offset (InertializeOffset), the live pose, the
// time since the transition (s) and the blend's duration (s) or, for the
// critical spring, its half-life (s).
type InertializeIn struct {
	Offset    Pose    `json:"offset"`
	Input     Pose    `json:"input"`
	BlendTime float32 `json:"blend_time"`
	Duration  float32 `json:"duration"`
	Halflife  float32 `json:"halflife"`
}

// transition returns the offset from A at t0 to B at t0 and B's pose at t0+since.
func (d *bench) transition(t0, since float32, far bool) (off, input animsys.Pose) {
	src, dst := d.local(&d.a, t0), d.local(&d.b, t0)
	if far {
		dst = turned(src, 179.5)
		input = dst
	} else {
		input = d.local(&d.b, t0+since)
	}
	off = animsys.NewPose(d.skel.Len())
	animsys.InertializeOffset(&off, &src, &dst)
	return off, input
}

func inertializeCases(critical bool) []Case[InertializeIn, Pose] {
	d := newBench()
	var cs []Case[InertializeIn, Pose]
	for _, since := range []float32{0, 0.1, 0.3, 0.6} {
		off, in := d.transition(2, since, false)
		c := InertializeIn{Offset: fromPose(&off), Input: fromPose(&in), BlendTime: since, Duration: 0.5}
		name := fmt.Sprintf("bench A to B at 2 s, %g s later of 0.5 s", since)
		if critical {
			c.Duration, c.Halflife = 0, 0.15
			name = fmt.Sprintf("bench A to B at 2 s, %g s later, half-life 0.15 s", since)
		}
		cs = append(cs, Case[InertializeIn, Pose]{Name: name, Inputs: c})
	}
	off, in := d.transition(5, 0, true)
	c := InertializeIn{Offset: fromPose(&off), Input: fromPose(&in), BlendTime: 0.1, Duration: 0.5}
	if critical {
		c.Duration, c.Halflife = 0, 0.15
	}
	cs = append(cs, Case[InertializeIn, Pose]{Name: "an offset of 179.5 degrees on every joint", Inputs: c})
	if critical {
		off, in := d.transition(2, 0.1, false)
		cs = append(cs, Case[InertializeIn, Pose]{Name: "half-life 0: the offset is gone at once",
			Inputs: InertializeIn{Offset: fromPose(&off), Input: fromPose(&in), BlendTime: 0.1}})
	}
	return cs
}

// DecayWeightsOut are the four weights of a decay: x = w0 x0 + w1 v0, v =
// w2 x0 + w3 v0.
type DecayWeightsOut struct {
	W0 float32 `json:"w0"`
	W1 float32 `json:"w1"`
	W2 float32 `json:"w2"`
	W3 float32 `json:"w3"`
}

// DeadBlendIn is the pose at the transition, the live pose, the
// extrapolation half-life, the time since the transition and the blend's
// duration (s).
type DeadBlendIn struct {
	Transition Pose    `json:"transition"`
	Input      Pose    `json:"input"`
	Halflife   float32 `json:"halflife"`
	BlendTime  float32 `json:"blend_time"`
	Duration   float32 `json:"duration"`
}

func deadBlendCases() []Case[DeadBlendIn, Pose] {
	d := newBench()
	tr := d.local(&d.a, 3)
	animsys.RemoveGlobalRoot(&tr)
	var cs []Case[DeadBlendIn, Pose]
	for _, c := range []struct {
		since, halflife, duration float32
	}{{0, 0.2, 0.5}, {0.1, 0.2, 0.5}, {0.3, 0.2, 0.5}, {0.6, 0.2, 0.5}, {0.1, 0, 0.5}} {
		in := d.local(&d.b, 3+c.since)
		animsys.RemoveGlobalRoot(&in)
		name := fmt.Sprintf("bench A at 3 s to B, %g s later of %g s, extrapolation half-life %g s", c.since, c.duration, c.halflife)
		cs = append(cs, Case[DeadBlendIn, Pose]{Name: name,
			Inputs: DeadBlendIn{fromPose(&tr), fromPose(&in), c.halflife, c.since, c.duration}})
	}
	return cs
}

func extrapolateCases() []Case[ExtrapolateIn, Pose] {
	d := newBench()
	var cs []Case[ExtrapolateIn, Pose]
	for _, c := range []struct{ t, h float32 }{{0, 0.2}, {0.1, 0.2}, {0.5, 0.2}, {0.1, 0}} {
		p := d.local(&d.a, 7)
		cs = append(cs, Case[ExtrapolateIn, Pose]{Name: fmt.Sprintf("bench A at 7 s, %g s on, half-life %g s", c.t, c.h),
			Inputs: ExtrapolateIn{fromPose(&p), c.t, c.h}})
	}
	return cs
}

// --- procedural ---

// LookAtIn is the joint's local and global kineforms, the target's world
// position (m) and velocity (m/s), and the joint's forward axis.
type LookAtIn struct {
	Local     Kform `json:"local"`
	Global    Kform `json:"global"`
	Target    V3    `json:"target"`
	TargetVel V3    `json:"target_vel"`
	Fwd       V3    `json:"fwd"`
}

// RotAng is a rotation and its angular velocity (rad/s).
type RotAng struct {
	Rot Q4 `json:"rot"`
	Ang V3 `json:"ang"`
}

func lookAtCases() []Case[LookAtIn, RotAng] {
	d := newBench()
	head := animsys.BenchHead
	var cs []Case[LookAtIn, RotAng]
	for _, bt := range benchTimes {
		l := d.local(d.clip(bt.clip), bt.t)
		g := animsys.NewPose(d.skel.Len())
		animsys.FK(&g, &l, d.skel.Parents)
		s, c := float32(math.Sin(0.5*float64(bt.t))), float32(math.Cos(0.5*float64(bt.t)))
		cs = append(cs, Case[LookAtIn, RotAng]{Name: fmt.Sprintf("bench %s head at %g s, a target walking ahead", bt.clip, bt.t),
			Inputs: LookAtIn{fromKform(l.Kform(head)), fromKform(g.Kform(head)),
				V3{0.5 * s, 1.7 + 0.2*c, 1.2*bt.t + 1.5}, V3{0.25 * c, -0.1 * s, 1.2}, V3{0, 0, 1}}})
	}
	l := d.local(&d.a, 4)
	g := animsys.NewPose(d.skel.Len())
	animsys.FK(&g, &l, d.skel.Parents)
	hp := g.Pos[head]
	back := mathx.QuatMulVec3(g.Rot[head], mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, 170 * math.Pi / 180, 0}).Rotate(mgl32.Vec3{0, 0, 1}))
	cs = append(cs,
		Case[LookAtIn, RotAng]{Name: "a still target", Inputs: LookAtIn{fromKform(l.Kform(head)), fromKform(g.Kform(head)),
			v3(hp.Add(mgl32.Vec3{0.3, 0.1, 2})), V3{}, V3{0, 0, 1}}},
		// Nearer 180 degrees the rotation's axis, so its angular velocity,
		// is ill-conditioned: at 179 two ulps of input move it 1e-2 rad/s.
		Case[LookAtIn, RotAng]{Name: "a target 170 degrees from the forward axis", Inputs: LookAtIn{fromKform(l.Kform(head)), fromKform(g.Kform(head)),
			v3(hp.Add(back.Mul(2))), V3{0.2, 0, 0.1}, V3{0, 0, 1}}},
	)
	return cs
}

// IKIn is a local pose and its parents, the chain (root, mid, end
// joints), the end's target position (m) and velocity (m/s), and the
// finite difference's step (s).
type IKIn struct {
	Parents []int   `json:"parents"`
	Pose    Pose    `json:"pose"`
	Joints  [3]int  `json:"joints"`
	Target  V3      `json:"target"`
	TarVel  V3      `json:"target_vel"`
	Delta   float32 `json:"delta"`
}

func ikCases() []Case[IKIn, Pose] {
	d := newBench()
	n := d.skel.Len()
	bend := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0.9, 0, 0})
	var cs []Case[IKIn, Pose]
	add := func(name string, t float32, off, offVel mgl32.Vec3) {
		l := d.local(&d.a, t)
		mid := animsys.BenchLeftLeg
		l.Rot[mid] = mathx.QuatMul(bend, l.Rot[mid])
		l.Ang[mid] = mathx.QuatMulVec3(bend, l.Ang[mid])
		g := animsys.NewPose(n)
		animsys.FK(&g, &l, d.skel.Parents)
		end := animsys.BenchLeftFoot
		cs = append(cs, Case[IKIn, Pose]{Name: name, Inputs: IKIn{Parents: d.skel.Parents, Pose: fromPose(&l),
			Joints: [3]int{animsys.BenchLeftUpLeg, mid, end},
			Target: v3(g.Pos[end].Add(off)), TarVel: v3(g.Vel[end].Add(offVel)), Delta: 0.01}})
	}
	for _, t := range []float32{1.2345, 5.6789} {
		add(fmt.Sprintf("bench A at %g s, knee bent 0.9 rad, left foot lifted 10 cm and swaying", t), t,
			mgl32.Vec3{0.05, 0.1, 0}, mgl32.Vec3{0.1, 0, 0})
	}
	add("target out of reach (clamped to the chain's length)", 3, mgl32.Vec3{0, -1.5, 0.3}, mgl32.Vec3{})
	return cs
}

// --- kineforms ---

// KformPair is two kineforms.
type KformPair struct {
	V Kform `json:"v"`
	W Kform `json:"w"`
}

func kformPairs() []Case[KformPair, Kform] {
	near := randomKform(41)
	far := near
	r := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0.48, 0.6, -0.64}.Normalize().Mul(179.5 * math.Pi / 180))
	far.Rot = q4(mathx.QuatMul(r, quat(near.Rot)))
	still := randomKform(43)
	still.Svl = V3{}
	id := fromKform(animsys.KformIdentity())
	uniform := randomKform(44)
	uniform.Scl, uniform.Svl = V3{1.3, 1.3, 1.3}, V3{0.2, 0.2, 0.2}
	return []Case[KformPair, Kform]{
		{Name: "random", Inputs: KformPair{randomKform(31), randomKform(32)}},
		{Name: "random", Inputs: KformPair{randomKform(33), randomKform(34)}},
		{Name: "uniform, changing scale", Inputs: KformPair{uniform, randomKform(35)}},
		{Name: "rotations 179.5 degrees apart", Inputs: KformPair{near, far}},
		{Name: "zero scalar velocity, non-unit scale", Inputs: KformPair{still, randomKform(36)}},
		{Name: "identity on the left", Inputs: KformPair{id, randomKform(37)}},
	}
}

// TransformIn is a kineform and a point (m) moving at vel (m/s), and a
// direction.
type TransformIn struct {
	V   Kform `json:"v"`
	Pos V3    `json:"pos"`
	Vel V3    `json:"vel"`
	Dir V3    `json:"dir"`
}

// TransformOut is kform_mul_pos, kform_mul_vel and kform_mul_dir.
type TransformOut struct {
	Pos V3 `json:"pos"`
	Vel V3 `json:"vel"`
	Dir V3 `json:"dir"`
}

// DirPair is two moving directions, as kineforms (pos, vel).
type DirPair struct {
	Dir0 Kform `json:"dir0"`
	Dir1 Kform `json:"dir1"`
}

func dirKform(p, v mgl32.Vec3) Kform { return fromKform(animsys.KformFromPosVel(p, v)) }

// VecRate is a vector and its rate.
type VecRate struct {
	V  V3 `json:"v"`
	Dv V3 `json:"dv"`
}

// BetweenIn is two directions and their rates.
type BetweenIn struct {
	P  V3 `json:"p"`
	Dp V3 `json:"dp"`
	Q  V3 `json:"q"`
	Dq V3 `json:"dq"`
}

// BetweenOut is quat_between, quat_between_dx and the angular velocity
// (quat_delta_to_angular_velocity).
type BetweenOut struct {
	Rot  Q4 `json:"rot"`
	DRot Q4 `json:"drot"`
	Ang  V3 `json:"ang"`
}

// ExpMapOut is from_scaled_angle_axis(v), its angular velocity J(v) dv
// (rad/s) while v moves at dv, and the rate J(v)^-1 dv of the scaled
// angle-axis of a rotation turning at angular velocity dv.
type ExpMapOut struct {
	Rot  Q4 `json:"rot"`
	Ang  V3 `json:"ang"`
	Rate V3 `json:"rate"`
}

var vecRates = []Case[VecRate, V3]{
	{Name: "random", Inputs: VecRate{V3{0.3, -1.2, 0.5}, V3{0.7, 0.2, -0.4}}},
	{Name: "rate along the vector", Inputs: VecRate{V3{0, 2, 0}, V3{0, 1.5, 0}}},
	{Name: "small vector", Inputs: VecRate{V3{1e-3, 2e-3, -1e-3}, V3{0.5, 0, 0.1}}},
}

func expMapCases() []Case[VecRate, ExpMapOut] {
	axis := mgl32.Vec3{0.48, 0.6, -0.64}.Normalize()
	deg := func(d float32) V3 { return v3(axis.Mul(d * math.Pi / 180)) }
	return []Case[VecRate, ExpMapOut]{
		{Name: "40 degrees, rate across", Inputs: VecRate{deg(40), V3{0.7, 0.2, -0.4}}},
		{Name: "0.01 degrees (series branch)", Inputs: VecRate{deg(0.01), V3{0.7, 0.2, -0.4}}},
		{Name: "rate along the axis", Inputs: VecRate{deg(90), v3(axis.Mul(2))}},
		{Name: "179.5 degrees", Inputs: VecRate{deg(179.5), V3{0.7, 0.2, -0.4}}},
		{Name: "zero", Inputs: VecRate{V3{}, V3{0.7, 0.2, -0.4}}},
	}
}

func poseOps() []Op {
	bk := "BK divides by the parent's scale and keeps the expansion term in the parent's frame, the exact inverse of op_fk; " +
		"the article's op_bk listing agrees only for unit, constant parent scales."
	expNote := "Where a rotation is exp of a moving scaled angle-axis v, animsys uses its exact angular velocity J(v) dv/dt " +
		"(J the exp map's derivative, see exp_map_dx.json) where the article's listing adds dv/dt itself; they agree for small or parallel v " +
		"and differ by up to ~0.25 rad/s on the bench clips."
	weights := "alpha_vel is the weight's rate per second: the article's op_blend(alpha_vel, dt) takes alpha_vel as the change over one tick of dt, so pass alpha_vel*dt and dt."
	sample := func(name, fn, goName string, linear bool, notes string) Op {
		return &op[SampleIn, Pose]{
			meta: Meta{Op: name, Article: pvArticle, Section: "Animation Sampling", Function: fn, Animsys: goName,
				Notes: notes + " " + frameDiffTol, Tolerance: frameDiff},
			cases: sampleCases,
			eval: func(in *SampleIn) Pose {
				c, p := in.clip(), animsys.NewPose(len(in.Frames[0].Pos))
				if linear {
					animsys.SampleLinear(&p, &c, in.Time)
				} else {
					animsys.SampleCubic(&p, &c, in.Time)
				}
				return fromPose(&p)
			},
		}
	}
	blend := func(name, fn, goName string, static bool) Op {
		return &op[BlendIn, Pose]{
			meta: Meta{Op: name, Article: pvArticle, Section: "Two Way Blend", Function: fn, Animsys: goName,
				Notes: "Blends lhs (alpha 0) to rhs (alpha 1): positions lerp, rotations slerp the shortest way, scales eerp. " + weights + " " + expNote},
			cases: func() []Case[BlendIn, Pose] {
				cs := blendCases()
				if static {
					for i := range cs {
						cs[i].Inputs.AlphaVel = 0
					}
				}
				return cs
			},
			eval: func(in *BlendIn) Pose {
				l, r := in.Lhs.pose(), in.Rhs.pose()
				out := animsys.NewPose(l.Len())
				animsys.Blend(&out, &l, &r, in.Alpha, in.AlphaVel)
				return fromPose(&out)
			},
		}
	}
	additive := func(name, fn, goName string, static, local bool) Op {
		side := "world side: rot = exp(alpha r) rot, r the scaled angle-axis of add.rot (the base's angular velocity turns with it)"
		if local {
			side = "local side: rot = rot exp(alpha r) (the additive's angular velocity is turned into the parent's frame by the base rotation)"
		}
		return &op[AdditiveIn, Pose]{
			meta: Meta{Op: name, Article: pvArticle, Section: "Additive Animations", Function: fn, Animsys: goName,
				Notes: "Adds alpha of add onto base: positions add, scales multiply by exp(alpha log add.scl), rotations on the " + side + ". " + weights + " " + expNote},
			cases: func() []Case[AdditiveIn, Pose] { return additiveCases(static) },
			eval: func(in *AdditiveIn) Pose {
				out, add := in.Base.pose(), in.Add.pose()
				switch {
				case local && static:
					animsys.AdditiveLocalStatic(&out, &add, in.Alpha)
				case local:
					animsys.AdditiveLocal(&out, &add, in.Alpha, in.AlphaVel)
				case static:
					animsys.AdditiveStatic(&out, &add, in.Alpha)
				default:
					animsys.Additive(&out, &add, in.Alpha, in.AlphaVel)
				}
				return fromPose(&out)
			},
		}
	}
	kform := func(name, fn, goName string, f func(v, w animsys.Kform) animsys.Kform) Op {
		return &op[KformPair, Kform]{
			meta: Meta{Op: name, Article: pvArticle, Section: "Kineforms", Function: fn, Animsys: goName,
				Notes: "Scales multiply per axis, not rotated (as in the article and Unreal). KformDiv divides by v's scale: the exact inverse of KformMul for any scale."},
			cases: kformPairs,
			eval: func(in *KformPair) Kform {
				return fromKform(f(in.V.kform(), in.W.kform()))
			},
		}
	}
	return []Op{
		sample("sample_linear", "op_sample_linear", "animsys.SampleLinear", true,
			"time is from the first frame given (s). Velocities are the constant rates between the two frames around the time; "+
				"at the last frame's time it is that frame, moving at the last interval's rate; frames are clamped at the clip's ends, so before the first and past the last frame the pose is held at rest."),
		sample("sample_cubic", "(cubic sampling: \"sample four poses instead of two\")", "animsys.SampleCubic", false,
			"Each channel is a cubic Hermite curve of the offset from the frame before the time: positions, rotations as the scaled angle-axis "+
				"of rot * inv(rot at that frame), scales as log ratios, with tangents the mean of the deltas either side (Catmull-Rom; "+
				"the frames given never loop, so at the first and last interval the missing delta is the interval's own: the ends move at the motion's rate). The end tangent of a rotation curve "+
				"is mapped by J(d12)^-1 (exp_map_dx.json) and the angular velocity is J(o) do/dt. Velocities are the exact derivatives of the curves. "+
				"At the last frame's time the pose is the last frame with the curve's end velocity; past the ends it is held at rest, as sample_linear."),
		&op[FKIn, Pose]{
			meta: Meta{Op: "fk", Article: pvArticle, Section: "Forward & Backward Kinematics", Function: "op_fk", Animsys: "animsys.FK",
				Notes: "pose is local (each joint relative to its parent); the output is global. Linear velocity includes the parent's leverage cross(par_ang, arm) and expansion (local.pos * par_scl * par_svl, rotated)."},
			cases: func() []Case[FKIn, Pose] { return fkCases(false) },
			eval: func(in *FKIn) Pose {
				l := in.Pose.pose()
				g := animsys.NewPose(l.Len())
				animsys.FK(&g, &l, in.Parents)
				return fromPose(&g)
			},
		},
		&op[FKIn, Pose]{
			meta: Meta{Op: "bk", Article: pvArticle, Section: "Forward & Backward Kinematics", Function: "op_bk", Animsys: "animsys.BK",
				Notes: "pose is global; the output is local. " + bk},
			cases: func() []Case[FKIn, Pose] { return fkCases(true) },
			eval: func(in *FKIn) Pose {
				g := in.Pose.pose()
				l := animsys.NewPose(g.Len())
				animsys.BK(&l, &g, in.Parents)
				return fromPose(&l)
			},
		},
		&op[FiniteDiffIn, Pose]{
			meta: Meta{Op: "finite_diff", Article: pvArticle, Section: "Forward & Backward Kinematics", Function: "op_finite_diff", Animsys: "animsys.FiniteDiff",
				Notes:     "Backward differences over dt (s): vel = (pos - prev.pos)/dt, ang = quat_to_scaled_angle_axis(quat_abs(rot * inv(prev.rot)))/dt, svl = log(scl/prev.scl)/dt. The output also copies curr's positions, rotations and scales. dt must be > 0. " + frameDiffTol,
				Tolerance: frameDiff},
			cases: finiteDiffCases,
			eval: func(in *FiniteDiffIn) Pose {
				c, p := in.Curr.pose(), in.Prev.pose()
				out := animsys.NewPose(c.Len())
				animsys.FiniteDiff(&out, &c, &p, in.Dt)
				return fromPose(&out)
			},
		},
		&op[ExtrapolateIn, Pose]{
			meta: Meta{Op: "extrapolate_prev", Article: pvArticle, Section: "Finite Difference", Function: "op_extrapolate_prev", Animsys: "animsys.ExtrapolatePrev",
				Notes: "The pose moved time seconds back along its own velocities: pos - vel t, exp(-ang t) rot, scl exp(-svl t); velocities copied. halflife is unused (0)."},
			cases: func() []Case[ExtrapolateIn, Pose] {
				cs := extrapolateCases()[:3]
				for i := range cs {
					cs[i].Inputs.Halflife = 0
					cs[i].Name = fmt.Sprintf("bench A at 7 s, %g s back", cs[i].Inputs.Time)
				}
				return cs
			},
			eval: func(in *ExtrapolateIn) Pose {
				p := in.Pose.pose()
				animsys.ExtrapolatePrev(&p, &p, in.Time)
				return fromPose(&p)
			},
		},
		blend("blend_static", "op_blend_static", "animsys.BlendStatic", true),
		blend("blend", "op_blend", "animsys.Blend", false),
		&op[BlendAlphaIn, BlendAlphaOut]{
			meta: Meta{Op: "smoothstep_blend_alpha", Article: pvArticle, Section: "Two Way Blend", Function: "smoothstep_blend_alpha, smoothstep_blend_alpha_dx",
				Animsys: "animsys.SmoothstepBlendAlpha, animsys.SmoothstepBlendAlphaVel",
				Notes:   "alpha = smoothstep(clamp(time/duration, 0, 1)); alpha_vel in 1/s, smoothstep_dx(x)/duration: the article's smoothstep_blend_alpha_dx returns it times a dt. A duration of 0 is read as 1e-8 s."},
			cases: func() []Case[BlendAlphaIn, BlendAlphaOut] {
				var cs []Case[BlendAlphaIn, BlendAlphaOut]
				for _, b := range blendTimes {
					cs = append(cs, Case[BlendAlphaIn, BlendAlphaOut]{Name: fmt.Sprintf("%g s of %g s", b.Time, b.Duration), Inputs: b})
				}
				return cs
			},
			eval: func(in *BlendAlphaIn) BlendAlphaOut {
				return BlendAlphaOut{animsys.SmoothstepBlendAlpha(in.Time, in.Duration), animsys.SmoothstepBlendAlphaVel(in.Time, in.Duration)}
			},
		},
		additive("additive_static", "op_additive_inplace_static", "animsys.AdditiveStatic", true, false),
		additive("additive", "op_additive_inplace", "animsys.Additive", false, false),
		additive("additive_local_static", "op_additive_local_inplace_static", "animsys.AdditiveLocalStatic", true, true),
		additive("additive_local", "(op_additive_local_inplace with a weight rate)", "animsys.AdditiveLocal", false, true),
		&op[OffsetIn, Pose]{
			meta: Meta{Op: "inertialize_offset", Article: pvArticle, Section: "Inertialization", Function: "(the offset op_inertialize decays)", Animsys: "animsys.InertializeOffset",
				Notes: "The offset taking dst to src: pos and vel differences; rot = quat_abs(src.rot * inv(dst.rot)) with, in ang, the rate of its scaled angle-axis r, " +
					"J(r)^-1 (src.ang - rot dst.ang) (equal to the angular velocity difference for small offsets); scl = src.scl/dst.scl, svl the difference."},
			cases: func() []Case[OffsetIn, Pose] {
				d := newBench()
				var cs []Case[OffsetIn, Pose]
				for _, bt := range benchTimes {
					s, t := d.local(&d.a, bt.t), d.local(&d.b, bt.t)
					cs = append(cs, Case[OffsetIn, Pose]{Name: fmt.Sprintf("bench A to B at %g s", bt.t), Inputs: OffsetIn{fromPose(&s), fromPose(&t)}})
				}
				s := d.local(&d.a, 5)
				far := turned(s, 179.5)
				return append(cs, Case[OffsetIn, Pose]{Name: "179.5 degrees apart", Inputs: OffsetIn{fromPose(&s), fromPose(&far)}})
			},
			eval: func(in *OffsetIn) Pose {
				s, d := in.Src.pose(), in.Dst.pose()
				off := animsys.NewPose(s.Len())
				animsys.InertializeOffset(&off, &s, &d)
				return fromPose(&off)
			},
		},
		&op[BlendAlphaIn, DecayWeightsOut]{
			meta: Meta{Op: "cubic_decay_weights", Article: pvArticle, Section: "Inertialization", Function: "(the coefficients of op_inertialize)", Animsys: "animsys.CubicDecayWeights",
				Notes: "t = clamp(time/(duration + 1e-8), 0, 1): w0 = 2t^3 - 3t^2 + 1, w1 = (t^3 - 2t^2 + t) duration (s), w2 = (6t^2 - 6t)/(duration + 1e-8) (1/s), w3 = 3t^2 - 4t + 1."},
			cases: func() []Case[BlendAlphaIn, DecayWeightsOut] {
				var cs []Case[BlendAlphaIn, DecayWeightsOut]
				for _, b := range blendTimes {
					cs = append(cs, Case[BlendAlphaIn, DecayWeightsOut]{Name: fmt.Sprintf("%g s of %g s", b.Time, b.Duration), Inputs: b})
				}
				return cs
			},
			eval: func(in *BlendAlphaIn) DecayWeightsOut {
				w0, w1, w2, w3 := animsys.CubicDecayWeights(in.Time, in.Duration)
				return DecayWeightsOut{w0, w1, w2, w3}
			},
		},
		&op[InertializeIn, Pose]{
			meta: Meta{Op: "inertialize", Article: pvArticle, Section: "Inertialization", Function: "op_inertialize", Animsys: "animsys.Inertialize",
				Notes: "The offset (inertialize_offset.json) decayed by the cubic weights (cubic_decay_weights.json) at blend_time of duration, added onto input: " +
					"rot = exp(w0 r + w1 ang) input.rot with angular velocity exp(.) input.ang + J(w0 r + w1 ang)(w2 r + w3 ang). " + expNote},
			cases: func() []Case[InertializeIn, Pose] { return inertializeCases(false) },
			eval: func(in *InertializeIn) Pose {
				off, out := in.Offset.pose(), in.Input.pose()
				animsys.Inertialize(&out, &off, &out, in.BlendTime, in.Duration)
				return fromPose(&out)
			},
		},
		&op[InertializeIn, Pose]{
			meta: Meta{Op: "inertialize_critical", Article: pvArticle, Section: "Inertialization", Function: "(op_inertialize with a critical spring's decay)", Animsys: "animsys.InertializeCritical",
				Notes: "As inertialize.json with the weights of critical_decay_weights.json for the half-life (s) at blend_time. A half-life of 0 removes the offset at once."},
			cases: func() []Case[InertializeIn, Pose] { return inertializeCases(true) },
			eval: func(in *InertializeIn) Pose {
				off, out := in.Offset.pose(), in.Input.pose()
				animsys.InertializeCritical(&out, &off, &out, in.BlendTime, in.Halflife)
				return fromPose(&out)
			},
		},
		&op[ExtrapolateIn, Pose]{
			meta: Meta{Op: "extrapolate_decayed", Article: pvArticle, Section: "Dead Blending", Function: "op_extrapolate_decayed", Animsys: "animsys.ExtrapolateDecayed",
				Notes: "y = ln2/(halflife + 1e-8); each joint but the root (joint 0, copied) moves by its velocities times (1 - exp(-y time))/(y + 1e-8) and its velocities scale by exp(-y time): the exact derivatives of the extrapolated pose."},
			cases: extrapolateCases,
			eval: func(in *ExtrapolateIn) Pose {
				p := in.Pose.pose()
				animsys.ExtrapolateDecayed(&p, &p, in.Time, in.Halflife)
				return fromPose(&p)
			},
		},
		&op[DeadBlendIn, Pose]{
			meta: Meta{Op: "dead_blend", Article: pvArticle, Section: "Dead Blending", Function: "op_dead_blending", Animsys: "animsys.DeadBlend",
				Notes: "The transition pose extrapolated blend_time (extrapolate_decayed.json), blended to input with alpha = smoothstep_blend_alpha(blend_time, duration) and its rate (blend.json)."},
			cases: deadBlendCases,
			eval: func(in *DeadBlendIn) Pose {
				tr, out := in.Transition.pose(), in.Input.pose()
				ex := animsys.NewPose(tr.Len())
				animsys.DeadBlend(&out, &ex, &tr, &out, in.Halflife, in.BlendTime, in.Duration)
				return fromPose(&out)
			},
		},
		&op[LookAtIn, RotAng]{
			meta: Meta{Op: "lookat", Article: pvArticle, Section: "Procedural Animation", Function: "op_lookat", Animsys: "animsys.LookAt",
				Notes: "local and global are the joint's kineforms (FK of the pose); the output is the joint's new local rotation and angular velocity: kform_mul(local, kform_rot_ang_between(fwd, kform_pos_vel_normalize(kform_inv_mul(global, target))))."},
			cases: lookAtCases,
			eval: func(in *LookAtIn) RotAng {
				l, g := animsys.NewPose(1), animsys.NewPose(1)
				l.SetKform(0, in.Local.kform())
				g.SetKform(0, in.Global.kform())
				animsys.LookAt(&l, &g, 0, vec(in.Target), vec(in.TargetVel), vec(in.Fwd))
				return RotAng{q4(l.Rot[0]), v3(l.Ang[0])}
			},
		},
		&op[IKIn, Pose]{
			meta: Meta{Op: "two_bone_ik", Article: pvArticle, Section: "Finite Difference", Function: "op_two_bone_ik", Animsys: "animsys.TwoBoneIK (TwoBoneIKStatic)",
				Notes: "The local pose after IK: the mid joint bends about the chain's plane by the law of cosines, the root swings the end onto the target (clamped to the reachable distance), " +
					"and the angular velocities of the two joints the IK turns (root and mid) become the finite difference over delta (s) against the pose extrapolated delta back with the target moved back by delta target_vel; " +
					"every other velocity is kept (the article finite-differences the whole pose, which gives them back only while a joint turns less than pi in delta). " +
					"The IK itself is animsys's own (the article does not list op_two_bone_ik_static): a port must match TwoBoneIKStatic's construction to match these numbers. " +
					"Tolerance: the two joints' angular velocities divide a rotation's float32 rounding (1e-7 rad, amplified by the bend's sensitivity near a straight knee, as in the out-of-reach case) by delta, so abs is 5e-3.",
				Tolerance: Tolerance{Abs: 5e-3, Rel: 1e-4}},
			cases: ikCases,
			eval: func(in *IKIn) Pose {
				p := in.Pose.pose()
				n := p.Len()
				tmp, gc, gt := animsys.NewPose(n), animsys.NewPose(n), animsys.NewPose(n)
				animsys.TwoBoneIK(&p, &tmp, &gc, &gt, in.Parents, animsys.TwoBoneJoints{Root: in.Joints[0], Mid: in.Joints[1], End: in.Joints[2]},
					vec(in.Target), vec(in.TarVel), in.Delta)
				return fromPose(&p)
			},
		},
		kform("kform_mul", "kform_mul", "animsys.KformMul", animsys.KformMul),
		kform("kform_div", "kform_div", "animsys.KformDiv", animsys.KformDiv),
		kform("kform_inv", "kform_inv (of v; w unused)", "animsys.KformInv", func(v, _ animsys.Kform) animsys.Kform { return animsys.KformInv(v) }),
		kform("kform_inv_mul", "kform_inv_mul", "animsys.KformInvMul", animsys.KformInvMul),
		kform("kform_mul_inv", "kform_mul_inv", "animsys.KformMulInv", animsys.KformMulInv),
		&op[TransformIn, TransformOut]{
			meta: Meta{Op: "kform_transform", Article: pvArticle, Section: "Kineforms", Function: "kform_mul_pos, kform_mul_vel, kform_mul_dir",
				Animsys: "animsys.KformMulPos, animsys.KformMulVel, animsys.KformMulDir", Notes: "A point at pos (m) moving at vel (m/s) in v's frame, and a direction, in the outer frame."},
			cases: func() []Case[TransformIn, TransformOut] {
				var cs []Case[TransformIn, TransformOut]
				for i, k := range kformPairs() {
					cs = append(cs, Case[TransformIn, TransformOut]{Name: k.Name, Inputs: TransformIn{k.Inputs.V,
						V3{0.3, -0.2 + 0.1*float32(i), 0.5}, V3{-0.4, 0.25, 0.1}, V3{0, 0, 1}}})
				}
				return cs
			},
			eval: func(in *TransformIn) TransformOut {
				v := in.V.kform()
				return TransformOut{v3(animsys.KformMulPos(v, vec(in.Pos))), v3(animsys.KformMulVel(v, vec(in.Pos), vec(in.Vel))), v3(animsys.KformMulDir(v, vec(in.Dir)))}
			},
		},
		&op[Kform, Kform]{
			meta: Meta{Op: "kform_pos_vel_normalize", Article: pvArticle, Section: "Procedural Animation", Function: "kform_pos_vel_normalize", Animsys: "animsys.KformPosVelNormalize",
				Notes: "pos = normalize(pos), vel = normalize_dx(pos, vel); everything else kept."},
			cases: func() []Case[Kform, Kform] {
				return []Case[Kform, Kform]{
					{Name: "random", Inputs: dirKform(mgl32.Vec3{0.3, 1.2, -0.5}, mgl32.Vec3{0.7, 0.2, -0.4})},
					{Name: "moving along itself (zero rate)", Inputs: dirKform(mgl32.Vec3{0, 2, 0}, mgl32.Vec3{0, 1.5, 0})},
					{Name: "short", Inputs: dirKform(mgl32.Vec3{1e-3, 2e-3, -1e-3}, mgl32.Vec3{0.5, 0, 0.1})},
				}
			},
			eval: func(in *Kform) Kform { return fromKform(animsys.KformPosVelNormalize(in.kform())) },
		},
		&op[DirPair, Kform]{
			meta: Meta{Op: "kform_rot_ang_between", Article: pvArticle, Section: "Procedural Animation", Function: "kform_rot_ang_between", Animsys: "animsys.KformRotAngBetween",
				Notes: "The rotation from dir0.pos to dir1.pos (quat_between) and its angular velocity (rad/s) while they move at their vel (quat_between_dx, quat_delta_to_angular_velocity)."},
			cases: func() []Case[DirPair, Kform] {
				a := mgl32.Vec3{0.3, 1.2, -0.5}.Normalize()
				away := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{1, 0, 0}.Mul(179 * math.Pi / 180)).Rotate(a)
				return []Case[DirPair, Kform]{
					{Name: "random", Inputs: DirPair{dirKform(mgl32.Vec3{0, 0, 1}, mgl32.Vec3{}), dirKform(a, mgl32.Vec3{0.7, 0.2, -0.4})}},
					{Name: "both moving", Inputs: DirPair{dirKform(mgl32.Vec3{0.2, 0.1, 1}, mgl32.Vec3{0.3, 0, 0}), dirKform(a, mgl32.Vec3{0.7, 0.2, -0.4})}},
					{Name: "179 degrees apart", Inputs: DirPair{dirKform(a, mgl32.Vec3{}), dirKform(away, mgl32.Vec3{0.1, 0.3, 0})}},
					{Name: "parallel", Inputs: DirPair{dirKform(a, mgl32.Vec3{}), dirKform(a.Mul(2), mgl32.Vec3{0.1, 0.3, 0})}},
				}
			},
			eval: func(in *DirPair) Kform {
				return fromKform(animsys.KformRotAngBetween(in.Dir0.kform(), in.Dir1.kform()))
			},
		},
		&op[VecRate, V3]{
			meta: Meta{Op: "normalize_dx", Article: pvArticle, Section: "Procedural Animation", Function: "normalize_dx", Animsys: "mathx.NormalizeDx",
				Notes: "(dv - n dot(dv, n)) / (length(v) + 1e-8), n = normalize(v)."},
			cases: func() []Case[VecRate, V3] { return vecRates },
			eval:  func(in *VecRate) V3 { return v3(mathx.NormalizeDx(vec(in.V), vec(in.Dv))) },
		},
		&op[BetweenIn, BetweenOut]{
			meta: Meta{Op: "quat_between_dx", Article: pvArticle, Section: "Procedural Animation", Function: "quat_between, quat_between_dx, quat_delta_to_angular_velocity",
				Animsys: "mathx.QuatBetween, mathx.QuatBetweenDx, mathx.QuatDeltaToAngularVelocity",
				Notes:   "drot is the quaternion's rate (per second, w first); ang = 2 vector part of drot * inv(rot), rad/s on the world side."},
			cases: func() []Case[BetweenIn, BetweenOut] {
				return []Case[BetweenIn, BetweenOut]{
					{Name: "random", Inputs: BetweenIn{V3{0, 0, 1}, V3{}, V3{0.3, 1.2, -0.5}, V3{0.7, 0.2, -0.4}}},
					{Name: "both moving, unnormalised", Inputs: BetweenIn{V3{0.2, 0.1, 2}, V3{0.3, 0, 0}, V3{0.3, 1.2, -0.5}, V3{0.7, 0.2, -0.4}}},
					{Name: "170 degrees apart", Inputs: BetweenIn{V3{0, 0, 1}, V3{}, V3{0.1736, 0, -0.9848}, V3{0, 0.3, 0}}},
				}
			},
			eval: func(in *BetweenIn) BetweenOut {
				rot := mathx.QuatBetween(vec(in.P), vec(in.Q))
				drot := mathx.QuatBetweenDx(vec(in.P), vec(in.Dp), vec(in.Q), vec(in.Dq))
				return BetweenOut{q4(rot), q4(drot), v3(mathx.QuatDeltaToAngularVelocity(rot, drot))}
			},
		},
		&op[VecRate, ExpMapOut]{
			meta: Meta{Op: "exp_map_dx", Article: pvArticle, Section: "(beyond the article: the exp map's derivative)", Function: "quat_from_scaled_angle_axis and its derivative",
				Animsys: "mathx.QuatFromScaledAngleAxis, mathx.QuatFromScaledAngleAxisDx, mathx.QuatToScaledAngleAxisDx",
				Notes: "J(v) w = w + (1 - cos a)/a^2 (v x w) + (a - sin a)/a^3 (v x (v x w)); J(v)^-1 w = w - (v x w)/2 + (1/a^2 - (1 + cos a)/(2 a sin a)) (v x (v x w)), a = |v|. " +
					"ang = J(v) dv is the angular velocity of exp(v) while v moves at dv; rate = J(v)^-1 dv is the rate of the scaled angle-axis v of a rotation turning at dv (rad/s). animsys uses both wherever the article adds dv itself."},
			cases: expMapCases,
			eval: func(in *VecRate) ExpMapOut {
				v, dv := vec(in.V), vec(in.Dv)
				return ExpMapOut{q4(mathx.QuatFromScaledAngleAxis(v)), v3(mathx.QuatFromScaledAngleAxisDx(v, dv)), v3(mathx.QuatToScaledAngleAxisDx(v, dv))}
			},
		},
	}
}
