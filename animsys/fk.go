package animsys

import "kinelab/animsys/mathx"

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
	gp, gr, gs := global.Pos[:n], global.Rot[:n], global.Scl[:n]
	gv, ga, gsv := global.Vel[:n], global.Ang[:n], global.Svl[:n]
	lp, lr, ls := local.Pos[:n], local.Rot[:n], local.Scl[:n]
	lv, la, lsv := local.Vel[:n], local.Ang[:n], local.Svl[:n]
	for i, p := range parents {
		if p < 0 {
			gp[i], gr[i], gs[i] = lp[i], lr[i], ls[i]
			gv[i], ga[i], gsv[i] = lv[i], la[i], lsv[i]
			continue
		}
		pr, ps, pa, psv := gr[p], gs[p], ga[p], gsv[p]
		// Position: quat_mul_vec3(par_rot, local.pos * par_scl) + par_pos.
		arm := mathx.QuatMulVec3(pr, mathx.Vec3Mul(lp[i], ps))
		gp[i] = arm.Add(gp[p])
		gr[i] = mathx.QuatMul(pr, lr[i])
		gs[i] = mathx.Vec3Mul(ls[i], ps)
		// Linear velocity: rotated local velocity + parent velocity +
		// leverage cross(par_ang, arm) + expansion (local.pos * par_scl *
		// par_svl, rotated). The two rotated terms share one rotation.
		lvs := mathx.Vec3Mul(lv[i].Add(mathx.Vec3Mul(lp[i], psv)), ps)
		gv[i] = mathx.QuatMulVec3(pr, lvs).Add(gv[p]).Add(pa.Cross(arm))
		ga[i] = mathx.QuatMulVec3(pr, la[i]).Add(pa)
		gsv[i] = lsv[i].Add(psv)
	}
}

// FKStatic is FK without velocities (op_fk_static): only positions,
// rotations and scales of global are written.
func FKStatic(global, local *Pose, parents []int) {
	n := len(parents)
	gp, gr, gs := global.Pos[:n], global.Rot[:n], global.Scl[:n]
	lp, lr, ls := local.Pos[:n], local.Rot[:n], local.Scl[:n]
	for i, p := range parents {
		if p < 0 {
			gp[i], gr[i], gs[i] = lp[i], lr[i], ls[i]
			continue
		}
		gp[i] = mathx.QuatMulVec3(gr[p], mathx.Vec3Mul(lp[i], gs[p])).Add(gp[p])
		gr[i] = mathx.QuatMul(gr[p], lr[i])
		gs[i] = mathx.Vec3Mul(ls[i], gs[p])
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
		pr, ps := gr[p], gs[p]
		arm := gp[i].Sub(gp[p])
		lp[i] = mathx.Vec3Div(mathx.QuatInvMulVec3(pr, arm), ps)
		lr[i] = mathx.QuatInvMul(pr, gr[i])
		ls[i] = mathx.Vec3Div(gs[i], ps)
		rel := gv[i].Sub(gv[p]).Sub(ga[p].Cross(arm))
		lv[i] = mathx.Vec3Div(mathx.QuatInvMulVec3(pr, rel), ps).Sub(mathx.Vec3Mul(lp[i], gsv[p]))
		la[i] = mathx.QuatInvMulVec3(pr, ga[i].Sub(ga[p]))
		lsv[i] = gsv[i].Sub(gsv[p])
	}
}
