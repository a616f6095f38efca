package animsys

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// The scalar inertialize, additive and finiteDiffJoints were rewritten for
// fewer instructions (issue 31, second round) with the same float32
// operations in the same order. These tests hold them to the bits of the
// code they replaced (before_ia_code_test.go) on edgePose's random poses
// (zero, large and NaN rotations; zero, negative, infinite and NaN
// scales), with kept logs and without, out aliasing the input, weights
// that are not finite, n = 1 to 40 joints.

// finitePose replaces the NaNs of p by 0.5: with weights that are not
// finite, which make NaNs of their own, the poses hold none, as where two
// different NaNs meet x86 keeps the first operand's and Go orders
// commutative operands as it likes (see TestSIMDInertializeSameBits).
func finitePose(p *Pose) {
	for _, c := range [][]mgl32.Vec3{p.Pos, p.Vel, p.Ang, p.Scl, p.Svl} {
		for j := range c {
			for k := range c[j] {
				if c[j][k] != c[j][k] {
					c[j][k] = .5
				}
			}
		}
	}
	for j := range p.Rot {
		if q := &p.Rot[j]; q.W != q.W {
			*q = mgl32.QuatIdent()
		}
	}
}

// iaWeights are inertialization weights: cubic ones at random times, the
// undecayed offset, and non-finite ones.
func iaWeights(r *rand.Rand) [4]float32 {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	switch r.Intn(6) {
	case 0:
		return [4]float32{1, 0, 0, 1}
	case 1:
		return [4]float32{nan, .1, -.5, .7}
	case 2:
		return [4]float32{.5, inf, -.5, .7}
	case 3:
		return [4]float32{0, 0, 0, 0}
	}
	w0, w1, w2, w3 := CubicDecayWeights(r.Float32()*.6, .5)
	return [4]float32{w0, w1, w2, w3}
}

// bigOffsets gives some joints of p rotations and scales beyond the loops'
// fast ranges (offsets past 1 rad, log-scales past 0.34).
func bigOffsets(r *rand.Rand, p *Pose) {
	for j := range p.Pos {
		switch r.Intn(6) {
		case 0:
			p.Rot[j] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{2.5, -1, .5})
		case 1:
			p.Scl[j] = mgl32.Vec3{1.1, 1.1, 1.1}
		case 2:
			p.Scl[j], p.Svl[j] = mgl32.Vec3{1, 1, 1}, mgl32.Vec3{}
		}
	}
}

// sNaNScale gives a random joint of p a signalling NaN scale on one axis,
// which a product makes quiet.
func sNaNScale(r *rand.Rand, p *Pose) {
	p.Scl[r.Intn(p.Len())][r.Intn(3)] = math.Float32frombits(0x7f800001)
}

func TestInertializeSameBitsAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(311))
	for n := 1; n <= 40; n++ {
		for trial := 0; trial < 6; trial++ {
			offset, input := edgePose(r, n), edgePose(r, n)
			if trial%2 == 1 {
				bigOffsets(r, &offset)
			}
			w := iaWeights(r)
			if w[0]-w[0] != 0 || w[1]-w[1] != 0 {
				finitePose(&offset)
				finitePose(&input)
			} else if trial%3 == 2 {
				sNaNScale(r, &input)
			}
			logs := make([]offLog, n)
			for j := range logs {
				logs[j].set(mathx.LoadQ4(&offset.Rot[j]), mathx.LoadV3(&offset.Scl[j]))
			}
			for _, withLogs := range []bool{true, false} {
				l := logs
				if !withLogs {
					l = nil
				}
				got, want := NewPose(n), NewPose(n)
				scalarPath(func() { inertialize(&got, &offset, &input, l, w[0], w[1], w[2], w[3]) })
				inertializeBefore(&want, &offset, &input, l, w[0], w[1], w[2], w[3])
				poseBits(t, "inertialize", &got, &want)
				// out is input
				i1, i2 := copyPose(&input), copyPose(&input)
				scalarPath(func() { inertialize(&i1, &offset, &i1, l, w[0], w[1], w[2], w[3]) })
				inertializeBefore(&i2, &offset, &i2, l, w[0], w[1], w[2], w[3])
				poseBits(t, "inertialize in place", &i1, &i2)
			}
		}
	}
}

func TestAdditiveSameBitsAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(312))
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	weights := [][2]float32{{0, 0}, {1, 0}, {.3, 2}, {.77, -1.5}, {nan, 1}, {inf, 1}, {.5, inf}, {.5, nan}, {float32(math.Copysign(0, -1)), -3}, {1.8, .4}}
	for n := 1; n <= 40; n++ {
		for trial := 0; trial < 6; trial++ {
			add, base := edgePose(r, n), edgePose(r, n)
			if trial%2 == 1 {
				bigOffsets(r, &add)
			}
			w := weights[r.Intn(len(weights))]
			if trial < 2 {
				w = [2]float32{r.Float32(), r.Float32()*4 - 2}
			}
			if w[0]-w[0] != 0 || w[1]-w[1] != 0 {
				finitePose(&add)
				finitePose(&base)
			} else if trial%3 == 2 {
				sNaNScale(r, &base)
			}
			logs := make([]addLog, n)
			for j := range logs {
				logs[j].set(mathx.LoadQ4(&add.Rot[j]), mathx.LoadV3(&add.Ang[j]), mathx.LoadV3(&add.Scl[j]))
			}
			for _, withLogs := range []bool{true, false} {
				l := logs
				if !withLogs {
					l = nil
				}
				got, want := copyPose(&base), copyPose(&base)
				scalarPath(func() { additive(&got, &add, l, w[0], w[1]) })
				additiveBefore(&want, &add, l, w[0], w[1])
				poseBits(t, "additive", &got, &want)
			}
		}
	}
}

func TestFiniteDiffSameBitsAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(313))
	for n := 1; n <= 40; n++ {
		for trial := 0; trial < 6; trial++ {
			curr := edgePose(r, n)
			prev := pairPose(r, &curr)
			if trial%2 == 1 { // a tick's small changes: the fast paths
				for j := range prev.Pos {
					if r.Intn(4) != 0 {
						prev.Rot[j] = mathx.QuatMul(mathx.QuatFromScaledAngleAxis(randVec(r, .05)), curr.Rot[j])
						prev.Scl[j] = mathx.Vec3Mul(curr.Scl[j], mathx.Vec3Exp(randVec(r, .05)))
					}
				}
			}
			inv := []float32{60, 1, float32(math.Inf(1)), 0}[min(trial/2, 3)]
			lo := r.Intn(n)
			got, want := copyPose(&curr), copyPose(&curr)
			finiteDiffJoints(&got, &curr, &prev, inv, lo, n)
			finiteDiffJointsBefore(&want, &curr, &prev, inv, lo, n)
			poseBits(t, "finiteDiffJoints", &got, &want)
			// out is curr
			c1, c2 := copyPose(&curr), copyPose(&curr)
			finiteDiffJoints(&c1, &c1, &prev, inv, 0, n)
			finiteDiffJointsBefore(&c2, &c2, &prev, inv, 0, n)
			poseBits(t, "finiteDiffJoints in place", &c1, &c2)
		}
	}
}

// FiniteDiff into a pose that shares curr's positions, rotations and
// scales (as a BenchCharacter's FD shares Global's) gives what it gives
// into a pose of its own, and leaves the shared channels as they were.
func TestFiniteDiffSharedTransforms(t *testing.T) {
	r := rand.New(rand.NewSource(314))
	for _, n := range []int{1, 7, 23, 40} {
		curr := edgePose(r, n)
		prev := pairPose(r, &curr)
		keep := copyPose(&curr)
		own, shared := NewPose(n), NewPose(n)
		shared.Pos, shared.Rot, shared.Scl = curr.Pos, curr.Rot, curr.Scl
		FiniteDiff(&own, &curr, &prev, 1.0/60)
		FiniteDiff(&shared, &curr, &prev, 1.0/60)
		poseBits(t, "FiniteDiff shared", &shared, &own)
		poseBits(t, "FiniteDiff curr", &curr, &keep)
	}
}
