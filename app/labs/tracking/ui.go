package tracking

import (
	"fmt"
	"image/color"
	"math"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/app"
	"kinelab/render"
	"kinelab/ui"
)

// trackPanels remembers which panel sections are open.
type trackPanels struct {
	input, springs, cuts, char, plots bool
}

// Point implements app.Pointable: Ctrl+drag in the top plot draws the input
// (and switches to the drawn signal).
func (l *Lab) Point(ptr app.Pointer) {
	top, _ := app.StackedPlots(int32(rl.GetScreenWidth()), int32(rl.GetScreenHeight()))
	l.draw.Point(ptr, l.plot, top)
	if l.draw.Down {
		l.S.Signal = SignalDrawn
	}
}

// Draw3D implements app.Lab: the raw character and the filtered one.
func (l *Lab) Draw3D(v *app.View) {
	if !l.S.Character {
		return
	}
	c := l.char
	render.Skeleton(c.rawG.Pos, c.skel.Parents, InputColor, render.JointColor, 0.02)
	render.Skeleton(c.filtG.Pos, c.skel.Parents, Colors[l.S.CharVariant], render.JointColor, 0.02)
}

// Draw2D implements app.Lab: the signal and error plots, and the characters'
// captions.
func (l *Lab) Draw2D(v *app.View) {
	top, bottom := app.StackedPlots(v.Width, v.Height)
	l.plot.Title = fmt.Sprintf("dt %.1f ms", l.dt*1000)
	l.plot.Draw(top, v.Mouse)
	l.errs.Draw(bottom, v.Mouse)
	if !l.S.Character {
		return
	}
	c := l.char
	caption := func(x, y float32, text string, col color.RGBA) {
		w := float32(rl.MeasureText(text, ui.TextSize))
		rl.DrawText(text, int32(x-w/2), int32(y), ui.TextSize, col)
	}
	above := mgl32.Vec3{0, 0.3, 0}
	pr, pf := v.Project(c.rawG.Pos[c.top].Add(above)), v.Project(c.filtG.Pos[c.top].Add(above))
	caption(pr.X, pr.Y, "raw", InputColor)
	caption(pf.X, pf.Y, "filtered: "+trackVariantLabels[l.S.CharVariant], Colors[l.S.CharVariant])
	// The offset readout under the feet, between the two.
	fr, ff := v.Project(c.rawG.Pos[0]), v.Project(c.filtG.Pos[0])
	x, y := (fr.X+ff.X)/2, max(fr.Y, ff.Y)+20
	caption(x, y, "filtered vs raw", render.DimText)
	caption(x, y+22, fmt.Sprintf("mean %.1f max %.1f deg", c.MeanDeg, c.MaxDeg), render.DimText)
}

