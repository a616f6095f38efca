package ui

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	gui "github.com/gen2brain/raylib-go/raygui"
	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/animsys/mathx"
)

// The widgets of a panel row: buttons, check boxes, sliders (with their
// typed values), choices and notes.

// Button is a full-width push button; it reports a click.
func (p *Panel) Button(text string) bool {
	r := p.row(Row)
	recordWidget(text, r)
	return gui.Button(r, text)
}

// Buttons lays out n equal buttons on one row and returns the index of the
// one clicked, or -1.
func (p *Panel) Buttons(texts ...string) int {
	r := p.row(Row)
	w := (r.Width - float32(len(texts)-1)*4) / float32(len(texts))
	hit := -1
	for i, t := range texts {
		b := rl.Rectangle{X: r.X + float32(i)*(w+4), Y: r.Y, Width: w, Height: r.Height}
		recordWidget(t, b)
		if gui.Button(b, t) {
			hit = i
		}
	}
	return hit
}

// Check is a check box with its label; it reports a change.
func (p *Panel) Check(text string, v *bool) bool {
	r := p.row(Row - 4)
	p.bind(v)
	old := *v
	b := rl.Rectangle{X: r.X, Y: r.Y + 1, Width: r.Height - 2, Height: r.Height - 2}
	// raygui draws the label itself, right of the box: record where.
	recordWidget(text, rl.Rectangle{X: b.X + b.Width + 4, Y: r.Y, Width: r.Width - b.Width - 4, Height: r.Height})
	gui.CheckBox(b, text, v)
	if *v {
		// raygui marks "on" only by filling the box, which reads as a
		// plain square; a tick makes the state plain.
		at := func(fx, fy float32) rl.Vector2 { return rl.Vector2{X: b.X + fx*b.Width, Y: b.Y + fy*b.Height} }
		ink := color.RGBA{24, 28, 36, 255}
		rl.DrawLineEx(at(0.2, 0.52), at(0.42, 0.75), 2.5, ink)
		rl.DrawLineEx(at(0.42, 0.75), at(0.8, 0.25), 2.5, ink)
	}
	return *v != old
}

// Slider is a labelled slider over [lo, hi] on one row, its value printed
// with format (e.g. "%.2f s") over the bar; the value is clamped to the
// range. Right-click resets it to its default (Panel.Reset); a
// double-click, or Enter while hovering it, lets the user type a value.
// It reports a change.
func (p *Panel) Slider(label string, v *float32, lo, hi float32, format string) bool {
	p.bind(v)
	return p.slider(label, v, v, lo, hi, func() string { return fmt.Sprintf(format, *v) })
}

// SliderText is Slider with a caption of the caller's instead of the value.
// The slider may edit a stand-in for the setting (a log of it, a rate for a
// period): setting is what right-click resets and a section's reset
// button covers (nil: v itself); typed values are values of v.
func (p *Panel) SliderText(label string, v *float32, lo, hi float32, text string) bool {
	return p.slider(label, v, nil, lo, hi, func() string { return text })
}

// SliderFor is SliderText for a slider that stands in for setting.
func (p *Panel) SliderFor(setting any, label string, v *float32, lo, hi float32, text string) bool {
	p.bind(setting)
	return p.slider(label, v, setting, lo, hi, func() string { return text })
}

// edit is the one text field the user may be typing in: a slider's value.
var edit struct {
	target *float32 // the slider's value being typed, nil when none
	text   string
	lastAt float64 // UI time (s, Now) and slider of the last click, for double-clicks
	lastOn *float32
}

// Typing reports whether the user is typing in a text field: the App then
// runs no key actions (and Esc cancels the field instead of quitting).
func Typing() bool { return edit.target != nil }

