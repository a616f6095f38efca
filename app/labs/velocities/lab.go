package velocities

import (
	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/character"
	"kinelab/animsys/mathx"
	"kinelab/app"
	"kinelab/assets"
	"kinelab/render"
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

// plotTitle is the difference plot's title for quantity q.
func plotTitle(q int32) string { return "|red - blue|: " + quantityNames[q] }

var quantityUnits = []string{"m/s", "rad/s", "1/s", "rad/s", "rad/s", "1/s"}

// unit is quantity q's unit for the character: a linear velocity is in
// its length unit per second ("units/s" for a file whose figure is no
// body in metres).
func (l *Lab) unit(q int32) string {
	if u := l.length(); q == 0 && u != "m" {
		return u + "/s"
	}
	return quantityUnits[q]
}

// length is the character's length unit ("m" by default).
func (l *Lab) length() string {
	if l.ch == nil || l.ch.Unit == "" {
		return "m"
	}
	return l.ch.Unit
}

// Settings are the lab's sliders and switches.
type Settings struct {
	Cubic           bool    // cubic (else linear) sampling
	Transition      int32   // the animsys.TransitionKind used when a clip is chosen
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
	TeleportDist    float32 // m the Teleport button moves a human-sized character (times its app.ViewScale)
	// Play is how a clip plays past its end: loop, clamp or ping-pong.
	Play animsys.PlayMode
	// ClipSpeed scales the clips' time (1: as recorded); their
	// velocities scale with it.
	ClipSpeed float32
}

// DefaultSettings is the lab as it opens.
func DefaultSettings() Settings {
	return Settings{Cubic: true, Transition: int32(animsys.TransitionCubic), BlendDuration: 0.4,
		InertDuration: 0.4, InertHalflife: 0.1, DeadHalflife: 0.2, AddWeight: 1,
		AddDuration: 0.5, IKChain: 1, TurnRate: 0.25, LineScale: 0.15, Joint: -1,
		ShowMesh: true, ShowSkeleton: true, SkipFrames: 4, TeleportDist: 3, ClipSpeed: 1}
}

// Lab is the lab's state, by its parts: the settings, the character,
// what plays (playback), where the character stands, the events of the
// tick, the fades and targets of the procedural stages, the readout of
// red against blue and the chain's poses. Update drives it; drawing only
// reads it.
type Lab struct {
	app.Base
	S    Settings
	ch   *character.Character
	skel animsys.Skeleton
	wave animsys.Clip

	playback
	entPos  mgl32.Vec3 // the character's root in the world (m) and its yaw (rad)
	entYaw  float32
	time    float64 // s of simulated time
	hasPrev bool
	// Event is what the last Update did to the pose at once: teleport,
	// reset, skip; wrap, end or turn when a clip that does not loop
	// seamlessly crossed its end (Settings.Play); "data jump" when the
	// samples read a frame interval where the clip's own data jumps
	// (animsys.DetectEvents: a joint flipping near 180 degrees in one
	// frame, a rest frame); or "". The finite difference of that tick
	// reads across it.
	Event    string
	next     tickEvents
	was      switches         // the settings whose change makes an event
	resetRNG mathx.Xorshift32 // Reset's choices, reproducible per seed
	fades
	targets
	readout
	chainPoses
	sec         velPanels
	focusHeight float32 // m, the camera's target height: the hips' at rest
	// scale is the character's size against a human's (app.ViewScale):
	// the Teleport button's distance grows with it.
	scale float32
	// notHuman is the character's NotHuman: when set, look-at and IK are
	// off, whatever the settings say.
	notHuman string
	// lookRan and ikRan: the look-at and the IK acted on the last tick's
	// pose (switched on, or fading, on a figure that has them): what the
	// CSV's look_at and ik columns say, rather than the switches.
	lookRan, ikRan bool
	// ikDelta (s) is the IK's finite-difference step (op_two_bone_ik's
	// delta, 0.01 in the article); its velocities are first order in it.
	ikDelta float32
}

// tickEvents are what the keys, the panel and the timeline asked the next
// tick to do: each jumps the pose at once, an event the plot marks.
type tickEvents struct {
	teleport, reset bool
	skip            int     // updates to miss
	play            int     // clip to transition to, -1 for none
	seek            float32 // s into the loop to jump to, -1 for none
}

// fades are the additive's, the look-at's and the IK's fades.
type fades struct{ add, look, ik fade }

// targets are the look-at's and the IK's targets, and the points the user
// drags them to (nil when on their paths).
type targets struct {
	lookPos, lookVel mgl32.Vec3 // smoothed look-at target (m) and its velocity (m/s)
	ikPos, ikVel     mgl32.Vec3 // IK target (m, m/s)
	DragLook, DragIK *mgl32.Vec3
}

// readout is what the lab shows of red against blue: the picked joint, the
// tick's mean and max |red - blue|, their plot, and the last event.
type readout struct {
	picked        int     // joint picked with a click, 0 for none
	Mean, Max     float32 // |red - blue| over joints, in the quantity's unit
	plot          *render.Plot
	lastQuantity  int32
	lastEvent     string  // the last event, for the readout
	lastEventTime float64 // s
	lastEventMax  float32 // max |red - blue| on its tick
}

// chainPoses are the poses of the chain (chain.go), allocated once.
type chainPoses struct {
	sampA, sampB, mix, tmp                    animsys.Pose
	addPose, local, global, prevGlobal, fd    animsys.Pose
	prevLocal, fdLocal, bk, ikTemp, ikGlobalA animsys.Pose
	ikGlobalB, procBase                       animsys.Pose
}

// Entry is how the App lists the Velocities lab: --lab velocities.
func Entry() app.LabEntry {
	return app.LabEntry{Name: "velocities", New: func() app.Lab { return New() }}
}

// New builds the lab on the embedded default character.
func New() *Lab {
	return newLab(assets.Character())
}

// newLab builds the lab on character ch.
func newLab(ch *character.Character) *Lab {
	l := &Lab{S: DefaultSettings(), ch: ch, skel: ch.Skel,
		wave: ch.Additive, next: tickEvents{play: -1, seek: -1}, resetRNG: mathx.NewXorshift32(0), ikDelta: 0.01,
		sec: velPanels{clip: true, events: true, lines: true}}
	n := l.skel.Len()
	l.playback = newPlayback(&l.skel, ch.Clips, ch.Start)
	for _, p := range []*animsys.Pose{&l.sampA, &l.sampB, &l.mix, &l.tmp, &l.addPose, &l.local, &l.global, &l.prevGlobal, &l.fd, &l.prevLocal,
		&l.fdLocal, &l.bk, &l.ikTemp, &l.ikGlobalA, &l.ikGlobalB, &l.procBase} {
		*p = animsys.NewPose(n)
	}
	l.plot = render.NewPlot(plotTitle(0), "", 600)
	l.plot.AddSeries("mean", render.PlotMean)
	l.plot.AddSeries("max", render.PlotMax)
	l.focusHeight = ch.HipsHeight
	l.scale, l.notHuman = app.ViewScale(ch), ch.NotHuman()
	l.plot.YUnit = l.unit(0)
	l.evaluate(0)
	if ch.Head >= 0 {
		l.lookPos = l.global.Pos[ch.Head].Add(ch.Facing.Mul(1.5))
	}
	return l
}

// Name implements app.Lab.
func (l *Lab) Name() string { return "velocities" }

// Title implements app.Lab.
func (l *Lab) Title() string { return "Velocities - " + l.clips[l.cur].Name }

// Focus implements app.Lab: the character's middle (its hips, moved to
// the middle of its body turned as its root is: character.Middle) at a
// fixed height.
func (l *Lab) Focus() mgl32.Vec3 {
	h := l.global.Pos[l.ch.Hips].Add(mathx.QuatMulVec3(l.global.Rot[0], l.ch.Middle))
	return mgl32.Vec3{h[0], l.focusHeight, h[2]}
}

// Framed implements app.Framer: the figure stays left of the plot (and
// the readout over it), right of the panels, under the tabs and above
// the timeline, as far as its half width and height (the character's
// size) reach.
func (l *Lab) Framed(v app.View) (rl.Rectangle, mgl32.Vec2) {
	r := v.Area
	r.Width = v.Plot.X - r.X
	s := l.ch.Size
	if !(s > 0) {
		s = 1.7
	}
	return r, mgl32.Vec2{0.2 * s, 0.5 * s}
}

// Camera implements app.Lab: the default camera, framing the character.
func (l *Lab) Camera() app.OrbitCamera { return app.CameraFor(l.ch) }

// Teleport moves the character S.TeleportDist metres (at a human's size)
// sideways at once.
func (l *Lab) Teleport() { l.next.teleport = true }

// Reset jumps to another clip at another time with no transition.
func (l *Lab) Reset() { l.next.reset = true }

// FreeTargets puts the dragged look-at and IK targets back on their paths.
func (l *Lab) FreeTargets() { l.DragLook, l.DragIK = nil, nil }

// Skip makes the next update miss S.SkipFrames updates, as a character
// that is not updated every frame (LOD, off screen).
func (l *Lab) Skip() { l.next.skip = int(l.S.SkipFrames + 0.5) }

// Play starts a transition to clip i with the chosen mode.
func (l *Lab) Play(i int) {
	if i >= 0 && i < len(l.clips) {
		l.next.play = i
	}
}

// procFade (s) is how long the look-at and IK stages take to fade in or
// out when switched: a blend from the pose without them, whose weight's
// velocity is propagated (the article's op_blend), so red and blue keep
// agreeing where switching them at once would jump the pose.
const procFade = 0.25

// switches are the settings whose change jumps the pose at once: the tick
// they change on is an event.
type switches struct {
	cubic   bool
	play    animsys.PlayMode
	ikChain int32
	dragIK  mgl32.Vec3
	dragged bool
}

// switchEvent names what the settings changed since the last tick that
// jumps the pose, or "": the sampling, the play mode, the IK's chain
// while the IK acts, a target dragged or let go.
func (l *Lab) switchEvent() string {
	now := switches{cubic: l.S.Cubic, play: l.S.Play, ikChain: l.S.IKChain, dragged: l.DragIK != nil || l.DragLook != nil}
	if l.DragIK != nil {
		now.dragIK = *l.DragIK
	}
	was := l.was
	l.was = now
	switch {
	case !l.hasPrev:
	case now.cubic != was.cubic:
		return "sampling"
	case now.play != was.play:
		return "play mode"
	case now.ikChain != was.ikChain && l.ik.x > 0:
		return "ik chain"
	case now.dragged != was.dragged || now.dragIK != was.dragIK:
		return "drag"
	}
	return ""
}

// Update implements app.Lab: what the keys, the panel and the timeline
// asked for, then the clips played on, the chain evaluated and red
// measured against blue. dt = 0 changes nothing.
func (l *Lab) Update(dt float32) {
	if !(dt > 0) {
		return
	}
	// A skipped character is updated once for k+1 frames of time while
	// the finite difference still divides by one frame's dt.
	simDt := dt * float32(1+l.next.skip)
	l.Event = l.next.event()
	l.next.skip = 0
	l.prevGlobal.CopyFrom(&l.global)
	l.prevLocal.CopyFrom(&l.local)
	l.carryOut()

	crossed, crossedPrev := l.advance(simDt*l.clipSpeed(), l.S.Play)
	// The clip a blend comes from counts while the blend runs.
	blending := l.trans.SourceShows(l.transitionParams())
	l.note(l.endEvent(l.cur, crossed, l.S.Play))
	l.note(l.endEvent(l.prev, crossedPrev && blending, l.S.Play))
	l.trans.Advance(simDt)
	l.time += float64(simDt)
	l.updateFades(simDt)
	l.evaluate(simDt)
	if l.readsJump(l.S.Play, l.S.Cubic, l.trans.SourceShows(l.transitionParams())) {
		l.note("data jump")
	}

	l.measure(dt)
	l.hasPrev = true
}

// event names what the next tick was asked to do that jumps the pose:
// teleport, reset, skip or scrub (in that order), "" for none.
func (n *tickEvents) event() string {
	switch {
	case n.teleport:
		return "teleport"
	case n.reset:
		return "reset"
	case n.skip > 0:
		return "skip"
	case n.seek >= 0:
		return "scrub"
	}
	return ""
}

// note makes e the tick's event if it has none yet.
func (l *Lab) note(e string) {
	if l.Event == "" {
		l.Event = e
	}
}

// carryOut does what the keys, the panel and the timeline asked of this
// tick (tickEvents): a teleport, a reset, a transition to a clip (a cut
// is an event), a seek; and notes a switch of the settings that jumps
// the pose.
func (l *Lab) carryOut() {
	if l.next.teleport {
		l.next.teleport = false
		side := mathx.QuatMulVec3(l.yawQuat(), mgl32.Vec3{1, 0, 0})
		l.entPos = l.entPos.Add(side.Mul(l.S.TeleportDist * l.scale))
	}
	if l.next.reset {
		l.next.reset = false
		l.cur = (l.cur + 1 + int(l.resetRNG.Float()*float32(len(l.clips)-1))) % len(l.clips)
		l.tCur = l.resetRNG.Float() * loopLen(&l.clips[l.cur])
		l.trans.Start(animsys.TransitionCut, nil, nil)
		l.entYaw += l.resetRNG.Float()*2 - 1
	}
	if l.next.play >= 0 {
		l.startTransition(l.next.play)
		if l.trans.Kind() == animsys.TransitionCut {
			l.note("cut") // a cut jumps the pose: that is what it is
		}
		l.next.play = -1
	}
	l.note(l.switchEvent())
	if l.next.seek >= 0 {
		l.tCur = min(l.next.seek, loopLen(&l.clips[l.cur]))
		l.next.seek = -1
	}
}

// clipSpeed is Settings.ClipSpeed, kept within the timeline's range.
func (l *Lab) clipSpeed() float32 {
	if !(l.S.ClipSpeed >= 0) {
		return 0
	}
	return min(l.S.ClipSpeed, app.MaxClipSpeed)
}

// loopTime maps a time t (s) into clip c's loop, as a clip time (s).
func loopTime(c *animsys.Clip, t float32) float32 {
	s, n := c.Loop()
	return s + mathx.WrapTime(t, n)
}

func (l *Lab) yawQuat() mgl32.Quat {
	return mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, l.entYaw, 0})
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
		l.plot.Title, l.plot.YUnit = plotTitle(l.S.Quantity), l.unit(l.S.Quantity)
		l.plot.Clear()
	}
	l.Mean, l.Max = app.RedBlue(l.skel.Len(), l.Lines)
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

