package animsys

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// The skeleton and synthetic clips of the velocity-chain benchmark
// (docs/bench-spec.md). They are also the clips every velocity test and
// `kinelab verify` run over until real clips are embedded: smooth, with
// known analytic velocities, non-unit scales on three joints and a root
// that walks forward.

// Bench-spec constants.
const (
	BenchFrames    = 600      // frames per bench clip
	BenchFrameTime = 1.0 / 60 // seconds per frame
)

// benchScaled are the joints whose scale animates in the bench clips.
var benchScaled = [3]int{7, 11, 17}

// BenchScaledJoints returns the joints whose scale animates in the bench
// clips (and in the bench additive): 7, 11 and 17.
func BenchScaledJoints() [3]int { return benchScaled }

var benchParents = []int{-1, 0, 1, 2, 3, 4, 1, 6, 7, 8, 1, 10, 11, 12, 13, 12, 15, 16, 17, 12, 19, 20, 21}

var benchNames = []string{
	"Entity", "Hips",
	"LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToe",
	"RightUpLeg", "RightLeg", "RightFoot", "RightToe",
	"Spine", "Spine1", "Spine2", "Neck", "Head",
	"LeftShoulder", "LeftArm", "LeftForeArm", "LeftHand",
	"RightShoulder", "RightArm", "RightForeArm", "RightHand",
}

// Bench joint indices used by the procedural operations' tests and labs.
const (
	BenchHips       = 1
	BenchLeftUpLeg  = 2
	BenchLeftLeg    = 3
	BenchLeftFoot   = 4
	BenchRightUpLeg = 6
	BenchRightLeg   = 7
	BenchRightFoot  = 8
	BenchHead       = 14
)

// BenchSkeleton returns the 23-joint skeleton of bench-spec: root Entity,
// Hips, two legs, a five-joint spine to the Head and two arms, with rest
// offsets in metres. The right side mirrors the left in x.
func BenchSkeleton() Skeleton {
	leftLeg := []mgl32.Vec3{{.1, -.05, 0}, {0, -.42, 0}, {0, -.41, 0}, {0, -.05, .13}}
	spine := []mgl32.Vec3{{0, .1, 0}, {0, .12, 0}, {0, .12, 0}, {0, .16, 0}, {0, .1, 0}}
	leftArm := []mgl32.Vec3{{.04, .12, 0}, {.13, 0, 0}, {.27, 0, 0}, {.25, 0, 0}}
	mirror := func(vs []mgl32.Vec3) []mgl32.Vec3 {
		out := make([]mgl32.Vec3, len(vs))
		for i, v := range vs {
			out[i] = mgl32.Vec3{-v[0], v[1], v[2]}
		}
		return out
	}
	offsets := []mgl32.Vec3{{}, {0, .95, 0}}
	offsets = append(offsets, leftLeg...)
	offsets = append(offsets, mirror(leftLeg)...)
	offsets = append(offsets, spine...)
	offsets = append(offsets, leftArm...)
	offsets = append(offsets, mirror(leftArm)...)
	return Skeleton{
		Names:   append([]string(nil), benchNames...),
		Parents: append([]int(nil), benchParents...),
		Offsets: offsets,
	}
}

// BenchMotion is the analytic motion behind a bench clip: every value is a
// sum of sines of time, so its exact velocities are known at any time.
type BenchMotion struct {
	Seed    uint32
	Amp     [][3]float32 // per joint and axis, radians
	Freq    [][3]float32 // Hz
	Phase   [][3]float32 // radians
	Psi     [3]float32   // scale phases of BenchScaledJoints
	Phi     [2]float32   // root and hips phases
	Offsets []mgl32.Vec3 // rest offsets (BenchSkeleton)
}

// NewBenchMotion draws the parameters of clip seed in bench-spec order: for
// each joint and axis amp, freq, phase; then the three scale phases; then
// the two root phases.
func NewBenchMotion(seed uint32) BenchMotion {
	n := len(benchParents)
	m := BenchMotion{Seed: seed,
		Amp: make([][3]float32, n), Freq: make([][3]float32, n), Phase: make([][3]float32, n),
		Offsets: BenchSkeleton().Offsets,
	}
	r := mathx.NewXorshift32(seed)
	for j := 0; j < n; j++ {
		for k := 0; k < 3; k++ {
			m.Amp[j][k] = .05 + .25*r.Float()
			m.Freq[j][k] = .25 + 1.25*r.Float()
			m.Phase[j][k] = 2 * math.Pi * r.Float()
		}
	}
	for i := range m.Psi {
		m.Psi[i] = 2 * math.Pi * r.Float()
	}
	m.Phi[0] = 2 * math.Pi * r.Float()
	m.Phi[1] = 2 * math.Pi * r.Float()
	return m
}

