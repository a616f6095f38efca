package animsys

import (
	"fmt"
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
)

// Kform is a kineform (propagating-velocities, "Kineforms"): a position (m),
// rotation, scale, and their velocities — linear (m/s), angular (rad/s, in
// the same frame as Rot) and scalar (natural-log scale per second).
type Kform struct {
	Pos mgl32.Vec3
	Rot mgl32.Quat
	Scl mgl32.Vec3
	Vel mgl32.Vec3
	Ang mgl32.Vec3
	Svl mgl32.Vec3
}

// KformIdentity is the kineform that does nothing and does not move.
func KformIdentity() Kform {
	return Kform{Rot: mathx.QuatIdentity(), Scl: mgl32.Vec3{1, 1, 1}}
}

// Pose is the article's pose: parallel per-joint slices of position (m),
// rotation, scale, linear velocity (m/s), angular velocity (rad/s) and
// scalar velocity (1/s, natural log). Local poses hold values relative to
// each joint's parent; global poses hold world values.
type Pose struct {
	Pos []mgl32.Vec3
	Rot []mgl32.Quat
	Scl []mgl32.Vec3
	Vel []mgl32.Vec3
	Ang []mgl32.Vec3
	Svl []mgl32.Vec3
}

// NewPose allocates a pose of n joints at identity, at rest.
func NewPose(n int) Pose {
	var p Pose
	NewPoses(n, &p)
	return p
}

// NewPoses allocates poses of n joints at identity, at rest, like NewPose,
// all in one block of memory, pose after pose: the poses of one character,
// read and written together each tick, then stream through the cache as
// one run of memory instead of six scattered slices each (PoseBytes of it
// a pose). Each channel has room for mathx.PaddedLen(n) elements, whole
// blocks of mathx.Lanes joints and one more: the pose operations load and
// store whole blocks, and the joints past n, at identity too, are theirs
// (see needLanes).
func NewPoses(n int, poses ...*Pose) {
	m := mathx.PaddedLen(n)
	per := (5*3 + 4) * m // float32s a pose: five Vec3 channels and a Quat one
	block := make([]float32, per*len(poses))
	for i, p := range poses {
		f := block[per*i : per*(i+1)]
		vec := func(c int) []mgl32.Vec3 {
			s := unsafe.Slice((*mgl32.Vec3)(unsafe.Pointer(&f[3*m*c])), m)
			return s[:n:m]
		}
		rot := unsafe.Slice((*mgl32.Quat)(unsafe.Pointer(&f[15*m])), m)
		*p = Pose{Pos: vec(0), Scl: vec(1), Vel: vec(2), Ang: vec(3), Svl: vec(4), Rot: rot[:n:m]}
		for j := range m {
			rot[j] = mathx.QuatIdentity()
			p.Scl[:m][j] = mgl32.Vec3{1, 1, 1}
		}
	}
}

// PoseBytes is the memory (bytes) NewPoses takes for a pose of n joints.
func PoseBytes(n int) int64 { return int64((5*3 + 4) * 4 * mathx.PaddedLen(n)) }

// Len is the number of joints.
func (p *Pose) Len() int { return len(p.Pos) }

// Kform returns joint i as a kineform.
func (p *Pose) Kform(i int) Kform {
	return Kform{p.Pos[i], p.Rot[i], p.Scl[i], p.Vel[i], p.Ang[i], p.Svl[i]}
}

// SetKform writes kineform k to joint i.
func (p *Pose) SetKform(i int, k Kform) {
	p.Pos[i], p.Rot[i], p.Scl[i] = k.Pos, k.Rot, k.Scl
	p.Vel[i], p.Ang[i], p.Svl[i] = k.Vel, k.Ang, k.Svl
}

// CopyFrom copies src into p; both must have the same length.
func (p *Pose) CopyFrom(src *Pose) {
	copy(p.Pos, src.Pos)
	copy(p.Rot, src.Rot)
	copy(p.Scl, src.Scl)
	copy(p.Vel, src.Vel)
	copy(p.Ang, src.Ang)
	copy(p.Svl, src.Svl)
}

// Skeleton is a joint hierarchy: names, parent indices (-1 for a root, and
// always parent < child so one forward loop computes FK), and rest offsets
// (m) of each joint from its parent.
type Skeleton struct {
	Names   []string
	Parents []int
	Offsets []mgl32.Vec3
	// Bind, when not nil, is the local pose (positions and rotations of
	// each joint relative to its parent) a skinned body is bound to: for a
	// skeleton whose rest pose is no standing figure (bones along X, a
	// Z-up T-pose), a pose that is. Nil binds to the rest pose.
	Bind *Pose
}

// Len is the number of joints.
func (s *Skeleton) Len() int { return len(s.Parents) }

// RestPose is the skeleton's rest pose in world space (op_fk_static of
// every joint at its offset, unrotated, unscaled): what a skinned body is
// bound to unless Bind says otherwise. It allocates; velocities are zero.
func (s *Skeleton) RestPose() Pose {
	local, global := NewPose(s.Len()), NewPose(s.Len())
	copy(local.Pos, s.Offsets)
	FKStatic(&global, &local, s.Parents)
	return global
}

// BindPose is the pose a skinned body is bound to, in world space: the
// forward kinematics of Bind, or RestPose when Bind is nil. It allocates;
// velocities are zero.
func (s *Skeleton) BindPose() Pose {
	if s.Bind == nil || s.Bind.Len() != s.Len() {
		return s.RestPose()
	}
	global := NewPose(s.Len())
	FKStatic(&global, s.Bind, s.Parents)
	return global
}

