package velocities

import (
	"math"
	"strconv"

	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/animsys/spring"
	"kinelab/animsys/verify"
	"kinelab/app"
	"kinelab/render"
)

// Transition modes, in the order of the panel's choice.
const (
	TransCut = iota
	TransBlend
	TransInertCubic
	TransInertSpring
	TransDeadBlend
)

// Quantities the lines can show, in the order of the panel's choice.
const (
	QWorldLinear = iota
	QWorldAngular
	QWorldScalar
	QLocalAngular
	QBKAngular
	QBKScalar
)

var quantityNames = []string{"world linear", "world angular", "world scalar", "local angular", "BK local angular", "BK local scalar"}
var quantityUnits = []string{"m/s", "rad/s", "1/s", "rad/s", "rad/s", "1/s"}

// Settings are the lab's sliders and switches.
type Settings struct {
	Cubic           bool    // cubic (else linear) sampling
	Transition      int32   // Trans* mode used when a clip is chosen
	BlendDuration   float32 // s, two-way blend and dead-blend duration
	InertDuration   float32 // s, cubic inertialization duration
	InertHalflife   float32 // s, spring inertialization half-life
	DeadHalflife    float32 // s, dead-blending extrapolation half-life
	IgnoreWeightVel bool    // drop the velocity a changing blend weight adds
	Additive        bool    // fade the wave additive in (else out)
	AddWeight       float32 // additive weight when fully in
	AddDuration     float32 // s, fade time of the additive
	AddLocal        bool    // apply the additive on the local (right) side
	LookAt          bool
	IK              bool
	IKChain         int32   // 0 left leg, 1 right hand
	TurnRate        float32 // rad/s the character turns while moving
	Quantity        int32   // Q* shown by the lines
	LineScale       float32 // m of line per unit of velocity
	Joint           int32   // joint whose lines are drawn, -1 for all
	ShowMesh        bool
	ShowSkeleton    bool
	ShowAxes        bool
	SkipFrames      float32 // k updates the Skip button misses
	TeleportDist    float32 // m the Teleport button moves the character
	// Play is how a clip plays past its end: loop, clamp or ping-pong.
	Play animsys.PlayMode
}

// DefaultSettings is the lab as it opens.
func DefaultSettings() Settings {
	return Settings{Cubic: true, Transition: TransInertCubic, BlendDuration: 0.4,
		InertDuration: 0.4, InertHalflife: 0.1, DeadHalflife: 0.2, AddWeight: 1,
		AddDuration: 0.5, IKChain: 1, TurnRate: 0.25, LineScale: 0.15, Joint: -1,
		ShowMesh: true, ShowSkeleton: true, SkipFrames: 4, TeleportDist: 3}
}

// Lab is the lab's state. Update drives it; drawing only reads it.
type Lab struct {
	S     Settings
	ch    *app.Character
	skel  animsys.Skeleton
	clips []animsys.Clip
	wave  animsys.Clip

	cur, prev    int     // playing clip, and the one a blend comes from
	tCur, tPrev  float32 // s into each
	trans        int32   // mode of the running transition
	transTime    float32 // s since the transition began
	addX         float32 // additive fade progress in [0, 1]
	entPos       mgl32.Vec3
	entYaw       float32
	lookPos      mgl32.Vec3 // smoothed look-at target (m) and its velocity
	lookVel      mgl32.Vec3
	ikPos, ikVel mgl32.Vec3 // IK target (m, m/s)
	DragLook     *mgl32.Vec3
	DragIK       *mgl32.Vec3
	time         float64 // s of simulated time
	skip         int     // updates to miss on the next Update
	hasPrev      bool
	// Event is what the last Update did to the pose at once: teleport,
	// reset, skip; wrap, end or turn when a clip that does not loop
	// seamlessly crossed its end (Settings.Play); "data jump" when the
	// samples read a frame interval where the clip's own data jumps
	// (verify.DetectEvents: a joint flipping near 180 degrees in one
	// frame, a rest frame); or "". The finite difference of that tick
	// reads across it.
	Event          string
	jumps          [][]int     // per clip, the frame intervals where its data jumps
	readAt         [2]clipRead // what the last tick sampled: the playing clip, the blend's source
	pendingTele    bool
	pendingReset   bool
	resetRNG       uint32
	pendingSwitch  int
	Mean, Max      float32 // |red - blue| over joints, in the quantity's unit
	plot           *render.Plot
	lastQuantity   int32
	lastWeightMove bool
	sec            velPanels
	lastEvent      string  // the last event, for the readout
	lastEventTime  float64 // s
	lastEventMax   float32 // max |red - blue| on its tick
	focusHeight    float32 // m, the camera's target height: the hips' at rest

	// Poses of the chain, allocated once.
	sampA, sampB, mix, tmp, offset, transPose, extrap animsys.Pose
	addPose, local, global, prevGlobal, fd            animsys.Pose
	prevLocal, fdLocal, bk, ikTemp, ikGlobalA         animsys.Pose
	ikGlobalB                                         animsys.Pose
}

