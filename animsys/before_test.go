package animsys

import (
	"math"
	"math/bits"
	"math/rand"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// The scalar loops of Blend, sampleCubicFrame and finiteDiffJoints were
// rewritten for fewer instructions (issue 31) with the same float32
// operations in the same order. These tests hold them to the bits of
// the code they replaced, kept here as it was (commit 6607f23, scalar
// path), on random poses with the edge cases: equal, zero, negative,
// infinite and NaN scales, zero and large rotations, weights that are
// not finite, out aliasing an input, n = 1 to 40 joints.

// edgePose is a random pose of n joints; every few joints it holds an
// edge case in some channel, drawn from r.
func edgePose(r *rand.Rand, n int) Pose {
	p := NewPose(n)
	rv := func(s float32) mgl32.Vec3 {
		return mgl32.Vec3{(r.Float32()*2 - 1) * s, (r.Float32()*2 - 1) * s, (r.Float32()*2 - 1) * s}
	}
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	negZero := float32(math.Copysign(0, -1))
	for j := 0; j < n; j++ {
		p.Pos[j], p.Vel[j], p.Ang[j], p.Svl[j] = rv(2), rv(3), rv(4), rv(.5)
		p.Rot[j] = mathx.QuatFromScaledAngleAxis(rv([]float32{0, 1e-4, .5, 1.2, 3.1}[r.Intn(5)]))
		if r.Intn(2) == 0 {
			p.Rot[j] = mgl32.Quat{W: -p.Rot[j].W, V: p.Rot[j].V.Mul(-1)}
		}
		switch r.Intn(12) {
		case 0, 1, 2, 3, 4: // unit scale, the common case
		case 5:
			p.Scl[j] = mathx.Vec3Exp(rv(.4))
		case 6:
			s := float32(math.Exp(float64(r.Float32() - .5)))
			p.Scl[j] = mgl32.Vec3{s, s, s}
		case 7:
			p.Scl[j] = mgl32.Vec3{0, negZero, 1}
		case 8:
			p.Scl[j] = mgl32.Vec3{nan, 1, 1}
		case 9:
			p.Scl[j] = mgl32.Vec3{inf, -2, 1e-40}
		case 10:
			p.Rot[j] = mgl32.Quat{W: nan, V: mgl32.Vec3{0, 1, 0}}
		case 11:
			p.Vel[j], p.Svl[j] = mgl32.Vec3{negZero, negZero, nan}, mgl32.Vec3{negZero, 0, negZero}
		}
	}
	return p
}

// pairPose is a random second pose for blending with a: equal to a in
// some joints' scales and rotations, so the equal-scale paths run with
// their edge cases.
func pairPose(r *rand.Rand, a *Pose) Pose {
	n := a.Len()
	b := edgePose(r, n)
	for j := 0; j < n; j++ {
		if r.Intn(2) == 0 {
			b.Scl[j] = a.Scl[j]
		}
		if r.Intn(4) == 0 {
			b.Rot[j] = a.Rot[j]
		}
	}
	return b
}

// poseBits fails t unless a and b hold the same bits in every value,
// naming the first joint that differs (got a, want b: the new code and
// the old, or the SIMD path and the scalar one).
func poseBits(t *testing.T, what string, a, b *Pose) {
	t.Helper()
	ok := sameBits(a.Rot, b.Rot)
	for c, av := range [][]mgl32.Vec3{a.Pos, a.Vel, a.Ang, a.Scl, a.Svl} {
		ok = ok && sameBits(av, [][]mgl32.Vec3{b.Pos, b.Vel, b.Ang, b.Scl, b.Svl}[c])
	}
	if !ok {
		for j := range a.Pos {
			if !sameBits(a.Rot[j:j+1], b.Rot[j:j+1]) || !sameBits(a.Pos[j:j+1], b.Pos[j:j+1]) || !sameBits(a.Vel[j:j+1], b.Vel[j:j+1]) ||
				!sameBits(a.Ang[j:j+1], b.Ang[j:j+1]) || !sameBits(a.Scl[j:j+1], b.Scl[j:j+1]) || !sameBits(a.Svl[j:j+1], b.Svl[j:j+1]) {
				t.Fatalf("%s: bits differ; joint %d: got %+v, want %+v", what, j, a.Kform(j), b.Kform(j))
			}
		}
	}
}

func copyPose(p *Pose) Pose {
	c := NewPose(p.Len())
	c.CopyFrom(p)
	return c
}

func TestBlendSameBitsAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(31))
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	weights := [][2]float32{{0, 0}, {1, 0}, {.3, 2}, {.77, -1.5}, {nan, 1}, {inf, 1}, {.5, inf}, {.5, nan}, {float32(math.Copysign(0, -1)), -3}}
	for n := 1; n <= 40; n++ {
		for trial := 0; trial < 4; trial++ {
			lhs := edgePose(r, n)
			rhs := pairPose(r, &lhs)
			w := weights[r.Intn(len(weights))]
			if trial == 0 {
				w = [2]float32{r.Float32(), r.Float32()*4 - 2}
			}
			got, want := NewPose(n), NewPose(n)
			scalarPath(func() { Blend(&got, &lhs, &rhs, w[0], w[1]) })
			blendBefore(&want, &lhs, &rhs, w[0], w[1])
			poseBits(t, "Blend", &got, &want)
			// out aliasing lhs, then rhs
			for _, intoRhs := range []bool{false, true} {
				l1, r1, l2, r2 := copyPose(&lhs), copyPose(&rhs), copyPose(&lhs), copyPose(&rhs)
				o1, o2 := &l1, &l2
				if intoRhs {
					o1, o2 = &r1, &r2
				}
				scalarPath(func() { Blend(o1, &l1, &r1, w[0], w[1]) })
				blendBefore(o2, &l2, &r2, w[0], w[1])
				poseBits(t, "Blend in place", o1, o2)
			}
		}
	}
}

