package animsys

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// The plain forms of the pose operations, written like the article's
// op_ functions, one joint at a time, on mathx's plain functions (float64
// transcendentals rounded once, mathgl's products): the oracles
// plain_test.go holds the operations to, each within a stated tolerance.

// fkReference is FK as the article writes op_fk, one joint at a time:
// each joint its parent's global kineform times its local one
// (KformMul, the article's kform_mul on mathx's plain forms).
func fkReference(global, local *Pose, parents []int) {
	for i, p := range parents {
		k := local.Kform(i)
		if p >= 0 {
			k = KformMul(global.Kform(p), k)
		}
		global.SetKform(i, k)
	}
}

// bkReference is BK on mathx's plain forms, written like the article's
// op_bk with the division by the parent scale BK adds (see there).
func bkReference(local, global *Pose, parents []int) {
	for i, p := range parents {
		if p < 0 {
			local.SetKform(i, global.Kform(i))
			continue
		}
		par, glo := global.Kform(p), global.Kform(i)
		local.Pos[i] = mathx.Vec3Div(mathx.QuatInvMulVec3(par.Rot, glo.Pos.Sub(par.Pos)), par.Scl)
		local.Rot[i] = mathx.QuatInvMul(par.Rot, glo.Rot)
		local.Scl[i] = mathx.Vec3Div(glo.Scl, par.Scl)
		local.Vel[i] = mathx.Vec3Div(mathx.QuatInvMulVec3(par.Rot,
			glo.Vel.Sub(par.Vel).Sub(par.Ang.Cross(glo.Pos.Sub(par.Pos)))), par.Scl).
			Sub(mathx.Vec3Mul(local.Pos[i], par.Svl))
		local.Ang[i] = mathx.QuatInvMulVec3(par.Rot, glo.Ang.Sub(par.Ang))
		local.Svl[i] = glo.Svl.Sub(par.Svl)
	}
}

// blendReference is Blend on mathx's plain forms, written like the
// article's op_blend with the exact angular velocity Blend adds (see
// there): the reference Blend's fast loops are tested against.
func blendReference(out, lhs, rhs *Pose, alpha, alphaVel float32) {
	for i := range lhs.Pos {
		l, r := lhs.Kform(i), rhs.Kform(i)
		out.Pos[i] = mathx.Vec3Lerp(l.Pos, r.Pos, alpha)
		out.Vel[i] = mathx.Vec3Lerp(l.Vel, r.Vel, alpha).Add(r.Pos.Sub(l.Pos).Mul(alphaVel))
		// rot = exp(alpha d) lhs.rot, d the rotation from lhs to rhs.
		diff := mathx.QuatAbs(mathx.QuatMulInv(r.Rot, l.Rot))
		d := mathx.QuatToScaledAngleAxis(diff)
		dd := mathx.QuatToScaledAngleAxisDx(d, r.Ang.Sub(mathx.QuatMulVec3(diff, l.Ang)))
		e := mathx.QuatFromScaledAngleAxis(d.Mul(alpha))
		out.Rot[i] = mathx.QuatMul(e, l.Rot)
		out.Ang[i] = d.Mul(alphaVel).Add(mathx.QuatFromScaledAngleAxisDx(d.Mul(alpha), dd.Mul(alpha))).
			Add(mathx.QuatMulVec3(e, l.Ang))
		ds := mathx.Vec3Log(mathx.Vec3Div(r.Scl, l.Scl))
		out.Scl[i] = mathx.Vec3Mul(l.Scl, mathx.Vec3Exp(ds.Mul(alpha)))
		out.Svl[i] = mathx.Vec3Lerp(l.Svl, r.Svl, alpha).Add(ds.Mul(alphaVel))
	}
}

