package matching

import (
	"fmt"
	"image/color"
	"kinelab/animsys/words"
	"math"
	"strconv"
	"strings"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	mm "kinelab/animsys/matching"
	"kinelab/animsys/mathx"
	"kinelab/app"
	"kinelab/assets"
	"kinelab/render"
	"kinelab/ui"
)

// Colours of the floor drawings.
var (
	predColor  = color.RGBA{R: 80, G: 220, B: 140, A: 255}  // the predicted trajectory
	trailColor = color.RGBA{R: 240, G: 170, B: 60, A: 255}  // the path the root took
	candColor  = color.RGBA{R: 190, G: 110, B: 230, A: 255} // the best candidate's own trajectory
	simColor   = color.RGBA{R: 90, G: 200, B: 240, A: 255}  // the simulated root the animation follows
	tableBg    = color.RGBA{R: 24, G: 26, B: 31, A: 220}
	tableLine  = color.RGBA{R: 70, G: 74, B: 84, A: 255}
	// learnedColor is the learned controller's: the decompressor's own
	// velocities, green beside the red and blue lines, and its plot.
	learnedColor = color.RGBA{R: 70, G: 205, B: 70, A: 255}
)

// steerState is the player's input as read in the input stage: the
// movement, running and turning the next update uses.
type steerState struct {
	move    mgl32.Vec2 // direction of travel (ground x, z), length at most 1
	run     bool
	turn    float32    // +1 Q held, -1 E held, 0 neither
	stick   mgl32.Vec2 // facing asked by the gamepad's right stick, zero if none
	faceYaw float32    // rad, the facing Q/E turn when locked
	locked  bool       // facing held (strafe) instead of following the movement
}

// faceRate is how fast Q and E turn the held facing (rad/s).
const faceRate = 2.5

// Input implements app.Lab: WASD or the arrows move relative to the view,
// Shift runs, Q/E turn a held facing (strafing), L lets go of it; a
// gamepad's left stick moves, its right stick faces, its right trigger or
// A button runs (all held keys through the framework, so --do scripts
// them too). A click picks a joint; Ctrl + drag on the floor holds the
// facing towards the point under the mouse.
func (l *Lab) Input(in *app.Input) {
	st := &l.steer
	view := in.View
	if view.Len() < 1e-4 {
		view = mgl32.Vec2{0, 1}
	}
	fwd := view.Normalize()
	right := mgl32.Vec2{-fwd[1], fwd[0]} // screen right on the ground (x, z): fwd × up
	var move mgl32.Vec2
	for _, k := range []struct {
		name string
		dir  mgl32.Vec2
	}{{"move-forward", fwd}, {"move-back", fwd.Mul(-1)}, {"move-right", right}, {"move-left", right.Mul(-1)}} {
		if in.Held(k.name) {
			move = move.Add(k.dir)
		}
	}
	st.run = in.Held("run")
	st.turn = 0
	if in.Held("turn-left") {
		st.turn++
	}
	if in.Held("turn-right") {
		st.turn--
	}
	st.stick = mgl32.Vec2{}
	if g := in.Gamepad; g.Available {
		if s := (mgl32.Vec2{g.LeftX, g.LeftY}); s.Len() > 0.2 {
			move = move.Add(right.Mul(g.LeftX)).Sub(fwd.Mul(g.LeftY))
		}
		if s := (mgl32.Vec2{g.RightX, g.RightY}); s.Len() > 0.3 {
			st.stick = right.Mul(g.RightX).Sub(fwd.Mul(g.RightY))
		}
		st.run = st.run || g.RightTrigger > 0 || g.A
	}
	if move.Len() > 1 {
		move = move.Normalize()
	}
	st.move = move
	l.point(in.Pointer)
}

// playerInput is the matcher's input for a tick of dt seconds from what
// the player holds: Q and E turn the held facing at faceRate in simulated
// time (so not while paused, and with the time scale).
func (l *Lab) playerInput(dt float32) mm.Input {
	st := &l.steer
	if st.turn != 0 {
		if !st.locked {
			st.locked, st.faceYaw = true, l.m.Root.Yaw
		}
		st.faceYaw += st.turn * faceRate * min(dt, mm.MaxTick)
	}
	face := st.stick
	if face.Len() == 0 && st.locked {
		s, c := math.Sincos(float64(st.faceYaw))
		face = mgl32.Vec2{float32(s), float32(c)}
	}
	return mm.Input{Move: st.move, Run: st.run, Face: face}
}

