package velocities

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
)

// The chain the lab evaluates each tick, in the order of the
// propagating-velocities article: sampling (cubic or linear), the
// transition (blend, inertialization, dead blending), the additive, the
// root's motion, forward kinematics, then look-at and two-bone IK on
// kineforms, each followed by FK again.

// startTransition begins the chosen transition from what plays now to clip
// i: the inertializations record the offset from the last output to the
// new clip's first pose; dead blending keeps the last output to
// extrapolate; a two-way blend keeps the old clip playing.
func (l *Lab) startTransition(i int) {
	kind := animsys.TransitionKind(l.S.Transition)
	if kind == animsys.TransitionBlend {
		l.prev, l.tPrev = l.cur, l.tCur
	}
	l.sample(&l.sampB, i, 0)
	l.trans.Start(kind, &l.mix, &l.sampB)
	l.cur, l.tCur = i, 0
}

// transitionParams are the transition's durations from the settings.
func (l *Lab) transitionParams() animsys.TransitionParams {
	s := &l.S
	return animsys.TransitionParams{BlendDuration: s.BlendDuration, CubicDuration: s.InertDuration,
		Halflife: s.InertHalflife, DeadHalflife: s.DeadHalflife, IgnoreWeightVel: s.IgnoreWeightVel}
}

// sample writes clip i at playback time t (s, Settings.Play) into p, in
// place: the root joint keeps its root-motion velocities (clip frame) but
// sits at the origin, so transitions between clips never blend root
// positions. Played backwards or held, the velocities are scaled by the
// rate (-1, 0): what the pose really does.
func (l *Lab) sample(p *animsys.Pose, i int, t float32) {
	c := &l.clips[i]
	start, n := c.Loop()
	off, rate := l.S.Play.At(t, n)
	rate *= l.clipSpeed()
	if l.S.Cubic {
		animsys.SampleCubic(p, c, start+off)
	} else {
		animsys.SampleLinear(p, c, start+off)
	}
	if rate != 1 {
		animsys.TimeScale(p, rate)
	}
	p.Pos[0] = mgl32.Vec3{}
	p.Rot[0] = mathx.QuatIdentity()
}

// updateTargets moves the look-at target (a critical spring, half-life
// 0.15 s, smoothing the character's look-at path or the dragged point)
// and the IK target (the character's path for the chain, with the
// velocities of the joint that carries it, or the dragged point). The
// paths are fitted to the character's reach and facing
// (character.Character.LegPath, ArmPath, LookPath); ent is the root's
// kineform, which carries a path of joint -1.
func (l *Lab) updateTargets(dt float32, ent animsys.Kform) {
	t := float32(l.time)
	frame := func(j int) animsys.Kform {
		if j < 0 {
			return ent
		}
		return l.global.Kform(j)
	}
	look := l.ch.LookPath
	goal := animsys.KformMulPos(frame(look.Joint), look.At(t))
	if l.DragLook != nil {
		goal = *l.DragLook
	}
	for k := 0; k < 3; k++ {
		l.lookPos[k], l.lookVel[k] = spring.SimpleSpringDamperExact(l.lookPos[k], l.lookVel[k], goal[k], 0.15, dt)
	}
	path := l.ch.ArmPath
	if l.S.IKChain == 0 {
		path = l.ch.LegPath
	}
	k := path.Target(frame(path.Joint), t)
	l.ikPos, l.ikVel = k.Pos, k.Vel
	if l.DragIK != nil {
		l.ikPos, l.ikVel = *l.DragIK, mgl32.Vec3{}
	}
}

// entityKform is the character's root in the world: position and yaw, with
// the clip's root-motion velocity vel (m/s, character frame) and angular
// velocity ang (rad/s) turned into the world, plus the turn rate.
func (l *Lab) entityKform(vel, ang mgl32.Vec3) animsys.Kform {
	q := l.yawQuat()
	k := animsys.KformIdentity()
	k.Pos, k.Rot = l.entPos, q
	k.Vel = mathx.QuatMulVec3(q, vel)
	k.Ang = mathx.QuatMulVec3(q, ang).Add(mgl32.Vec3{0, l.turnRate(vel), 0})
	return k
}

// turnRate turns the character only while it moves, so idles stay put.
func (l *Lab) turnRate(vel mgl32.Vec3) float32 {
	return l.S.TurnRate * min(1, vel.Len())
}

