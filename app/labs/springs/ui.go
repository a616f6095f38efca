package springs

import (
	"fmt"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
	"kinelab/app"
	"kinelab/render"
	"kinelab/ui"
)

// springPanels remembers which panel sections are open.
type springPanels struct {
	goal, springs, plots bool
}

// The 3D view: a vertical rail per spring with a ball at its position,
// springRailY(x) metres up, and the goal as a bar across every rail.
const (
	railGap    = 0.42 // m between rails
	railHeight = 2.0  // m
)

func springRailY(x float32) float32 { return max(0.03, min(railHeight, 0.95+0.45*x)) }

// springRailBase is the foot of spring i's rail (m).
func springRailBase(i int) mgl32.Vec3 {
	return app.DefaultCameraRight().Mul((float32(i) - 1.5) * railGap)
}

// Draw3D implements app.Lab: the rails, the goal bars and the balls.
func (l *Lab) Draw3D(v *app.View) {
	r := app.DefaultCameraRight().Mul(0.09)
	gy := mgl32.Vec3{0, springRailY(l.goal), 0}
	for i := range numSprings {
		b := springRailBase(i)
		rl.DrawCylinderEx(render.V3(b), render.V3(b.Add(mgl32.Vec3{0, railHeight, 0})), 0.01, 0.01, 6, render.DimText)
		g := b.Add(gy)
		rl.DrawCylinderEx(render.V3(g.Sub(r)), render.V3(g.Add(r)), 0.012, 0.012, 6, GoalColor)
		if l.S.Show[i] {
			rl.DrawSphereEx(render.V3(b.Add(mgl32.Vec3{0, springRailY(l.x[i]), 0})), 0.07, 8, 12, Colors[i])
		}
	}
}

// Draw2D implements app.Lab: the position and velocity plots, the rails'
// names.
func (l *Lab) Draw2D(v *app.View) {
	top, bottom := app.StackedPlots(v.Width, v.Height)
	l.pos.Draw(top, v.Mouse)
	l.vel.Draw(bottom, v.Mouse)
	for i := range numSprings {
		p := v.Project(springRailBase(i))
		w := ui.Measure(springIDs[i], ui.SmallText)
		ui.DrawText(springIDs[i], p.X-w/2, p.Y+8, ui.SmallText, Colors[i])
	}
}

// sliders is every slider of the lab's panel, declared once: Panel draws
// them and CheckSettings keeps settings read from a file within them.
func (l *Lab) sliders() ui.Ranges {
	s := &l.S
	return ui.Ranges{
		{Label: "Period", V: &s.Period, Lo: 0.2, Hi: 5, Format: "%.1f s"},
		{Label: "Amplitude", V: &s.Amplitude, Lo: 0.1, Hi: 2, Format: "%.2f m"},
		{Label: "Ramp time", V: &s.RampTime, Lo: 0.05, Hi: 3, Format: "%.2f s"},
		{Label: "Damper h-l", V: &s.DamperHalflife, Lo: 0, Hi: 1, Format: "%.2f s"},
		{Label: "Critical h-l", V: &s.CriticalHalflife, Lo: 0, Hi: 1, Format: "%.2f s"},
		{Label: "Frequency", V: &s.Frequency, Lo: 0, Hi: 4, Format: "%.2f Hz"},
		// The ratio's caption names the regime it puts the spring in.
		{Label: "Damping", V: &s.Ratio, Lo: 0, Hi: 3, Text: func(r float32) string {
			return fmt.Sprintf("%.2f %s", r, springRegime(r))
		}},
		{Label: "Decay h-l", V: &s.DecayHalflife, Lo: 0, Hi: 1, Format: "%.2f s"},
		{Label: "Window", V: &s.Window, Lo: 1, Hi: 20, Format: "%.0f s"},
	}
}

