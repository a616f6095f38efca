package velocities

import (
	"fmt"
	"image/color"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys"
	"kinelab/animsys/mathx"
	"kinelab/app"
	"kinelab/render"
	"kinelab/ui"
)

// velPanels remembers which panel sections are open.
type velPanels struct {
	clip, add, proc, events, lines, display bool
}

// Draw3D implements app.Lab: body, skeleton, axes, targets, then the velocity
// lines on top (depth test off: most joints are inside the body).
func (l *Lab) Draw3D(v *app.View) {
	body := v.BodyFor(&l.skel)
	if l.S.ShowMesh && body != nil {
		body.Draw(l.global.Pos, l.global.Rot, l.global.Scl, render.SkinColor)
	}
	render.BeginOnTop()
	// Sizes in m at a human's size, times the view's scale.
	k := max(v.Scale, 1e-3)
	if l.S.ShowSkeleton {
		r := float32(0.022)
		if l.S.ShowMesh && body != nil {
			r = 0.008
		}
		render.Skeleton(l.global.Pos, l.skel.Parents, l.ch.Figure.Ground, render.BoneColor, render.JointColor, r*k)
	}
	if l.S.ShowAxes {
		for i := 1; i < l.skel.Len(); i++ {
			render.Axes(l.global.Pos[i], l.global.Rot[i], 0.08*k)
		}
	}
	if l.S.LookAt && l.notHuman == "" {
		rl.DrawSphere(render.V3(l.lookPos), 0.04*k, render.TargetColor)
	}
	if l.S.IK && l.notHuman == "" {
		rl.DrawSphere(render.V3(l.ikPos), 0.035*k, render.TargetColor)
	}
	eye := v.Camera.Position
	fwd := l.global.Pos[l.ch.Hips].Sub(mgl32.Vec3{eye.X, eye.Y, eye.Z})
	side := mathx.Vec3Normalize(fwd.Cross(mgl32.Vec3{0, 1, 0})).Mul(0.008 * k)
	for i := 1; i < l.skel.Len(); i++ {
		if l.S.Joint >= 0 && int(l.S.Joint) != i {
			continue
		}
		red, blue := l.Lines(i)
		p := l.global.Pos[i]
		render.VectorLine(p, red, side.Mul(-1), l.S.LineScale, render.Propagated)
		render.VectorLine(p, blue, side, l.S.LineScale, render.FiniteDiff)
	}
	render.EndOnTop()
	render.Root(l.global.Pos[0], mathx.QuatMulVec3(l.global.Rot[0], mgl32.Vec3{0, 0, 1}), render.DimText)
}

// Draw2D implements app.Lab: the difference plot, its readout above it,
// and the joints' names (hovered, picked, or all).
func (l *Lab) Draw2D(v *app.View) {
	unit := l.unit(l.S.Quantity)
	lines := []string{"red: propagated   blue: finite difference"}
	cols := []color.RGBA{render.DimText}
	if l.lastEvent != "" && l.time-l.lastEventTime < 3 {
		lines = append(lines, fmt.Sprintf("%s at %.2f s: blue off by %.1f %s", l.lastEvent, l.lastEventTime, l.lastEventMax, unit))
		cols = append(cols, render.TargetColor)
	}
	j := l.picked
	if j <= 0 && l.S.Joint > 0 {
		j = int(l.S.Joint)
	}
	if j > 0 && j < l.skel.Len() {
		red, blue := l.Lines(j)
		lines = append(lines, fmt.Sprintf("%s: red %.3f  blue %.3f  |red - blue| %.3f %s",
			l.skel.Names[j], red.Len(), blue.Len(), red.Sub(blue).Len(), unit))
		cols = append(cols, render.TextColor)
	}
	lines = append(lines, fmt.Sprintf("mean %.4f %s   max %.4f %s", l.Mean, unit, l.Max, unit))
	cols = append(cols, render.TextColor)
	r := ui.CaptionRect(0, 0, ui.TextSize, lines...)
	r.X, r.Y = v.Plot.X+v.Plot.Width-r.Width, v.Plot.Y-r.Height-6
	note := app.FigureNote(v, l.notHuman, "look-at and IK are off")
	// The joints' names first, off the plot, the readout and the note.
	v.DrawJointLabels(&l.skel, l.global.Pos, mgl32.Vec3{}, l.picked, v.Plot, r, note)
	l.plot.Draw(v.Plot, v.Mouse)
	ui.Caption("velocities readout", r.X, r.Y, ui.TextSize, cols, lines...)
}

