package animsys

import "github.com/go-gl/mathgl/mgl32"

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
		// Each value is loaded (through ldp, inlined) just before its
		// first use and each output stored as soon as it is known: Go
		// schedules in that order, and fewer values spill than with the
		// parent's loaded up front. The three rotations by par_rot are
		// qrotS, inline: rotMatrix is fewer flops but a call, and written
		// out here its nine entries live in memory (measured 2% of the
		// tick worse than qrotS).
		pr, ps := ldqp(&gr[p]), ldp(&gs[p])
		gs[i] = ldp(&ls[i]).mul(ps).vec()
		l := ldqp(&lr[i])
		g := &gr[i]
		g.W, g.V[0], g.V[1], g.V[2] = qmulS(pr.w, pr.x, pr.y, pr.z, l.w, l.x, l.y, l.z)
		// Position: quat_mul_vec3(par_rot, local.pos * par_scl) + par_pos.
		pos := ldp(&lp[i])
		ax := pos.mul(ps)
		var arm v3
		arm.x, arm.y, arm.z = qrotS(pr.w, pr.x, pr.y, pr.z, ax.x, ax.y, ax.z)
		gp[i] = arm.add(ldp(&gp[p])).vec()
		// Linear velocity: rotated local velocity + parent velocity +
		// leverage cross(par_ang, arm) + expansion (local.pos * par_scl *
		// par_svl, rotated). The two rotated terms share one rotation.
		psv := ldp(&gsv[p])
		gsv[i] = ldp(&lsv[i]).add(psv).vec()
		lvs := ldp(&lv[i]).add(pos.mul(psv)).mul(ps)
		vx, vy, vz := qrotS(pr.w, pr.x, pr.y, pr.z, lvs.x, lvs.y, lvs.z)
		pa := ldp(&ga[p])
		gv[i] = v3{vx, vy, vz}.add(ldp(&gv[p])).add(pa.cross(arm)).vec()
		a := ldp(&la[i])
		wx, wy, wz := qrotS(pr.w, pr.x, pr.y, pr.z, a.x, a.y, a.z)
		ga[i] = v3{wx, wy, wz}.add(pa).vec()
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
		// Values loaded where first used, outputs stored early (see FK).
		pr, g := ldqp(&gr[p]), ldqp(&gr[i])
		l := &lr[i]
		l.W, l.V[0], l.V[1], l.V[2] = qinvMulS(pr.w, pr.x, pr.y, pr.z, g.w, g.x, g.y, g.z)
		// Three divisions instead of nine: x / s as x (1/s), within an ulp.
		ips := v3{1, 1, 1}.div(ldp(&gs[p]))
		ls[i] = ldp(&gs[i]).mul(ips).vec()
		lsv[i] = ldp(&gsv[i]).sub(ldp(&gsv[p])).vec()
		// quat_inv_mul_vec3(par_rot, .) is qinvrotS, inline (see FK).
		arm := ldp(&gp[i]).sub(ldp(&gp[p]))
		var pos v3
		pos.x, pos.y, pos.z = qinvrotS(pr.w, pr.x, pr.y, pr.z, arm.x, arm.y, arm.z)
		pos = pos.mul(ips)
		lp[i] = pos.vec()
		pa := ldp(&ga[p])
		rel := ldp(&gv[i]).sub(ldp(&gv[p])).sub(pa.cross(arm))
		vx, vy, vz := qinvrotS(pr.w, pr.x, pr.y, pr.z, rel.x, rel.y, rel.z)
		lv[i] = v3{vx, vy, vz}.mul(ips).sub(pos.mul(ldp(&gsv[p]))).vec()
		da := ldp(&ga[i]).sub(pa)
		ax, ay, az := qinvrotS(pr.w, pr.x, pr.y, pr.z, da.x, da.y, da.z)
		la[i] = mgl32.Vec3{ax, ay, az}
	}
}