// point takes the pointer: a click picks a joint; Ctrl + drag on the floor
// holds the facing towards the point under the mouse.
func (l *Lab) point(ptr app.Pointer) {
	s := l.view()
	if ptr.Click {
		l.picked = max(0, ptr.JointAt(s.pos, mgl32.Vec3{}))
	}
	if ptr.Down && ptr.Dir[1] < -1e-3 {
		t := -ptr.Origin[1] / ptr.Dir[1]
		p := ptr.Origin.Add(ptr.Dir.Mul(t))
		d := p.Sub(s.root)
		if d.Len() > 0.1 {
			l.steer.locked, l.steer.faceYaw = true, float32(math.Atan2(float64(d[0]), float64(d[2])))
		}
	}
}

// Keys implements app.Lab. The movement keys take W, A, S, D, Q and E from
// the framework while this lab is shown; they act while held (Input).
func (l *Lab) Keys() []app.Key {
	s := &l.S
	return []app.Key{
		{Code: rl.KeyW, Label: "W", Name: "move-forward", Help: "move away from the camera (held; or Up); Shift runs", Held: true, Alt: rl.KeyUp},
		{Code: rl.KeyA, Label: "A", Name: "move-left", Help: "move left (held; or Left)", Held: true, Alt: rl.KeyLeft},
		{Code: rl.KeyS, Label: "S", Name: "move-back", Help: "move towards the camera (held; or Down)", Held: true, Alt: rl.KeyDown},
		{Code: rl.KeyD, Label: "D", Name: "move-right", Help: "move right (held; or Right)", Held: true, Alt: rl.KeyRight},
		{Code: rl.KeyQ, Label: "Q", Name: "turn-left", Help: "turn and hold the facing (strafe); Ctrl+drag on the floor faces a point", Held: true},
		{Code: rl.KeyE, Label: "E", Name: "turn-right", Help: "turn the held facing the other way", Held: true},
		{Code: rl.KeyLeftShift, Alt: rl.KeyRightShift, Label: "Shift", Name: "run", Help: "run instead of walking (held)", Held: true},
		{Code: rl.KeyL, Label: "L", Name: "let-go", Help: "let go of the held facing (face the way you move)", Action: func() { l.steer.locked = false }},
		{Code: rl.KeyG, Label: "G", Name: "features", Help: "next feature set: standard, inertial, exact", Action: func() { s.Features = (s.Features + 1) % int32(mm.NumSets) }},
		{Code: rl.KeyT, Label: "T", Name: "transition", Help: "next transition: spring, cubic, dead blend, none", Action: func() { s.Transition = (s.Transition + 1) % int32(len(transitionChoices)) }},
		{Code: rl.KeyP, Label: "P", Name: "path", Help: "next input: keyboard, then each scripted path", Action: func() { s.Path = (s.Path + 1) % (int32(mm.NumPaths) + 1) }},
		{Code: rl.KeyB, Label: "B", Name: "brute", Help: "brute-force search on / off", Action: func() { s.Brute = !s.Brute }},
		{Code: rl.KeyR, Label: "R", Name: "restart", Help: "back to the origin, standing", Action: l.Restart},
		{Code: rl.KeyZ, Label: "Z", Name: "rewind", Help: "step back through the last 10 s of decisions (paused)", Action: func() { l.Step(-1) }},
		{Code: rl.KeyX, Label: "X", Name: "forward", Help: "step forward again towards the present", Action: func() { l.Step(1) }},
		{Code: rl.KeyM, Label: "M", Name: "mesh", Help: "skinned mesh on / off", Action: func() { s.ShowMesh = !s.ShowMesh }},
	}
}