// blendBefore is Blend as it was.
func blendBefore(out, lhs, rhs *Pose, alpha, alphaVel float32) {
	n := len(lhs.Pos)
	need("blendBefore", "lhs", lhs, wholePose, n, "len(lhs.Pos)")
	need("blendBefore", "rhs", rhs, wholePose, n, "len(lhs.Pos)")
	need("blendBefore", "out", out, wholePose, n, "len(lhs.Pos)")
	// One pass per channel (measured as fast as one pass over all eighteen
	// slices, and the rotation loop is long enough on its own).
	lp, lv, rp, rv, op, ov := lhs.Pos[:n], lhs.Vel[:n], rhs.Pos[:n], rhs.Vel[:n], out.Pos[:n], out.Vel[:n]
	for i := 0; i < n; i++ {
		p0 := mathx.LoadV3(&lp[i])
		dp := mathx.LoadV3(&rp[i]).Sub(p0)
		op[i] = p0.Add(dp.Scale(alpha)).Vec3()
		ov[i] = mathx.LoadV3(&lv[i]).Lerp(mathx.LoadV3(&rv[i]), alpha).Add(dp.Scale(alphaVel)).Vec3()
	}
	lr, la, rr, ra, or, oa := lhs.Rot[:n], lhs.Ang[:n], rhs.Rot[:n], rhs.Ang[:n], out.Rot[:n], out.Ang[:n]
	// rot = exp(alpha d) lhs.rot with d = log(rhs.rot lhs.rot^-1), so
	// ang = alphaVel d + J(alpha d) alpha d' + exp(alpha d) lhs.ang,
	// d' = J(d)^-1 u, u = rhs.ang - D lhs.ang, D = rhs.rot lhs.rot^-1.
	// J(alpha d) and J(d)^-1 are both I + a [d]x + b [d]x^2, and [d]x^3 =
	// -|d|^2 [d]x, so their product is one such form: with A = d x u and
	// B = d x A, J(alpha d) J(d)^-1 u = u + ca A + cb B (two cross
	// products instead of four).
	//
	// The loop has no call, so Go keeps its values in registers (all are
	// caller-saved): joints beyond the polynomials' ranges (|d| >= 1 rad,
	// rare) are marked and done after each block of 64 by blendRot.
	//
	// The plain form of Blend, the formula above written once per joint,
	// is blendReference below.
	{
		for base := 0; base < n; base += 64 {
			var slow uint64
			for i := base; i < min(base+64, n); i++ {
				l, w, rq := mathx.LoadQ4(&lr[i]), mathx.LoadV3(&la[i]), &rr[i]
				var dq mathx.Q4
				dq.W, dq.X, dq.Y, dq.Z = mathx.QuatMulInvS(rq.W, rq.V[0], rq.V[1], rq.V[2], l.W, l.X, l.Y, l.Z)
				// The rotations by dq below are the same for -dq, so no Abs.
				kq, ok := dq.LogFactorShort()
				d := mathx.V3{X: dq.X * kq, Y: dq.Y * kq, Z: dq.Z * kq}
				// ok bounds |d| by 45 degrees, so th2 < 1 as LogRateSeries
				// needs; one test of v2 for both polynomials.
				th2 := d.Dot(d)
				v2 := alpha * alpha * th2
				if !ok || v2 >= 1 {
					slow |= 1 << (i - base)
					continue
				}
				dwx, dwy, dwz := mathx.QuatMulVec3S(dq.W, dq.X, dq.Y, dq.Z, w.X, w.Y, w.Z)
				u := mathx.LoadV3(&ra[i]).Sub(mathx.V3{X: dwx, Y: dwy, Z: dwz})
				c := mathx.LogRateSeries(0.25 * th2) // J(d)^-1 = I - [d]x/2 + c [d]x^2
				k := mathx.ExpSmall(v2)              // J(alpha d) = I + c1 alpha [d]x + c2 alpha^2 [d]x^2
				c1, c2, ct := k.C1()*alpha, k.C2*alpha*alpha, 1-c*th2
				ca, cb := c1*ct+0.5*th2*c2-0.5, c-0.5*c1+c2*ct
				ax, ay, az := mathx.RodriguesS(ca, cb, d.X, d.Y, d.Z, u.X, u.Y, u.Z)
				e := k.Quat(d.Scale(alpha))
				o := &or[i]
				o.W, o.V[0], o.V[1], o.V[2] = mathx.QuatMulS(e.W, e.X, e.Y, e.Z, l.W, l.X, l.Y, l.Z)
				ex, ey, ez := mathx.QuatMulVec3S(e.W, e.X, e.Y, e.Z, w.X, w.Y, w.Z)
				oa[i] = d.Scale(alphaVel).Add(mathx.V3{X: ax, Y: ay, Z: az}.Scale(alpha)).Add(mathx.V3{X: ex, Y: ey, Z: ez}).Vec3()
			}
			for ; slow != 0; slow &= slow - 1 {
				i := base + bits.TrailingZeros64(slow)
				rot, ang := blendRot(mathx.LoadQ4(&lr[i]), mathx.LoadV3(&la[i]), mathx.LoadQ4(&rr[i]), mathx.LoadV3(&ra[i]), alpha, alphaVel)
				or[i], oa[i] = rot.Quat(), ang.Vec3()
			}
		}
	}
	ls, lsv, rs, rsv, os, osv := lhs.Scl[:n], lhs.Svl[:n], rhs.Scl[:n], rhs.Svl[:n], out.Scl[:n], out.Svl[:n]
	for i := 0; i < n; i++ {
		// sclDelta(s0, s1) with its test for equal scales (most joints)
		// inline: the call per joint was 5% of Blend.
		var ds mathx.V3
		if s0, s1 := mathx.LoadV3(&ls[i]), mathx.LoadV3(&rs[i]); s0 != s1 {
			ds = s1.Div(s0).LogEach()
		}
		s0 := mathx.LoadV3(&ls[i])
		os[i] = s0.Mul(ds.Scale(alpha).Exp()).Vec3()
		osv[i] = mathx.LoadV3(&lsv[i]).Lerp(mathx.LoadV3(&rsv[i]), alpha).Add(ds.Scale(alphaVel)).Vec3()
	}
}