// inertializeReference is InertializeWeights on mathx's plain forms,
// written like the article's op_inertialize with the exact angular
// velocity InertializeWeights adds (see there).
func inertializeReference(out, offset, input *Pose, w0, w1, w2, w3 float32) {
	for i := range input.Pos {
		off, in := offset.Kform(i), input.Kform(i)
		offPos := off.Pos.Mul(w0).Add(off.Vel.Mul(w1))
		offVel := off.Pos.Mul(w2).Add(off.Vel.Mul(w3))
		// The decayed scaled angle-axis x and its rate v.
		r := mathx.QuatToScaledAngleAxis(off.Rot)
		x := r.Mul(w0).Add(off.Ang.Mul(w1))
		v := r.Mul(w2).Add(off.Ang.Mul(w3))
		offRot := mathx.QuatFromScaledAngleAxis(x)
		offAng := mathx.QuatFromScaledAngleAxisDx(x, v)
		ls := mathx.Vec3Log(off.Scl)
		offScl := mathx.Vec3Exp(ls.Mul(w0).Add(off.Svl.Mul(w1)))
		offSvl := ls.Mul(w2).Add(off.Svl.Mul(w3))
		out.Pos[i] = in.Pos.Add(offPos)
		out.Vel[i] = in.Vel.Add(offVel)
		out.Rot[i] = mathx.QuatMul(offRot, in.Rot)
		out.Ang[i] = mathx.QuatMulVec3(offRot, in.Ang).Add(offAng)
		out.Scl[i] = mathx.Vec3Mul(in.Scl, offScl)
		out.Svl[i] = in.Svl.Add(offSvl)
	}
}

// finiteDiffReference is FiniteDiff as the article writes
// op_finite_diff, on mathx's plain forms (dividing by dt as a product
// with 1/dt, as FiniteDiff does).
func finiteDiffReference(out, curr, prev *Pose, dt float32) {
	for i := range curr.Pos {
		out.Pos[i], out.Rot[i], out.Scl[i] = curr.Pos[i], curr.Rot[i], curr.Scl[i]
		out.Vel[i] = curr.Pos[i].Sub(prev.Pos[i]).Mul(1 / dt)
		out.Ang[i] = mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(curr.Rot[i], prev.Rot[i]))).Mul(1 / dt)
		out.Svl[i] = mathx.Vec3Log(mathx.Vec3Div(curr.Scl[i], prev.Scl[i])).Mul(1 / dt)
	}
}

// additiveReference is Additive (local false) or AdditiveLocal (local
// true) as the article writes op_additive_inplace, with the exact angular
// velocity of the weighted additive rotation Additive adds (see there).
func additiveReference(out, add *Pose, alpha, alphaVel float32, local bool) {
	for i := range out.Pos {
		a := add.Kform(i)
		out.Pos[i] = out.Pos[i].Add(a.Pos.Mul(alpha))
		out.Vel[i] = out.Vel[i].Add(a.Vel.Mul(alpha)).Add(a.Pos.Mul(alphaVel))
		q := mathx.QuatAbs(a.Rot)
		r := mathx.QuatToScaledAngleAxis(q)
		dr := mathx.QuatToScaledAngleAxisDx(r, a.Ang)
		e := mathx.QuatFromScaledAngleAxis(r.Mul(alpha))
		w := mathx.QuatFromScaledAngleAxisDx(r.Mul(alpha), dr.Mul(alpha)).Add(r.Mul(alphaVel))
		if local {
			out.Ang[i] = out.Ang[i].Add(mathx.QuatMulVec3(out.Rot[i], w))
			out.Rot[i] = mathx.QuatMul(out.Rot[i], e)
		} else {
			out.Rot[i] = mathx.QuatMul(e, out.Rot[i])
			out.Ang[i] = mathx.QuatMulVec3(e, out.Ang[i]).Add(w)
		}
		ls := mathx.Vec3Log(a.Scl)
		out.Scl[i] = mathx.Vec3Mul(out.Scl[i], mathx.Vec3Exp(ls.Mul(alpha)))
		out.Svl[i] = out.Svl[i].Add(a.Svl.Mul(alpha)).Add(ls.Mul(alphaVel))
	}
}

