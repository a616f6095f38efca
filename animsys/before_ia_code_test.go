package animsys

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// The scalar loops of inertialize, additive and finiteDiffJoints as they
// were before the second round of issue 31 (branch trial, commit 9061bf9),
// kept so that before_ia_test.go holds the rewrites to their bits.

// inertializeBefore is inertialize's scalar path as it was.
func inertializeBefore(out, offset, input *Pose, logs []offLog, w0, w1, w2, w3 float32) {
	n := len(input.Pos)
	fp, fr, fs := offset.Pos[:n], offset.Rot[:n], offset.Scl[:n]
	fv, fa, fsv := offset.Vel[:n], offset.Ang[:n], offset.Svl[:n]
	ip, ir, is := input.Pos[:n], input.Rot[:n], input.Scl[:n]
	iv, ia, isv := input.Vel[:n], input.Ang[:n], input.Svl[:n]
	op, or, os := out.Pos[:n], out.Rot[:n], out.Scl[:n]
	ov, oa, osv := out.Vel[:n], out.Ang[:n], out.Svl[:n]
	if logs != nil {
		logs = logs[:n]
	}
	var tmp offLog
	finite := w0-w0 == 0 && w1-w1 == 0 // w0 0 + w1 0 is then a zero
	for i := 0; i < n; i++ {
		// The plain form of this body is inertializeReference below.
		p, v := mathx.LoadV3(&fp[i]), mathx.LoadV3(&fv[i])
		op[i] = mathx.LoadV3(&ip[i]).Add(p.Scale(w0)).Add(v.Scale(w1)).Vec3()
		ov[i] = mathx.LoadV3(&iv[i]).Add(p.Scale(w2)).Add(v.Scale(w3)).Vec3()

		m := &tmp
		if logs != nil {
			m = &logs[i]
		} else {
			m.set(mathx.LoadQ4(&fr[i]), mathx.LoadV3(&fs[i]))
		}
		r, a := m.r, mathx.LoadV3(&fa[i])
		// mathx.Q4FromScaledAngleAxisDx(x, v) written out, so that the loop
		// makes no call.
		x, v := r.Scale(w0).Add(a.Scale(w1)), r.Scale(w2).Add(a.Scale(w3))
		x2 := x.Dot(x)
		k := mathx.ExpSmall(x2)
		if x2 >= 1 {
			k = mathx.ExpLarge(x2)
		}
		e := k.Quat(x)
		jx, jy, jz := mathx.RodriguesS(k.C1(), k.C2, x.X, x.Y, x.Z, v.X, v.Y, v.Z)
		in, o := mathx.LoadQ4(&ir[i]), &or[i]
		o.W, o.V[0], o.V[1], o.V[2] = mathx.QuatMulS(e.W, e.X, e.Y, e.Z, in.W, in.X, in.Y, in.Z)
		ang := mathx.LoadV3(&ia[i]) // loaded here, not with in: fewer values spill
		ax, ay, az := mathx.QuatMulVec3S(e.W, e.X, e.Y, e.Z, ang.X, ang.Y, ang.Z)
		oa[i] = mgl32.Vec3{ax + jx, ay + jy, az + jz}

		ls, sv := m.ls, mathx.LoadV3(&fsv[i])
		// An offset that does not scale (most joints) leaves the input's
		// scale as it is: the exponent is then a zero, Exp32 gives exactly
		// 1, and s 1 is s in every bit unless s is NaN (a signalling NaN
		// comes out quiet), which takes the product.
		if s := mathx.LoadV3(&is[i]); finite && ls == (mathx.V3{}) && sv == (mathx.V3{}) && s == s {
			os[i] = s.Vec3()
		} else {
			os[i] = s.Mul(ls.Scale(w0).Add(sv.Scale(w1)).Exp()).Vec3()
		}
		osv[i] = mathx.LoadV3(&isv[i]).Add(ls.Scale(w2)).Add(sv.Scale(w3)).Vec3()
	}
}