// Panel implements app.Lab. Its Step and Ramp buttons only ask: the next
// Update moves the goal.
func (l *Lab) Panel(p *app.Panel) {
	s, sec, sl := &l.S, &l.sec, l.sliders()
	p.Text(fmt.Sprintf("tick dt %.1f ms (Playback)", l.dt*1000))
	if p.Section("Goal", &sec.goal) {
		p.Choice([]string{"Steps", "Ramps", "Sine"}, 3, &s.Goal)
		if s.Goal != GoalSine {
			p.Check("Repeat (A)", &s.Auto)
		}
		p.Range(sl, &s.Period)
		p.Range(sl, &s.Amplitude)
		if s.Goal == GoalRamps {
			p.Range(sl, &s.RampTime)
		}
		switch p.Buttons("Step (S)", "Ramp (R)") { // S's --do name is goal-step
		case 0:
			p.Ask(l.Step)
		case 1:
			p.Ask(l.Ramp)
		}
		p.Text("or Ctrl+drag in the top plot")
	}
	if p.Section("Springs", &sec.springs) {
		p.Range(sl, &s.DamperHalflife)
		p.Range(sl, &s.CriticalHalflife)
		p.Range(sl, &s.Frequency)
		p.Range(sl, &s.Ratio)
		st, d := s.stiffnessDamping()
		p.Text(fmt.Sprintf("  s %.1f/s2  d %.2f/s", st, d))
		p.Check("Goal velocity to springs", &s.GoalVel)
		p.Range(sl, &s.DecayHalflife)
		p.Text("  (= critical after a step)")
	}
	if p.Section("Plots", &sec.plots) {
		for i, id := range springIDs {
			p.Check(id, &s.Show[i])
		}
		p.Range(sl, &s.Window)
		p.Check("Hold y ranges", &s.HoldPlot)
	}
}

// Keys implements app.Lab.
func (l *Lab) Keys() []app.Key {
	s := &l.S
	return []app.Key{
		{Code: rl.KeyS, Label: "S", Name: "goal-step", Help: "the goal steps to the other side", Action: l.Step},
		{Code: rl.KeyR, Label: "R", Name: "ramp", Help: "the goal ramps to the other side", Action: l.Ramp},
		{Code: rl.KeyG, Label: "G", Name: "goal-mode", Help: "next goal motion (steps, ramps, sine)", Action: func() { s.Goal = (s.Goal + 1) % 3 }},
		{Code: rl.KeyA, Label: "A", Name: "auto", Help: "repeat steps / ramps on / off", Action: func() { s.Auto = !s.Auto }},
		{Code: rl.KeyZ, Label: "Z", Name: "regime", Help: "damping ratio 0.25 / 1 / 2 (under, critical, over)", Action: func() {
			switch {
			case s.Ratio < 0.995:
				s.Ratio = 1
			case s.Ratio <= 1.005:
				s.Ratio = 2
			default:
				s.Ratio = 0.25
			}
		}},
		{Code: rl.KeyQ, Label: "Q", Name: "goal-velocity", Help: "goal velocity to the springs on / off", Action: func() { s.GoalVel = !s.GoalVel }},
	}
}

// Point implements app.Lab: Ctrl+drag in the top plot moves the goal.
func (l *Lab) Input(in *app.Input) {
	ptr := in.Pointer
	top, _ := app.StackedPlots(int32(ui.Width()), int32(ui.Height()))
	l.draw.Point(ptr, l.pos, top)
}

// UIRects implements app.Lab: the two plots (the goal is dragged in one).
func (l *Lab) UIRects(w, h int32) []rl.Rectangle {
	a, b := app.StackedPlots(w, h)
	return []rl.Rectangle{a, b}
}

// Settings implements app.Lab.
func (l *Lab) Settings() any { return &l.S }

// CheckSettings implements app.Lab: the goal motion within
// its options, every slider within its table row.
func (l *Lab) CheckSettings() {
	s := &l.S
	s.Goal = mathx.Clamp(s.Goal, 0, 2)
	l.sliders().Clamp()
}
