package animsys

import (
	"fmt"
	"math"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// FK's and BK's scalar loops were rewritten for fewer instructions (issue
// 31, second round) with the same float32 operations in the same order.
// This test holds them to the bits of the loops they replaced, kept below
// as they were (branch trial at 9061bf9, scalar path), on random
// skeletons of 1 to 40 joints (roots anywhere, a parent after its child
// now and then, which reads whatever is there, the same memory both ways)
// and edgePose's edge cases: zero, negative, infinite and NaN scales,
// zero, large and NaN rotations; into outputs one joint longer than the
// skeleton (that joint left alone). Not in place, nor with a joint its
// own parent: FK and BK take neither (see fk.go), and the new loops read
// some parent values after storing the joint's.
func TestFKBKSameBitsAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(33))
	for n := 1; n <= 40; n++ {
		for trial := 0; trial < 6; trial++ {
			parents := make([]int, n)
			for i := range parents {
				parents[i] = r.Intn(i+1) - 1
				if i > 0 && r.Intn(4) != 0 {
					parents[i] = max(parents[i], 0)
				}
			}
			if k := r.Intn(n); trial == 5 && k < n-1 {
				parents[k] = k + 1 + r.Intn(n-k-1) // a joint after it
			}
			in := edgePose(r, n+1)
			start := edgePose(r, n+1)
			for _, op := range []struct {
				name      string
				now, then func(out, in *Pose, parents []int)
			}{{"FK", FK, fkBefore}, {"BK", BK, bkBefore}} {
				got, want := copyPose(&start), copyPose(&start)
				scalarPath(func() { op.now(&got, &in, parents) })
				op.then(&want, &in, parents)
				what := fmt.Sprintf("%s n %d trial %d", op.name, n, trial)
				poseBitsNaN(t, what, &got, &want)
				g1, s1 := jointPose(&got, n), jointPose(&start, n)
				poseBitsNaN(t, what+", joint beyond the skeleton", &g1, &s1)
			}
		}
	}
}

// fkBefore is FK's scalar loop as it was.
func fkBefore(global, local *Pose, parents []int) {
	n := len(parents)
	gp, gr, gs := global.Pos[:n], global.Rot[:n], global.Scl[:n]
	gv, ga, gsv := global.Vel[:n], global.Ang[:n], global.Svl[:n]
	lp, lr, ls := local.Pos[:n], local.Rot[:n], local.Scl[:n]
	lv, la, lsv := local.Vel[:n], local.Ang[:n], local.Svl[:n]
	for i := 0; i < n; i++ {
		p := parents[i]
		if p < 0 {
			gp[i], gr[i], gs[i] = lp[i], lr[i], ls[i]
			gv[i], ga[i], gsv[i] = lv[i], la[i], lsv[i]
			continue
		}
		pr, ps := mathx.LoadQ4(&gr[p]), mathx.LoadV3(&gs[p])
		gs[i] = mathx.LoadV3(&ls[i]).Mul(ps).Vec3()
		l := mathx.LoadQ4(&lr[i])
		g := &gr[i]
		g.W, g.V[0], g.V[1], g.V[2] = mathx.QuatMulS(pr.W, pr.X, pr.Y, pr.Z, l.W, l.X, l.Y, l.Z)
		pos := mathx.LoadV3(&lp[i])
		ax := pos.Mul(ps)
		var arm mathx.V3
		arm.X, arm.Y, arm.Z = mathx.QuatMulVec3S(pr.W, pr.X, pr.Y, pr.Z, ax.X, ax.Y, ax.Z)
		gp[i] = arm.Add(mathx.LoadV3(&gp[p])).Vec3()
		psv := mathx.LoadV3(&gsv[p])
		gsv[i] = mathx.LoadV3(&lsv[i]).Add(psv).Vec3()
		lvs := mathx.LoadV3(&lv[i]).Add(pos.Mul(psv)).Mul(ps)
		vx, vy, vz := mathx.QuatMulVec3S(pr.W, pr.X, pr.Y, pr.Z, lvs.X, lvs.Y, lvs.Z)
		pa := mathx.LoadV3(&ga[p])
		gv[i] = mathx.V3{X: vx, Y: vy, Z: vz}.Add(mathx.LoadV3(&gv[p])).Add(pa.Cross(arm)).Vec3()
		a := mathx.LoadV3(&la[i])
		wx, wy, wz := mathx.QuatMulVec3S(pr.W, pr.X, pr.Y, pr.Z, a.X, a.Y, a.Z)
		ga[i] = mathx.V3{X: wx, Y: wy, Z: wz}.Add(pa).Vec3()
	}
}

