// Package assets builds kinelab's embedded default character and its clips
// with the project's own code: deterministic, procedural, made at start-up
// in a few milliseconds, so the app starts with no files to download.
package assets

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
)

// Joint indices of the default humanoid (../shared/docs/bench-spec.md).
const (
	Entity = iota
	Hips
	LeftUpLeg
	LeftLeg
	LeftFoot
	LeftToe
	RightUpLeg
	RightLeg
	RightFoot
	RightToe
	Spine
	Spine1
	Spine2
	Neck
	Head
	LeftShoulder
	LeftArm
	LeftForeArm
	LeftHand
	RightShoulder
	RightArm
	RightForeArm
	RightHand
	NumJoints
)

// Humanoid is the default 23-joint character, y up, facing +z, in metres.
func Humanoid() animsys.Skeleton { return animsys.BenchSkeleton() }

// Gait parameterises a procedural locomotion cycle. Angles in radians,
// lengths in metres, Period in seconds for two steps.
type Gait struct {
	Period    float32 // s for a full cycle (left and right step)
	HipHeight float32 // m, mean height of the hips
	Bob       float32 // m, vertical hip bob (twice per cycle)
	Sway      float32 // m, sideways hip sway (once per cycle)
	Thigh     float32 // rad, thigh swing amplitude
	Knee      float32 // rad, extra knee flexion in swing
	KneeBase  float32 // rad, knee flexion in stance
	Arm       float32 // rad, arm swing amplitude
	Elbow     float32 // rad, elbow flexion
	Twist     float32 // rad, spine counter-twist against the hips
	Lean      float32 // rad, forward lean of the spine
	Side      float32 // rad, sideways lean of the spine (+ leans left)
	Breath    float32 // rad, chest rise for idle breathing
	ArmsDown  float32 // rad, how far the arms hang below the T-pose
}

// Walk is a 1.1 s walking cycle.
var Walk = Gait{Period: 1.1, HipHeight: 0.93, Bob: 0.015, Sway: 0.02, Thigh: 0.42,
	Knee: 0.75, KneeBase: 0.1, Arm: 0.35, Elbow: 0.3, Twist: 0.12, Lean: 0.05, ArmsDown: 1.3}

// Clip samples gait g at 60 fps into a clip whose last frame equals its
// first, so it loops seamlessly when played over [0, Duration).
func Clip(name string, g Gait) animsys.Clip {
	const fps = 60
	frames := int(math.Round(float64(g.Period)*fps)) + 1
	sk := Humanoid()
	c := animsys.NewClip(name, frames, NumJoints, 1.0/fps)
	for f := 0; f < frames; f++ {
		// The phase runs over exactly one period across the clip.
		phase := 2 * math.Pi * float64(f) / float64(frames-1)
		pose(&c, f, &sk, g, phase)
	}
	return c
}

func rx(a float64) mgl32.Quat { return mathx.QuatFromScaledAngleAxis(mgl32.Vec3{float32(a), 0, 0}) }
func ry(a float64) mgl32.Quat { return mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, float32(a), 0}) }
func rz(a float64) mgl32.Quat { return mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, 0, float32(a)}) }

// pose writes frame f at gait phase p (rad). Leg and arm swings are
// rotations about x: for a limb hanging down (-y), a negative angle swings
// it forward (+z).
func pose(c *animsys.Clip, f int, sk *animsys.Skeleton, g Gait, p float64) {
	for j := 0; j < NumJoints; j++ {
		c.Pos[c.At(f, j)] = sk.Offsets[j]
	}
	set := func(j int, q mgl32.Quat) { c.Rot[c.At(f, j)] = q }
	s, co := math.Sincos(p)

	c.Pos[c.At(f, Hips)] = mgl32.Vec3{float32(float64(g.Sway) * s), g.HipHeight + float32(float64(g.Bob)*math.Cos(2*p)), 0}
	hipYaw := float64(g.Twist) * s
	set(Hips, ry(hipYaw).Mul(rz(-0.5*float64(g.Sway)*co)))

	// Legs: the left thigh is forward while sin(p) > 0, the right half a
	// cycle later. The knee flexes most just after toe-off, as the thigh
	// swings through; the ankle keeps the foot near flat.
	leg := func(up, knee, foot, toe int, q float64) {
		thigh := -float64(g.Thigh) * math.Sin(q)
		swing := 0.5 - 0.5*math.Cos(q+0.6)
		k := float64(g.KneeBase) + float64(g.Knee)*swing*swing
		set(up, rx(thigh))
		set(knee, rx(k))
		set(foot, rx(-0.6*(thigh+k)))
		set(toe, rx(0.2*swing))
	}
	leg(LeftUpLeg, LeftLeg, LeftFoot, LeftToe, p)
	leg(RightUpLeg, RightLeg, RightFoot, RightToe, p+math.Pi)

	// Spine counter-twists against the hips and leans; the head stays level.
	breath := float64(g.Breath) * math.Sin(p)
	set(Spine, ry(-0.5*hipYaw).Mul(rx(float64(g.Lean)*0.5)).Mul(rz(float64(g.Side)*0.5)))
	set(Spine1, ry(-0.4*hipYaw).Mul(rx(float64(g.Lean)*0.3-breath)).Mul(rz(float64(g.Side)*0.3)))
	set(Spine2, ry(-0.3*hipYaw).Mul(rx(float64(g.Lean)*0.2+breath)).Mul(rz(float64(g.Side)*0.2)))
	set(Neck, rx(-float64(g.Lean)*0.5))
	set(Head, ry(0.2*hipYaw).Mul(rx(-float64(g.Lean)*0.5)))

	// Arms hang down from the T-pose and swing against the legs.
	arm := func(side float64, armJ, fore int, q float64) {
		set(armJ, rx(float64(g.Arm)*math.Sin(q)).Mul(rz(-side*float64(g.ArmsDown))))
		set(fore, ry(-side*(float64(g.Elbow)+0.3*float64(g.Arm)*(1+math.Sin(q)))))
	}
	arm(1, LeftArm, LeftForeArm, p)
	arm(-1, RightArm, RightForeArm, p)
}
