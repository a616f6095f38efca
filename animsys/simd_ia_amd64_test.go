//go:build goexperiment.simd && amd64

package animsys

import (
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// iaEdges puts the edge cases the SIMD inertialize and additive must
// agree on into p: an identity rotation with zero velocities, a rotation
// near pi, a NaN angular velocity, a scale whose log is beyond Exp32's
// polynomial range (0.34) on one axis, a zero scale velocity with a
// non-unit scale, a NaN scale and a signalling NaN one (which any
// product makes quiet).
func iaEdges(r *rand.Rand, p *Pose) {
	n := p.Len()
	at := func(j int) int { return (j*7 + r.Intn(3)) % n }
	p.Rot[at(0)], p.Ang[at(0)], p.Vel[at(0)] = mgl32.QuatIdent(), mgl32.Vec3{}, mgl32.Vec3{}
	p.Rot[at(1)] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, 3.13, 0})
	p.Ang[at(2)][1] = float32(math.NaN())
	p.Scl[at(3)][r.Intn(3)] = 2.5
	p.Scl[at(4)], p.Svl[at(4)] = mgl32.Vec3{1.1, 1.1, 1.1}, mgl32.Vec3{}
	if r.Intn(3) == 0 {
		p.Scl[at(5)][2] = float32(math.NaN())
	}
	p.Scl[at(6)][r.Intn(3)] = math.Float32frombits(0x7f800001)
}

// The SIMD inertialize gives the scalar loop's bits with kept logs (the
// bench chain's form), in place and into a separate pose, for n = 1..40
// joints, offsets of small and large rotations (beyond ExpSmall's 1 rad,
// redone by the scalar code) and scales beyond the SIMD exp's range, with
// cubic weights at random times, the undecayed weights (1, 0, 0, 1) and
// a NaN weight. (One NaN source at a time: where two different NaNs meet,
// x86 keeps the first operand's, and Go orders commutative operands as it
// likes, in the scalar code as in the SIMD.)
func TestSIMDInertializeSameBits(t *testing.T) {
	needSIMD(t)
	r := rand.New(rand.NewSource(31))
	for n := 1; n <= 40; n++ {
		for _, maxAngle := range []float32{0, 0.4, 3.1} {
			offset, input := randomPose(r, n, maxAngle), randomPose(r, n, 2)
			for j := range n {
				if j%4 == 2 { // log-scales either side of 0.34
					offset.Scl[j] = mathx.Vec3Exp(mgl32.Vec3{0.2, -0.5, 0.3})
				}
			}
			if n > 5 {
				iaEdges(r, &offset)
				iaEdges(r, &input)
			}
			logs := make([]offLog, n)
			for j := range logs {
				logs[j].set(mathx.LoadQ4(&offset.Rot[j]), mathx.LoadV3(&offset.Scl[j]))
			}
			w0, w1, w2, w3 := CubicDecayWeights(r.Float32()*0.6-0.05, 0.5)
			switch r.Intn(8) {
			case 0, 1:
				w0, w1, w2, w3 = 1, 0, 0, 1
			case 2: // a NaN weight: exp(w 0) is then NaN, not 1
				w0 = float32(math.NaN())
			}
			var got, want Pose
			withSIMD(true, func() { got = NewPose(n); inertialize(&got, &offset, &input, logs, w0, w1, w2, w3) })
			withSIMD(false, func() { want = NewPose(n); inertialize(&want, &offset, &input, logs, w0, w1, w2, w3) })
			poseBits(t, "inertialize", &got, &want)
			in1, in2 := NewPose(n), NewPose(n)
			in1.CopyFrom(&input)
			in2.CopyFrom(&input)
			withSIMD(true, func() { inertialize(&in1, &offset, &in1, logs, w0, w1, w2, w3) })
			withSIMD(false, func() { inertialize(&in2, &offset, &in2, logs, w0, w1, w2, w3) })
			poseBits(t, "inertialize in place", &in1, &in2)
			// Out sharing only its positions with the input: the scalar
			// loop's per-joint order, which the kernel does not follow.
			for _, simd := range []bool{true, false} {
				p := &in1
				if !simd {
					p = &in2
				}
				p.CopyFrom(&input)
				o := NewPose(n)
				o.Pos = p.Pos
				withSIMD(simd, func() { inertialize(&o, &offset, p, logs, w0, w1, w2, w3) })
				p.CopyFrom(&o)
			}
			poseBits(t, "inertialize sharing positions", &in1, &in2)
		}
	}
}

// The SIMD additive gives the scalar loops' bits with kept logs (the bench
// chain's form), for n = 1..40 joints, additive rotations small and large
// (beyond ExpSmall's 1 rad at the weight, redone by the scalar code),
// scales beyond the SIMD exp's range, weights 0, 1 and random ones (some
// above 1), and with out the additive pose itself.
func TestSIMDAdditiveSameBits(t *testing.T) {
	needSIMD(t)
	r := rand.New(rand.NewSource(32))
	for n := 1; n <= 40; n++ {
		for _, maxAngle := range []float32{0, 0.4, 3.1} {
			add, base := randomPose(r, n, maxAngle), randomPose(r, n, 2)
			for j := range n {
				if j%4 == 2 { // log-scales either side of 0.34
					add.Scl[j] = mathx.Vec3Exp(mgl32.Vec3{0.2, -0.5, 0.3})
				}
			}
			if n > 5 {
				iaEdges(r, &add)
				iaEdges(r, &base)
			}
			logs := make([]addLog, n)
			for j := range logs {
				logs[j].set(mathx.LoadQ4(&add.Rot[j]), mathx.LoadV3(&add.Ang[j]), mathx.LoadV3(&add.Scl[j]))
			}
			alpha, alphaVel := r.Float32()*1.4, r.Float32()*4-2
			switch r.Intn(4) {
			case 0:
				alpha, alphaVel = 0, 0
			case 1:
				alpha = 1
			}
			got, want := NewPose(n), NewPose(n)
			got.CopyFrom(&base)
			want.CopyFrom(&base)
			withSIMD(true, func() { additive(&got, &add, logs, alpha, alphaVel) })
			withSIMD(false, func() { additive(&want, &add, logs, alpha, alphaVel) })
			poseBits(t, "additive", &got, &want)
			a1, a2 := NewPose(n), NewPose(n)
			a1.CopyFrom(&add)
			a2.CopyFrom(&add)
			withSIMD(true, func() { additive(&a1, &a1, logs, alpha, alphaVel) })
			withSIMD(false, func() { additive(&a2, &a2, logs, alpha, alphaVel) })
			poseBits(t, "additive onto itself", &a1, &a2)
		}
	}
}