// Configure implements app.Lab: --seed seeds the random choices of Reset.
func (l *Lab) Configure(c app.Config) { l.resetRNG = mathx.NewXorshift32(c.Seed) }

// CSVHeader implements app.Lab.
func (l *Lab) CSVHeader() []string {
	u := l.unit(l.S.Quantity)
	return []string{"t_s", "clip", "cubic", "transition", "transition_time_s", "additive_weight",
		"look_at", "ik", "ignore_weight_vel", "event", "quantity",
		"mean_diff_" + u, "max_diff_" + u, "joint",
		"red_x_" + u, "red_y_" + u, "red_z_" + u, "blue_x_" + u, "blue_y_" + u, "blue_z_" + u}
}

// CSVRows implements app.Lab: one row per update, the stage flags (for
// the look-at and the IK, whether they acted on the pose),
// the difference over joints and the picked joint's red and blue vectors
// (the hips when all joints are shown).
func (l *Lab) CSVRows(rows [][]string) [][]string {
	f := app.CSVFloat
	a, _ := l.additiveWeight()
	j := int(l.S.Joint)
	if j < 0 {
		j = l.ch.Hips
	}
	red, blue := l.Lines(j)
	transitions := []string{"cut", "blend", "inertialize_cubic", "inertialize_spring", "dead_blend"}
	return append(rows, []string{app.CSVTime(l.time), l.clips[l.cur].Name, app.CSVBool(l.S.Cubic),
		transitions[l.trans.Kind()], f(l.trans.Time()), f(a), app.CSVBool(l.lookRan), app.CSVBool(l.ikRan), app.CSVBool(l.S.IgnoreWeightVel),
		l.Event, quantityNames[l.S.Quantity], f(l.Mean), f(l.Max), l.skel.Names[j],
		f(red[0]), f(red[1]), f(red[2]), f(blue[0]), f(blue[1]), f(blue[2])})
}

// SetCharacter implements app.Lab: the lab starts over on ch, keeping
// its settings.
func (l *Lab) SetCharacter(ch *character.Character) {
	s, sec, rng := l.S, l.sec, l.resetRNG
	*l = *newLab(ch)
	l.S, l.sec, l.resetRNG = s, sec, rng
}