// sliders is every slider of the lab's panel, declared once: Panel draws
// them and CheckSettings keeps settings read from a file within them.
func (l *Lab) sliders() ui.Ranges {
	s := &l.S
	w := &s.Weights
	return ui.Ranges{
		{Label: "Walk", V: &s.WalkSpeed, Lo: 0.5, Hi: 3, Format: "%.2f m/s"},
		{Label: "Run", V: &s.RunSpeed, Lo: 1, Hi: 7, Format: "%.2f m/s"},
		{Label: "Vel. h-l", V: &s.VelHalflife, Lo: 0.02, Hi: 1, Format: "%.2f s"},
		{Label: "Face h-l", V: &s.FaceHlf, Lo: 0.02, Hi: 1, Format: "%.2f s"},
		{Label: "Every", V: &s.Period, Lo: 1.0 / 60, Hi: 1, Format: "%.3f s"},
		{Label: "Re-rank", V: &s.Rerank, Lo: 1, Hi: mm.MaxCandidates, Format: "top %.0f"},
		{Label: "Half-life", V: &s.Halflife, Lo: 0.01, Hi: 0.5, Format: "%.3f s"},
		{Label: "Blend", V: &s.BlendTime, Lo: 0.05, Hi: 1, Format: "%.2f s"},
		{Label: "Foot pos", V: &w[mm.FootPos], Lo: 0, Hi: 3, Format: "%.2f"},
		{Label: "Foot vel", V: &w[mm.FootVel], Lo: 0, Hi: 3, Format: "%.2f"},
		{Label: "Hip vel", V: &w[mm.HipVel], Lo: 0, Hi: 3, Format: "%.2f"},
		{Label: "Traj pos", V: &w[mm.TrajPos], Lo: 0, Hi: 3, Format: "%.2f"},
		{Label: "Traj dir", V: &w[mm.TrajDir], Lo: 0, Hi: 3, Format: "%.2f"},
		{Label: "Inertial", V: &w[mm.Inertial], Lo: 0, Hi: 3, Format: "%.2f"},
		{Label: "Length", V: &s.LineScale, Lo: 0.01, Hi: 1, Format: "%.2f m per m/s"},
		{Label: "Bias", V: &s.Bias, Lo: 0, Hi: 1, Format: "%.2f"},
		{Label: "Bias share", V: &s.BiasShare, Lo: 0, Hi: 0.9, Format: "%.0f%%",
			Text: func(x float32) string { return fmt.Sprintf("%.0f%%", 100*x) }},
		{Label: "Rate h-l", V: &s.Rate.Halflife, Lo: 0.02, Hi: 1, Format: "%.2f s"},
		{Label: "Adjust h-l", V: &s.Sync.Halflife, Lo: 0.01, Hi: 1, Format: "%.2f s"},
		{Label: "Turn h-l", V: &s.Sync.RotHalflife, Lo: 0.01, Hi: 1, Format: "%.2f s"},
		{Label: "Max ratio", V: &s.Sync.Ratio, Lo: 0, Hi: 1, Format: "%.2f"},
		{Label: "Clamp dist", V: &s.Sync.Distance, Lo: 0.01, Hi: 1, Format: "%.2f m"},
		{Label: "Hold after", V: &s.Sync.HoldAfter, Lo: 0, Hi: 3, Format: "%.2f s"},
		{Label: "Clamp angle", V: &s.Sync.Angle, Lo: 0.05, Hi: math.Pi,
			Text: func(a float32) string { return fmt.Sprintf("%.0f deg", a*180/math.Pi) }},
		{Label: "Unlock radius", V: &s.Lock.Radius, Lo: 0.05, Hi: 2, Format: "%.2f x hips"},
		{Label: "Warp h-l", V: &s.Warp.Halflife, Lo: 0.02, Hi: 1, Format: "%.2f s"},
		{Label: "Bend", V: &s.Warp.Turn, Lo: 0, Hi: 3, Format: "%.2f rad/s"},
		{Label: "Release h-l", V: &s.Lock.Halflife, Lo: 0.01, Hi: 0.5, Format: "%.2f s"},
	}
}

// inputNames are the choices of the input: the keyboard, then the paths.
var inputNames = append([]string{"keys"}, mm.PathNames[:]...)

// Panel implements app.Lab.
func (l *Lab) Panel(p *app.Panel) {
	s, sec, sl := &l.S, &l.sec, l.sliders()
	l.notePanel(p) // first, so that a refused database is seen
	if p.Section("Control", &sec.control) {
		l.controllerPanel(p)
		p.Choice(inputNames, 3, &s.Path)
		if s.Path == 0 {
			p.Text("WASD/arrows, Shift runs, Q/E face")
		}
		p.Range(sl, &s.WalkSpeed)
		p.Range(sl, &s.RunSpeed)
		p.Range(sl, &s.VelHalflife)
		p.Range(sl, &s.FaceHlf)
		if p.Button("Restart (R)") {
			p.Ask(l.Restart)
		}
	}
	if p.Section("Search", &sec.search) {
		l.searchPanel(p, sl)
	}
	if p.Section("Transitions", &sec.trans) {
		p.Choice(transitionNames, 2, &s.Transition)
		p.Range(sl, &s.Halflife)
		if t := s.transition(); t == animsys.TransitionCubic || t == animsys.TransitionDeadBlend {
			p.Range(sl, &s.BlendTime)
		}
		p.Text("beat carrying on by:")
		p.Range(sl, &s.Bias)
		p.Range(sl, &s.BiasShare)
	}
	if p.Section("Playback", &sec.play) {
		p.Check("Play at the asked speed", &s.Rate.On)
		if s.Rate.On {
			p.Range(sl, &s.Rate.Halflife)
			p.Text(fmt.Sprintf("rate %.2fx (%.1f-%.1f)", l.m.Play.Rate, mm.RateMin, mm.RateMax))
		}
		p.Check("Idle when standing", &s.Idle)
	}
	if p.Section("Synchronisation", &sec.sync) {
		l.syncPanel(p, sl)
	}
	if p.Section("Warping", &sec.warp) {
		l.warpPanel(p, sl)
	}
	if p.Section("Foot locking", &sec.lock) {
		p.Check("Lock feet in contact", &s.Lock.On)
		if s.Lock.On {
			p.Check("Lock toes too", &s.Lock.Toes)
			p.Range(sl, &s.Lock.Radius)
			p.Range(sl, &s.Lock.Halflife)
		}
	}
	if p.Section("Feature weights", &sec.weights) {
		for _, g := range []int{mm.FootPos, mm.FootVel, mm.HipVel, mm.TrajPos, mm.TrajDir, mm.Inertial} {
			p.Range(sl, &s.Weights[g])
		}
	}
	if p.Section("View", &sec.view) {
		p.Check("Mesh (M)", &s.ShowMesh)
		p.Check("Velocity lines", &s.ShowLines)
		p.Range(sl, &s.LineScale)
		back := float32(l.Rewind)
		if p.SliderText("Rewind", &back, 0, float32(max(l.count-1, 1)), fmt.Sprintf("-%.2f s", l.rewindSeconds())) {
			l.Rewind = int(back + 0.5)
		}
	}
}

