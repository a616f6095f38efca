package scalar

import (
	"fmt"
	"image/color"
	"math"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
	"kinelab/app"
	"kinelab/render"
	"kinelab/ui"
)

// scalarPanels remembers which panel sections are open.
type scalarPanels struct {
	growth, lerp, base2, springs, hier, display bool
}

// scalarUnit is the edge (m) of a growing object at scale 1, and
// scalarSpringUnit that of the scale spring's box.
const (
	scalarUnit       = 0.05
	scalarSpringUnit = 0.1
)

// Draw3D implements app.Lab: the objects standing on the ground, the springs
// with their goals as wireframes, and the hierarchy with its velocity lines.
func (l *Lab) Draw3D(v *app.View) {
	one := mathx.QuatIdentity()
	grounded := func(p mgl32.Vec3, s float32, col color.RGBA) {
		e := scalarUnit * s
		scalarBox(p.Add(mgl32.Vec3{0, e / 2, 0}), mgl32.Vec3{e, e, e}, one, col, true)
	}
	grounded(scalarNaivePos, l.growth.Naive, scalarNaiveColor)
	grounded(scalarNaturalPos, l.growth.Natural, scalarNaturalColor)
	grounded(scalarLerpPos, l.interp.Lerp, scalarLerpColor)
	grounded(scalarEerpPos, l.interp.Eerp, scalarEerpColor)
	grounded(scalarBase2Pos, l.base2.Scale, scalarBase2Color)

	// Scale spring: a box of scale SclX per axis, its goal in wireframe.
	unit := float32(scalarSpringUnit)
	sz := l.springs.SclX.Mul(unit)
	scalarBox(scalarScalePos.Add(mgl32.Vec3{0, sz[1] / 2, 0}), sz, one, scalarScaleColor, true)
	gz := l.springs.SclGoal.Mul(unit)
	scalarBox(scalarScalePos.Add(mgl32.Vec3{0, gz[1] / 2, 0}), gz, one, scalarGoalColor, false)

	// Quaternion spring: a flat box turned by QuatX, its goal in wireframe.
	qs := mgl32.Vec3{0.5, 0.12, 0.26}
	scalarBox(scalarQuatPos, qs, l.springs.QuatX, scalarQuatColor, true)
	scalarBox(scalarQuatPos, qs.Mul(1.02), l.springs.QuatGoal, scalarGoalColor, false)
	rl.DrawLine3D(render.V3(scalarQuatPos.Sub(mgl32.Vec3{0, scalarQuatPos[1], 0})), render.V3(scalarQuatPos), render.DimText)

	// The hierarchy: a plate for the root, a box per joint scaled by its
	// global scale, links, and the velocity lines on top.
	g := &l.hier.global
	scalarBox(g.Pos[scalarRoot].Add(mgl32.Vec3{0, 0.01, 0}), mgl32.Vec3{0.34, 0.02, 0.34}, g.Rot[scalarRoot], render.DimText, true)
	render.Skeleton(g.Pos, l.hier.skel.Parents, nil, render.BoneColor, render.JointColor, 0.012)
	for i := scalarScaler; i < scalarJoints; i++ {
		scalarBox(g.Pos[i], g.Scl[i].Mul(0.07), g.Rot[i], scalarJointColor, true)
	}
	render.BeginOnTop()
	eye := v.Camera.Position
	fwd := g.Pos[scalarElbow].Sub(mgl32.Vec3{eye.X, eye.Y, eye.Z})
	side := mathx.Vec3Normalize(fwd.Cross(mgl32.Vec3{0, 1, 0})).Mul(0.012)
	for i := scalarScaler; i < scalarJoints; i++ {
		render.VectorLine(g.Pos[i], g.Vel[i], side.Mul(-1), l.S.LineScale, render.Propagated)
		render.VectorLine(g.Pos[i], l.hier.fd.Vel[i], side, l.S.LineScale, render.FiniteDiff)
		if l.S.ShowNoExp {
			render.VectorLine(g.Pos[i], l.hier.noExp.Vel[i], side.Mul(3), l.S.LineScale, scalarNoExpColor)
		}
	}
	render.EndOnTop()
}

