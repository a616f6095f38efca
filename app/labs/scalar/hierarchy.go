package scalar

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// hierarchy is the small skeleton whose parent's scalar velocity adds the
// "expansion" term to its children's linear velocities: its local pose, FK
// with velocities (red), the finite difference of the global pose (blue)
// and FK with the parent's scalar velocity zeroed, which drops the
// expansion term (orange).
type hierarchy struct {
	skel                       animsys.Skeleton
	phase, rootYaw, elbowAngle float32 // rad: oscillation phase, root and elbow angles
	local, global, prev        animsys.Pose
	fd, noExpLocal, noExp      animsys.Pose
	lastSource                 int32   // Settings.Source at the last update, to mark switches
	Mean, Max                  float32 // |red - blue| over joints (m/s)
}

// newHierarchy makes the hierarchy: a root on the ground, the scaler
// above it, an elbow and a tip.
func newHierarchy() hierarchy {
	h := hierarchy{skel: animsys.Skeleton{
		Names:   []string{"root", "scaler", "elbow", "tip"},
		Parents: []int{-1, scalarRoot, scalarScaler, scalarElbow},
		Offsets: []mgl32.Vec3{{}, {0, 0.15, 0}, {0, 0.5, 0}, {0.4, 0.2, 0}},
	}}
	for _, p := range []*animsys.Pose{&h.local, &h.global, &h.prev, &h.fd, &h.noExpLocal, &h.noExp} {
		*p = animsys.NewPose(scalarJoints)
	}
	return h
}

// switched reports whether the source of the parent's scale changed since
// the last update: its scale jumps to the other source's, so the finite
// difference spikes once, FK does not.
func (h *hierarchy) switched(source int32) bool {
	if source == h.lastSource {
		return false
	}
	h.lastSource = source
	return true
}

// turn advances the oscillation's phase and the root's and elbow's
// angles over dt at the settings' rates.
func (h *hierarchy) turn(dt float32, s *Settings) {
	h.phase = wrapAngle(h.phase + 2*math.Pi*s.OscFreq*dt)
	h.rootYaw = wrapAngle(h.rootYaw + s.RootSpin*dt)
	h.elbowAngle = wrapAngle(h.elbowAngle + s.ElbowSpin*dt)
}

// setLocal writes the local pose for the current angles, the settings'
// spins and the parent's scale scl and natural scalar velocity svl (1/s).
func (h *hierarchy) setLocal(scl, svl mgl32.Vec3, s *Settings) {
	for i, o := range h.skel.Offsets {
		h.local.SetKform(i, animsys.KformIdentity())
		h.local.Pos[i] = o
	}
	h.local.Pos[scalarRoot] = scalarHierBase
	h.local.Rot[scalarRoot] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, h.rootYaw, 0})
	h.local.Ang[scalarRoot] = mgl32.Vec3{0, s.RootSpin, 0}
	h.local.Scl[scalarScaler], h.local.Svl[scalarScaler] = scl, svl
	h.local.Rot[scalarElbow] = mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, 0, h.elbowAngle})
	h.local.Ang[scalarElbow] = mgl32.Vec3{0, 0, s.ElbowSpin}
}

// evaluate runs FK with velocities (red) and FK with every scalar
// velocity zeroed (orange: no expansion term) on the local pose.
func (h *hierarchy) evaluate() {
	animsys.FK(&h.global, &h.local, h.skel.Parents)
	h.noExpLocal.CopyFrom(&h.local)
	for i := range h.noExpLocal.Svl {
		h.noExpLocal.Svl[i] = mgl32.Vec3{}
	}
	animsys.FK(&h.noExp, &h.noExpLocal, h.skel.Parents)
}

// measure takes the finite difference (blue) against the last update, dt
// seconds ago, and the difference to the propagated velocities.
func (h *hierarchy) measure(dt float32) {
	animsys.FiniteDiff(&h.fd, &h.global, &h.prev, dt)
	var sum, mx float32
	for i := 1; i < scalarJoints; i++ {
		d := h.global.Vel[i].Sub(h.fd.Vel[i]).Len()
		sum += d
		mx = max(mx, d)
	}
	h.Mean, h.Max = sum/float32(scalarJoints-1), mx
}
