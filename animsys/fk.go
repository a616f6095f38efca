package animsys

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
		pr, ps, pa, psv := ldqp(&gr[p]), ldp(&gs[p]), ldp(&ga[p]), ldp(&gsv[p])
		rot := rotMatrix(pr) // quat_mul_vec3(par_rot, .) for the three rows
		pos := ldp(&lp[i])
		// Position: quat_mul_vec3(par_rot, local.pos * par_scl) + par_pos.
		arm := rot.mul(pos.mul(ps))
		gp[i] = arm.add(ldp(&gp[p])).vec()
		g, l := &gr[i], &lr[i]
		g.W, g.V[0], g.V[1], g.V[2] = qmulS(pr.w, pr.x, pr.y, pr.z, l.W, l.V[0], l.V[1], l.V[2])
		gs[i] = ldp(&ls[i]).mul(ps).vec()
		// Linear velocity: rotated local velocity + parent velocity +
		// leverage cross(par_ang, arm) + expansion (local.pos * par_scl *
		// par_svl, rotated). The two rotated terms share one rotation.
		lvs := ldp(&lv[i]).add(pos.mul(psv)).mul(ps)
		gv[i] = rot.mul(lvs).add(ldp(&gv[p])).add(pa.cross(arm)).vec()
		ga[i] = rot.mul(ldp(&la[i])).add(pa).vec()
		gsv[i] = ldp(&lsv[i]).add(psv).vec()
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
		pr, ps := ldqp(&gr[p]), ldp(&gs[p])
		gp[i] = qrot(pr, ldp(&lp[i]).mul(ps)).add(ldp(&gp[p])).vec()
		gr[i] = qmul(pr, ldqp(&lr[i])).quat()
		gs[i] = ldp(&ls[i]).mul(ps).vec()
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
		pr, pa := ldqp(&gr[p]), ldp(&ga[p])
		// Three divisions instead of nine: x / s as x (1/s), within an ulp.
		ips := v3{1, 1, 1}.div(ldp(&gs[p]))
		rot := rotMatrix(pr) // its transpose is quat_inv_mul_vec3(par_rot, .)
		arm := ldp(&gp[i]).sub(ldp(&gp[p]))
		pos := rot.tmul(arm).mul(ips)
		lp[i] = pos.vec()
		l, g := &lr[i], &gr[i]
		l.W, l.V[0], l.V[1], l.V[2] = qinvMulS(pr.w, pr.x, pr.y, pr.z, g.W, g.V[0], g.V[1], g.V[2])
		ls[i] = ldp(&gs[i]).mul(ips).vec()
		rel := ldp(&gv[i]).sub(ldp(&gv[p])).sub(pa.cross(arm))
		lv[i] = rot.tmul(rel).mul(ips).sub(pos.mul(ldp(&gsv[p]))).vec()
		la[i] = rot.tmul(ldp(&ga[i]).sub(pa)).vec()
		lsv[i] = ldp(&gsv[i]).sub(ldp(&gsv[p])).vec()
	}
}