// scalarBox draws a box of edge lengths size (m) centred at c and turned by
// q: solid with each face shaded by a fixed light (raylib draws unlit, so
// this is what makes it read as a box) and darker edges, or as a wireframe.
func scalarBox(c, size mgl32.Vec3, q mgl32.Quat, col color.RGBA, solid bool) {
	h := size.Mul(0.5)
	axis := func(k int) mgl32.Vec3 {
		var e mgl32.Vec3
		e[k] = h[k]
		return mathx.QuatMulVec3(q, e)
	}
	ax := [3]mgl32.Vec3{axis(0), axis(1), axis(2)}
	if solid {
		light := mgl32.Vec3{0.35, 0.85, 0.4}.Normalize()
		for k := 0; k < 3; k++ {
			n, a, b := ax[k], ax[(k+1)%3], ax[(k+2)%3]
			for _, s := range []float32{1, -1} {
				nn, aa, bb := n.Mul(s), a, b
				if s < 0 {
					aa, bb = b, a // keep the corners counter-clockwise seen from outside
				}
				shade := 0.5 + 0.5*max(0, mathx.Vec3Normalize(nn).Dot(light))
				fc := color.RGBA{R: uint8(float32(col.R) * shade), G: uint8(float32(col.G) * shade), B: uint8(float32(col.B) * shade), A: 255}
				f := c.Add(nn)
				p0, p1 := render.V3(f.Sub(aa).Sub(bb)), render.V3(f.Add(aa).Sub(bb))
				p2, p3 := render.V3(f.Add(aa).Add(bb)), render.V3(f.Sub(aa).Add(bb))
				rl.DrawTriangle3D(p0, p1, p2, fc)
				rl.DrawTriangle3D(p0, p2, p3, fc)
			}
		}
		col = color.RGBA{R: col.R / 3, G: col.G / 3, B: col.B / 3, A: 255}
	}
	for k := 0; k < 3; k++ {
		a, b := ax[(k+1)%3], ax[(k+2)%3]
		for _, sa := range []float32{1, -1} {
			for _, sb := range []float32{1, -1} {
				m := c.Add(a.Mul(sa)).Add(b.Mul(sb))
				rl.DrawLine3D(render.V3(m.Sub(ax[k])), render.V3(m.Add(ax[k])), col)
			}
		}
	}
}

// scalarPlotRects are the screen rectangles of the chosen demo's plot (the
// View's plot area) and the hierarchy plot (left of it on wide screens,
// above it otherwise).
func scalarPlotRects(v *app.View) (demo, hier rl.Rectangle) {
	demo = v.Plot
	hier = demo
	if left := demo.X - 10 - 320; left >= 360 {
		hier.X, hier.Width = 320, left
	} else {
		hier.Y = demo.Y - demo.Height - 8
	}
	return demo, hier
}

// Draw2D implements app.Lab: the objects' labels and the two plots.
func (l *Lab) Draw2D(v *app.View) {
	f := func(x float32) string { return fmt.Sprintf("%.3g", x) }
	// Front-row labels sit on top of their objects, back-row ones at a
	// fixed height above the tallest the objects get, so they never meet.
	top := func(p mgl32.Vec3, s float32) mgl32.Vec3 { return p.Add(mgl32.Vec3{0, scalarUnit*s + 0.06, 0}) }
	back := func(p mgl32.Vec3, s float32) mgl32.Vec3 {
		q := v.Project(p.Add(mgl32.Vec3{0, s, 0}))
		l := v.Project(mgl32.Vec3{p[0], 0.9, p[2]})
		rl.DrawLineEx(q, l, 1, render.DimText)
		return mgl32.Vec3{p[0], 0.9, p[2]}
	}
	scalarLabel(v, top(scalarNaivePos, l.growth.Naive), scalarNaiveColor, "naive", "s "+f(l.growth.Naive), fmt.Sprintf("+%.2f /s", l.NaiveVel()))
	scalarLabel(v, top(scalarNaturalPos, l.growth.Natural), scalarNaturalColor, "natural", "s "+f(l.growth.Natural), fmt.Sprintf("x e^%.2f /s", l.NaturalVel()))
	sy := scalarSpringUnit * max(l.springs.SclX[1], l.springs.SclGoal[1])
	scalarLabel(v, scalarScalePos.Add(mgl32.Vec3{0, sy + 0.06, 0}), scalarScaleColor,
		"scale spring", fmt.Sprintf("s %s %s %s", f(l.springs.SclX[0]), f(l.springs.SclX[1]), f(l.springs.SclX[2])))
	s, _ := l.ParentScale()
	scalarLabelBelow(v, scalarHierBase, render.TextColor, "hierarchy", "parent s "+f(s[1]))
	scalarLabel(v, back(scalarLerpPos, scalarUnit*l.interp.Lerp), scalarLerpColor, "lerp", "s "+f(l.interp.Lerp), fmt.Sprintf("a %.2f", l.interp.Alpha))
	scalarLabel(v, back(scalarEerpPos, scalarUnit*l.interp.Eerp), scalarEerpColor, "eerp", "s "+f(l.interp.Eerp), fmt.Sprintf("a %.2f", l.interp.Alpha))
	b2 := []string{"s " + f(l.base2.Scale), fmt.Sprintf("%+.2f dbl/s", l.S.Base2Vel)}
	if l.base2.DoubledIn > 0 {
		what := "x2"
		if l.S.Base2Vel < 0 {
			what = "/2"
		}
		b2 = append(b2, fmt.Sprintf("%s in %.3f s", what, l.base2.DoubledIn))
	}
	scalarLabel(v, back(scalarBase2Pos, scalarUnit*l.base2.Scale), scalarBase2Color, "base 2", b2...)
	scalarLabel(v, back(scalarQuatPos, 0.15), scalarQuatColor, "quat spring", fmt.Sprintf("%.2f rad to goal", l.QuatAngle()))

	demo, hier := scalarPlotRects(v)
	l.plots[l.S.Plot].Draw(demo, v.Mouse)
	l.hierPlot.Draw(hier, v.Mouse)
	msg := fmt.Sprintf("hierarchy |red - blue| mean %.4f  max %.4f m/s", l.hier.Mean, l.hier.Max)
	r := ui.CaptionRect(0, 0, ui.SmallText, msg)
	ui.Caption("hierarchy readout", hier.X, hier.Y-r.Height-4, ui.SmallText, []color.RGBA{render.TextColor}, msg)
}