// evaluate runs the chain for the current times; dt (s) moves the root.
func (l *Lab) evaluate(dt float32) {
	weightVel := float32(1)
	if l.S.IgnoreWeightVel {
		weightVel = 0
	}
	// Sampling and the transition stage -> mix (local, in place).
	l.sample(&l.sampA, l.cur, l.tCur)
	var source *animsys.Pose
	if l.trans.Kind() == animsys.TransitionBlend {
		l.sample(&l.sampB, l.prev, l.tPrev)
		source = &l.sampB
	}
	l.trans.Apply(&l.mix, &l.sampA, source, l.transitionParams())
	l.local.CopyFrom(&l.mix)

	// Additive (the waving arm), world or local side, with weight velocity.
	if a, av := l.additiveWeight(); a > 0 || av != 0 {
		animsys.SampleCubic(&l.addPose, &l.wave, loopTime(&l.wave, float32(l.time)))
		if l.S.AddLocal {
			animsys.AdditiveLocal(&l.local, &l.addPose, a, av*weightVel)
		} else {
			animsys.Additive(&l.local, &l.addPose, a, av*weightVel)
		}
	}

	// The root: integrate the clip's root motion into the world entity.
	rootVel, rootAng := l.mix.Vel[0], l.mix.Ang[0]
	q := l.yawQuat()
	l.entPos = l.entPos.Add(mathx.QuatMulVec3(q, rootVel).Mul(dt))
	l.entYaw += (rootAng[1] + l.turnRate(rootVel)) * dt
	l.entYaw = float32(math.Remainder(float64(l.entYaw), 2*math.Pi))
	ent := l.entityKform(rootVel, rootAng)
	l.local.SetKform(0, ent)
	animsys.FK(&l.global, &l.local, l.skel.Parents)

	// Look-at and IK, their targets carried by joints of this pose, each
	// faded in and out by a blend from the pose without it.
	l.updateTargets(dt, ent)
	l.lookRan, l.ikRan = false, false
	if a, av := l.look.weight(1, procFade); a > 0 && l.ch.Head >= 0 && l.notHuman == "" {
		l.lookRan = true
		l.procBase.CopyFrom(&l.local)
		animsys.LookAt(&l.local, &l.global, l.ch.Head, l.lookPos, l.lookVel, l.ch.HeadFwd)
		if a < 1 || av != 0 {
			animsys.Blend(&l.local, &l.procBase, &l.local, a, av*weightVel)
		}
		animsys.FK(&l.global, &l.local, l.skel.Parents)
	}
	if a, av := l.ik.weight(1, procFade); a > 0 && l.notHuman == "" {
		if j := l.ikChain(); j.Root >= 0 {
			l.ikRan = true
			l.procBase.CopyFrom(&l.local)
			animsys.TwoBoneIK(&l.local, &l.ikTemp, &l.ikGlobalA, &l.ikGlobalB, l.skel.Parents, j, l.ikPos, l.ikVel, l.ikDelta)
			if a < 1 || av != 0 {
				animsys.Blend(&l.local, &l.procBase, &l.local, a, av*weightVel)
			}
			animsys.FK(&l.global, &l.local, l.skel.Parents)
		}
	}
}

// fade is a stage the lab fades in and out rather than switching at once
// (the additive, the look-at, the IK): its progress x from 0 (out) to 1
// (in), moving towards where its switch is at 1/duration per second, and
// whether it moved on the last tick. Its weight is the smoothstep of x;
// while it moves, the weight's rate (1/s) is propagated (op_blend's
// alpha_vel), so red and blue keep agreeing where switching the stage at
// once would jump the pose.
type fade struct {
	x      float32
	in     bool // the way it last moved: in, or out
	moving bool
}

// step moves the fade dt seconds towards in (true) or out over duration
// seconds.
func (f *fade) step(in bool, dt, duration float32) {
	was := f.x
	if in {
		f.x = min(1, f.x+dt/duration)
	} else {
		f.x = max(0, f.x-dt/duration)
	}
	f.in, f.moving = in, f.x != was
}

// weight is the fade's weight times scale, and the weight's rate (1/s)
// while it moves over duration seconds.
func (f *fade) weight(scale, duration float32) (a, aVel float32) {
	a = scale * mathx.Smoothstep(f.x)
	if f.moving {
		dir := float32(-1)
		if f.in {
			dir = 1
		}
		aVel = scale * mathx.SmoothstepDx(f.x) * dir / duration
	}
	return a, aVel
}

// updateFades moves the additive's, the look-at's and the IK's fades
// towards their switches.
func (l *Lab) updateFades(dt float32) {
	l.add.step(l.S.Additive, dt, l.addDuration())
	l.look.step(l.S.LookAt, dt, procFade)
	l.ik.step(l.S.IK, dt, procFade)
}

// addDuration (s) is how long the additive takes to fade in or out.
func (l *Lab) addDuration() float32 { return max(l.S.AddDuration, 1e-3) }

// additiveWeight is the additive's weight and its rate (1/s).
func (l *Lab) additiveWeight() (a, aVel float32) { return l.add.weight(l.S.AddWeight, l.addDuration()) }

// ikChain is the chain the IK acts on (Root -1 if the character has none).
func (l *Lab) ikChain() animsys.TwoBoneJoints {
	if l.S.IKChain == 1 {
		return l.ch.Arm
	}
	return l.ch.Leg
}