// controllerPanel lays out the switch of the controller: the database's
// search or the learned one, which changes at the next update (and starts
// again at the origin); disabled, with the reason, where the networks do
// not fit the database (the captures').
func (l *Lab) controllerPanel(p *app.Panel) {
	if l.ln.why == "" {
		p.Text("Controller:")
		p.Choice(controllerNames, 2, &l.S.Controller)
		return
	}
	// Disabled toggles all look alike: the text says which drives.
	p.Text("Controller: database")
	p.Disabled(controllerNames, 2, databaseController, l.ln.why)
}

// notePanel shows, each until dismissed, why the loaded files gave no
// database and which of their clips are too short to search.
func (l *Lab) notePanel(p *app.Panel) {
	if l.Err != "" && p.Note(l.Err, render.TargetColor) {
		p.Ask(func() { l.Err = "" })
	}
	if l.short != "" && p.Note(l.short, render.DimText) {
		p.Ask(func() { l.short = "" })
	}
}

// searchPanel lays out the section of the search: the feature set, how
// often, re-ranking, brute force, mirroring, and the database's size.
func (l *Lab) searchPanel(p *app.Panel, sl ui.Ranges) {
	s := &l.S
	p.Choice(mm.SetNames[:], 3, &s.Features)
	p.Range(sl, &s.Period)
	if s.Features == int32(mm.Exact) {
		p.Range(sl, &s.Rerank)
	}
	p.Check("Brute force (B)", &s.Brute)
	if l.ch != nil { // the embedded set turns both ways already
		p.Check("Mirrored captures", &s.Mirror)
	}
	p.Text(words.Count(l.db.Frames, "frame") + ", " + words.Count(len(l.db.Clips), "clip"))
}

// syncPanel lays out the section of the synchronisation of the character
// with the simulation: adjusting the root, clamping it, holding the
// simulation back.
func (l *Lab) syncPanel(p *app.Panel, sl ui.Ranges) {
	s := &l.S
	p.Check("Adjust root to simulation", &s.Sync.Adjust)
	if s.Sync.Adjust {
		p.Range(sl, &s.Sync.Halflife)
		p.Range(sl, &s.Sync.RotHalflife)
		p.Range(sl, &s.Sync.Ratio)
	}
	p.Check("Clamp root near it", &s.Sync.Clamp)
	if s.Sync.Clamp {
		p.Check("Hold simulation back", &s.Sync.Hold)
		if s.Sync.Hold {
			p.Range(sl, &s.Sync.HoldAfter)
		}
		p.Range(sl, &s.Sync.Distance)
		p.Range(sl, &s.Sync.Angle)
	}
}

// warpPanel lays out the section of stride and orientation warping, with
// their amounts now.
func (l *Lab) warpPanel(p *app.Panel, sl ui.Ranges) {
	s := &l.S
	p.Check("Stride warp", &s.Warp.Stride)
	p.Check("Orientation warp", &s.Warp.Orient)
	if s.Warp.Stride || s.Warp.Orient {
		p.Range(sl, &s.Warp.Halflife)
		w := &l.m.Warps
		p.Text(fmt.Sprintf("stride %.2fx, turned %.0f deg", w.Stride, w.Orient*180/math.Pi))
	}
	p.Range(sl, &s.Warp.Turn) // how much turn the search may leave to the root
}

// rewindSeconds is how far back (s) the view is.
func (l *Lab) rewindSeconds() float64 {
	return l.hist[(l.head-1+historyLen)%historyLen].t - l.view().t
}

// figureShare is the share of the view's height the Matching lab's
// figure stands in: small enough to see a second of trajectory around
// it, large enough to read its feet.
const figureShare = 0.3

