package animsys

import (
	"fmt"

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
func FK(global, local *Pose, parents []int) { fk("FK", global, local, parents, wholePose) }

// FKStatic is FK without velocities (op_fk_static): only positions,
// rotations and scales are read and written, so poses without velocities
// will do.
func FKStatic(global, local *Pose, parents []int) {
	fk("FKStatic", global, local, parents, transforms)
}

// fk is FK and FKStatic, named op, on the channels ch (with velocities or
// without). It walks the hierarchy one joint at a time, as a joint needs
// its parent's result, each joint's channels in mathx's joint forms.
func fk(op string, global, local *Pose, parents []int, ch channels) {
	var g, l mathx.Rooms
	needFK(&g, &l, op, global, local, parents, ch)
	moving := ch&velocities != 0
	for i, p := range parents {
		pos, rot, scl := l.Transform(i)
		var vel, ang, svl mathx.JVec
		if moving {
			vel, ang, svl = l.Rates(i)
		}
		if p >= 0 {
			parPos, parQ, parScl := g.Transform(p)
			parRot := mathx.RotorOf(parQ)
			// pos = quat_mul_vec3(par_rot, local.pos * par_scl) + par_pos.
			offset := pos.Mul(parScl)
			arm := parRot.Rotate(offset)
			pos = arm.Add(parPos)
			rot = mathx.QuatMul4(parQ, rot)
			scl = scl.Mul(parScl)
			if moving {
				// vel = quat_mul_vec3(par_rot, local.vel * par_scl) + par_vel
				// + cross(par_ang, arm) (leverage) + quat_mul_vec3(par_rot,
				// offset * par_svl) (expansion): the two rotated terms share
				// one rotation.
				parVel, parAng, parSvl := g.Rates(p)
				vel = parRot.Rotate(vel.Mul(parScl).Add(offset.Mul(parSvl))).Add(parVel).Add(mathx.Cross4(parAng, arm))
				ang = parRot.Rotate(ang).Add(parAng)
				svl = svl.Add(parSvl)
			}
		}
		g.SetTransform(i, pos, rot, scl)
		if moving {
			g.SetRates(i, vel, ang, svl)
		}
	}
}

// needFK is the door check of FK, FKStatic and BK, named op, filling in
// the poses' rooms (a for the pose written, b for the one read): both
// poses hold len(parents) joints in the channels ch, in NewPose's memory
// (needLanes), they are different poses (the op reads a parent's values
// of one pose after writing joints of the other), and every joint's
// parent comes before it.
func needFK(a, b *mathx.Rooms, op string, written, read *Pose, parents []int, ch channels) {
	n := len(parents)
	roleA, roleB := "global", "local"
	if op == "BK" {
		roleA, roleB = roleB, roleA
	}
	needLanes(a, op, roleA, written, ch, n, "len(parents)")
	needLanes(b, op, roleB, read, ch, n, "len(parents)")
	if n > 0 && &written.Pos[0] == &read.Pos[0] {
		panic(op + ": global and local are the same pose; it writes one while it reads the other")
	}
	for i, p := range parents {
		if p >= i {
			panic(badParent{op, i, p})
		}
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
//
// Each joint reads only global values, so BK runs Lanes joints at a time,
// their parents' values gathered.
func BK(local, global *Pose, parents []int) {
	n := len(parents)
	var l, g mathx.Rooms
	needFK(&l, &g, "BK", local, global, parents, wholePose)
	// Each lane's parent, as byte offsets into a Vec3 and a Quat channel
	// (parents and joints are below n); a root reads joint 0, and its
	// local values are set after the loop.
	var off3, offQ [mathx.Lanes]uintptr
	for i := 0; i < n; i += mathx.Lanes {
		for j := range off3 {
			k := min(i+j, n-1)
			p := max(parents[k], 0)
			off3[j], offQ[j] = 12*uintptr(p), 16*uintptr(p)
		}
		// Channel by channel.
		pr, ps, pa, psv := g.Rot.Gather(&offQ), g.Scl.Gather(&off3), g.Ang.Gather(&off3), g.Svl.Gather(&off3)
		gp := g.Pos.Load(i)
		arm := gp.Sub(g.Pos.Gather(&off3))
		lp := pr.InvMulVec3(arm).Div(ps)
		l.Pos.Store(i, lp)
		gv := g.Vel.Load(i)
		l.Vel.Store(i, pr.InvMulVec3(gv.Sub(g.Vel.Gather(&off3)).Sub(pa.Cross(arm))).Div(ps).Sub(lp.Mul(psv)))
		l.Rot.Store(i, pr.InvMul(g.Rot.Load(i)))
		l.Scl.Store(i, g.Scl.Load(i).Div(ps))
		l.Ang.Store(i, pr.InvMulVec3(g.Ang.Load(i).Sub(pa)))
		l.Svl.Store(i, g.Svl.Load(i).Sub(psv))
	}
	mathx.ClearUpper()
	// A root's local values are its global ones.
	for i, p := range parents {
		if p < 0 {
			local.Pos[i], local.Rot[i], local.Scl[i] = global.Pos[i], global.Rot[i], global.Scl[i]
			local.Vel[i], local.Ang[i], local.Svl[i] = global.Vel[i], global.Ang[i], global.Svl[i]
		}
	}
}

// badParent is the panic of a door check that finds a joint whose parent
// does not come before it (a joint its own parent among them).
type badParent struct {
	op            string
	joint, parent int
}

func (e badParent) Error() string {
	if e.parent == e.joint {
		return fmt.Sprintf("animsys.%s: joint %d is its own parent", e.op, e.joint)
	}
	return fmt.Sprintf("animsys.%s: joint %d has parent %d; a parent must come before its child", e.op, e.joint, e.parent)
}