func (p *Panel) slider(label string, v *float32, setting any, lo, hi float32, text func() string) bool {
	r := p.row(Row - 4)
	lw := r.Width * 0.42
	p.label(label, r, lw-4, color.RGBA{200, 204, 212, 255})
	s := rl.Rectangle{X: r.X + lw, Y: r.Y, Width: r.Width - lw, Height: r.Height}
	old := *v
	m := rl.GetMousePosition()
	hover := !p.locked && !gui.IsLocked() && rl.CheckCollisionPointRec(m, s)
	if edit.target == v {
		p.typeValue(v, lo, hi, s)
		return *v != old
	}
	if hover && rl.IsMouseButtonPressed(rl.MouseButtonRight) && setting != nil && p.Reset != nil {
		p.Reset(setting)
	}
	if hover && rl.IsMouseButtonPressed(rl.MouseButtonLeft) {
		now := Now()
		if edit.lastOn == v && now-edit.lastAt < DoubleClick {
			edit.target, edit.text = v, strconv.FormatFloat(float64(*v), 'g', 5, 32)
		}
		edit.lastAt, edit.lastOn = now, v
	}
	if hover && rl.IsKeyPressed(rl.KeyEnter) {
		edit.target, edit.text = v, strconv.FormatFloat(float64(*v), 'g', 5, 32)
	}
	if edit.target != v {
		gui.SliderBar(s, "", "", v, lo, hi)
	}
	*v = ClampSetting(*v, lo, hi) // NaN from a bad default: lo
	val := text()
	tw := Measure(val, TextSize)
	DrawTextIn(val, s.X+s.Width-tw-4, s.Y+(s.Height-TextSize)/2, TextSize, color.RGBA{250, 250, 250, 255},
		rl.Rectangle{X: s.X, Y: s.Y - 2, Width: s.Width, Height: s.Height + 4})
	return *v != old
}

// typeValue draws the text field over slider s and applies the typed value
// on Enter (clamped to [lo, hi]); Esc or a click elsewhere cancels.
func (p *Panel) typeValue(v *float32, lo, hi float32, s rl.Rectangle) {
	done := false
	// A locked panel (under an overlay, or a frame drawn again) shows the
	// field but takes no keys: a Backspace must delete one character.
	if !p.locked && !gui.IsLocked() {
		for c := rl.GetCharPressed(); c > 0; c = rl.GetCharPressed() {
			if strings.ContainsRune("0123456789.-+eE", c) && len(edit.text) < 16 {
				edit.text += string(c)
			}
		}
		if rl.IsKeyPressed(rl.KeyBackspace) && edit.text != "" {
			edit.text = edit.text[:len(edit.text)-1]
		}
		if rl.IsKeyPressed(rl.KeyEnter) || rl.IsKeyPressed(rl.KeyKpEnter) {
			if x, err := strconv.ParseFloat(strings.TrimSpace(edit.text), 32); err == nil && x == x {
				*v = mathx.Clamp(float32(x), lo, hi)
			}
			done = true
		}
		if rl.IsKeyPressed(rl.KeyEscape) || (rl.IsMouseButtonPressed(rl.MouseButtonLeft) && !rl.CheckCollisionPointRec(rl.GetMousePosition(), s)) {
			done = true
		}
	}
	rl.DrawRectangleRec(s, color.RGBA{12, 14, 18, 255})
	rl.DrawRectangleLinesEx(s, 1, color.RGBA{170, 200, 240, 255})
	caret := ""
	if int(Now()*2)%2 == 0 { // on half a second, off half a second
		caret = "_"
	}
	DrawTextIn(edit.text+caret, s.X+4, s.Y+(s.Height-TextSize)/2, TextSize, color.RGBA{250, 250, 250, 255},
		rl.Rectangle{X: s.X, Y: s.Y - 2, Width: s.Width, Height: s.Height + 4})
	if done {
		edit.target = nil
	}
}

// Choice is a set of mutually exclusive toggles, perRow to a row (fewer
// when a caption would not fit; a caption wider than the panel, such as a
// loaded clip's name, is shortened in its middle and shown whole on
// hover); it reports a change.
func (p *Panel) Choice(options []string, perRow int, v *int32) bool {
	p.bind(v)
	old := *v
	p.grid(options, perRow, int(*v), func(i int, b rl.Rectangle, text string) {
		on := *v == int32(i)
		gui.Toggle(b, text, &on)
		if on && *v != int32(i) {
			*v = int32(i)
		}
	})
	return *v != old
}