// Entry is how the App lists the Velocities lab: --lab velocities.
func Entry() app.LabEntry {
	return app.LabEntry{Name: "velocities", New: func() app.Lab { return New() }}
}

// New builds the lab on the embedded default character.
func New() *Lab {
	return newLab(app.DefaultCharacter())
}

// newLab builds the lab on character ch.
func newLab(ch *app.Character) *Lab {
	l := &Lab{S: DefaultSettings(), ch: ch, skel: ch.Skel, clips: ch.Clips,
		wave: ch.Additive, pendingSwitch: -1, resetRNG: 12345,
		sec: velPanels{clip: true, events: true, lines: true}}
	n := l.skel.Len()
	for _, p := range []*animsys.Pose{&l.sampA, &l.sampB, &l.mix, &l.tmp, &l.offset, &l.transPose,
		&l.extrap, &l.addPose, &l.local, &l.global, &l.prevGlobal, &l.fd, &l.prevLocal,
		&l.fdLocal, &l.bk, &l.ikTemp, &l.ikGlobalA, &l.ikGlobalB} {
		*p = animsys.NewPose(n)
	}
	l.jumps = make([][]int, len(l.clips))
	for i := range l.clips {
		for _, e := range verify.DetectEvents(&l.skel, &l.clips[i]) {
			if k := len(l.jumps[i]); k == 0 || l.jumps[i][k-1] != e.Frame {
				l.jumps[i] = append(l.jumps[i], e.Frame)
			}
		}
	}
	l.readAt = [2]clipRead{{-1, 0}, {-1, 0}}
	l.plot = render.NewPlot("|red - blue| over joints", quantityUnits[0], 600)
	l.plot.AddSeries("mean", render.PlotMean)
	l.plot.AddSeries("max", render.PlotMax)
	if len(l.clips) > 1 {
		l.cur, l.prev = 1, 1 // the default character starts walking
	}
	l.evaluate(0)
	l.focusHeight = l.global.Pos[ch.Hips][1] - l.global.Pos[0][1]
	if l.focusHeight < 0.3 {
		l.focusHeight = 0.9 // hips at the floor: a character lying down, or a root named oddly
	}
	if ch.Head >= 0 {
		l.lookPos = l.global.Pos[ch.Head].Add(ch.Facing.Mul(1.5))
	}
	return l
}

// Name implements app.Lab.
func (l *Lab) Name() string { return "velocities" }

// Title implements app.Lab.
func (l *Lab) Title() string { return "Velocities - " + l.clips[l.cur].Name }

// Focus implements app.Lab: the character's hips at a fixed height.
func (l *Lab) Focus() mgl32.Vec3 {
	h := l.global.Pos[l.ch.Hips]
	return mgl32.Vec3{h[0], l.focusHeight, h[2]}
}

// Teleport moves the character S.TeleportDist metres sideways at once.
func (l *Lab) Teleport() { l.pendingTele = true }

// Reset jumps to another clip at another time with no transition.
func (l *Lab) Reset() { l.pendingReset = true }

