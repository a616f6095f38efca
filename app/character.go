package app

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/humanoid"
	"kinelab/assets"
)

// Character is what the Velocities lab animates: a skeleton whose joint 0
// is a ground-level root that carries the root motion, its clips, an
// additive clip, and the joints the procedural stages act on.
type Character struct {
	Name     string
	Skel     animsys.Skeleton
	Clips    []animsys.Clip
	Additive animsys.Clip
	Hips     int
	Head     int
	HeadFwd  mgl32.Vec3 // the head's forward axis in its own frame
	Facing   mgl32.Vec3 // the character's forward direction in its root's frame
	Leg, Arm animsys.TwoBoneJoints
	// Paths of the IK targets in the root's frame (m): a circle of Radius
	// about Center, in the plane of the axes U and V.
	LegPath, ArmPath IKPath
	// Figure reads the skeleton as a human (nil for the default character
	// and skeletons that do not read as one).
	Figure *humanoid.Figure
	// Notes say what loading detected and chose (units, up axis, rest
	// frames dropped), for the panel and stderr.
	Notes []string
	// root is the file joint the Entity's root motion follows (the hips),
	// -1 when the file's own root is the Entity.
	root int
}

// IKPath is a circle a two-bone IK target follows: Center + Radius (cos wt
// U + sin wt V), in the character root's frame (m).
type IKPath struct {
	Center, U, V mgl32.Vec3
	Radius       float32
}

// At is the point (m) and velocity (m/s) on the path at time t (s) for
// angular rate w (rad/s).
func (p IKPath) At(t, w float32) (pos, vel mgl32.Vec3) {
	s, c := sincos(w * t)
	pos = p.Center.Add(p.U.Mul(p.Radius * c)).Add(p.V.Mul(p.Radius * s))
	vel = p.U.Mul(-p.Radius * w * s).Add(p.V.Mul(p.Radius * w * c))
	return pos, vel
}

// sincos is float32 sin and cos.
func sincos(x float32) (float32, float32) {
	s, c := math.Sincos(float64(x))
	return float32(s), float32(c)
}

// DefaultCharacter is the embedded humanoid with its procedural clips.
func DefaultCharacter() *Character {
	c := &Character{Name: "default", Skel: assets.Humanoid(), Clips: assets.Clips(),
		Additive: assets.Additives()[0], Hips: assets.Hips, Head: assets.Head, HeadFwd: mgl32.Vec3{0, 0, 1},
		Facing: mgl32.Vec3{0, 0, 1},
		Leg:    animsys.TwoBoneJoints{Root: assets.LeftUpLeg, Mid: assets.LeftLeg, End: assets.LeftFoot},
		Arm:    animsys.TwoBoneJoints{Root: assets.RightArm, Mid: assets.RightForeArm, End: assets.RightHand}}
	c.fitIKPaths()
	return c
}

// fitIKPaths places the IK circles from the chains' lengths and where their
// ends are on the first frame of the first clip: the foot lifted and
// forward, the hand raised in front. Both stay within about 90% of the
// chain's reach, away from the straight-chain singularity of two-bone IK.
func (c *Character) fitIKPaths() {
	if c.Leg.Root < 0 && c.Arm.Root < 0 {
		return
	}
	local, global := animsys.NewPose(c.Skel.Len()), animsys.NewPose(c.Skel.Len())
	start, _ := c.Clips[0].Loop()
	animsys.SampleLinear(&local, &c.Clips[0], start)
	local.SetKform(0, animsys.KformIdentity())
	animsys.FKStatic(&global, &local, c.Skel.Parents)
	length := func(j animsys.TwoBoneJoints) float32 {
		return global.Pos[j.Mid].Sub(global.Pos[j.Root]).Len() + global.Pos[j.End].Sub(global.Pos[j.Mid]).Len()
	}
	up, fwd := mgl32.Vec3{0, 1, 0}, c.Facing
	side := up.Cross(fwd)
	if c.Leg.Root >= 0 {
		ll := length(c.Leg)
		c.LegPath = IKPath{Center: global.Pos[c.Leg.End].Add(up.Mul(0.25 * ll)).Add(fwd.Mul(0.2 * ll)), U: fwd, V: up, Radius: 0.12 * ll}
	}
	if c.Arm.Root >= 0 {
		al := length(c.Arm)
		c.ArmPath = IKPath{Center: global.Pos[c.Arm.End].Add(up.Mul(0.4 * al)).Add(fwd.Mul(0.4 * al)), U: side, V: up, Radius: 0.12 * al}
	}
}