// sliders is every slider of the lab's panel, declared once: Panel draws
// them and CheckSettings keeps settings read from a file within them. The
// joint slider's ends follow the skeleton, so it is not here.
func (l *Lab) sliders() ui.Ranges {
	s := &l.S
	return ui.Ranges{
		{Label: "Duration", V: &s.BlendDuration, Lo: 0, Hi: 2, Format: "%.2f s"},
		{Label: "Duration", V: &s.InertDuration, Lo: 0, Hi: 2, Format: "%.2f s"},
		{Label: "Half-life", V: &s.InertHalflife, Lo: 0, Hi: 1, Format: "%.2f s"},
		{Label: "Extrap. h-l", V: &s.DeadHalflife, Lo: 0, Hi: 1, Format: "%.2f s"},
		{Label: "Weight", V: &s.AddWeight, Lo: 0, Hi: 1, Format: "%.2f"},
		{Label: "Fade", V: &s.AddDuration, Lo: 0, Hi: 2, Format: "%.2f s"},
		{Label: "Skip frames", V: &s.SkipFrames, Lo: 1, Hi: 30, Format: "%.0f"},
		{Label: "Turn rate", V: &s.TurnRate, Lo: -1.5, Hi: 1.5, Format: "%.2f rad/s"},
		{Label: "Length", V: &s.LineScale, Lo: 0.01, Hi: 1, Format: "%.2f " + l.length() + " per " + l.unit(s.Quantity)},
		// Not on the panel: the Teleport button's distance (m) and the
		// timeline's clip speed, kept in range all the same.
		{Label: "Teleport", V: &s.TeleportDist, Lo: 0, Hi: 100, Format: "%.1f m"},
		{Label: "Speed", V: &s.ClipSpeed, Lo: 0, Hi: app.MaxClipSpeed, Format: "%.2fx"},
	}
}

// Panel implements app.Lab.
func (l *Lab) Panel(p *app.Panel) {
	s, sec, sl := &l.S, &l.sec, l.sliders()
	if p.Section("Clip and transition", &sec.clip) {
		l.clipPanel(p, sl)
	}
	if p.Section("Additive ("+l.wave.Name+")", &sec.add) {
		p.Check("Fade in", &s.Additive)
		p.Range(sl, &s.AddWeight)
		p.Range(sl, &s.AddDuration)
		p.Check("Local side (else world)", &s.AddLocal)
	}
	if p.Section("Look-at and IK", &sec.proc) && l.notHuman != "" {
		p.Text("Off: " + l.notHuman)
	} else if sec.proc {
		p.Check("Head looks at target", &s.LookAt)
		p.Check("Two-bone IK", &s.IK)
		p.Choice([]string{"Left leg", "Right hand"}, 2, &s.IKChain)
		p.Text("Ctrl+drag moves a target")
		if p.Button("Targets back on their paths") {
			p.Ask(l.FreeTargets)
		}
	}
	if p.Section("Teleport, reset, skip", &sec.events) {
		switch p.Buttons("Teleport", "Reset", "Skip") {
		case 0:
			p.Ask(l.Teleport)
		case 1:
			p.Ask(l.Reset)
		case 2:
			p.Ask(l.Skip)
		}
		p.Range(sl, &s.SkipFrames)
		p.Range(sl, &s.TurnRate)
	}
	if p.Section("Lines", &sec.lines) {
		p.Combo(joinNames(quantityNames), &s.Quantity)
		p.Range(sl, &s.LineScale)
		j := float32(s.Joint)
		name := "all"
		if s.Joint >= 0 {
			name = l.skel.Names[s.Joint]
		}
		p.SliderFor(&s.Joint, "Joint", &j, -1, float32(l.skel.Len()-1), name)
		s.Joint = max(-1, min(int32(l.skel.Len()-1), int32(j+0.5*sign(j))))
	}
	if p.Section("Display", &sec.display) {
		p.Check("Skinned mesh", &s.ShowMesh)
		p.Check("Skeleton", &s.ShowSkeleton)
		p.Check("Joint axes", &s.ShowAxes)
	}
}

// clipPanel lays out the section of the clips and the transition into
// them.
func (l *Lab) clipPanel(p *app.Panel, sl ui.Ranges) {
	s := &l.S
	// The clips in the order loaded, the playing one lit; a click asks
	// for a transition (Play), which the next Update makes.
	names := make([]string, len(l.clips))
	for i := range l.clips {
		names[i] = l.clips[i].Name
	}
	if i := p.Select(names, 3, l.cur); i >= 0 {
		p.Ask(func() { l.Play(i) })
	}
	p.Choice([]string{"Cut", "Blend", "Cubic inert.", "Spring inert.", "Dead blend"}, 3, &s.Transition)
	switch animsys.TransitionKind(s.Transition) {
	case animsys.TransitionBlend:
		p.Range(sl, &s.BlendDuration)
	case animsys.TransitionCubic:
		p.Range(sl, &s.InertDuration)
	case animsys.TransitionSpring:
		p.Range(sl, &s.InertHalflife)
	case animsys.TransitionDeadBlend:
		p.Range(sl, &s.BlendDuration)
		p.Range(sl, &s.DeadHalflife)
	}
	if l.clips[l.cur].Curves != nil {
		// A glTF clip samples its own curves whatever the choice.
		p.Text("Sampling: the file's curves, exact")
	} else {
		p.Check("Cubic sampling", &s.Cubic)
	}
	p.Check("Ignore weight velocity", &s.IgnoreWeightVel)
}