// Camera implements app.Lab: the camera higher than the other labs', to
// see the trajectories on the floor, at the character's scale
// (app.ViewScale), and as far as frames the figure by its size: its
// standing height (character.Height; the embedded set's figure for a
// refused character) at figureShare of the view's height, whatever the
// database (at the 7 m every database had, the Bandai captures' 1.46 m
// figure stood about 150 px of 600, the embedded set's 1.53 m one 165).
func (l *Lab) Camera() app.OrbitCamera {
	c := app.DefaultCamera()
	c.Pitch = 0.55
	ch := l.ch
	if ch == nil || l.Err != "" {
		ch = assets.Character()
	}
	ch = l.onto.camera(ch)
	c.Scale = app.ViewScale(ch)
	c.Distance = 7 * c.Scale
	if h := ch.Height; h > 0 && mathx.Finite(h) {
		c.Distance = h / (figureShare * 2 * float32(math.Tan(float64(c.FovY)*math.Pi/360)))
	}
	return c
}

// Draw3D implements app.Lab: the body and skeleton of the snapshot shown,
// its red and blue velocity lines, and on the floor the predicted
// trajectory, the path taken, the best candidate's own trajectory, the
// simulated root (a blue ring) and the locked feet (red discs).
func (l *Lab) Draw3D(v *app.View) {
	h := l.view()
	sk := l.onto.skel(l.db)
	body := v.BodyFor(sk)
	if l.S.ShowMesh && body != nil {
		body.Draw(h.pos, h.rot, h.scl, render.SkinColor)
	}
	l.drawFloor(h)
	render.BeginOnTop()
	r := float32(0.022)
	if l.S.ShowMesh && body != nil {
		r = 0.008
	}
	render.Skeleton(h.pos, sk.Parents, l.ground, render.BoneColor, render.JointColor, r)
	if l.S.ShowLines {
		eye := v.Camera.Position
		fwd := h.pos[l.onto.hips(l.db)].Sub(mgl32.Vec3{eye.X, eye.Y, eye.Z})
		side := mathx.Vec3Normalize(fwd.Cross(mgl32.Vec3{0, 1, 0})).Mul(0.008)
		for j := 1; j < sk.Len(); j++ {
			if l.ground[j] || l.picked > 0 && j != l.picked {
				continue
			}
			render.VectorLine(h.pos[j], h.red[j], side.Mul(-1), l.S.LineScale, render.Propagated)
			render.VectorLine(h.pos[j], h.blue[j], side, l.S.LineScale, render.FiniteDiff)
			if h.learned { // beside the blue, as far from it as the red
				render.VectorLine(h.pos[j], h.green[j], side.Mul(3), l.S.LineScale, learnedColor)
			}
		}
	}
	render.EndOnTop()
}

// drawFloor draws the trajectories just above the floor: the prediction
// (with the facing at the feature times), the root's path so far, and the
// best candidate's trajectory features placed at the root.
func (l *Lab) drawFloor(h *snapshot) {
	lift := func(p mgl32.Vec3) rl.Vector3 { p = l.onto.floor(p); return rl.Vector3{X: p[0], Y: 0.01, Z: p[2]} }
	for k := 1; k < len(l.trail) && l.Rewind == 0; k++ {
		rl.DrawLine3D(lift(l.trail[k-1]), lift(l.trail[k]), trailColor)
	}
	for k := 1; k < len(h.pred); k++ {
		rl.DrawLine3D(lift(h.pred[k-1]), lift(h.pred[k]), predColor)
	}
	for _, tau := range mm.TrajectoryTimes {
		k := int(tau*(mm.PathPoints-1) + 0.5)
		p := h.pred[k]
		rl.DrawSphere(lift(p), 0.04, predColor)
		rl.DrawLine3D(lift(p), lift(p.Add(h.predFace[k].Mul(0.3))), predColor)
	}
	if h.nCands > 0 && h.cands[0].Frame >= 0 { // a learned projection's state is no frame
		pos, dir := l.db.Trajectory(h.cands[0].Frame)
		r := mathx.QuatFromScaledAngleAxis(mgl32.Vec3{0, h.yaw, 0})
		for k := range pos {
			p := h.root.Add(mathx.QuatMulVec3(r, mgl32.Vec3{pos[k][0], 0, pos[k][1]}))
			d := mathx.QuatMulVec3(r, mgl32.Vec3{dir[k][0], 0, dir[k][1]})
			rl.DrawCube(lift(p), 0.05, 0.02, 0.05, candColor)
			rl.DrawLine3D(lift(p), lift(p.Add(d.Mul(0.25))), candColor)
		}
	}
	// The goal velocity from the root.
	g := mgl32.Vec3{h.goal[0], 0, h.goal[1]}.Mul(0.3)
	rl.DrawLine3D(lift(h.root), lift(h.root.Add(g)), render.TextColor)
	// The simulated root: a ring with its facing, joined to the root.
	sim := h.sim.Pos
	rl.DrawCircle3D(lift(sim), 0.12, rl.Vector3{X: 1}, 90, simColor)
	s, c := math.Sincos(float64(h.sim.Yaw))
	rl.DrawLine3D(lift(sim), lift(sim.Add(mgl32.Vec3{float32(s), 0, float32(c)}.Mul(0.2))), simColor)
	rl.DrawLine3D(lift(h.root), lift(sim), simColor)
	// Locked feet: a disc where each is held.
	for _, lk := range h.locks {
		if lk.Locked {
			at := l.onto.floor(lk.At)
			rl.DrawCylinder(rl.Vector3{X: at[0], Y: 0.005, Z: at[2]}, 0.06, 0.06, 0.01, 12, render.Propagated)
		}
	}
}

