package animsys

import (
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// Finite differences (propagating-velocities, "Forward & Backward
// Kinematics" and "Finite Difference").

// FiniteDiff writes into out the pose curr with velocities estimated by the
// backward finite difference against prev, dt seconds earlier
// (op_finite_diff): vel = (pos - prev.pos)/dt in m/s, ang =
// quat_to_scaled_angle_axis(quat_abs(rot prev.rot^-1))/dt in rad/s (world
// side), svl = log(scl / prev.scl)/dt per second. Unlike the article's
// listing it also copies curr's positions, rotations and scales, so out is
// a complete pose (ready for BK). out may be curr; it must not be prev.
func FiniteDiff(out, curr, prev *Pose, dt float32) {
	n := len(curr.Pos)
	var c, p, o mathx.Rooms
	needLanes(&c, "FiniteDiff", "curr", curr, transforms, n, "len(curr.Pos)")
	needLanes(&p, "FiniteDiff", "prev", prev, transforms, n, "len(curr.Pos)")
	needLanes(&o, "FiniteDiff", "out", out, wholePose, n, "len(curr.Pos)")
	if out != curr {
		copyApart(out.Pos, curr.Pos[:n])
		copyApart(out.Rot, curr.Rot[:n])
		copyApart(out.Scl, curr.Scl[:n])
	}
	winv := mathx.Splat(1 / dt)
	inv := winv.Lanes()
	for i := 0; i < n; i += mathx.Lanes {
		// vel = (pos - prev.pos)/dt (the same on each component, so as the
		// Vec3s lie in memory: Flat3); ang = log(abs(rot
		// prev.rot^-1))/dt; svl = log(scl / prev.scl)/dt.
		o.Vel.StoreFlat(i, c.Pos.LoadFlat(i).Sub(p.Pos.LoadFlat(i)).Scale(winv))
		dq := c.Rot.Load(i).MulInv(p.Rot.Load(i)).Abs()
		o.Ang.Store(i, dq.ToScaledAngleAxis().Scale(inv))
		o.Svl.Store(i, c.Scl.Load(i).Div(p.Scl.Load(i)).Log().Scale(inv))
	}
	mathx.ClearUpper()
}

// copyApart copies src into dst unless they are the same memory (a
// BenchCharacter's FD shares Global's positions, rotations and scales):
// copying a slice onto itself still moves every byte.
func copyApart[T mgl32.Vec3 | mgl32.Quat](dst, src []T) {
	if len(src) > 0 && len(dst) > 0 && &dst[0] == &src[0] {
		return
	}
	copy(dst, src)
}

// FiniteDiffInPlace replaces the velocities of curr by the finite
// difference against prev, dt seconds earlier (op_finite_diff_inplace).
func FiniteDiffInPlace(curr, prev *Pose, dt float32) {
	needLanes(nil, "FiniteDiffInPlace", "curr", curr, wholePose, curr.Len(), "len(curr.Pos)")
	needLanes(nil, "FiniteDiffInPlace", "prev", prev, transforms, curr.Len(), "len(curr.Pos)")
	FiniteDiff(curr, curr, prev, dt)
}

// ExtrapolatePrev writes into out the pose in moved delta seconds back in
// time along its own velocities (op_extrapolate_prev): pos - vel delta,
// from_scaled_angle_axis(-ang delta) rot, scl exp(-svl delta). Velocities
// are copied unchanged. out may be in.
func ExtrapolatePrev(out, in *Pose, delta float32) {
	n := len(in.Pos)
	var p, o mathx.Rooms
	needLanes(&p, "ExtrapolatePrev", "in", in, wholePose, n, "len(in.Pos)")
	needLanes(&o, "ExtrapolatePrev", "out", out, wholePose, n, "len(in.Pos)")
	d := mathx.Splat(-delta).Lanes()
	for i := 0; i < n; i += mathx.Lanes {
		v, w, sv := p.Vel.Load(i), p.Ang.Load(i), p.Svl.Load(i)
		o.Pos.Store(i, p.Pos.Load(i).Add(v.Scale(d)))
		o.Rot.Store(i, mathx.FromScaledAngleAxis(w.Scale(d)).Mul(p.Rot.Load(i)))
		o.Scl.Store(i, p.Scl.Load(i).Mul(sv.Scale(d).Exp()))
		o.Vel.Store(i, v)
		o.Ang.Store(i, w)
		o.Svl.Store(i, sv)
	}
	mathx.ClearUpper()
}
