package animsys

import (
	"math/rand"
	"testing"

	"kinelab/animsys/mathx"
)

// Blend's loop (fused Jacobians, no calls) agrees with blendRot, the same
// formula on the general functions, within float32 rounding: absolute, as
// a unit quaternion's components round (a relative comparison fails a
// component near 0 on its last bit).
func TestBlendFusedMatchesGeneral(t *testing.T) {
	f := newBenchFixture()
	r := rand.New(rand.NewSource(3))
	for trial := 0; trial < 50; trial++ {
		alpha, alphaVel := r.Float32(), r.Float32()*4-2
		Blend(&f.s, &f.p, &f.q, alpha, alphaVel)
		for i := range f.s.Rot {
			rot, ang := blendRot(mathx.LoadQ4(&f.p.Rot[i]), mathx.LoadV3(&f.p.Ang[i]), mathx.LoadQ4(&f.q.Rot[i]), mathx.LoadV3(&f.q.Ang[i]), alpha, alphaVel)
			q, dq := rot.Quat(), f.s.Rot[i]
			dr := mathx.V3{X: q.V[0] - dq.V[0], Y: q.V[1] - dq.V[1], Z: q.V[2] - dq.V[2]}
			if d := ang.Sub(mathx.LoadV3(&f.s.Ang[i])); d.Dot(d) > 1e-10 || dr.Dot(dr)+(q.W-dq.W)*(q.W-dq.W) > 1e-12 {
				t.Fatalf("alpha %v joint %d: loop %v %v, blendRot %v %v", alpha, i, f.s.Rot[i], f.s.Ang[i], rot, ang)
			}
		}
	}
}

// A BenchCharacter's kept logarithms of its additive pose and offset follow
// changes to them: the tick equals one on a fresh character given the
// same poses.
func TestCharacterLogsFollowChanges(t *testing.T) {
	c1, c2 := benchCharacter(), benchCharacter()
	c1.Tick(1.0 / 60)
	c2.Tick(1.0 / 60)
	RandomAdditive(&c1.Add, 9)
	RandomAdditive(&c2.Add, 9)
	c1.Offset.Rot[5] = c1.Offset.Rot[6]
	c1.Offset.Scl[7] = c1.Offset.Scl[7].Mul(1.5)
	fresh := *c1
	fresh.addLogs, fresh.offLogs = nil, nil
	c1.Tick(1.0 / 60)
	fresh.Global, fresh.Prev = c2.Global, c2.Prev // poses of its own
	fresh.FD, fresh.FDLocal = c2.FD, c2.FDLocal
	fresh.Tick(1.0 / 60)
	for i := range c1.Global.Ang {
		if c1.Global.Ang[i] != fresh.Global.Ang[i] || c1.Global.Rot[i] != fresh.Global.Rot[i] || c1.Global.Scl[i] != fresh.Global.Scl[i] {
			t.Fatalf("joint %d: kept logs give %v, fresh %v", i, c1.Global.Ang[i], fresh.Global.Ang[i])
		}
	}
}