// additiveBefore is additive's scalar path as it was.
func additiveBefore(out, add *Pose, logs []addLog, alpha, alphaVel float32) {
	n := len(out.Pos)
	// One pass per channel (measured no slower than one pass over all
	// twelve slices); the scale pass reads the logs the rotation pass keeps.
	ap, av, op, ov := add.Pos[:n], add.Vel[:n], out.Pos[:n], out.Vel[:n]
	for i := 0; i < n; i++ {
		p := mathx.LoadV3(&ap[i])
		op[i] = mathx.LoadV3(&op[i]).Add(p.Scale(alpha)).Vec3()
		ov[i] = mathx.LoadV3(&ov[i]).Add(mathx.LoadV3(&av[i]).Scale(alpha)).Add(p.Scale(alphaVel)).Vec3()
	}
	ar, aa, as, or, oa := add.Rot[:n], add.Ang[:n], add.Scl[:n], out.Rot[:n], out.Ang[:n]
	if logs != nil {
		logs = logs[:n]
	}
	var tmp addLog
	// The weighted rotation is v = alpha r turning at alpha dr: |v|^2 =
	// alpha^2 |r|^2, v x dv = alpha^2 (r x dr), v x (v x dv) = alpha^3 (r
	// x (r x dr)) in mathx.Q4FromScaledAngleAxisDx's J(v) dv.
	a2, a3 := alpha*alpha, alpha*alpha*alpha
	for i := 0; i < n; i++ {
		m := &tmp
		if logs != nil {
			m = &logs[i]
		} else {
			m.set(mathx.LoadQ4(&ar[i]), mathx.LoadV3(&aa[i]), mathx.LoadV3(&as[i]))
		}
		v2 := a2 * m.rr
		k := mathx.ExpSmall(v2)
		if v2 >= 1 {
			k = mathx.ExpLarge(v2)
		}
		e := k.Quat(m.r.Scale(alpha))
		// The pose's values are loaded where used, through inlined
		// functions: Go schedules loads written in the loop itself first,
		// and values loaded early spill.
		o, rot := &or[i], mathx.LoadQ4(&or[i])
		o.W, o.V[0], o.V[1], o.V[2] = mathx.QuatMulS(e.W, e.X, e.Y, e.Z, rot.W, rot.X, rot.Y, rot.Z)
		a, ang := &oa[i], mathx.LoadV3(&oa[i])
		ax, ay, az := mathx.QuatMulVec3S(e.W, e.X, e.Y, e.Z, ang.X, ang.Y, ang.Z)
		addAng := m.rateBefore(alpha, alphaVel, k.C1()*a2, k.C2*a3)
		a[0], a[1], a[2] = ax+addAng.X, ay+addAng.Y, az+addAng.Z
	}
	asv, os, osv := add.Svl[:n], out.Scl[:n], out.Svl[:n]
	for i := 0; i < n; i++ {
		var ls mathx.V3
		if logs != nil {
			ls = logs[i].ls // set by the rotation pass
		} else {
			ls = mathx.LoadV3(&as[i]).Log()
		}
		os[i] = ls.Scale(alpha).Exp().Mul(mathx.LoadV3(&os[i])).Vec3()
		osv[i] = mathx.LoadV3(&osv[i]).Add(mathx.LoadV3(&asv[i]).Scale(alpha)).Add(ls.Scale(alphaVel)).Vec3()
	}
}

func (m *addLog) rateBefore(alpha, alphaVel, c1a2, c2a3 float32) mathx.V3 {
	// On components: written with V3's methods it would not inline.
	return mathx.V3{X: m.dr.X*alpha + m.rxdr.X*c1a2 + m.rxrxdr.X*c2a3 + m.r.X*alphaVel,
		Y: m.dr.Y*alpha + m.rxdr.Y*c1a2 + m.rxrxdr.Y*c2a3 + m.r.Y*alphaVel,
		Z: m.dr.Z*alpha + m.rxdr.Z*c1a2 + m.rxrxdr.Z*c2a3 + m.r.Z*alphaVel}
}

// finiteDiffJointsBefore is finiteDiffJoints as it was.
func finiteDiffJointsBefore(out, curr, prev *Pose, inv float32, lo, hi int) {
	n := hi
	// Every slice is cut to n here, which spares the loop's accesses
	// their own checks (after a store Go reloads a slice).
	cp, cr, cs := curr.Pos[:n], curr.Rot[:n], curr.Scl[:n]
	pp, pr, ps := prev.Pos[:n], prev.Rot[:n], prev.Scl[:n]
	vel, ang, svl := out.Vel[:n], out.Ang[:n], out.Svl[:n]
	for i := lo; i < n; i++ {
		// The plain form of this body is finiteDiffReference below.
		vel[i] = mathx.LoadV3(&cp[i]).Sub(mathx.LoadV3(&pp[i])).Scale(inv).Vec3()
		// rotDelta written out, so that the loop makes no call for rotations
		// up to 45 degrees a tick.
		c, p := &cr[i], &pr[i]
		var dq mathx.Q4
		dq.W, dq.X, dq.Y, dq.Z = mathx.QuatMulInvS(c.W, c.V[0], c.V[1], c.V[2], p.W, p.V[0], p.V[1], p.V[2])
		k, ok := dq.LogFactorShort()
		if !ok {
			dq = dq.Abs()
			k = dq.LogFactor()
		}
		ang[i] = mgl32.Vec3{dq.X * k * inv, dq.Y * k * inv, dq.Z * k * inv}
		// sclDelta(prev, curr), its logs inline for the ratios within a
		// factor sqrt 2 of 1 a tick's change of scale gives (Log32 was a
		// call per axis for every joint below a scaling one).
		var ds mathx.V3
		if s0, s1 := mathx.LoadV3(&ps[i]), mathx.LoadV3(&cs[i]); s0 != s1 {
			if r := s1.Div(s0); mathx.NearOne(r.X) && mathx.NearOne(r.Y) && mathx.NearOne(r.Z) {
				ds = mathx.V3{X: mathx.LogNearOne(r.X), Y: mathx.LogNearOne(r.Y), Z: mathx.LogNearOne(r.Z)}
			} else {
				ds = r.LogEach()
			}
		}
		svl[i] = ds.Scale(inv).Vec3()
	}
}