// Skip makes the next update miss S.SkipFrames updates, as a character
// that is not updated every frame (LOD, off screen).
func (l *Lab) Skip() { l.skip = int(l.S.SkipFrames + 0.5) }

// Play starts a transition to clip i with the chosen mode.
func (l *Lab) Play(i int) {
	if i >= 0 && i < len(l.clips) {
		l.pendingSwitch = i
	}
}

// Update implements app.Lab. dt = 0 changes nothing.
func (l *Lab) Update(dt float32) {
	if !(dt > 0) {
		return
	}
	// A skipped character is updated once for k+1 frames of time while
	// the finite difference still divides by one frame's dt.
	simDt := dt * float32(1+l.skip)
	switch {
	case l.pendingTele:
		l.Event = "teleport"
	case l.pendingReset:
		l.Event = "reset"
	case l.skip > 0:
		l.Event = "skip"
	default:
		l.Event = ""
	}
	l.skip = 0
	l.prevGlobal.CopyFrom(&l.global)
	l.prevLocal.CopyFrom(&l.local)

	if l.pendingTele {
		l.pendingTele = false
		side := mathx.QuatMulVec3(l.yawQuat(), mgl32.Vec3{1, 0, 0})
		l.entPos = l.entPos.Add(side.Mul(l.S.TeleportDist))
	}
	if l.pendingReset {
		l.pendingReset = false
		l.cur = (l.cur + 1 + int(l.rand()*float32(len(l.clips)-1))) % len(l.clips)
		l.tCur = l.rand() * loopLen(&l.clips[l.cur])
		l.trans, l.transTime = TransCut, 0
		l.entYaw += l.rand()*2 - 1
	}
	if l.pendingSwitch >= 0 {
		l.startTransition(l.pendingSwitch)
		l.pendingSwitch = -1
	}

	var crossed, crossedPrev bool
	l.tCur, crossed = l.S.Play.Advance(l.tCur, simDt, loopLen(&l.clips[l.cur]))
	l.tPrev, crossedPrev = l.S.Play.Advance(l.tPrev, simDt, loopLen(&l.clips[l.prev]))
	// The clip a blend comes from counts while the blend runs.
	blending := l.trans == TransBlend && l.transTime < l.S.BlendDuration
	if e := l.endEvent(l.cur, crossed); e != "" && l.Event == "" {
		l.Event = e
	} else if e := l.endEvent(l.prev, crossedPrev && blending); e != "" && l.Event == "" {
		l.Event = e
	}
	l.transTime += simDt
	l.time += float64(simDt)
	l.updateAdditive(simDt)
	l.evaluate(simDt)
	if jump := l.readsJump(); jump && l.Event == "" {
		l.Event = "data jump"
	}

	l.measure(dt)
	l.hasPrev = true
}

// sincos is float32 sin and cos.
func sincos(x float32) (float32, float32) {
	s, c := math.Sincos(float64(x))
	return float32(s), float32(c)
}

// loopLen is the length (s) of clip c's loop.
func loopLen(c *animsys.Clip) float32 {
	_, n := c.Loop()
	return n
}

// clipRead is a clip and the time (s, into the clip) a tick sampled it
// at; clip -1 for none.
type clipRead struct {
	clip int
	t    float32
}

// clipTime is the clip time (s) playback time t of clip i samples.
func (l *Lab) clipTime(i int, t float32) float32 {
	start, n := l.clips[i].Loop()
	off, _ := l.S.Play.At(t, n)
	return start + off
}

// readsJump reports whether this tick's or the last tick's samples read a
// frame interval where the clip's data jumps, and records this tick's. A
// sample at time s reads the interval around s, and with cubic sampling
// the one before and the one after; the finite difference reads every
// interval between the two ticks' samples of a clip.
func (l *Lab) readsJump() bool {
	now := [2]clipRead{{l.cur, l.clipTime(l.cur, l.tCur)}, {-1, 0}}
	if l.trans == TransBlend && l.transTime < l.S.BlendDuration {
		now[1] = clipRead{l.prev, l.clipTime(l.prev, l.tPrev)}
	}
	hit := false
	for _, r := range now {
		if r.clip < 0 || len(l.jumps[r.clip]) == 0 {
			continue
		}
		lo, hi := r.t, r.t
		for _, p := range l.readAt {
			if p.clip == r.clip {
				lo, hi = min(lo, p.t), max(hi, p.t)
			}
		}
		ft := l.clips[r.clip].FrameTime
		first, last := int(lo/ft), int(hi/ft)
		if l.S.Cubic {
			first, last = first-1, last+1
		}
		for _, f := range l.jumps[r.clip] {
			hit = hit || (f >= first && f <= last)
		}
	}
	l.readAt = now
	return hit
}