// layout is where the lab's 2D parts go: the candidates table in the top
// right, the cost and clip plots under it, the learned controller's pose
// error under them while it drives (learned; else empty), and the feet's
// strip at the bottom (shorter: two rows of bars).
func layout(v *app.View, learned bool) (table, top, bottom, pose, feet rl.Rectangle) {
	a := v.Area
	w := min(max(a.Width*0.46, 420), a.Width-40)
	x := a.X + a.Width - w
	th := min(float32(ui.SmallText*1.25*(shown+4)+12), a.Height*0.4)
	table = rl.Rectangle{X: x, Y: a.Y, Width: w, Height: th}
	rest := a.Height - th - 24
	fh := min(max(rest*0.22, 70), 110)
	plots := float32(2)
	if learned {
		plots, rest = 3, rest-8
	}
	ph := (rest - fh) / plots
	top = rl.Rectangle{X: x, Y: a.Y + th + 8, Width: w, Height: ph}
	bottom = rl.Rectangle{X: x, Y: top.Y + ph + 8, Width: w, Height: ph}
	y := bottom.Y + ph + 8
	if learned {
		pose = rl.Rectangle{X: x, Y: y, Width: w, Height: ph}
		y += ph + 8
	}
	feet = rl.Rectangle{X: x, Y: y, Width: w, Height: fh}
	return table, top, bottom, pose, feet
}

// Draw2D implements app.Lab: the joints' names, the candidates table, the
// cost and clip plots and the readout.
func (l *Lab) Draw2D(v *app.View) {
	h := l.view()
	table, top, bottom, pose, feet := layout(v, h.learned)
	lines, cols := l.readout(h, max(table.X-v.Area.X-24, 80))
	rr := ui.CaptionRect(0, 0, ui.TextSize, lines...)
	rr.X, rr.Y = v.Area.X, v.Area.Y+v.Area.Height-rr.Height
	v.DrawJointLabels(l.onto.skel(l.db), h.pos, mgl32.Vec3{}, l.picked, table, top, bottom, pose, feet, rr)
	l.drawTable(table, h)
	l.costPlot.Draw(top, v.Mouse)
	l.clipPlot.Draw(bottom, v.Mouse)
	if h.learned {
		l.posePlot.Draw(pose, v.Mouse)
	}
	l.feetPlot.Draw(feet, v.Mouse)
	ui.Caption("matching readout", rr.X, rr.Y, ui.TextSize, cols, lines...)
}