func sign(x float32) float32 {
	if x < 0 {
		return -1
	}
	return 1
}

func joinNames(n []string) string {
	s := ""
	for i, x := range n {
		if i > 0 {
			s += ";"
		}
		s += x
	}
	return s
}

// Keys implements app.Lab.
func (l *Lab) Keys() []app.Key {
	s := &l.S
	return []app.Key{
		{Code: rl.KeyT, Label: "T", Name: "teleport", Help: "teleport the character", Action: l.Teleport},
		{Code: rl.KeyR, Label: "R", Name: "reset", Help: "reset to another clip and time", Action: l.Reset},
		{Code: rl.KeyK, Label: "K", Name: "skip", Help: "skip frames (missed updates)", Action: l.Skip},
		{Code: rl.KeyN, Label: "N", Name: "next-clip", Help: "transition to the next clip", Action: func() { l.Play((l.cur + 1) % len(l.clips)) }},
		{Code: rl.KeyA, Label: "A", Name: "additive", Help: "additive in / out", Action: func() { s.Additive = !s.Additive }},
		{Code: rl.KeyL, Label: "L", Name: "look-at", Help: "look-at on / off", Action: func() { s.LookAt = !s.LookAt }},
		{Code: rl.KeyI, Label: "I", Name: "ik", Help: "two-bone IK on / off", Action: func() { s.IK = !s.IK }},
		{Code: rl.KeyV, Label: "V", Name: "quantity", Help: "next velocity quantity", Action: func() { s.Quantity = (s.Quantity + 1) % int32(len(quantityNames)) }},
		{Code: rl.KeyJ, Label: "J", Name: "joint", Help: "next joint (all, then each)", Action: func() {
			s.Joint++
			if int(s.Joint) >= l.skel.Len() {
				s.Joint = -1
			}
		}},
		{Code: rl.KeyM, Label: "M", Name: "mesh", Help: "skinned mesh on / off", Action: func() { s.ShowMesh = !s.ShowMesh }},
		{Code: rl.KeyW, Label: "W", Name: "ignore-weight-vel", Help: "ignore blend-weight velocity on / off", Action: func() { s.IgnoreWeightVel = !s.IgnoreWeightVel }},
	}
}

// Point implements app.Lab: a click picks a joint (or none), and
// Ctrl+drag moves the IK target when IK is on, else the look-at target, on
// the vertical plane through it that faces the camera.
func (l *Lab) Input(in *app.Input) {
	ptr := in.Pointer
	if ptr.Click {
		l.picked = max(0, ptr.JointAt(l.global.Pos, mgl32.Vec3{}))
	}
	if !ptr.Down {
		return
	}
	target := &l.lookPos
	if l.S.IK {
		target = &l.ikPos
	}
	if q, ok := ptr.OnPlaneThrough(*target); ok {
		if l.S.IK {
			l.DragIK = &q
		} else {
			l.S.LookAt = true
			l.DragLook = &q
		}
	}
}

// Settings implements app.Lab.
func (l *Lab) Settings() any { return &l.S }

// Timeline implements app.Lab: the playing clip.
func (l *Lab) Timeline() (app.Timeline, bool) {
	c := &l.clips[l.cur]
	_, n := c.Loop()
	off, _ := l.S.Play.At(l.tCur, n)
	return app.Timeline{Clip: c.Name, Time: off, Length: n, FrameTime: c.FrameTime, Mode: l.S.Play, Speed: l.S.ClipSpeed}, true
}

// EditTimeline implements app.Lab: the play mode and clip speed, and a
// seek, which the next update makes: it jumps the playing clip, an event
// ("scrub") the plot marks.
func (l *Lab) EditTimeline(e app.TimelineEdit) {
	if e.Mode >= animsys.PlayLoop && e.Mode <= animsys.PlayPingPong {
		l.S.Play = e.Mode
	}
	l.S.ClipSpeed = max(0, min(app.MaxClipSpeed, e.Speed))
	if e.Seek >= 0 {
		l.next.seek = e.Seek
	}
}

// CheckSettings implements app.Lab: choices within their
// options, sliders within their ends (sliders), the joint within the
// skeleton.
func (l *Lab) CheckSettings() {
	s := &l.S
	s.Transition = mathx.Clamp(s.Transition, 0, int32(animsys.NumTransitionKinds)-1)
	s.IKChain = mathx.Clamp(s.IKChain, 0, 1)
	s.Quantity = mathx.Clamp(s.Quantity, 0, int32(len(quantityNames)-1))
	s.Joint = mathx.Clamp(s.Joint, -1, int32(l.skel.Len()-1))
	if s.Play < animsys.PlayLoop || s.Play > animsys.PlayPingPong {
		s.Play = animsys.PlayLoop
	}
	l.sliders().Clamp()
}
