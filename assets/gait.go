package assets

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
)

// Gait parameterises a procedural cycle: a locomotion loop when Thigh > 0,
// a standing loop otherwise. Angles in radians, lengths in metres, times
// in seconds.
type Gait struct {
	Period    float32 // s for a full cycle (a left and a right step)
	Speed     float32 // m/s of root motion along +z
	HipHeight float32 // m, mean height of the hips
	Bob       float32 // m, vertical hip bob (twice per cycle)
	Sway      float32 // m, sideways hip shift over the stance leg
	Shift     float32 // m, constant sideways hip offset (+x is left)
	Thigh     float32 // rad, thigh swing amplitude
	KneeSwing float32 // rad, knee flexion peak in swing
	KneeLoad  float32 // rad, knee flexion after heel strike
	KneeBase  float32 // rad, constant knee flexion
	PushOff   float32 // rad, ankle plantar-flexion at toe-off
	Arm       float32 // rad, arm swing amplitude
	Elbow     float32 // rad, constant elbow flexion
	ElbowSwng float32 // rad, extra elbow flexion with the forward swing
	Twist     float32 // rad, pelvis yaw (spine counter-twists)
	Lean      float32 // rad, forward lean of the spine
	Side      float32 // rad, sideways lean of the spine (+ leans left)
	Breath    float32 // rad, chest pitch of breathing
	Puff      float32 // natural-log chest scale of breathing (scalar velocity)
	ArmsDown  float32 // rad, how far the arms hang below the T-pose
	Breaths   int     // breaths per cycle
}

// The default clips' gaits.
var (
	Walk = Gait{Period: 1.1, Speed: 1.35, HipHeight: 0.925, Bob: 0.018, Sway: 0.025,
		Thigh: 0.42, KneeSwing: 1.05, KneeLoad: 0.18, KneeBase: 0.05, PushOff: 0.35,
		Arm: 0.32, Elbow: 0.25, ElbowSwng: 0.25, Twist: 0.1, Lean: 0.04,
		Breath: 0.01, Puff: 0.01, ArmsDown: 1.32, Breaths: 1}
	Run = Gait{Period: 0.72, Speed: 3.1, HipHeight: 0.89, Bob: 0.04, Sway: 0.02,
		Thigh: 0.62, KneeSwing: 1.75, KneeLoad: 0.45, KneeBase: 0.12, PushOff: 0.5,
		Arm: 0.62, Elbow: 1.35, ElbowSwng: 0.2, Twist: 0.16, Lean: 0.2,
		Breath: 0.02, Puff: 0.015, ArmsDown: 1.22, Breaths: 1}
	Idle = Gait{Period: 4, HipHeight: 0.935, Sway: 0.018, KneeBase: 0.06,
		Elbow: 0.18, Breath: 0.035, Puff: 0.035, ArmsDown: 1.35, Breaths: 1}
	LeanLeft = Gait{Period: 4, HipHeight: 0.93, Shift: -0.05, Sway: 0.01, KneeBase: 0.08,
		Elbow: 0.2, Side: 0.32, Breath: 0.03, Puff: 0.03, ArmsDown: 1.3, Breaths: 1}
	LeanRight = Gait{Period: 4, HipHeight: 0.93, Shift: 0.05, Sway: 0.01, KneeBase: 0.08,
		Elbow: 0.2, Side: -0.32, Breath: 0.03, Puff: 0.03, ArmsDown: 1.3, Breaths: 1}
)

// pad is the number of frames sampled beyond each end of a loop, so that
// cubic sampling (four frames) never clamps inside the loop.
const pad = 2

// Clip samples gait g at 60 fps into a clip with a seamless loop of one
// period, [LoopStart, LoopEnd), padded by two frames on each side sampled
// from the same periodic motion (root motion continues through them).
func Clip(name string, g Gait) animsys.Clip {
	const fps = 60
	n := int(math.Round(float64(g.Period) * fps)) // frames per period
	g.Period = float32(n) / fps                   // whole frames, so root motion loops exactly
	sk := Humanoid()
	c := animsys.NewClip(name, n+1+2*pad, NumJoints, 1.0/fps)
	for f := 0; f < c.Frames; f++ {
		u := float32(f-pad) / float32(n) // cycle fraction, 0 at the loop start
		pose(&c, f, &sk, g, u)
	}
	c.LoopStart, c.LoopEnd = pad*c.FrameTime, float32(pad+n)*c.FrameTime
	c.Prepare()
	return c
}

// bump is a smooth periodic pulse of height 1 centred on phase c (rad)
// with width w (rad): exp((cos(p-c)-1)/w^2).
func bump(p, c, w float64) float32 {
	return float32(math.Exp((math.Cos(p-c) - 1) / (w * w)))
}