// readout is the text under the 3D view, each line at most width units:
// the set, the search times, the transitions and the clip playing, red
// against blue, and where the view is.
func (l *Lab) readout(h *snapshot, width float32) ([]string, []color.RGBA) {
	m := l.m
	med, p99, worst := l.searchMed, l.searchP99, l.searchWorst
	how, what := "index", "search"
	if l.S.Brute {
		how = "brute"
	}
	if h.learned { // the learned controller projects; it searches nothing
		how, what = "projector", "projection"
	}
	mean, most := l.RedBlue(h)
	fit := func(long, short string) string { return ui.Fit(width, ui.TextSize, long, short) }
	lines := []string{
		fit(fmt.Sprintf("%s features, %s transitions", mm.SetNames[l.S.Features], transitionNames[l.S.Transition]),
			fmt.Sprintf("%s, %s", mm.SetNames[l.S.Features], transitionNames[l.S.Transition])),
		fit(fmt.Sprintf("%s (%s): median %.1f, p99 %.1f, worst %.0f us", what, how, med, p99, worst),
			fmt.Sprintf("%s %.1f us (p99 %.0f)", what, med, p99)),
		fit(words.Count(m.Search.Transitions, "transition")+" in "+words.Count(m.Search.Searches, what), words.Count(m.Search.Transitions, "transition")),
		ui.Shorten("playing "+l.CandidateName(h.frame)+l.playText(h), width, ui.TextSize),
		fit(fmt.Sprintf("|red-blue| mean %.3f, max %.3f m/s", mean, most), fmt.Sprintf("|red-blue| %.3f m/s", mean)),
	}
	cols := []color.RGBA{render.TextColor, render.TextColor, render.TextColor, render.TextColor, render.DimText}
	if h.learned {
		// The third line's legend in its colour, with the decompressor's
		// own error against the exact velocities of the pose it plays
		// (Matcher.Target's: red before the root and the feet move it);
		// and what the networks save.
		lines = append(lines,
			fit(fmt.Sprintf("green: the decompressor's velocities, |green-red| mean %.3f m/s", h.saidErr),
				fmt.Sprintf("green: decoder's, |green-red| %.3f m/s", h.saidErr)),
			l.ln.memoryText(fit))
		cols = append(cols, learnedColor, render.DimText)
	}
	// The run's measures, as matching eval reports them.
	if f := &l.figures; f.Seconds > 0 {
		lines = append(lines,
			fit(fmt.Sprintf("%.0f s: path 1 s on %.0f cm (input alone %.0f), %.0f cm from simulation", f.Seconds,
				f.TrajectoryError, f.SimTrajectoryError, f.SyncDistance),
				fmt.Sprintf("path 1 s on %.0f cm, sync %.0f cm", f.TrajectoryError, f.SyncDistance)),
			slidingText(f, fit),
			fit(fmt.Sprintf("lock holds its own contacts to %.1f cm/s (%.0f%% of ticks), bones within %.2f mm", f.FootSliding,
				100*f.ContactShare, f.BoneLengthError),
				fmt.Sprintf("lock %.1f cm/s, bones %.2f mm", f.FootSliding, f.BoneLengthError)),
			l.transitionsText(f, fit))
		cols = append(cols, render.DimText, render.DimText, render.DimText, render.DimText)
	}
	for _, line := range l.onto.readout(fit) {
		lines, cols = append(lines, line), append(cols, render.TextColor)
	}
	if l.Rewind > 0 {
		lines = append(lines, fit(fmt.Sprintf("rewound %.2f s (Z/X, play returns)", l.rewindSeconds()), fmt.Sprintf("rewound %.2f s", l.rewindSeconds())))
		cols = append(cols, render.TargetColor)
	}
	return lines, cols
}

// playText is how the clip plays in snapshot h: its playback rate, or
// the idle state ("" at rate 1), and how it is warped.
func (l *Lab) playText(h *snapshot) string {
	var s string
	switch {
	case h.idle && h.rate == 0:
		s = ", idle (held)"
	case h.idle:
		s = ", idle"
	case h.rate != 1:
		s = fmt.Sprintf(" at %.2fx", h.rate)
	}
	if h.stride < 0.99 || h.stride > 1.01 {
		s += fmt.Sprintf(", stride %.2fx", h.stride)
	}
	if d := h.orient * 180 / math.Pi; d < -1 || d > 1 {
		s += fmt.Sprintf(", turned %.0f deg", d)
	}
	if h.bent {
		s += ", bent"
	}
	return s
}

// slidingText is the readout's line of foot sliding on the contacts
// labelled from the source clips, which the lock never reads (eval's
// ankle_sliding_cm_per_s and toe_sliding_cm_per_s), and of the foot
// skating, which needs no labels (ankle_skating_cm_per_s and
// toe_skating_cm_per_s): "-" where the figure has no toes or no tick was
// so labelled yet.
func slidingText(f *mm.Metrics, fit func(long, short string) string) string {
	fig := func(v *float64) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf("%.1f", *v)
	}
	a, t, sk := fig(f.AnkleSliding), fig(f.ToeSliding), fig(f.ToeSkating)
	return fit(fmt.Sprintf("feet slide where the clips' feet stood: ankle %s, toe %s cm/s (skating %.1f, %s)", a, t, f.AnkleSkating, sk),
		fmt.Sprintf("slide: ankle %s, toe %s; skate %.1f, %s cm/s", a, t, f.AnkleSkating, sk))
}

// transitionsText is the readout's line of transition rates: moving, and
// idle once the character has stood a second.
func (l *Lab) transitionsText(f *mm.Metrics, fit func(long, short string) string) string {
	if f.IdleSeconds < 1 {
		return fit(fmt.Sprintf("transitions a second: %.2f moving (no idle yet)", f.TransitionsMoving),
			fmt.Sprintf("trans/s %.2f moving", f.TransitionsMoving))
	}
	return fit(fmt.Sprintf("transitions a second: %.2f moving, %.2f idle (%.0f s idle)", f.TransitionsMoving,
		f.TransitionsIdle, f.IdleSeconds),
		fmt.Sprintf("trans/s %.2f moving, %.2f idle", f.TransitionsMoving, f.TransitionsIdle))
}