// scalarLabel draws a small caption box centred above world point p: a
// coloured name and lines of values. Points behind the camera draw nothing.
func scalarLabel(v *app.View, p mgl32.Vec3, col color.RGBA, name string, lines ...string) {
	scalarCaption(v, p, false, col, name, lines...)
}

// scalarLabelBelow is scalarLabel with the box hanging below p.
func scalarLabelBelow(v *app.View, p mgl32.Vec3, col color.RGBA, name string, lines ...string) {
	scalarCaption(v, p, true, col, name, lines...)
}

func scalarCaption(v *app.View, p mgl32.Vec3, below bool, col color.RGBA, name string, lines ...string) {
	eye, tgt := v.Camera.Position, v.Camera.Target
	fwd := mgl32.Vec3{tgt.X - eye.X, tgt.Y - eye.Y, tgt.Z - eye.Z}
	if p.Sub(mgl32.Vec3{eye.X, eye.Y, eye.Z}).Dot(fwd) <= 0 {
		return
	}
	const fs = ui.SmallText
	all := append([]string{name}, lines...)
	r := ui.CaptionRect(0, 0, fs, all...)
	s := v.Project(p)
	x, y := s.X-r.Width/2, s.Y-r.Height
	if below {
		y = s.Y + 8
	}
	ui.Caption(name, x, y, fs, []color.RGBA{col, render.TextColor}, all...)
}

// scalarLifeText formats a doublelife or half-life (s), "never" at rest.
func scalarLifeText(t float32) string {
	if math.Abs(float64(t)) > 1e6 {
		return "never"
	}
	return fmt.Sprintf("%.3f s", t)
}

// sliders is every slider of the lab's panel, declared once: Panel draws
// them and CheckSettings keeps settings read from a file within them.
func (l *Lab) sliders() ui.Ranges {
	s := &l.S
	return ui.Ranges{
		{Label: "Duration", V: &s.GrowTime, Lo: 0.5, Hi: 10, Format: "%.1f s"},
		{Label: "Alpha", V: &s.Alpha, Lo: 0, Hi: 1, Format: "%.2f"},
		{Label: "Velocity", V: &s.Base2Vel, Lo: -4, Hi: 4, Format: "%+.2f dbl/s"},
		{Label: "Half-life", V: &s.Halflife, Lo: 0, Hi: 1, Format: "%.2f s"},
		{Label: "Amplitude", V: &s.OscAmp, Lo: 0, Hi: 3, Format: "%.2f dbl"},
		{Label: "Frequency", V: &s.OscFreq, Lo: 0, Hi: 2, Format: "%.2f Hz"},
		{Label: "Root spin", V: &s.RootSpin, Lo: -3, Hi: 3, Format: "%.2f rad/s"},
		{Label: "Elbow spin", V: &s.ElbowSpin, Lo: -3, Hi: 3, Format: "%.2f rad/s"},
		{Label: "Lines", V: &s.LineScale, Lo: 0.02, Hi: 1, Format: "%.2f m per m/s"},
	}
}

