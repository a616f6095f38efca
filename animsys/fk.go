package animsys

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// Forward and backward kinematics (propagating-velocities, "Forward &
// Backward Kinematics"). parents[i] < i for every joint (-1 for roots), as
// Skeleton.Validate checks, so one forward loop visits parents first. The
// output pose must be a different Pose from the input.

// FK computes the global (world) pose from a local pose (op_fk): each joint
// is its parent's global kineform times its local kineform (KformMul), so
// global velocities include the parent's "leverage" (angular velocity x
// lever arm) and "expansion" (scalar velocity along the offset). Units: m,
// m/s, rad/s world side, natural-log scale per second.
func FK(global, local *Pose, parents []int) {
	n := len(parents)
	need("FK", "global", global, wholePose, n, "len(parents)")
	need("FK", "local", local, wholePose, n, "len(parents)")
	gp, gr, gs := global.Pos[:n], global.Rot[:n], global.Scl[:n]
	gv, ga, gsv := global.Vel[:n], global.Ang[:n], global.Svl[:n]
	lp, lr, ls := local.Pos[:n], local.Rot[:n], local.Scl[:n]
	lv, la, lsv := local.Vel[:n], local.Ang[:n], local.Svl[:n]
	// The SIMD path does the joints before i0: all but the last, or
	// those before a parent out of order, or none (see fkSIMD).
	i0 := 0
	if useSIMD && n >= 2 {
		i0 = fkSIMD(global, local, parents)
	}
	for i := i0; i < n; i++ {
		p := parents[i]
		if p < 0 {
			gp[i], gr[i], gs[i] = lp[i], lr[i], ls[i]
			gv[i], ga[i], gsv[i] = lv[i], la[i], lsv[i]
			continue
		}
		// The article's op_fk, line by line, is fkReference below; this
		// body computes its values to a few float32 ulps (plain_test.go
		// states the bounds and why). Each value is loaded (through
		// LoadV3, inlined) just before its first use and each output
		// stored as soon as it is known: Go schedules in that order, and
		// fewer values spill than with the parent's loaded up front. The
		// three rotations by par_rot are QuatMulVec3S, inline: Q4.Matrix
		// is fewer flops but a call, and written out here its nine
		// entries live in memory (measured 2% of the tick worse).
		pr, ps := mathx.LoadQ4(&gr[p]), mathx.LoadV3(&gs[p])
		gs[i] = mathx.LoadV3(&ls[i]).Mul(ps).Vec3()
		l := mathx.LoadQ4(&lr[i])
		g := &gr[i]
		g.W, g.V[0], g.V[1], g.V[2] = mathx.QuatMulS(pr.W, pr.X, pr.Y, pr.Z, l.W, l.X, l.Y, l.Z)
		// Position: quat_mul_vec3(par_rot, local.pos * par_scl) + par_pos.
		pos := mathx.LoadV3(&lp[i])
		ax := pos.Mul(ps)
		var arm mathx.V3
		arm.X, arm.Y, arm.Z = mathx.QuatMulVec3S(pr.W, pr.X, pr.Y, pr.Z, ax.X, ax.Y, ax.Z)
		gp[i] = arm.Add(mathx.LoadV3(&gp[p])).Vec3()
		// Linear velocity: rotated local velocity + parent velocity +
		// leverage cross(par_ang, arm) + expansion (local.pos * par_scl *
		// par_svl, rotated). The two rotated terms share one rotation.
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

// fkReference is FK as the article writes op_fk, on mathx's plain forms:
// the reference FK's fast body is tested against.
func fkReference(global, local *Pose, parents []int) {
	for i, p := range parents {
		if p < 0 {
			global.SetKform(i, local.Kform(i))
			continue
		}
		par, loc := global.Kform(p), local.Kform(i)
		global.Pos[i] = mathx.QuatMulVec3(par.Rot, mathx.Vec3Mul(loc.Pos, par.Scl)).Add(par.Pos)
		global.Rot[i] = mathx.QuatMul(par.Rot, loc.Rot)
		global.Scl[i] = mathx.Vec3Mul(loc.Scl, par.Scl)
		global.Vel[i] = mathx.QuatMulVec3(par.Rot, mathx.Vec3Mul(loc.Vel, par.Scl)).
			Add(par.Vel).
			Add(par.Ang.Cross(mathx.QuatMulVec3(par.Rot, mathx.Vec3Mul(loc.Pos, par.Scl)))).
			Add(mathx.QuatMulVec3(par.Rot, mathx.Vec3Mul(mathx.Vec3Mul(loc.Pos, par.Scl), par.Svl)))
		global.Ang[i] = mathx.QuatMulVec3(par.Rot, loc.Ang).Add(par.Ang)
		global.Svl[i] = loc.Svl.Add(par.Svl)
	}
}

// FKStatic is FK without velocities (op_fk_static): only positions,
// rotations and scales of global are written.
func FKStatic(global, local *Pose, parents []int) {
	n := len(parents)
	need("FKStatic", "global", global, transforms, n, "len(parents)")
	need("FKStatic", "local", local, transforms, n, "len(parents)")
	gp, gr, gs := global.Pos[:n], global.Rot[:n], global.Scl[:n]
	lp, lr, ls := local.Pos[:n], local.Rot[:n], local.Scl[:n]
	for i, p := range parents {
		if p < 0 {
			gp[i], gr[i], gs[i] = lp[i], lr[i], ls[i]
			continue
		}
		// The fast form of fkStaticReference's three lines.
		pr, ps := mathx.LoadQ4(&gr[p]), mathx.LoadV3(&gs[p])
		gp[i] = pr.MulVec3(mathx.LoadV3(&lp[i]).Mul(ps)).Add(mathx.LoadV3(&gp[p])).Vec3()
		gr[i] = pr.Mul(mathx.LoadQ4(&lr[i])).Quat()
		gs[i] = mathx.LoadV3(&ls[i]).Mul(ps).Vec3()
	}
}

// fkStaticReference is FKStatic as the article writes op_fk_static, on
// mathx's plain forms.
func fkStaticReference(global, local *Pose, parents []int) {
	for i, p := range parents {
		if p < 0 {
			global.Pos[i], global.Rot[i], global.Scl[i] = local.Pos[i], local.Rot[i], local.Scl[i]
			continue
		}
		parPos, parRot, parScl := global.Pos[p], global.Rot[p], global.Scl[p]
		global.Pos[i] = mathx.QuatMulVec3(parRot, mathx.Vec3Mul(local.Pos[i], parScl)).Add(parPos)
		global.Rot[i] = mathx.QuatMul(parRot, local.Rot[i])
		global.Scl[i] = mathx.Vec3Mul(local.Scl[i], parScl)
	}
}

// BK computes the local pose from a global one (op_bk): each joint is its
// parent's global kineform divided into its own (KformDiv), the exact
// inverse of FK, velocities included.
//
// This is op_fk solved for the local values. The article's listing of op_bk
// leaves out the division by the parent's scale and rotates the expansion
// term; the two agree only when every parent scale is 1 and not changing.
// Here local.pos = inv(par_rot)(pos - par_pos) / par_scl and
//
//	local.vel = inv(par_rot)(vel - par_vel - cross(par_ang, pos - par_pos)) / par_scl
//	            - local.pos * par_svl.
func BK(local, global *Pose, parents []int) {
	n := len(parents)
	need("BK", "local", local, wholePose, n, "len(parents)")
	need("BK", "global", global, wholePose, n, "len(parents)")
	if useSIMD && n >= 8 && bkSIMD(local, global, parents) {
		return
	}
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
		// The plain form of this body is bkReference below. Values are
		// loaded where first used, outputs stored early (see FK).
		pr, g := mathx.LoadQ4(&gr[p]), mathx.LoadQ4(&gr[i])
		l := &lr[i]
		l.W, l.V[0], l.V[1], l.V[2] = mathx.QuatInvMulS(pr.W, pr.X, pr.Y, pr.Z, g.W, g.X, g.Y, g.Z)
		// Three divisions instead of nine: x / s as x (1/s), within an ulp.
		ips := mathx.V3{X: 1, Y: 1, Z: 1}.Div(mathx.LoadV3(&gs[p]))
		ls[i] = mathx.LoadV3(&gs[i]).Mul(ips).Vec3()
		lsv[i] = mathx.LoadV3(&gsv[i]).Sub(mathx.LoadV3(&gsv[p])).Vec3()
		// quat_inv_mul_vec3(par_rot, .) is QuatInvMulVec3S, inline (see FK).
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