// drawTable lists the last search's best candidates: each group's part of
// the cost, the total, and the feet's exact inertialized displacement;
// then carrying on.
func (l *Lab) drawTable(r rl.Rectangle, h *snapshot) {
	const fs = ui.SmallText
	const row = fs * 1.25
	if r.Height < 3*row {
		return
	}
	ui.BeginBlock(ui.KindReadout, "candidates table", r)
	defer ui.EndBlock()
	rl.DrawRectangleRec(r, tableBg)
	rl.DrawRectangleLinesEx(r, 1, tableLine)
	set := mm.Set(l.S.Features)
	groups := l.db.SetGroups(set)
	head := []string{"#", "frame"}
	for _, g := range groups {
		name := mm.GroupNames[g]
		if set == mm.Exact && g == mm.Inertial {
			name = "exact"
		}
		head = append(head, name)
	}
	head = append(head, "total", "m*s")
	mirrored := false
	cell := func(k mm.Candidate, rank string) []string {
		name, m := tableName(l.CandidateName(k.Frame))
		mirrored = mirrored || m
		c := []string{rank, name}
		if k.Frame < 0 { // the learned state: only its distance to the query is known
			for range groups {
				c = append(c, "-")
			}
			return append(c, costText(k.Cost), "-")
		}
		for _, g := range groups {
			c = append(c, costText(k.Terms[g]))
		}
		return append(c, costText(k.Cost), fmt.Sprintf("%.3f", k.Exact))
	}
	var cells [][]string
	for i := 0; i < h.nCands; i++ {
		cells = append(cells, cell(h.cands[i], fmt.Sprint(i+1)))
	}
	cells = append(cells, cell(h.carry, "="))
	cols := make([]color.RGBA, len(cells))
	for i := range cols {
		switch {
		case i == len(cells)-1:
			cols[i] = render.DimText
		case i == 0 && h.transited:
			cols[i] = render.TargetColor
		default:
			cols[i] = render.TextColor
		}
	}
	x, y := r.X+8, r.Y+5
	title := "Last search: the best frames, each term's cost; = carrying on"
	if h.learned {
		// The learned controller searches nothing: its projection's
		// query, the database's nearest frames to it, and its state.
		title = "Last projection: the nearest frames; = the learned state"
	}
	if mirrored {
		title += "; * mirrored"
	}
	ui.DrawText(ui.Shorten(title, r.Width-16, fs), x, y, fs, render.DimText)
	ui.DrawTable(&ui.Table{Head: head, Rows: cells, Colors: cols, HeadColor: render.DimText, Name: 1, KeepAfter: " @ "},
		x, y+row, r.Width-16, r.Y+r.Height, fs, row)
}

// tableName is a candidate's name ("clip @ time") as the table shows it,
// a mirrored clip's " (mirrored)" as a star before it ("*walk @ 1.25 s"),
// and whether it is one: cut in the middle to fit, the words left
// "obsta…red) @ 6.73 s" of every mirrored clip, where the name's head and
// tail now show ("*obst…ft_3 @ 6.73 s"), and its whole under the mouse.
func tableName(name string) (string, bool) {
	const m = " (mirrored) @ "
	if i := strings.Index(name, m); i >= 0 {
		return "*" + name[:i] + " @ " + name[i+len(m):], true
	}
	return name, false
}

// costText prints a cost with two significant figures or more, no wider
// than it must be, so the frame column keeps its room: a cost under 0.01
// (every term while the character stands idle) as 4.2e-4, not 0.00.
func costText(x float32) string {
	switch a := math.Abs(float64(x)); {
	case a == 0:
		return "0"
	case a < 0.01:
		return strings.Replace(strconv.FormatFloat(float64(x), 'e', 1, 32), "e-0", "e-", 1)
	case a < 10:
		return fmt.Sprintf("%.2f", x)
	case a < 100:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.0f", x)
}

// UIRects implements app.Lab: the table and the plots take the mouse.
func (l *Lab) UIRects(w, h int32) []rl.Rectangle {
	v := &app.View{Width: w, Height: h, Area: app.LabArea(float32(w), float32(h))}
	t, a, b, p, f := layout(v, l.view().learned)
	return []rl.Rectangle{t, a, b, p, f}
}

// Settings implements app.Lab.
func (l *Lab) Settings() any { return &l.S }

// CheckSettings implements app.Lab: choices within their
// options, sliders within their ends.
func (l *Lab) CheckSettings() {
	s := &l.S
	s.Features = mathx.Clamp(s.Features, 0, int32(mm.NumSets)-1)
	s.Transition = mathx.Clamp(s.Transition, 0, int32(len(transitionChoices))-1)
	s.Path = mathx.Clamp(s.Path, 0, int32(mm.NumPaths))
	s.Controller = mathx.Clamp(s.Controller, 0, int32(len(controllerNames))-1)
	l.sliders().Clamp()
}
