package tracking

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

// trackPanels remembers which panel sections are open.
type trackPanels struct {
	input, springs, cuts, char, plots bool
}

// Point implements app.Lab: Ctrl+drag in the top plot draws the input
// (and switches to the drawn signal).
func (l *Lab) Input(in *app.Input) {
	ptr := in.Pointer
	if ptr.Click && l.S.Character {
		l.joint = max(0, ptr.JointAt(l.char.rawG.Pos, mgl32.Vec3{}))
	}
	top, _ := app.StackedPlots(int32(ui.Width()), int32(ui.Height()))
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
	r := 0.02 * max(v.Scale, 1e-3) // m at a human's size
	render.Skeleton(c.rawG.Pos, c.skel.Parents, c.fig.Ground, InputColor, render.JointColor, r)
	render.Skeleton(c.filtG.Pos, c.skel.Parents, c.fig.Ground, Colors[l.S.CharVariant], render.JointColor, r)
}

// Draw2D implements app.Lab: the signal and error plots, and the characters'
// captions.
func (l *Lab) Draw2D(v *app.View) {
	top, bottom := app.StackedPlots(v.Width, v.Height)
	c := l.char
	if l.S.Character { // the joints' names first, off the plots
		v.DrawJointLabels(&c.skel, c.rawG.Pos, mgl32.Vec3{}, l.joint, top, bottom)
	}
	l.plot.Draw(top, v.Mouse)
	l.errs.Draw(bottom, v.Mouse)
	if !l.S.Character {
		return
	}
	caption := func(x, y float32, text string, col color.RGBA) {
		w := ui.Measure(text, ui.TextSize)
		ui.DrawText(text, x-w/2, y, ui.TextSize, col)
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
	if j := l.joint; j > 0 && j < c.skel.Len() {
		d := c.rawG.Rot[j].Dot(c.filtG.Rot[j])
		deg := 2 * math.Acos(math.Min(1, math.Abs(float64(d)))) * 180 / math.Pi
		msg := fmt.Sprintf("%s: filtered %.1f deg from raw", c.skel.Names[j], deg)
		r := ui.CaptionRect(0, 0, ui.TextSize, msg)
		ui.Caption("joint readout", v.Area.X, top.Y+top.Height-r.Height, ui.TextSize, []color.RGBA{render.TargetColor}, msg)
	}
}

// sliders is every slider of the lab's panel, declared once: Panel draws
// them and CheckSettings keeps settings read from a file within them.
func (l *Lab) sliders() ui.Ranges {
	s := &l.S
	return ui.Ranges{
		{Label: "Swap every", V: &s.SwitchPeriod, Lo: 0, Hi: 5, Text: func(x float32) string {
			if x > 0 {
				return fmt.Sprintf("%.1f s", x)
			}
			return "on J only"
		}},
		{Label: "Jump rate", V: &s.JumpRate, Lo: 0, Hi: 4, Format: "%.1f /s"},
		{Label: "Jump size", V: &s.JumpSize, Lo: 0, Hi: 2, Format: "%.2f m"},
		{Label: "Plain h-l", V: &s.PlainHalflife, Lo: 0, Hi: 0.5, Format: "%.3f s"},
		gainRange("x gain", &s.XGain),
		gainRange("v gain", &s.VGain),
		{Label: "a gain", V: &s.AGain, Lo: 0, Hi: 1, Format: "%.2f"},
		// The exact spring's gains are for a tick: shown as its length,
		// slid as its rate.
		{Label: "Gain dt", V: &s.GainDt, Lo: 10, Hi: 240,
			Text: func(hz float32) string { return fmt.Sprintf("%.1f ms", 1000/hz) },
			Get:  func() float32 { return 1 / s.GainDt }, Set: func(hz float32) { s.GainDt = 1 / hz }},
		{Label: "x half-life", V: &s.XHalflife, Lo: 0, Hi: 3, Format: "%.2f s"},
		{Label: "v half-life", V: &s.VHalflife, Lo: 0, Hi: 0.5, Format: "%.3f s"},
		{Label: "a half-life", V: &s.AHalflife, Lo: 0, Hi: 0.5, Format: "%.3f s"},
		{Label: "Max vel", V: &s.MaxVel, Lo: 0.1, Hi: 20, Format: "%.1f m/s"},
		{Label: "Max acc", V: &s.MaxAcc, Lo: 1, Hi: 200, Format: "%.0f m/s2"},
		{Label: "Cut every", V: &s.CutEvery, Lo: 0, Hi: 5, Format: "%.1f s"},
		{Label: "Cut skip", V: &s.CutSkip, Lo: 0, Hi: 1, Format: "%.2f s"},
		{Label: "Window", V: &s.Window, Lo: 1, Hi: 20, Format: "%.0f s"},
	}
}

// gainRange is a slider over log10 of a per-tick gain in [1e-4, 1] whose
// leftmost position is 0: small gains such as the article's 0.01 need the
// resolution a linear slider lacks. Its caption is the gain itself.
// Get leaves a gain above 1 (read from a file) above the slider's end, so
// that the table's clamp brings it to 1; a negative or NaN gain reads as
// NaN and clamps to 0.
func gainRange(label string, g *float32) ui.Range {
	return ui.Range{Label: label, V: g, Lo: -4, Hi: 0,
		Text: func(float32) string { return fmt.Sprintf("%.3g", *g) },
		Get:  func() float32 { return max(-4, float32(math.Log10(float64(*g)))) },
		Set: func(u float32) {
			*g = float32(math.Pow(10, float64(u)))
			if u <= -3.97 {
				*g = 0
			}
		}}
}

// Panel implements app.Lab. Its buttons only ask (Jump, CutCharacter):
// the next Update makes the discontinuity.
func (l *Lab) Panel(p *app.Panel) {
	s, sec, sl := &l.S, &l.sec, l.sliders()
	p.Text(fmt.Sprintf("tick dt %.1f ms (%.0f Hz)", l.dt*1000, 1/l.dt))
	p.Text("from Playback > Time step")
	if p.Section("Input signal", &sec.input) {
		p.Choice([]string{"Switch", "Jumps", "Drawn"}, 3, &s.Signal)
		switch s.Signal {
		case SignalSwitch:
			p.Range(sl, &s.SwitchPeriod)
		case SignalJumps:
			p.Range(sl, &s.JumpRate)
			p.Range(sl, &s.JumpSize)
		case SignalDrawn:
			p.Text("Ctrl+drag in the top plot")
		}
		if p.Button("Discontinuity now  (J)") {
			p.Ask(l.Jump)
		}
	}
	if p.Section("Springs", &sec.springs) {
		p.Range(sl, &s.PlainHalflife)
		p.Range(sl, &s.XGain)
		p.Range(sl, &s.VGain)
		p.Range(sl, &s.AGain)
		p.Range(sl, &s.GainDt)
		p.Range(sl, &s.XHalflife)
		p.Range(sl, &s.VHalflife)
		p.Range(sl, &s.AHalflife)
	}
	if p.Section("Discontinuities", &sec.cuts) {
		p.Check("Known cuts (K)", &s.KnownCuts)
		p.Check("Clip targets (L)", &s.Clip)
		p.Range(sl, &s.MaxVel)
		p.Range(sl, &s.MaxAcc)
	}
	if p.Section("Character", &sec.char) {
		p.Check("Show (M)", &s.Character)
		p.Choice([]string{"plain", "lerp", "h-life", "exact"}, 4, &s.CharVariant)
		names := make([]string, len(l.char.clips))
		for i, c := range l.char.clips {
			names[i] = c.Name
		}
		p.Choice(names, 3, &s.CharClip)
		p.Range(sl, &s.CutEvery)
		p.Range(sl, &s.CutSkip)
		if p.Button("Cut now  (X)") {
			p.Ask(l.CutCharacter)
		}
		p.Text("worst: " + l.char.skel.Names[l.char.Worst])
	}
	if p.Section("Plots", &sec.plots) {
		for v := range numVariants {
			p.Check(trackVariantLabels[v], &s.Show[v])
		}
		p.Range(sl, &s.Window)
		p.Check("Hold y ranges", &s.HoldPlot)
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
		{Code: rl.KeyX, Label: "X", Name: "char-cut", Help: "cut the character's clip now", Action: l.CutCharacter},
		{Code: rl.KeyM, Label: "M", Name: "character", Help: "character on / off", Action: func() { s.Character = !s.Character }},
		{Code: rl.KeyV, Label: "V", Name: "char-filter", Help: "next filter on the character", Action: func() { s.CharVariant = (s.CharVariant + 1) % numVariants }},
	}
}

// UIRects implements app.Lab: the two plots (the input is drawn in one).
func (l *Lab) UIRects(w, h int32) []rl.Rectangle {
	a, b := app.StackedPlots(w, h)
	return []rl.Rectangle{a, b}
}

// Settings implements app.Lab.
func (l *Lab) Settings() any { return &l.S }

// CheckSettings implements app.Lab: the choices within their
// options (the clip within the character's clips), every slider within
// its table row.
func (l *Lab) CheckSettings() {
	s := &l.S
	s.Signal = mathx.Clamp(s.Signal, 0, 2)
	s.CharVariant = mathx.Clamp(s.CharVariant, 0, numVariants-1)
	s.CharClip = mathx.Clamp(s.CharClip, 0, int32(len(l.char.clips)-1))
	l.sliders().Clamp()
}