// endEvent names what clip i did when its playback crossed an end: wrap
// (back to the start of a clip that does not loop seamlessly), end (a
// clamped clip stopped) or turn (ping-pong); "" if it did not cross, or
// looped seamlessly.
func (l *Lab) endEvent(i int, crossed bool) string {
	c := &l.clips[i]
	switch {
	case !crossed:
		return ""
	case l.S.Play == animsys.PlayClamp:
		return "end"
	case l.S.Play == animsys.PlayPingPong:
		return "turn"
	case c.LoopEnd > c.LoopStart:
		return ""
	}
	return "wrap"
}

// loopTime maps a time t (s) into clip c's loop, as a clip time (s).
func loopTime(c *animsys.Clip, t float32) float32 {
	s, n := c.Loop()
	return s + app.WrapTime(t, n)
}

// rand draws from [0, 1) (xorshift32), so resets are reproducible.
func (l *Lab) rand() float32 {
	l.resetRNG ^= l.resetRNG << 13
	l.resetRNG ^= l.resetRNG >> 17
	l.resetRNG ^= l.resetRNG << 5
	return float32(l.resetRNG>>8) / (1 << 24)
}

func (l *Lab) yawQuat() mgl32.Quat {
	return mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, l.entYaw, 0})
}

// startTransition begins the chosen transition from what plays now to clip
// i. Inertialization records the offset from the last output to the new
// clip; dead blending keeps the last output to extrapolate.
func (l *Lab) startTransition(i int) {
	mode := l.S.Transition
	switch mode {
	case TransBlend:
		l.prev, l.tPrev = l.cur, l.tCur
	case TransInertCubic, TransInertSpring:
		l.sample(&l.sampB, i, 0)
		animsys.InertializeOffset(&l.offset, &l.mix, &l.sampB)
	case TransDeadBlend:
		l.transPose.CopyFrom(&l.mix)
	}
	l.cur, l.tCur = i, 0
	l.trans, l.transTime = mode, 0
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

// updateAdditive moves the additive's fade toward in or out at 1/duration
// per second.
func (l *Lab) updateAdditive(dt float32) {
	rate := 1 / max(l.S.AddDuration, 1e-3)
	was := l.addX
	if l.S.Additive {
		l.addX = min(1, l.addX+rate*dt)
	} else {
		l.addX = max(0, l.addX-rate*dt)
	}
	l.lastWeightMove = l.addX != was
}

// additiveWeight is the additive's weight and its rate (1/s): a smoothstep
// of the fade progress, moving at +-1/duration while fading.
func (l *Lab) additiveWeight() (a, aVel float32) {
	a = l.S.AddWeight * mathx.Smoothstep(l.addX)
	if l.lastWeightMove {
		dir := float32(-1)
		if l.S.Additive {
			dir = 1
		}
		aVel = l.S.AddWeight * mathx.SmoothstepDx(l.addX) * dir / max(l.S.AddDuration, 1e-3)
	}
	return a, aVel
}

// updateTargets moves the look-at target (a critical spring, half-life
// 0.15 s, smoothing a scripted path or the dragged point) and the IK
// target (a path carried by the character's root ent, with the root's
// velocities, or the dragged point).
func (l *Lab) updateTargets(dt float32, ent animsys.Kform) {
	t := float32(l.time)
	// The look-at goal wanders over a figure of eight 1.6 m ahead of the
	// character at head height.
	hs, _ := sincos(0.7 * t)
	vs, _ := sincos(1.3 * t)
	h := l.focusHeight * 1.7
	side := mgl32.Vec3{0, 1, 0}.Cross(l.ch.Facing)
	goal := animsys.KformMulPos(ent, l.ch.Facing.Mul(1.6).Add(side.Mul(0.8*hs)).Add(mgl32.Vec3{0, h + 0.3*vs, 0}))
	if l.DragLook != nil {
		goal = *l.DragLook
	}
	for k := 0; k < 3; k++ {
		l.lookPos[k], l.lookVel[k] = spring.SimpleSpringDamperExact(l.lookPos[k], l.lookVel[k], goal[k], 0.15, dt)
	}

	// IK target path in the character's frame (m) and its rate (m/s).
	var p, v mgl32.Vec3
	w := float64(2.0)
	s, c := float32(math.Sin(w*float64(t))), float32(math.Cos(w*float64(t)))
	// Both paths stay within about 85% of the chain's reach: near full
	// extension two-bone IK is singular (the bend angle's rate is unbounded).
	if l.S.IKChain == 0 {
		p = mgl32.Vec3{0.1, 0.32 + 0.1*s, 0.22 + 0.15*c}
		v = mgl32.Vec3{0, 0.1 * c * float32(w), -0.15 * s * float32(w)}
	} else {
		p = mgl32.Vec3{-0.27 + 0.1*c, 1.25 + 0.1*s, 0.25}
		v = mgl32.Vec3{-0.1 * s * float32(w), 0.1 * c * float32(w), 0}
	}
	k := animsys.KformMul(ent, animsys.KformFromPosVel(p, v))
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
	switch l.trans {
	case TransBlend:
		l.sample(&l.sampB, l.prev, l.tPrev)
		a := animsys.SmoothstepBlendAlpha(l.transTime, l.S.BlendDuration)
		av := animsys.SmoothstepBlendAlphaVel(l.transTime, l.S.BlendDuration)
		animsys.Blend(&l.mix, &l.sampB, &l.sampA, a, av*weightVel)
	case TransInertCubic:
		animsys.Inertialize(&l.mix, &l.offset, &l.sampA, l.transTime, l.S.InertDuration)
	case TransInertSpring:
		animsys.InertializeCritical(&l.mix, &l.offset, &l.sampA, l.transTime, l.S.InertHalflife)
	case TransDeadBlend:
		animsys.ExtrapolateDecayed(&l.extrap, &l.transPose, l.transTime, l.S.DeadHalflife)
		a := animsys.SmoothstepBlendAlpha(l.transTime, l.S.BlendDuration)
		av := animsys.SmoothstepBlendAlphaVel(l.transTime, l.S.BlendDuration)
		animsys.Blend(&l.mix, &l.extrap, &l.sampA, a, av*weightVel)
	default:
		l.mix.CopyFrom(&l.sampA)
	}
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
	l.updateTargets(dt, ent)

	animsys.FK(&l.global, &l.local, l.skel.Parents)
	if l.S.LookAt && l.ch.Head >= 0 {
		animsys.LookAt(&l.local, &l.global, l.ch.Head, l.lookPos, l.lookVel, l.ch.HeadFwd)
		animsys.FK(&l.global, &l.local, l.skel.Parents)
	}
	if j := l.ikChain(); l.S.IK && j.Root >= 0 {
		animsys.TwoBoneIK(&l.local, &l.ikTemp, &l.ikGlobalA, &l.ikGlobalB, l.skel.Parents, j, l.ikPos, l.ikVel, 0.01)
		animsys.FK(&l.global, &l.local, l.skel.Parents)
	}
}

// ikChain is the chain the IK acts on (Root -1 if the character has none).
func (l *Lab) ikChain() animsys.TwoBoneJoints {
	if l.S.IKChain == 1 {
		return l.ch.Arm
	}
	return l.ch.Leg
}

// measure compares propagated (red) and finite-difference (blue)
// velocities of the chosen quantity. dt is one frame's time (s).
func (l *Lab) measure(dt float32) {
	if !l.hasPrev {
		return
	}
	animsys.FiniteDiff(&l.fd, &l.global, &l.prevGlobal, dt)
	animsys.FiniteDiff(&l.fdLocal, &l.local, &l.prevLocal, dt)
	// BK of the finite-differenced global pose: its positions and
	// rotations are the current ones, its velocities the blue ones.
	copy(l.fd.Pos, l.global.Pos)
	copy(l.fd.Rot, l.global.Rot)
	copy(l.fd.Scl, l.global.Scl)
	animsys.BK(&l.bk, &l.fd, l.skel.Parents)

	if l.S.Quantity != l.lastQuantity {
		l.lastQuantity = l.S.Quantity
		l.plot.YUnit = quantityUnits[l.S.Quantity]
		l.plot.Clear()
	}
	l.Mean, l.Max = app.DiffStats(l.skel.Len(), l.Lines)
	l.plot.Push(l.time, l.Mean, l.Max)
	if l.Event != "" {
		l.plot.Mark(l.time)
		l.lastEvent, l.lastEventTime, l.lastEventMax = l.Event, l.time, l.Max
	}
}

// Lines returns joint i's propagated (red) and finite-difference (blue)
// vectors of the chosen quantity.
func (l *Lab) Lines(i int) (red, blue mgl32.Vec3) {
	switch l.S.Quantity {
	case QWorldAngular:
		return l.global.Ang[i], l.fd.Ang[i]
	case QWorldScalar:
		return l.global.Svl[i], l.fd.Svl[i]
	case QLocalAngular:
		return l.local.Ang[i], l.fdLocal.Ang[i]
	case QBKAngular:
		return l.local.Ang[i], l.bk.Ang[i]
	case QBKScalar:
		return l.local.Svl[i], l.bk.Svl[i]
	default:
		return l.global.Vel[i], l.fd.Vel[i]
	}
}

// Configure implements app.Configurer: --seed seeds the random choices of Reset.
func (l *Lab) Configure(c app.Config) { l.resetRNG = c.Seed*2654435761 + 12345 }

// CSVHeader implements app.CSVExporter.
func (l *Lab) CSVHeader() []string {
	u := quantityUnits[l.S.Quantity]
	return []string{"t_s", "clip", "cubic", "transition", "transition_time_s", "additive_weight",
		"look_at", "ik", "ignore_weight_vel", "event", "quantity",
		"mean_diff_" + u, "max_diff_" + u, "joint",
		"red_x_" + u, "red_y_" + u, "red_z_" + u, "blue_x_" + u, "blue_y_" + u, "blue_z_" + u}
}

// CSVRow implements app.CSVExporter: the stage flags, the difference over joints
// and the picked joint's red and blue vectors (joint 1, the hips, when
// all joints are shown).
func (l *Lab) CSVRow(row []string) []string {
	f := func(x float32) string { return strconv.FormatFloat(float64(x), 'g', 7, 32) }
	b := func(x bool) string { return strconv.FormatBool(x) }
	a, _ := l.additiveWeight()
	j := int(l.S.Joint)
	if j < 0 {
		j = l.ch.Hips
	}
	red, blue := l.Lines(j)
	transitions := []string{"cut", "blend", "inertialize_cubic", "inertialize_spring", "dead_blend"}
	return append(row, strconv.FormatFloat(l.time, 'f', 6, 64), l.clips[l.cur].Name, b(l.S.Cubic),
		transitions[l.trans], f(l.transTime), f(a), b(l.S.LookAt), b(l.S.IK), b(l.S.IgnoreWeightVel),
		l.Event, quantityNames[l.S.Quantity], f(l.Mean), f(l.Max), l.skel.Names[j],
		f(red[0]), f(red[1]), f(red[2]), f(blue[0]), f(blue[1]), f(blue[2]))
}

// SetCharacter implements app.CharacterSetter: the lab starts over on ch, keeping
// its settings.
func (l *Lab) SetCharacter(ch *app.Character) {
	s, sec, rng := l.S, l.sec, l.resetRNG
	*l = *newLab(ch)
	l.S, l.sec, l.resetRNG = s, sec, rng
}