// pose writes frame f at cycle fraction u. The left heel strikes at u = 0
// and the right at u = 1/2. Rotations about x swing a limb that hangs down
// (-y): a negative angle swings it forward (+z).
func pose(c *animsys.Clip, f int, sk *animsys.Skeleton, g Gait, u float32) {
	for j := 0; j < NumJoints; j++ {
		c.SetPos(f, j, sk.Offsets[j])
	}
	set := func(j int, q mgl32.Quat) { c.Rot[c.At(f, j)] = q }
	p := 2 * math.Pi * float64(u)
	s, co := float32(math.Sin(p)), float32(math.Cos(p))

	c.SetPos(f, Entity, mgl32.Vec3{0, 0, g.Speed * g.Period * u})
	c.SetPos(f, Hips, mgl32.Vec3{g.Shift + g.Sway*s, g.HipHeight - g.Bob*float32(math.Cos(2*p)), 0})
	// The pelvis turns with the forward leg and drops on the swing side.
	set(Hips, ry(-g.Twist*co).Mul(rz(3*g.Sway*s)).Mul(rz(-g.Shift)))

	leg := func(up, knee, foot, toe int, q float64) {
		thigh := -g.Thigh * float32(math.Cos(q))
		k := g.KneeBase
		ankle := float32(0)
		if g.Thigh > 0 {
			k += g.KneeSwing*bump(q, 1.42*math.Pi, 0.6) + g.KneeLoad*bump(q, 0.22*math.Pi, 0.5)
			ankle = g.PushOff*bump(q, 0.98*math.Pi, 0.55) - 0.12*bump(q, 1.6*math.Pi, 0.6)
		}
		set(up, rx(thigh))
		set(knee, rx(k))
		set(foot, rx(ankle-(thigh+k)))
		set(toe, rx(-0.8*ankle*bump(q, 1.0*math.Pi, 0.6)))
	}
	leg(LeftUpLeg, LeftLeg, LeftFoot, LeftToe, p)
	leg(RightUpLeg, RightLeg, RightFoot, RightToe, p+math.Pi)

	// The spine counter-twists, leans and breathes; the head stays level.
	bp := float64(g.Breaths) * p
	breath := g.Breath * float32(math.Sin(bp))
	yaw := g.Twist * co
	set(Spine, ry(0.3*yaw).Mul(rx(0.5*g.Lean)).Mul(rz(0.45*g.Side)))
	set(Spine1, ry(0.4*yaw).Mul(rx(0.3*g.Lean-breath)).Mul(rz(0.35*g.Side)))
	set(Spine2, ry(0.4*yaw).Mul(rx(0.2*g.Lean+breath)).Mul(rz(0.2*g.Side)))
	c.SetScl(f, Spine2, mgl32.Vec3{1, 1, 1}.Mul(float32(math.Exp(float64(g.Puff)*math.Sin(bp)))))
	set(Neck, ry(-0.4*yaw).Mul(rx(-0.5*g.Lean)).Mul(rz(-0.5*g.Side)))
	set(Head, ry(-0.3*yaw).Mul(rx(-0.4*g.Lean+0.5*breath)).Mul(rz(-0.4*g.Side)))

	// Arms hang from the T-pose and swing against the legs; elbows bend
	// more as the arm swings forward.
	arm := func(side float32, armJ, fore int, q float64) {
		cq := float32(math.Cos(q))
		set(armJ, rx(g.Arm*cq).Mul(rz(-side*g.ArmsDown)))
		set(fore, ry(-side*(g.Elbow+g.ElbowSwng*0.5*(1-cq))))
	}
	arm(1, LeftArm, LeftForeArm, p)
	arm(-1, RightArm, RightForeArm, p+math.Pi)
}

// Wave is an additive clip (a padded 1 s loop): the right arm raised and
// the forearm waving, as deltas on the rest pose.
func Wave() animsys.Clip {
	const fps = 60
	c := animsys.NewClip("wave", fps+1+2*pad, NumJoints, 1.0/fps)
	c.LoopStart, c.LoopEnd = pad*c.FrameTime, float32(pad+fps)*c.FrameTime
	for f := 0; f < c.Frames; f++ {
		p := 2 * math.Pi * float64(f-pad) / fps
		c.Rot[c.At(f, RightShoulder)] = rz(-0.25)
		c.Rot[c.At(f, RightArm)] = rz(-2.3).Mul(rx(-0.25))
		c.Rot[c.At(f, RightForeArm)] = ry(0.5).Mul(rz(-0.55 * float32(math.Sin(2*p))))
		c.Rot[c.At(f, Head)] = rz(0.08 * float32(math.Sin(p)))
	}
	c.Prepare()
	return c
}