// sampleCubicBefore is sampleCubicFrame as it was.
func sampleCubicBefore(op string, out *Pose, c *Clip, frame int, alpha float32, t float64) {
	need(op, "out", out, wholePose, c.Joints, "the clip's Joints")
	if c.Curves != nil {
		c.Curves.SampleCurves(out, t)
		return
	}
	st, dt := frame, c.FrameTime
	h := hermiteAt(alpha)
	if st < 0 || st >= c.Frames-1 {
		h = hermite{} // outside the clip: hold the end frame, at rest
	}
	n, nf := c.Joints, c.Frames
	f0, f1 := clampFrame(st-1, nf), clampFrame(st, nf)
	f2, f3 := clampFrame(st+1, nf), clampFrame(st+2, nf)
	inv := 1 / dt
	pos, vel := out.Pos[:n], out.Vel[:n]
	rot, ang := out.Rot[:n], out.Ang[:n]
	scl, svl := out.Scl[:n], out.Svl[:n]
	// Joints whose position or scale never changes hold it, at rest.
	copy(pos, c.pos.value)
	clear(vel)
	copy(scl, c.scl.value)
	clear(svl)
	if c.prepared() && st >= 0 && st < nf-1 {
		// Inside the clip, from the interval's record: Hermite curves on
		// cached tangents.
		rec := c.record(st)
		// The weights as separate locals, not the struct: Go keeps a struct
		// of more than four fields in memory and does not inline h.offset,
		// whose call would spill the loop's values.
		h10, h01, h11, d10, d01, d11 := h.h10, h.h01, h.h11, h.d10, h.d01, h.d11
		var large bool
		{
			for j := 0; j < n; j++ {
				x := rec[segRot*j : segRot*j+segRot : segRot*j+segRot]
				// cubicRotT written out, so that the loop makes no call:
				// h.offset on components, in its order of operations.
				m1, d12, m2 := segV3(x, 4), segV3(x, 7), segV3(x, 10)
				o := mathx.V3{X: m1.X*h10 + d12.X*h01 + m2.X*h11, Y: m1.Y*h10 + d12.Y*h01 + m2.Y*h11, Z: m1.Z*h10 + d12.Z*h01 + m2.Z*h11}
				do := mathx.V3{X: m1.X*d10 + d12.X*d01 + m2.X*d11, Y: m1.Y*d10 + d12.Y*d01 + m2.Y*d11, Z: m1.Z*d10 + d12.Z*d01 + m2.Z*d11}
				o2 := o.Dot(o)
				if o2 >= 1 {
					large = true // redone below; no call in the loop
				}
				k := mathx.ExpSmall(o2)
				e := k.Quat(o)
				wx, wy, wz := mathx.RodriguesS(k.C1(), k.C2, o.X, o.Y, o.Z, do.X, do.Y, do.Z)
				ang[j] = mgl32.Vec3{wx * inv, wy * inv, wz * inv}
				r, r1 := &rot[j], segQ(x)
				r.W, r.V[0], r.V[1], r.V[2] = mathx.QuatMulS(e.W, e.X, e.Y, e.Z, r1.W, r1.X, r1.Y, r1.Z)
			}
		}
		for j := 0; large && j < n; j++ {
			// Offsets of 1 rad or more (rare) by cubicRotT, with mathx.ExpLarge.
			x := rec[segRot*j : segRot*j+segRot : segRot*j+segRot]
			m1, d12, m2 := segV3(x, 4), segV3(x, 7), segV3(x, 10)
			if o, _ := h.offset(m1, d12, m2); o.Dot(o) >= 1 {
				r, w := h.cubicRotT(segQ(x), m1, d12, m2)
				rot[j], ang[j] = r.Quat(), w.Scale(inv).Vec3()
			}
		}
		o := segRot * n
		for _, j := range c.pos.joints {
			x := rec[o : o+segChan : o+segChan]
			d, dv := h.offset(segV3(x, 3), segV3(x, 6), segV3(x, 9))
			pos[j], vel[j] = segV3(x, 0).Add(d).Vec3(), dv.Scale(inv).Vec3()
			o += segChan
		}
		for _, j := range c.scl.joints {
			x := rec[o : o+segChan : o+segChan]
			d, dv := h.offset(segV3(x, 3), segV3(x, 6), segV3(x, 9))
			scl[j], svl[j] = segV3(x, 0).Mul(d.Exp()).Vec3(), dv.Scale(inv).Vec3()
			o += segChan
		}
		return
	}
	rot0, rot1, rot2, rot3 := c.Rot[f0*n:f0*n+n], c.Rot[f1*n:f1*n+n], c.Rot[f2*n:f2*n+n], c.Rot[f3*n:f3*n+n]
	for j := 0; j < n; j++ {
		r, w := h.cubicRot(mathx.LoadQ4(&rot0[j]), mathx.LoadQ4(&rot1[j]), mathx.LoadQ4(&rot2[j]), mathx.LoadQ4(&rot3[j]))
		rot[j], ang[j] = r.Quat(), w.Scale(inv).Vec3()
	}
	for k, j := range c.pos.joints {
		tr := c.pos.data[k]
		p, v := h.cubicPos(mathx.LoadV3(&tr[f0]), mathx.LoadV3(&tr[f1]), mathx.LoadV3(&tr[f2]), mathx.LoadV3(&tr[f3]))
		pos[j], vel[j] = p.Vec3(), v.Scale(inv).Vec3()
	}
	for k, j := range c.scl.joints {
		tr := c.scl.data[k]
		s, sv := h.cubicScl(mathx.LoadV3(&tr[f0]), mathx.LoadV3(&tr[f1]), mathx.LoadV3(&tr[f2]), mathx.LoadV3(&tr[f3]))
		scl[j], svl[j] = s.Vec3(), sv.Scale(inv).Vec3()
	}
}

