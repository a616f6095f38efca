//go:build goexperiment.simd && amd64

package animsys

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// randomParents is a skeleton of n joints with roots anywhere, each parent
// before its child.
func randomParents(r *rand.Rand, n int) []int {
	parents := make([]int, n)
	for i := range parents {
		parents[i] = r.Intn(i+1) - 1 // -1 (a root) to i-1
		if i > 0 && r.Intn(4) != 0 {
			parents[i] = max(parents[i], 0)
		}
	}
	return parents
}

// edgeJoints puts edge cases into p: an identity and a zero rotation, a
// huge position, a zero and a negative scale, and a NaN in some channel.
func edgeJoints(r *rand.Rand, p *Pose) {
	n := p.Len()
	nan := float32(math.NaN())
	for k := 0; k < 1+n/8; k++ {
		j := r.Intn(n)
		switch r.Intn(6) {
		case 0:
			p.Rot[j] = mgl32.QuatIdent()
		case 1:
			p.Rot[j] = mgl32.Quat{}
		case 2:
			p.Pos[j] = mgl32.Vec3{3e37, -2e38, 1e-40}
		case 3:
			p.Scl[j] = mgl32.Vec3{0, -2, 1e-3}
		case 4:
			[][]mgl32.Vec3{p.Pos, p.Scl, p.Vel, p.Ang, p.Svl}[r.Intn(5)][j][r.Intn(3)] = nan
		case 5:
			p.Rot[j].V[r.Intn(3)] = nan
		}
	}
}

// FK's SIMD path gives the scalar path's bits: random skeletons of 1 to 40
// joints, large rotations, scaled parents, edge values; into a pose
// longer than the skeleton (whose extra joint it must leave alone), in
// place, and with a parent after its child (not a valid skeleton: the
// scalar loop's reads, whatever they are, must be the same).
func TestSIMDFKSameBits(t *testing.T) {
	needSIMD(t)
	r := rand.New(rand.NewSource(5))
	for n := 1; n <= 40; n++ {
		for trial := 0; trial < 6; trial++ {
			parents := randomParents(r, n)
			if trial == 5 {
				k := r.Intn(n)
				parents[k] = k + r.Intn(n-k) // itself or a joint after it
			}
			local := randomPose(r, n+1, 3.1)
			if trial >= 3 {
				edgeJoints(r, &local)
			}
			// Outputs one joint longer, that joint set apart.
			start := randomPose(r, n+1, 3.1)
			var got, want Pose
			run := func(p *Pose) {
				*p = NewPose(n + 1)
				p.CopyFrom(&start)
				FK(p, &local, parents)
			}
			withSIMD(true, func() { run(&got) })
			withSIMD(false, func() { run(&want) })
			poseBits(t, "FK", &got, &want)
			if got.Kform(n) != start.Kform(n) {
				t.Fatalf("n %d: FK wrote joint %d beyond the skeleton", n, n)
			}
			in1, in2 := NewPose(n), NewPose(n)
			in1.CopyFrom(&local)
			in2.CopyFrom(&local)
			withSIMD(true, func() { FK(&in1, &in1, parents) })
			withSIMD(false, func() { FK(&in2, &in2, parents) })
			poseBits(t, "FK in place", &in1, &in2)
		}
	}
}

// Blend's SIMD rotation loop overlaps its last block of eight joints with
// the one before only where out is neither input, channel by channel: a
// pose sharing just its angular velocities or just its rotations with an
// input takes the padded copies, and gives the scalar path's bits; its
// slow lanes keep each channel's own input for the redo (out sharing
// only rhs's angular velocities broke that once).
func TestSIMDBlendTailSameBits(t *testing.T) {
	needSIMD(t)
	r := rand.New(rand.NewSource(6))
	for n := 1; n <= 40; n++ {
		lhs, rhs := randomPose(r, n, 3.1), randomPose(r, n, 3.1)
		alpha, alphaVel := r.Float32(), r.Float32()*4-2
		for k := 0; k < 6; k++ {
			run := func() Pose {
				l, rh := NewPose(n), NewPose(n)
				l.CopyFrom(&lhs)
				rh.CopyFrom(&rhs)
				out := NewPose(n)
				switch k {
				case 1:
					out.Ang = l.Ang
				case 2:
					out.Rot = rh.Rot
				case 3:
					out.Rot = l.Rot
				case 4:
					out.Ang = rh.Ang
				case 5:
					out.Rot, out.Ang = l.Rot, rh.Ang
				}
				Blend(&out, &l, &rh, alpha, alphaVel)
				return out
			}
			var got, want Pose
			withSIMD(true, func() { got = run() })
			withSIMD(false, func() { want = run() })
			poseBits(t, fmt.Sprintf("Blend n %d, channel case %d", n, k), &got, &want)
		}
	}
}