// bkBefore is BK's scalar loop as it was.
func bkBefore(local, global *Pose, parents []int) {
	n := len(parents)
	gp, gr, gs := global.Pos[:n], global.Rot[:n], global.Scl[:n]
	gv, ga, gsv := global.Vel[:n], global.Ang[:n], global.Svl[:n]
	lp, lr, ls := local.Pos[:n], local.Rot[:n], local.Scl[:n]
	lv, la, lsv := local.Vel[:n], local.Ang[:n], local.Svl[:n]
	for i, p := range parents {
		if p < 0 {
			lp[i], lr[i], ls[i] = gp[i], gr[i], gs[i]
			lv[i], la[i], lsv[i] = gv[i], ga[i], gsv[i]
			continue
		}
		pr, g := mathx.LoadQ4(&gr[p]), mathx.LoadQ4(&gr[i])
		l := &lr[i]
		l.W, l.V[0], l.V[1], l.V[2] = mathx.QuatInvMulS(pr.W, pr.X, pr.Y, pr.Z, g.W, g.X, g.Y, g.Z)
		ips := mathx.V3{X: 1, Y: 1, Z: 1}.Div(mathx.LoadV3(&gs[p]))
		ls[i] = mathx.LoadV3(&gs[i]).Mul(ips).Vec3()
		lsv[i] = mathx.LoadV3(&gsv[i]).Sub(mathx.LoadV3(&gsv[p])).Vec3()
		arm := mathx.LoadV3(&gp[i]).Sub(mathx.LoadV3(&gp[p]))
		var pos mathx.V3
		pos.X, pos.Y, pos.Z = mathx.QuatInvMulVec3S(pr.W, pr.X, pr.Y, pr.Z, arm.X, arm.Y, arm.Z)
		pos = pos.Mul(ips)
		lp[i] = pos.Vec3()
		pa := mathx.LoadV3(&ga[p])
		rel := mathx.LoadV3(&gv[i]).Sub(mathx.LoadV3(&gv[p])).Sub(pa.Cross(arm))
		vx, vy, vz := mathx.QuatInvMulVec3S(pr.W, pr.X, pr.Y, pr.Z, rel.X, rel.Y, rel.Z)
		lv[i] = mathx.V3{X: vx, Y: vy, Z: vz}.Mul(ips).Sub(pos.Mul(mathx.LoadV3(&gsv[p]))).Vec3()
		da := mathx.LoadV3(&ga[i]).Sub(pa)
		ax, ay, az := mathx.QuatInvMulVec3S(pr.W, pr.X, pr.Y, pr.Z, da.X, da.Y, da.Z)
		la[i] = mgl32.Vec3{ax, ay, az}
	}
}

// jointPose is joint j of p as a pose of one joint, sharing p's memory.
func jointPose(p *Pose, j int) Pose {
	return Pose{Pos: p.Pos[j : j+1], Rot: p.Rot[j : j+1], Scl: p.Scl[j : j+1],
		Vel: p.Vel[j : j+1], Ang: p.Ang[j : j+1], Svl: p.Svl[j : j+1]}
}

// poseBitsNaN fails t unless a and b hold the same bits in every value,
// a NaN matching any NaN. A NaN's sign and payload are those of whichever
// NaN operand x86 keeps (the first), and Go's register allocator orders
// the operands of a commutative add or multiply as it likes: fkBefore,
// FK's own source, gave NaNs of the other sign than FK did where two
// NaNs met (measured). Zeros' signs and every other value compare by
// their bits.
func poseBitsNaN(t *testing.T, what string, a, b *Pose) {
	t.Helper()
	same := func(x, y float32) bool { return math.Float32bits(x) == math.Float32bits(y) || x != x && y != y }
	for j := range a.Pos {
		ok := same(a.Rot[j].W, b.Rot[j].W)
		for c := 0; c < 3; c++ {
			ok = ok && same(a.Rot[j].V[c], b.Rot[j].V[c]) && same(a.Pos[j][c], b.Pos[j][c]) &&
				same(a.Vel[j][c], b.Vel[j][c]) && same(a.Ang[j][c], b.Ang[j][c]) &&
				same(a.Scl[j][c], b.Scl[j][c]) && same(a.Svl[j][c], b.Svl[j][c])
		}
		if !ok {
			t.Fatalf("%s: bits differ; joint %d: now %+v, before %+v", what, j, a.Kform(j), b.Kform(j))
		}
	}
}

// Blend's scalar rotation loop, written out on components, gives the
// bits of blendBefore (before_test.go) on its fast path: rhs turned from
// lhs by up to 1.2 rad a joint (TestBlendSameBitsAsBefore's rotations
// are mostly far apart, beyond the fast path's 45 degrees), with
// edgePose's edge cases and the weights' ends.
func TestBlendFastPathSameBitsAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(34))
	for n := 1; n <= 40; n++ {
		for trial := 0; trial < 8; trial++ {
			lhs := edgePose(r, n)
			rhs := pairPose(r, &lhs)
			for j := range rhs.Rot {
				turn := float32([]float64{0, 1e-3, .1, .6, 1.2}[r.Intn(5)])
				step := mgl32.Vec3{(r.Float32()*2 - 1) * turn, (r.Float32()*2 - 1) * turn, (r.Float32()*2 - 1) * turn}
				rhs.Rot[j] = mathx.QuatMul(mathx.QuatFromScaledAngleAxis(step), lhs.Rot[j])
			}
			alpha, alphaVel := r.Float32()*1.2-.1, r.Float32()*4-2
			switch trial {
			case 0:
				alpha = 0
			case 1:
				alpha = 1
			}
			got, want := NewPose(n), NewPose(n)
			scalarPath(func() { Blend(&got, &lhs, &rhs, alpha, alphaVel) })
			blendBefore(&want, &lhs, &rhs, alpha, alphaVel)
			poseBits(t, fmt.Sprintf("Blend n %d trial %d", n, trial), &got, &want)
		}
	}
}