// sampleReference is SampleCubicFrame (h from hermiteAt) or
// SampleLinearFrame (h from linearAt) at fraction h of interval st, as
// the article's sampling describes it, one joint at a time from the four
// frames around the interval: each channel's Hermite offset from the
// interval's start, its tangents the means of the deltas between
// consecutive frames either side, with its derivative as the velocity.
// Past the clip's first and last frames the delta is a ghost's
// (Clip.ghosts: the interval's own, or across the wrap); outside the clip
// the frames clamp and the curve holds.
func sampleReference(out *Pose, c *Clip, st int, h hermite) {
	f0, f1, f2, f3 := c.frames4(st)
	if st < 0 || st >= c.Frames-1 {
		h = hermite{}
	}
	nf := c.Frames
	inv := 1 / c.FrameTime
	before, after := c.ghosts(st)
	curve := func(m1, d12, m2 mgl32.Vec3) (o, do mgl32.Vec3) {
		return m1.Mul(h.h10).Add(d12.Mul(h.h01)).Add(m2.Mul(h.h11)), m1.Mul(h.d10).Add(d12.Mul(h.d01)).Add(m2.Mul(h.d11))
	}
	// sides are the deltas before and after the interval, given delta(a,
	// b) between frames and the interval's own d12.
	sides := func(delta func(a, b int) mgl32.Vec3, d12 mgl32.Vec3) (d01, d23 mgl32.Vec3) {
		switch before {
		case inside:
			d01 = delta(f0, f1)
		case oneSided:
			d01 = d12
		case wrapped:
			d01 = delta(nf-2, nf-1)
		}
		switch after {
		case inside:
			d23 = delta(f2, f3)
		case oneSided:
			d23 = d12
		case wrapped:
			d23 = delta(0, 1)
		}
		return d01, d23
	}
	for j := 0; j < c.Joints; j++ {
		rotDelta := func(a, b int) mgl32.Vec3 {
			if a == b {
				return mgl32.Vec3{}
			}
			return mathx.QuatToScaledAngleAxis(mathx.QuatAbs(mathx.QuatMulInv(c.Rot[c.At(b, j)], c.Rot[c.At(a, j)])))
		}
		d12 := rotDelta(f1, f2)
		d01, d23 := sides(rotDelta, d12)
		m1 := d01.Add(d12).Mul(0.5)
		m2 := mathx.QuatToScaledAngleAxisDx(d12, d12.Add(d23).Mul(0.5))
		o, do := curve(m1, d12, m2)
		out.Rot[j] = mathx.QuatMul(mathx.QuatFromScaledAngleAxis(o), c.Rot[c.At(f1, j)])
		out.Ang[j] = mathx.QuatFromScaledAngleAxisDx(o, do).Mul(inv)

		posDelta := func(a, b int) mgl32.Vec3 { return c.PosAt(b, j).Sub(c.PosAt(a, j)) }
		d12 = posDelta(f1, f2)
		d01, d23 = sides(posDelta, d12)
		o, do = curve(d01.Add(d12).Mul(0.5), d12, d12.Add(d23).Mul(0.5))
		out.Pos[j], out.Vel[j] = c.PosAt(f1, j).Add(o), do.Mul(inv)

		sclDelta := func(a, b int) mgl32.Vec3 { return mathx.Vec3Log(mathx.Vec3Div(c.SclAt(b, j), c.SclAt(a, j))) }
		d12 = sclDelta(f1, f2)
		d01, d23 = sides(sclDelta, d12)
		o, do = curve(d01.Add(d12).Mul(0.5), d12, d12.Add(d23).Mul(0.5))
		out.Scl[j], out.Svl[j] = mathx.Vec3Mul(c.SclAt(f1, j), mathx.Vec3Exp(o)), do.Mul(inv)
	}
}