// Validate checks that the slices agree in length and parents precede children.
func (s *Skeleton) Validate() error {
	n := len(s.Parents)
	if len(s.Names) != n || len(s.Offsets) != n {
		return fmt.Errorf("skeleton: %d parents, %d names, %d offsets", n, len(s.Names), len(s.Offsets))
	}
	for i, p := range s.Parents {
		if p >= i || p < -1 {
			return fmt.Errorf("skeleton: joint %d (%s) has parent %d; want -1 <= parent < %d", i, s.Names[i], p, i)
		}
	}
	return nil
}

// channels names the channels of a pose an op reads or writes, which its
// door check (need) checks.
type channels uint8

const (
	transforms channels = 1 << iota // Pos, Rot, Scl
	velocities                      // Vel, Ang, Svl
	wholePose  = transforms | velocities
)

// need panics, naming op, unless the channels ch of pose p (the op's
// argument called role) hold at least n joints each; why says where n
// comes from. It is the door check of the per-joint pose ops: a few
// compares, inline, before the loops, which then need not check their
// slices' lengths again.
func need(op, role string, p *Pose, ch channels, n int, why string) {
	if ch&transforms != 0 && (len(p.Pos) < n || len(p.Rot) < n || len(p.Scl) < n) ||
		ch&velocities != 0 && (len(p.Vel) < n || len(p.Ang) < n || len(p.Svl) < n) {
		panic(shortPose{op, role, p, ch, n, why, false})
	}
}

// needLanes is need for the ops that run mathx.Lanes joints at a time:
// the channels hold exactly n joints in NewPose's memory, room for
// mathx.PaddedLen(n) (mathx's package doc: the lane ops' rules). Into r,
// unless nil, it puts the channels checked as rooms, which the op's loads
// and stores then take without a check of their own (a check on every
// block's access took about 1k of the bench chain's 26k instructions a
// tick). Every such op calls it at its door, before any lane value
// exists, so it also clears the vector registers' upper halves
// (mathx.ClearUpper) as the op begins; the op clears them again as it
// ends (TestLaneLoopsEndClean).
func needLanes(r *mathx.Rooms, op, role string, p *Pose, ch channels, n int, why string) {
	mathx.ClearUpper()
	m := mathx.PaddedLen(n)
	if ch&transforms != 0 {
		if len(p.Pos) != n || cap(p.Pos) != m || len(p.Rot) != n || cap(p.Rot) != m || len(p.Scl) != n || cap(p.Scl) != m {
			panic(shortPose{op, role, p, ch, n, why, true})
		}
		if r != nil {
			r.Pos, r.Rot, r.Scl = mathx.RoomVec3(p.Pos, n), mathx.RoomQuat(p.Rot, n), mathx.RoomVec3(p.Scl, n)
		}
	}
	if ch&velocities != 0 {
		if len(p.Vel) != n || cap(p.Vel) != m || len(p.Ang) != n || cap(p.Ang) != m || len(p.Svl) != n || cap(p.Svl) != m {
			panic(shortPose{op, role, p, ch, n, why, true})
		}
		if r != nil {
			r.Vel, r.Ang, r.Svl = mathx.RoomVec3(p.Vel, n), mathx.RoomVec3(p.Ang, n), mathx.RoomVec3(p.Svl, n)
		}
	}
}

// shortPose is the panic of a failed door check (need): an error, so that
// the message is made only when printed.
type shortPose struct {
	op, role string
	p        *Pose
	ch       channels
	n        int
	why      string
	lanes    bool // needLanes's
}

// Error is "animsys.FK: local pose has 3 joints, want 23 (len(parents))",
// naming the channel when the channels checked differ, or, for a channel
// of the right length in memory not made by NewPose, "animsys.FK: local
// pose's Rot has room for 40 joints, want 24 (NewPose's for 23 joints)".
func (e shortPose) Error() string {
	p := e.p
	lens := [...]int{len(p.Pos), len(p.Rot), len(p.Scl), len(p.Vel), len(p.Ang), len(p.Svl)}
	caps := [...]int{cap(p.Pos), cap(p.Rot), cap(p.Scl), cap(p.Vel), cap(p.Ang), cap(p.Svl)}
	names := [...]string{"Pos", "Rot", "Scl", "Vel", "Ang", "Svl"}
	kinds := [...]channels{transforms, transforms, transforms, velocities, velocities, velocities}
	short, uneven := -1, false
	for c, l := range lens {
		if e.ch&kinds[c] == 0 {
			continue
		}
		if short < 0 {
			short = c
		}
		uneven = uneven || l != lens[short]
		if l < lens[short] || e.lanes && l != e.n && lens[short] == e.n {
			short = c
		}
	}
	if e.lanes && lens[short] == e.n {
		m := mathx.PaddedLen(e.n)
		for c := range caps {
			if e.ch&kinds[c] != 0 && caps[c] != m {
				return fmt.Sprintf("animsys.%s: %s pose's %s has room for %d joints, want %d (NewPose's for %d joints)", e.op, e.role, names[c], caps[c], m, e.n)
			}
		}
	}
	in := ""
	if uneven {
		in = " in " + names[short]
	}
	return fmt.Sprintf("animsys.%s: %s pose has %d joints%s, want %d (%s)", e.op, e.role, lens[short], in, e.n, e.why)
}

// zeros3 is the zero vector in every lane.
func zeros3() mathx.SoaVec3 {
	zero := mathx.Zero()
	return mathx.SoaVec3{X: zero, Y: zero, Z: zero}
}
