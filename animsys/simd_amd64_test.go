//go:build goexperiment.simd && amd64

package animsys

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// The SIMD path computes the scalar path's float32 operations in the same
// order, so it gives the same bits. These tests run both on the same
// inputs; on a CPU without AVX2 there is nothing to compare.

// withSIMD runs f with useSIMD set to on, restoring it after.
func withSIMD(on bool, f func()) {
	old := useSIMD
	useSIMD = on
	defer func() { useSIMD = old }()
	f()
}

func needSIMD(t *testing.T) {
	if !useSIMD {
		t.Skip("no AVX2: the SIMD path is off")
	}
}

// randomPose is a pose of n joints with rotations up to maxAngle rad (half
// of them with w < 0), small scales on every third joint, and velocities.
func randomPose(r *rand.Rand, n int, maxAngle float32) Pose {
	p := NewPose(n)
	rv := func(s float32) mgl32.Vec3 {
		return mgl32.Vec3{(r.Float32()*2 - 1) * s, (r.Float32()*2 - 1) * s, (r.Float32()*2 - 1) * s}
	}
	for j := 0; j < n; j++ {
		p.Pos[j], p.Vel[j], p.Ang[j] = rv(1), rv(2), rv(3)
		q := mathx.QuatFromScaledAngleAxis(rv(maxAngle / float32(math.Sqrt(3))))
		if r.Intn(2) == 0 {
			q = mgl32.Quat{W: -q.W, V: q.V.Mul(-1)}
		}
		p.Rot[j] = q
		if j%3 == 1 {
			p.Scl[j], p.Svl[j] = mathx.Vec3Exp(rv(.3)), rv(.5)
		}
	}
	return p
}

func samePose(t *testing.T, what string, a, b *Pose) {
	t.Helper()
	for j := range a.Pos {
		if a.Kform(j) != b.Kform(j) {
			t.Fatalf("%s: joint %d: SIMD %+v, scalar %+v", what, j, a.Kform(j), b.Kform(j))
		}
	}
}

func TestSIMDBlendSameBits(t *testing.T) {
	needSIMD(t)
	r := rand.New(rand.NewSource(1))
	for n := 1; n <= 40; n++ {
		for _, maxAngle := range []float32{0.3, 1.5, 3.1} {
			lhs, rhs := randomPose(r, n, maxAngle), randomPose(r, n, maxAngle)
			alpha, alphaVel := r.Float32(), r.Float32()*4-2
			var got, want Pose
			withSIMD(true, func() { got = NewPose(n); Blend(&got, &lhs, &rhs, alpha, alphaVel) })
			withSIMD(false, func() { want = NewPose(n); Blend(&want, &lhs, &rhs, alpha, alphaVel) })
			samePose(t, "Blend", &got, &want)
			// In place, into either input.
			for _, intoRhs := range []bool{false, true} {
				var p1, p2 Pose
				withSIMD(true, func() { p1 = blendInto(&lhs, &rhs, intoRhs, alpha, alphaVel) })
				withSIMD(false, func() { p2 = blendInto(&lhs, &rhs, intoRhs, alpha, alphaVel) })
				samePose(t, "Blend in place", &p1, &p2)
			}
		}
	}
}

// blendInto blends copies of lhs and rhs into the copy of rhs if intoRhs,
// else of lhs, and returns it.
func blendInto(lhs, rhs *Pose, intoRhs bool, alpha, alphaVel float32) Pose {
	l, r := NewPose(lhs.Len()), NewPose(rhs.Len())
	l.CopyFrom(lhs)
	r.CopyFrom(rhs)
	out := &l
	if intoRhs {
		out = &r
	}
	Blend(out, &l, &r, alpha, alphaVel)
	return *out
}

// The bench chain ticks to the same bits on both paths, past the clips'
// wrap.
func TestSIMDChainSameBits(t *testing.T) {
	needSIMD(t)
	c1, c2 := benchCharacter(), benchCharacter()
	for i := 0; i < 700; i++ {
		var s1, s2 float32
		withSIMD(true, func() { s1 = c1.Tick(1.0 / 60) })
		withSIMD(false, func() { s2 = c2.Tick(1.0 / 60) })
		if s1 != s2 {
			t.Fatalf("tick %d: checksum %v SIMD, %v scalar", i, s1, s2)
		}
		samePose(t, "Global", &c1.Global, &c2.Global)
		samePose(t, "FDLocal", &c1.FDLocal, &c2.FDLocal)
	}
}

