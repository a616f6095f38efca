package animsys

import (
	"fmt"
	"math"
	"testing"
)

// The fast bodies of FK, FKStatic, BK, Blend, InertializeWeights and
// FiniteDiff against their plain forms (fkReference, ...), written like
// the article on mathx's plain functions, over the bench clips: several
// seeds and times, with the bench additive on top for non-uniform, non-unit
// scales.

// channelErr is the largest difference, per channel (pos, rot, scl, vel,
// ang, svl), between a and b over their joints, each relative to the
// larger of 1 and the size of b's value: absolute for values up to 1,
// relative above (world positions reach 12 m, velocities 10 m/s).
func channelErr(a, b *Pose) (e [6]float64) {
	rel := func(d, size float32) float64 { return float64(d) / math.Max(1, float64(size)) }
	for j := range a.Pos {
		e[0] = max(e[0], rel(a.Pos[j].Sub(b.Pos[j]).Len(), b.Pos[j].Len()))
		e[1] = max(e[1], rel(a.Rot[j].Sub(b.Rot[j]).Len(), 1))
		e[2] = max(e[2], rel(a.Scl[j].Sub(b.Scl[j]).Len(), b.Scl[j].Len()))
		e[3] = max(e[3], rel(a.Vel[j].Sub(b.Vel[j]).Len(), b.Vel[j].Len()))
		e[4] = max(e[4], rel(a.Ang[j].Sub(b.Ang[j]).Len(), b.Ang[j].Len()))
		e[5] = max(e[5], rel(a.Svl[j].Sub(b.Svl[j]).Len(), b.Svl[j].Len()))
	}
	return e
}

var channelNames = [6]string{"pos", "rot", "scl", "vel", "ang", "svl"}

// plainCase runs an op's fast body into fast and its plain form into
// plain, on inputs made from two sampled bench poses and the additive.
type plainCase struct {
	name string
	run  func(fast, plain *Pose, in *plainInputs)
	// tol bounds channelErr per channel; 0 asks for the same values (the
	// same operations in the same order).
	tol [6]float64
	why string
}

// plainInputs are the poses an op reads: a and b, local poses sampled from
// two clips with the additive on top, the FK ga of a and ga a tick before
// (gaPrev), and the inertialization offset from a to b; and its weights.
type plainInputs struct {
	parents         []int
	a, b, ga        Pose
	gaPrev, offset  Pose
	alpha, alphaVel float32
	w0, w1, w2, w3  float32
	dt              float32
	clip            *Clip // sampled at frame + frac frames
	frame           int
	frac            float32
}

var plainCases = []plainCase{
	{name: "FK", run: func(fast, plain *Pose, in *plainInputs) {
		FK(fast, &in.a, in.parents)
		fkReference(plain, &in.a, in.parents)
	}, tol: [6]float64{4e-7, 6e-7, 0, 8e-7, 1e-6, 0},
		why: "the quaternion products sum their terms in another order than mgl32's Quat.Mul: a few " +
			"float32 ulps, carried down the hierarchy (8 levels)"},
	{name: "FKStatic", run: func(fast, plain *Pose, in *plainInputs) {
		FKStatic(fast, &in.a, in.parents)
		fkReference(plain, &in.a, in.parents)
		clearVelocities(fast, plain)
	}, tol: [6]float64{4e-7, 6e-7, 0, 0, 0, 0},
		why: "the quaternion products' order of terms (see FK)"},
	{name: "BK", run: func(fast, plain *Pose, in *plainInputs) {
		BK(fast, &in.ga, in.parents)
		bkReference(plain, &in.ga, in.parents)
	}, tol: [6]float64{1e-7, 3e-7, 2e-7, 1e-7, 0, 0},
		why: "the quaternion product's order of terms, and BK divides by the parent scale as a product " +
			"with its inverse: an ulp or two (no hierarchy: each joint reads only global values)"},
	{name: "Blend", run: func(fast, plain *Pose, in *plainInputs) {
		Blend(fast, &in.a, &in.b, in.alpha, in.alphaVel)
		blendReference(plain, &in.a, &in.b, in.alpha, in.alphaVel)
	}, tol: [6]float64{0, 3e-7, 3e-7, 0, 1e-6, 3e-7},
		why: "the fast forms' float32 polynomials against float64 trigonometry rounded once, and the fused " +
			"Jacobians of Blend's loop: a few ulps"},
	{name: "InertializeWeights", run: func(fast, plain *Pose, in *plainInputs) {
		InertializeWeights(fast, &in.offset, &in.b, in.w0, in.w1, in.w2, in.w3)
		inertializeReference(plain, &in.offset, &in.b, in.w0, in.w1, in.w2, in.w3)
	}, tol: [6]float64{2e-7, 3e-7, 3e-7, 2e-7, 6e-7, 3e-7},
		why: "the fast forms' float32 polynomials against float64 trigonometry rounded once, and the " +
			"fast body adds the decayed offset's two terms to the input one by one, the article their sum"},
	{name: "Additive", run: func(fast, plain *Pose, in *plainInputs) {
		fast.CopyFrom(&in.a)
		plain.CopyFrom(&in.a)
		Additive(fast, &in.b, in.alpha, in.alphaVel)
		additiveReference(plain, &in.b, in.alpha, in.alphaVel, false)
	}, tol: [6]float64{0, 3e-7, 3e-7, 0, 6e-7, 3e-7},
		why: "the lane forms' float32 polynomials (log, exp map, its Jacobians) against float64 trigonometry " +
			"rounded once: a few ulps"},
	{name: "AdditiveLocal", run: func(fast, plain *Pose, in *plainInputs) {
		fast.CopyFrom(&in.a)
		plain.CopyFrom(&in.a)
		AdditiveLocal(fast, &in.b, in.alpha, in.alphaVel)
		additiveReference(plain, &in.b, in.alpha, in.alphaVel, true)
	}, tol: [6]float64{0, 3e-7, 3e-7, 0, 6e-7, 3e-7},
		why: "as Additive"},
	{name: "SampleCubic", run: func(fast, plain *Pose, in *plainInputs) {
		SampleCubicFrame(fast, in.clip, in.frame, in.frac)
		sampleReference(plain, in.clip, in.frame, hermiteAt(in.frac))
	}, tol: [6]float64{2e-7, 3e-7, 3e-7, 2e-7, 1e-6, 3e-7},
		why: "the cached tangents are the same function of the frames (the reference's position tangents sum " +
			"the deltas either side, Catmull-Rom's (p2 - p0)/2 rounds once less); the lane forms' float32 polynomials " +
			"against float64 trigonometry rounded once, and the angular velocity's exp-map Jacobian, over " +
			"a frame time (1/60 s): a few ulps of rad/s"},
	{name: "SampleLinear", run: func(fast, plain *Pose, in *plainInputs) {
		SampleLinearFrame(fast, in.clip, in.frame, in.frac)
		sampleReference(plain, in.clip, in.frame, linearAt(in.frac))
	}, tol: [6]float64{2e-7, 3e-7, 3e-7, 2e-7, 1e-6, 3e-7},
		why: "as SampleCubic"},
	{name: "FiniteDiff", run: func(fast, plain *Pose, in *plainInputs) {
		FiniteDiff(fast, &in.ga, &in.gaPrev, in.dt)
		finiteDiffReference(plain, &in.ga, &in.gaPrev, in.dt)
	}, tol: [6]float64{0, 0, 0, 0, 1e-5, 2e-7},
		why: "the rotation a tick turns, r prev^-1, sums its products in another order than mgl32's " +
			"Quat.Mul, and its log is a float32 polynomial against float64's atan2: a few ulps of the " +
			"quaternion (6e-8 each), over dt (1/60 s)"},
}