// Select is Choice for a choice the caller makes: toggles laid out as
// Choice does, the one at active shown on (-1: none), that change
// nothing; it returns the index of the one clicked, or -1, for the caller
// to ask for (a lab's clip list: the playing clip lit, a click asks to
// play another).
func (p *Panel) Select(texts []string, perRow int, active int) int {
	hit := -1
	p.grid(texts, perRow, active, func(i int, b rl.Rectangle, text string) {
		on := i == active
		if gui.Toggle(b, text, &on); on != (i == active) {
			hit = i
		}
	})
	return hit
}

// Disabled is Select drawn dimmed and taking no input (raygui's
// disabled state), with why on one line under it in dim text, clipped to
// the panel and whole on hover: a choice that cannot apply now (a lab's
// learned controller on a database its networks were not trained on).
func (p *Panel) Disabled(texts []string, perRow, active int, why string) {
	gui.Disable()
	p.Select(texts, perRow, active)
	gui.Enable()
	r := p.row(Row - 6)
	line := Clip(why, r.Width, TextSize)
	p.label(line, r, r.Width, color.RGBA{160, 166, 178, 255})
	if line != why {
		Tip(r, why)
	}
}

// grid lays out cells for texts, at most perRow to a row and only as many
// as fit their captions, and calls draw for each; the cell at active (-1:
// none) is recorded as on.
func (p *Panel) grid(texts []string, perRow, active int, draw func(i int, b rl.Rectangle, text string)) {
	const gap = 3
	full := p.W - 16
	fits := func(i, n int) bool {
		w := (full - float32(n-1)*gap) / float32(n)
		return Measure(texts[i], TextSize)+2*cellMargin <= w
	}
	for i := 0; i < len(texts); {
		n := min(perRow, len(texts)-i)
		for n > 1 {
			ok := true
			for k := i; k < i+n; k++ {
				ok = ok && fits(k, n)
			}
			if ok {
				break
			}
			n--
		}
		r := p.row(Row)
		w := (r.Width - float32(n-1)*gap) / float32(n)
		for k := 0; k < n; k++ {
			b := rl.Rectangle{X: r.X + float32(k)*(w+gap), Y: r.Y, Width: w, Height: r.Height}
			text := Shorten(texts[i+k], w-2*cellMargin, TextSize)
			recordToggle(text, b, i+k == active)
			draw(i+k, b, text)
			if text != texts[i+k] {
				Tip(b, texts[i+k])
			}
		}
		i += n
	}
}

// cellMargin is the room (units) a caption keeps from each side of its
// widget.
const cellMargin = 4

// Combo is a one-row choice that cycles through options (";"-separated) on
// each click; it reports a change.
func (p *Panel) Combo(options string, v *int32) bool {
	p.bind(v)
	old := *v
	r := p.row(Row)
	for _, o := range strings.Split(options, ";") {
		// raygui keeps room for its selector on the right.
		recordWidget(o, rl.Rectangle{X: r.X, Y: r.Y, Width: r.Width - 40, Height: r.Height})
	}
	gui.ComboBox(r, options, v)
	return *v != old
}

// Note is a message of the panel's width, wrapped (see Wrap: a long name
// is shortened, and shown whole on hover), in colour col, with a close box
// on its first line; it reports a click on the box.
func (p *Panel) Note(text string, col color.RGBA) bool {
	const box = 18
	closed := false
	lines := wrapLines(text, p.W-16-box-6, func(s string) float32 { return Measure(s, TextSize) })
	for i, l := range lines {
		r := p.row(Row - 6)
		p.label(l.text, r, r.Width-box-6, col)
		Tip(rl.Rectangle{X: r.X, Y: r.Y, Width: r.Width - box - 6, Height: r.Height}, l.full)
		if i == 0 {
			b := rl.Rectangle{X: r.X + r.Width - box, Y: r.Y + 1, Width: box, Height: r.Height - 2}
			closed = Button(b, "x")
		}
	}
	return closed
}