// Panel implements app.Lab. Opening a demo's section also shows its plot.
// Its buttons ask (Panel.Ask) rather than act, so the lab does not change
// while the frame is drawn.
func (l *Lab) Panel(p *app.Panel) {
	s, sec, sl := &l.S, &l.sec, l.sliders()
	section := func(title string, open *bool, plot int32) bool {
		was := *open
		if p.Section(title, open) && !was {
			s.Plot = plot
		}
		return *open
	}
	if section("Growth 0.1 -> 10", &sec.growth, PlotGrowth) {
		p.Range(sl, &s.GrowTime)
		if p.Button("Restart growth") {
			p.Ask(l.Restart)
		}
	}
	if section("Lerp vs eerp", &sec.lerp, PlotLerp) {
		p.Check("Animate alpha", &s.AnimAlpha)
		if p.Range(sl, &s.Alpha) {
			s.AnimAlpha = false
		}
	}
	if section("Base-2 scalar velocity", &sec.base2, PlotBase2) {
		p.Range(sl, &s.Base2Vel)
		p.Text(fmt.Sprintf("= %+.3f 1/s natural (x ln 2)", s.Base2Vel*mathx.Ln2))
		p.Text("doublelife 1/v: " + scalarLifeText(l.Doublelife()))
		p.Text("half-life -1/v: " + scalarLifeText(l.Halflife()))
	}
	if section("Scale and quat springs", &sec.springs, PlotScaleSpring) {
		p.Range(sl, &s.Halflife)
		switch p.Buttons("Scale x4", "/4", "Random") {
		case 0:
			p.Ask(func() { l.ScaleGoalBy(4) })
		case 1:
			p.Ask(func() { l.ScaleGoalBy(0.25) })
		case 2:
			p.Ask(l.RandomScaleGoal)
		}
		switch p.Buttons("Turn 90", "180", "Random") {
		case 0:
			p.Ask(func() { l.TurnGoal(math.Pi / 2) })
		case 1:
			p.Ask(func() { l.TurnGoal(math.Pi) })
		case 2:
			p.Ask(l.RandomTurnGoal)
		}
		p.Check("Uniform scale goals", &s.Uniform)
		p.Check("New goals every 2.5 s", &s.AutoGoal)
	}
	if p.Section("Hierarchy (expansion)", &sec.hier) {
		p.Choice([]string{"Oscillate", "Scale spring"}, 2, &s.Source)
		if s.Source == SourceOscillate {
			p.Range(sl, &s.OscAmp)
			p.Range(sl, &s.OscFreq)
		} else {
			p.Text("FK svl = spring v x ln 2")
		}
		p.Range(sl, &s.RootSpin)
		p.Range(sl, &s.ElbowSpin)
		p.Check("Orange: no expansion", &s.ShowNoExp)
	}
	if p.Section("Display", &sec.display) {
		p.Choice(scalarPlotNames, 3, &s.Plot)
		p.Range(sl, &s.LineScale)
	}
}

// Keys implements app.Lab. Keys run in the frame's input stage, so they
// act at once. Up and Down stop at the velocity slider's ends.
func (l *Lab) Keys() []app.Key {
	s := &l.S
	vel := l.sliders().Of(&s.Base2Vel)
	return []app.Key{
		{Code: rl.KeyG, Label: "G", Name: "goals", Help: "new spring goals (scale and rotation)", Action: l.NextGoals},
		{Code: rl.KeyR, Label: "R", Name: "restart", Help: "restart the growth", Action: l.Restart},
		{Code: rl.KeyU, Label: "U", Name: "uniform", Help: "uniform / per-axis random scale goals", Action: func() { s.Uniform = !s.Uniform }},
		{Code: rl.KeyUp, Label: "Up", Name: "base2-up", Help: "base-2 velocity +0.5 doublings/s", Action: func() { s.Base2Vel = min(vel.Hi, s.Base2Vel+0.5) }},
		{Code: rl.KeyDown, Label: "Down", Name: "base2-down", Help: "base-2 velocity -0.5 doublings/s", Action: func() { s.Base2Vel = max(vel.Lo, s.Base2Vel-0.5) }},
		{Code: rl.KeyS, Label: "S", Name: "source", Help: "hierarchy scale: oscillation / scale spring", Action: func() { s.Source = 1 - s.Source }},
		{Code: rl.KeyE, Label: "E", Name: "expansion", Help: "show FK without the expansion term on / off", Action: func() { s.ShowNoExp = !s.ShowNoExp }},
		{Code: rl.KeyP, Label: "P", Name: "plot", Help: "next plot", Action: func() { s.Plot = (s.Plot + 1) % int32(len(scalarPlotNames)) }},
	}
}

// Settings implements app.Lab.
func (l *Lab) Settings() any { return &l.S }

// CheckSettings implements app.Lab: every slider within its
// ends, the choices within their options.
func (l *Lab) CheckSettings() {
	s := &l.S
	s.Plot = mathx.Clamp(s.Plot, 0, int32(len(scalarPlotNames)-1))
	s.Source = mathx.Clamp(s.Source, 0, 1)
	l.sliders().Clamp()
}