// Panel implements app.Lab.
func (l *Lab) Panel(p *ui.Panel) {
	s, sec := &l.S, &l.sec
	p.Text(fmt.Sprintf("tick dt %.1f ms (%.0f Hz)", l.dt*1000, 1/l.dt))
	p.Text("from Playback > Time step")
	if p.Section("Input signal", &sec.input) {
		p.Choice([]string{"Switch", "Jumps", "Drawn"}, 3, &s.Signal)
		switch s.Signal {
		case SignalSwitch:
			every := "on J only"
			if s.SwitchPeriod > 0 {
				every = fmt.Sprintf("%.1f s", s.SwitchPeriod)
			}
			p.SliderText("Swap every", &s.SwitchPeriod, 0, 5, every)
		case SignalJumps:
			p.Slider("Jump rate", &s.JumpRate, 0, 4, "%.1f /s")
			p.Slider("Jump size", &s.JumpSize, 0, 2, "%.2f m")
		case SignalDrawn:
			p.Text("Ctrl+drag in the top plot")
		}
		if p.Button("Discontinuity now  (J)") {
			l.Jump()
		}
	}
	if p.Section("Springs", &sec.springs) {
		p.Slider("Plain h-l", &s.PlainHalflife, 0, 0.5, "%.3f s")
		gainSlider(p, "x gain", &s.XGain)
		gainSlider(p, "v gain", &s.VGain)
		p.Slider("a gain", &s.AGain, 0, 1, "%.2f")
		hz := 1 / s.GainDt
		if p.SliderText("Gain dt", &hz, 10, 240, fmt.Sprintf("%.1f ms", 1000*s.GainDt)) {
			s.GainDt = 1 / hz
		}
		p.Slider("x half-life", &s.XHalflife, 0, 3, "%.2f s")
		p.Slider("v half-life", &s.VHalflife, 0, 0.5, "%.3f s")
		p.Slider("a half-life", &s.AHalflife, 0, 0.5, "%.3f s")
	}
	if p.Section("Discontinuities", &sec.cuts) {
		p.Check("Known cuts (K)", &s.KnownCuts)
		p.Check("Clip targets (L)", &s.Clip)
		p.Slider("Max vel", &s.MaxVel, 0.1, 20, "%.1f m/s")
		p.Slider("Max acc", &s.MaxAcc, 1, 200, "%.0f m/s2")
	}
	if p.Section("Character", &sec.char) {
		p.Check("Show (M)", &s.Character)
		p.Choice([]string{"plain", "lerp", "h-life", "exact"}, 4, &s.CharVariant)
		names := make([]string, len(l.char.clips))
		for i, c := range l.char.clips {
			names[i] = c.Name
		}
		p.Choice(names, 3, &s.CharClip)
		p.Slider("Cut every", &s.CutEvery, 0, 5, "%.1f s")
		p.Slider("Cut skip", &s.CutSkip, 0, 1, "%.2f s")
		if p.Button("Cut now  (X)") {
			l.char.pend = true
		}
		p.Text("worst: " + l.char.skel.Names[l.char.Worst])
	}
	if p.Section("Plots", &sec.plots) {
		for v := range numVariants {
			p.Check(trackVariantLabels[v], &s.Show[v])
		}
		p.Slider("Window", &s.Window, 1, 20, "%.0f s")
		p.Check("Hold y ranges", &s.HoldPlot)
	}
}

// gainSlider is a slider over log10 of a per-tick gain in [1e-4, 1] whose
// leftmost position is 0: small gains such as the article's 0.01 need the
// resolution a linear slider lacks.
func gainSlider(p *ui.Panel, label string, g *float32) {
	u := float32(-4)
	if *g > 0 {
		u = max(-4, min(0, float32(math.Log10(float64(*g)))))
	}
	if p.SliderText(label, &u, -4, 0, fmt.Sprintf("%.3g", *g)) {
		*g = float32(math.Pow(10, float64(u)))
		if u <= -3.97 {
			*g = 0
		}
	}
}

// Keys implements app.Lab.
func (l *Lab) Keys() []app.Key {
	s := &l.S
	return []app.Key{
		{Code: rl.KeyJ, Label: "J", Name: "jump", Help: "a discontinuity in the input now", Action: l.Jump},
		{Code: rl.KeyG, Label: "G", Name: "signal", Help: "next input signal (switch, jumps, drawn)", Action: func() { s.Signal = (s.Signal + 1) % 3 }},
		{Code: rl.KeyK, Label: "K", Name: "known-cuts", Help: "known-cut handling on / off", Action: func() { s.KnownCuts = !s.KnownCuts }},
		{Code: rl.KeyL, Label: "L", Name: "clip", Help: "velocity / acceleration clipping on / off", Action: func() { s.Clip = !s.Clip }},
		{Code: rl.KeyX, Label: "X", Name: "char-cut", Help: "cut the character's clip now", Action: func() { l.char.pend = true }},
		{Code: rl.KeyM, Label: "M", Name: "character", Help: "character on / off", Action: func() { s.Character = !s.Character }},
		{Code: rl.KeyV, Label: "V", Name: "char-filter", Help: "next filter on the character", Action: func() { s.CharVariant = (s.CharVariant + 1) % numVariants }},
	}
}

// UIRects implements app.UIRecter: the two plots (the input is drawn in one).
func (l *Lab) UIRects(w, h int32) []rl.Rectangle {
	a, b := app.StackedPlots(w, h)
	return []rl.Rectangle{a, b}
}
