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
			gp[i] = lp[i]
			gr[i] = lr[i]
			gs[i] = ls[i]
			gv[i] = lv[i]
			ga[i] = la[i]
			gsv[i] = lsv[i]
			continue
		}
		// The article's op_fk, line by line, is fkReference below; this
		// body computes its values to a few float32 ulps (plain_test.go
		// states the bounds and why). It is written out on components,
		// QuatMulS and QuatMulVec3S (the rotations by par_rot) included,
		// with no call to inline: Go schedules the ready values of a
		// block in the order of their source lines, putting inlined code
		// after this file's own, so the code runs in the order written
		// here, and no line leaves the NOP of an inlining mark. The
		// parent's values are read through pointers where used (after a
		// store, again from memory: the products take them as memory
		// operands), so that no float value spills. On mgl32's arrays,
		// not mathx's views: each view's unsafe.Slice costs checks on
		// every call. Measured on the bench skeleton: 7.10k -> 6.42k
		// instructions a call. Q4.Matrix is fewer flops, but its nine
		// entries live in memory (measured 2% of the tick worse).
		q, ps := &gr[p], &gs[p]
		gs[i] = mgl32.Vec3{ls[i][0] * ps[0], ls[i][1] * ps[1], ls[i][2] * ps[2]}
		l, g := &lr[i], &gr[i]
		qw, qx, qy, qz := q.W, q.V[0], q.V[1], q.V[2]
		g.W, g.V[0], g.V[1], g.V[2] = qw*l.W-qx*l.V[0]-qy*l.V[1]-qz*l.V[2], qw*l.V[0]+qx*l.W+qy*l.V[2]-qz*l.V[1], qw*l.V[1]+qy*l.W+qz*l.V[0]-qx*l.V[2], qw*l.V[2]+qz*l.W+qx*l.V[1]-qy*l.V[0]
		// Position: quat_mul_vec3(par_rot, local.pos * par_scl) + par_pos.
		pos := &lp[i]
		vx, vy, vz := pos[0]*ps[0], pos[1]*ps[1], pos[2]*ps[2]
		tx, ty, tz := 2*(qy*vz-qz*vy), 2*(qz*vx-qx*vz), 2*(qx*vy-qy*vx)
		ax, ay, az := vx+qw*tx+(qy*tz-qz*ty), vy+qw*ty+(qz*tx-qx*tz), vz+qw*tz+(qx*ty-qy*tx)
		pp := &gp[p]
		gp[i] = mgl32.Vec3{ax + pp[0], ay + pp[1], az + pp[2]}
		// Linear velocity: rotated local velocity + parent velocity +
		// leverage cross(par_ang, arm) + expansion (local.pos * par_scl *
		// par_svl, rotated). The two rotated terms share one rotation.
		psv := &gsv[p]
		gsv[i] = mgl32.Vec3{lsv[i][0] + psv[0], lsv[i][1] + psv[1], lsv[i][2] + psv[2]}
		v := &lv[i]
		vx, vy, vz = (v[0]+pos[0]*psv[0])*ps[0], (v[1]+pos[1]*psv[1])*ps[1], (v[2]+pos[2]*psv[2])*ps[2]
		tx, ty, tz = 2*(qy*vz-qz*vy), 2*(qz*vx-qx*vz), 2*(qx*vy-qy*vx)
		vx, vy, vz = vx+qw*tx+(qy*tz-qz*ty), vy+qw*ty+(qz*tx-qx*tz), vz+qw*tz+(qx*ty-qy*tx)
		pa, pv := &ga[p], &gv[p]
		gv[i] = mgl32.Vec3{vx + pv[0] + (pa[1]*az - pa[2]*ay), vy + pv[1] + (pa[2]*ax - pa[0]*az), vz + pv[2] + (pa[0]*ay - pa[1]*ax)}
		a := &la[i]
		vx, vy, vz = a[0], a[1], a[2]
		tx, ty, tz = 2*(qy*vz-qz*vy), 2*(qz*vx-qx*vz), 2*(qx*vy-qy*vx)
		ga[i] = mgl32.Vec3{vx + qw*tx + (qy*tz - qz*ty) + pa[0], vy + qw*ty + (qz*tx - qx*tz) + pa[1], vz + qw*tz + (qx*ty - qy*tx) + pa[2]}
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
			lp[i] = gp[i]
			lr[i] = gr[i]
			ls[i] = gs[i]
			lv[i] = gv[i]
			la[i] = ga[i]
			lsv[i] = gsv[i]
			continue
		}
		// The plain form of this body is bkReference below, written out
		// as FK's and for the same reasons (see there). Fewer values are
		// live across the rotations than in bkReference's order: 1/s
		// comes after the arm's rotation, the expansion term reads
		// local.pos back from lp[i], and the rotation's quotient comes
		// last. Measured: 7.12k -> 6.51k instructions a call.
		q, g := &gr[p], &gr[i]
		qw, qx, qy, qz := q.W, q.V[0], q.V[1], q.V[2]
		psv := &gsv[p]
		lsv[i] = mgl32.Vec3{gsv[i][0] - psv[0], gsv[i][1] - psv[1], gsv[i][2] - psv[2]}
		// quat_inv_mul_vec3(par_rot, arm): QuatInvMulVec3S written out.
		pp, gi := &gp[p], &gp[i]
		ax, ay, az := gi[0]-pp[0], gi[1]-pp[1], gi[2]-pp[2]
		tx, ty, tz := 2*(ay*qz-az*qy), 2*(az*qx-ax*qz), 2*(ax*qy-ay*qx)
		rx, ry, rz := ax+qw*tx+(ty*qz-tz*qy), ay+qw*ty+(tz*qx-tx*qz), az+qw*tz+(tx*qy-ty*qx)
		// Three divisions instead of nine: x / s as x (1/s), within an ulp.
		ps := &gs[p]
		ix, iy, iz := 1/ps[0], 1/ps[1], 1/ps[2]
		ls[i] = mgl32.Vec3{gs[i][0] * ix, gs[i][1] * iy, gs[i][2] * iz}
		lp[i] = mgl32.Vec3{rx * ix, ry * iy, rz * iz}
		pa, pv, v := &ga[p], &gv[p], &gv[i]
		vx, vy, vz := v[0]-pv[0]-(pa[1]*az-pa[2]*ay), v[1]-pv[1]-(pa[2]*ax-pa[0]*az), v[2]-pv[2]-(pa[0]*ay-pa[1]*ax)
		tx, ty, tz = 2*(vy*qz-vz*qy), 2*(vz*qx-vx*qz), 2*(vx*qy-vy*qx)
		lv[i] = mgl32.Vec3{(vx+qw*tx+(ty*qz-tz*qy))*ix - lp[i][0]*psv[0], (vy+qw*ty+(tz*qx-tx*qz))*iy - lp[i][1]*psv[1], (vz+qw*tz+(tx*qy-ty*qx))*iz - lp[i][2]*psv[2]}
		a := &ga[i]
		vx, vy, vz = a[0]-pa[0], a[1]-pa[1], a[2]-pa[2]
		tx, ty, tz = 2*(vy*qz-vz*qy), 2*(vz*qx-vx*qz), 2*(vx*qy-vy*qx)
		la[i] = mgl32.Vec3{vx + qw*tx + (ty*qz - tz*qy), vy + qw*ty + (tz*qx - tx*qz), vz + qw*tz + (tx*qy - ty*qx)}
		l := &lr[i]
		l.W, l.V[0], l.V[1], l.V[2] = qw*g.W+qx*g.V[0]+qy*g.V[1]+qz*g.V[2], qw*g.V[0]-qx*g.W-qy*g.V[2]+qz*g.V[1], qw*g.V[1]-qy*g.W-qz*g.V[0]+qx*g.V[2], qw*g.V[2]-qz*g.W-qx*g.V[1]+qy*g.V[0]
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