func TestSIMDSampleSameBits(t *testing.T) {
	needSIMD(t)
	r := rand.New(rand.NewSource(2))
	bench := GenerateBenchClip(1)
	clips := []*Clip{&bench}
	for _, n := range []int{1, 7, 8, 9, 16, 23, 33} {
		for _, maxAngle := range []float32{0.5, 2.5} {
			c := NewClip("random", 6, n, 1.0/30)
			for f := 0; f < c.Frames; f++ {
				p := randomPose(r, n, maxAngle)
				c.SetFrame(f, &p)
			}
			c.Prepare()
			clips = append(clips, &c)
		}
	}
	for _, c := range clips {
		for k := 0; k < 200; k++ {
			tm := r.Float32()*(c.Duration()+0.2) - 0.1
			var got, want Pose
			withSIMD(true, func() { got = NewPose(c.Joints); SampleCubic(&got, c, tm) })
			withSIMD(false, func() { want = NewPose(c.Joints); SampleCubic(&want, c, tm) })
			samePose(t, "SampleCubic", &got, &want)
		}
	}
}

// BK's SIMD path gives the scalar path's bits on random skeletons (roots
// anywhere, sizes either side of a block of eight), with large rotations
// and scaled parents; a parent after its child sends it to the scalar loop.
func TestSIMDBKSameBits(t *testing.T) {
	needSIMD(t)
	r := rand.New(rand.NewSource(3))
	for n := 1; n <= 40; n++ {
		for trial := 0; trial < 4; trial++ {
			parents := make([]int, n)
			for i := range parents {
				parents[i] = r.Intn(i+1) - 1 // -1 (a root) to i-1
				if i > 0 && r.Intn(4) != 0 {
					parents[i] = max(parents[i], 0)
				}
			}
			if trial == 3 && n > 1 {
				parents[r.Intn(n-1)] = n - 1 // not a valid skeleton
			}
			global := randomPose(r, n, 3.1)
			var got, want Pose
			withSIMD(true, func() { got = NewPose(n); BK(&got, &global, parents) })
			withSIMD(false, func() { want = NewPose(n); BK(&want, &global, parents) })
			poseBits(t, "BK", &got, &want)
		}
	}
}

// FiniteDiff's SIMD path gives the scalar path's bits, in place and not,
// on ticks that turn joints by small and large angles (beyond the 45
// degrees of its fast range) and change some scales, by factors either
// side of NearOne's range, one to NaN, and keep one zero scale.
func TestSIMDFiniteDiffSameBits(t *testing.T) {
	needSIMD(t)
	r := rand.New(rand.NewSource(4))
	for n := 1; n <= 40; n++ {
		for _, dt := range []float32{1.0 / 60, 0.5, 0} {
			prev, step := randomPose(r, n, 3.1), randomPose(r, n, 0.3)
			curr := NewPose(n)
			curr.CopyFrom(&prev)
			for j := 0; j < n; j++ {
				curr.Pos[j] = prev.Pos[j].Add(step.Pos[j].Mul(0.1))
				curr.Rot[j] = mathx.QuatMul(step.Rot[j], prev.Rot[j])
				if r.Intn(5) == 0 {
					curr.Rot[j] = randomPose(r, 1, 3.1).Rot[0] // a large turn
				}
				switch r.Intn(6) {
				case 0:
					curr.Scl[j] = prev.Scl[j].Mul(1 + 0.2*r.Float32())
				case 1: // beyond NearOne's range on one axis
					curr.Scl[j][r.Intn(3)] *= 1.5 + r.Float32()
				}
			}
			if n > 5 {
				curr.Scl[5][1] = float32(math.NaN())
			}
			if n > 6 { // a zero scale, unchanged: velocity 0, not 0/0
				prev.Scl[6], curr.Scl[6] = mgl32.Vec3{1, 0, 1}, mgl32.Vec3{1, 0, 1}
			}
			var got, want Pose
			withSIMD(true, func() { got = NewPose(n); FiniteDiff(&got, &curr, &prev, dt) })
			withSIMD(false, func() { want = NewPose(n); FiniteDiff(&want, &curr, &prev, dt) })
			poseBits(t, "FiniteDiff", &got, &want)
			in1, in2 := NewPose(n), NewPose(n)
			in1.CopyFrom(&curr)
			in2.CopyFrom(&curr)
			withSIMD(true, func() { FiniteDiffInPlace(&in1, &prev, dt) })
			withSIMD(false, func() { FiniteDiffInPlace(&in2, &prev, dt) })
			poseBits(t, "FiniteDiffInPlace", &in1, &in2)
		}
	}
}