// edgeClip is a clip of n joints and frames frames with random rotations
// (turning up to maxStep rad a frame, so offsets beyond 1 rad occur),
// a position track on joint 0 and scale tracks, some uniform, on every
// third joint.
func edgeClip(r *rand.Rand, n, frames int, maxStep float32) Clip {
	c := NewClip("edge", frames, n, 1.0/30)
	for j := 0; j < n; j++ {
		q := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{r.Float32(), r.Float32(), r.Float32()})
		for f := 0; f < frames; f++ {
			step := mgl32.Vec3{(r.Float32()*2 - 1) * maxStep, (r.Float32()*2 - 1) * maxStep, (r.Float32()*2 - 1) * maxStep}
			q = mathx.QuatMul(mathx.QuatFromScaledAngleAxis(step), q)
			c.Rot[c.At(f, j)] = q
			if j == 0 {
				c.SetPos(f, j, mgl32.Vec3{float32(f) * .1, r.Float32(), 1})
			}
			if j%3 == 1 {
				s := float32(math.Exp(float64(r.Float32() - .5)))
				v := mgl32.Vec3{s, s, s}
				if j%2 == 0 {
					v[1] = s * 1.5
				}
				c.SetScl(f, j, v)
			}
		}
	}
	return c
}

func TestSampleCubicSameBitsAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(32))
	bench := GenerateBenchClip(1)
	clips := []*Clip{&bench}
	for n := 1; n <= 40; n++ {
		for _, step := range []float32{.05, .6, 1.5} {
			plain := edgeClip(r, n, 9, step)
			prepared := edgeClip(r, n, 9, step)
			if n%5 == 0 { // a NaN rotation, and a zero turn
				prepared.Rot[prepared.At(4, n-1)] = mgl32.Quat{W: float32(math.NaN()), V: mgl32.Vec3{0, 1, 0}}
				prepared.Rot[prepared.At(6, 0)] = prepared.Rot[prepared.At(5, 0)]
			}
			prepared.Prepare()
			clips = append(clips, &plain, &prepared)
		}
	}
	for _, c := range clips {
		for trial := 0; trial < 12; trial++ {
			frame, alpha := r.Intn(c.Frames+2)-1, r.Float32()
			switch trial {
			case 0:
				alpha = 0
			case 1:
				alpha = 1
			case 2:
				frame = c.Frames - 2
			}
			got, want := NewPose(c.Joints), NewPose(c.Joints)
			scalarPath(func() { SampleCubicFrame(&got, c, frame, alpha) })
			sampleCubicBefore("before", &want, c, frame, alpha, 0)
			poseBits(t, "SampleCubicFrame", &got, &want)
		}
	}
}

// frameAt's bound is the largest float32 below 1.
func TestBelowOne(t *testing.T) {
	if belowOne != math.Nextafter32(1, 0) {
		t.Fatalf("belowOne = %v, want %v", float32(belowOne), math.Nextafter32(1, 0))
	}
}