// sinWave returns a sin(2 pi f t + p) and its time derivative, in float64.
func sinWave(a, f, p float32, t float64) (x, dx float64) {
	w := 2 * math.Pi * float64(f)
	s, c := math.Sincos(w*t + float64(p))
	return float64(a) * s, float64(a) * w * c
}

// Eval writes the local pose at time t (s) with its exact velocities: the
// rotation is from_scaled_angle_axis(r(t)) with angular velocity J(r) r'(t)
// (mathx.QuatFromScaledAngleAxisDx), the scale exp(0.1 sin(...)) with scalar
// velocity its log-rate. Values are computed in float64 and rounded once.
func (m *BenchMotion) Eval(out *Pose, t float64) {
	for j := range m.Amp {
		var r, dr mgl32.Vec3
		for k := 0; k < 3; k++ {
			x, dx := sinWave(m.Amp[j][k], m.Freq[j][k], m.Phase[j][k], t)
			r[k], dr[k] = float32(x), float32(dx)
		}
		out.Rot[j] = mathx.QuatFromScaledAngleAxis(r)
		out.Ang[j] = mathx.QuatFromScaledAngleAxisDx(r, dr)
		out.Pos[j], out.Vel[j] = m.Offsets[j], mgl32.Vec3{}
		out.Scl[j], out.Svl[j] = mgl32.Vec3{1, 1, 1}, mgl32.Vec3{}
	}
	x, dx := sinWave(0.2, 0.1, m.Phi[0], t)
	out.Pos[0] = mgl32.Vec3{float32(x), 0, float32(1.2 * t)}
	out.Vel[0] = mgl32.Vec3{float32(dx), 0, 1.2}
	y, dy := sinWave(0.03, 1.8, m.Phi[1], t)
	out.Pos[1] = mgl32.Vec3{0, float32(0.95 + y), 0}
	out.Vel[1] = mgl32.Vec3{0, float32(dy), 0}
	for i, j := range benchScaled {
		l, dl := sinWave(0.1, 0.2, m.Psi[i], t)
		s := float32(math.Exp(l))
		out.Scl[j] = mgl32.Vec3{s, s, s}
		out.Svl[j] = mgl32.Vec3{float32(dl), float32(dl), float32(dl)}
	}
}

// GenerateBenchClip returns bench-spec clip seed: 600 frames at 60 fps of
// the 23-joint BenchSkeleton, frame f being BenchMotion.Eval at t = f/60.
// Clip A of the benchmark is seed 1, clip B seed 2, the crowd's library
// seeds 100-163.
func GenerateBenchClip(seed uint32) Clip {
	m := NewBenchMotion(seed)
	n := len(benchParents)
	c := NewClip(fmt.Sprintf("bench-%d", seed), BenchFrames, n, BenchFrameTime)
	p := NewPose(n)
	for f := 0; f < BenchFrames; f++ {
		m.Eval(&p, float64(f)/60)
		c.SetFrame(f, &p)
	}
	c.Prepare()
	return c
}

// RandomAdditive fills out with the bench-spec random additive pose drawn
// from seed: on every joint position +-.02 m, rotation +-.2 rad per axis as
// a scaled angle-axis, velocity +-.1 m/s, angular velocity +-.5 rad/s; on
// BenchScaledJoints also scale exp(+-.05) and scalar velocity +-.1 /s per
// axis (identity and zero elsewhere).
func RandomAdditive(out *Pose, seed uint32) {
	need("RandomAdditive", "out", out, wholePose, out.Len(), "len(out.Pos)")
	r := mathx.NewXorshift32(seed)
	rv := func(s float32) mgl32.Vec3 { return mgl32.Vec3{r.Range(s), r.Range(s), r.Range(s)} }
	for j := range out.Pos {
		out.Pos[j] = rv(.02)
		out.Rot[j] = mathx.QuatFromScaledAngleAxis(rv(.2))
		out.Vel[j] = rv(.1)
		out.Ang[j] = rv(.5)
		out.Scl[j], out.Svl[j] = mgl32.Vec3{1, 1, 1}, mgl32.Vec3{}
	}
	for _, j := range benchScaled {
		if j < len(out.Pos) {
			out.Scl[j] = mathx.Vec3Exp(rv(.05))
			out.Svl[j] = rv(.1)
		}
	}
}