func clearVelocities(ps ...*Pose) {
	for _, p := range ps {
		clear(p.Vel)
		clear(p.Ang)
		clear(p.Svl)
	}
}

// TestPlainFormsAgree holds each fast body to its plain form: the same
// values where the tolerance is 0, else within it (see each case's why).
func TestPlainFormsAgree(t *testing.T) {
	skel := BenchSkeleton()
	n := skel.Len()
	in := &plainInputs{parents: skel.Parents, dt: 1.0 / 60}
	NewPoses(n, &in.a, &in.b, &in.ga, &in.gaPrev, &in.offset)
	add, prev := NewPose(n), NewPose(n)
	fast, plain := NewPose(n), NewPose(n)
	worst := make([][6]float64, len(plainCases))
	for _, seed := range []uint32{1, 2, 3, 100} {
		ca, cb := GenerateBenchClip(seed), GenerateBenchClip(seed+1)
		RandomAdditive(&add, seed)
		for k, tm := range []float32{0.3, 2.71, 6.05, 9.5} {
			sample := func(out *Pose, c *Clip, tm float32) {
				SampleCubic(out, c, tm)
				Additive(out, &add, 0.7, 0.4)
			}
			sample(&in.a, &ca, tm)
			sample(&in.b, &cb, tm+1.3)
			sample(&prev, &ca, tm-in.dt)
			FK(&in.ga, &in.a, in.parents)
			FK(&in.gaPrev, &prev, in.parents)
			InertializeOffset(&in.offset, &in.a, &in.b)
			in.alpha, in.alphaVel = []float32{0.1, 0.5, 0.77, 1}[k], []float32{2, -0.5, 0, 1.5}[k]
			in.w0, in.w1, in.w2, in.w3 = CubicDecayWeights(0.1*float32(k), 0.5)
			// Inside, at the clip's first and last intervals and past its ends.
			in.clip, in.frame, in.frac = &ca, []int{17, 0, ca.Frames - 2, ca.Frames + 3}[k], []float32{0.3, 0.8, 1, 0.5}[k]
			for c, pc := range plainCases {
				pc.run(&fast, &plain, in)
				e := channelErr(&fast, &plain)
				for ch := range e {
					worst[c][ch] = max(worst[c][ch], e[ch])
					if e[ch] > pc.tol[ch] {
						t.Errorf("%s seed %d t %v: %s differs from the plain form by %.3g, want <= %.3g (%s)",
							pc.name, seed, tm, channelNames[ch], e[ch], pc.tol[ch], pc.why)
					}
				}
			}
		}
	}
	for c, pc := range plainCases {
		s := ""
		for ch, e := range worst[c] {
			s += fmt.Sprintf(" %s %.2g", channelNames[ch], e)
		}
		t.Logf("%-18s worst:%s", pc.name, s)
	}
}
