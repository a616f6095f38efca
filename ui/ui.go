// Package ui wraps raygui in the few widgets kinelab's panels use — labelled
// sliders, check boxes, buttons, choices — laid out top to bottom in a panel,
// with one dark style for the whole app. Widgets are immediate mode: they
// draw and return the user's input in the same call, so a panel is the input
// stage of a frame; labs apply the values at their next update.
package ui

import (
	"fmt"
	"image/color"
	"strings"

	gui "github.com/gen2brain/raylib-go/raygui"
	rl "github.com/gen2brain/raylib-go/raylib"
)

// TextSize is the UI text height in pixels (raylib's default font is drawn
// at twice its 10 px base size so glyphs stay crisp).
const TextSize = 20

// Row is the height of one widget row in pixels.
const Row = 26

func packed(c color.RGBA) gui.PropertyValue {
	return gui.PropertyValue(int64(uint32(c.R)<<24 | uint32(c.G)<<16 | uint32(c.B)<<8 | uint32(c.A)))
}

// SetStyle installs kinelab's dark raygui style; call once after InitWindow.
func SetStyle() {
	gui.LoadStyleDefault()
	set := func(p gui.PropertyID, c color.RGBA) { gui.SetStyle(gui.DEFAULT, p, packed(c)) }
	set(gui.BORDER_COLOR_NORMAL, color.RGBA{90, 96, 108, 255})
	set(gui.BASE_COLOR_NORMAL, color.RGBA{44, 47, 55, 255})
	set(gui.TEXT_COLOR_NORMAL, color.RGBA{220, 223, 228, 255})
	set(gui.BORDER_COLOR_FOCUSED, color.RGBA{130, 170, 220, 255})
	set(gui.BASE_COLOR_FOCUSED, color.RGBA{56, 62, 74, 255})
	set(gui.TEXT_COLOR_FOCUSED, color.RGBA{240, 242, 246, 255})
	set(gui.BORDER_COLOR_PRESSED, color.RGBA{170, 200, 240, 255})
	set(gui.BASE_COLOR_PRESSED, color.RGBA{70, 100, 150, 255})
	set(gui.TEXT_COLOR_PRESSED, color.RGBA{250, 250, 252, 255})
	set(gui.BORDER_COLOR_DISABLED, color.RGBA{70, 72, 78, 255})
	set(gui.BASE_COLOR_DISABLED, color.RGBA{40, 42, 48, 255})
	set(gui.TEXT_COLOR_DISABLED, color.RGBA{110, 112, 118, 255})
	set(gui.LINE_COLOR, color.RGBA{90, 96, 108, 255})
	set(gui.BACKGROUND_COLOR, color.RGBA{26, 28, 33, 235})
	gui.SetStyle(gui.DEFAULT, gui.TEXT_SIZE, TextSize)
	gui.SetStyle(gui.DEFAULT, gui.TEXT_SPACING, 2)
}

// Panel is a column of widgets in a translucent box. Keep one per screen
// region across frames: it remembers last frame's height to draw its
// background before the widgets of this frame are known. A panel taller
// than MaxH shows a window of its content that Scroll moves.
type Panel struct {
	X, Y, W float32 // top-left corner and width (px)
	Title   string
	MaxH    float32 // visible height (px); 0: no limit
	Scroll  float32 // px of content scrolled out above the top
	height  float32 // content height last frame (px)
	y       float32
	locked  bool // raygui input is locked for rows out of view
}

// Bounds is the screen rectangle the panel covered last frame, used to keep
// mouse drags over the UI from orbiting the camera.
func (p *Panel) Bounds() rl.Rectangle {
	return rl.Rectangle{X: p.X, Y: p.Y, Width: p.W, Height: p.visible()}
}

// visible is the height of the panel on screen (px).
func (p *Panel) visible() float32 {
	h := p.height
	if h == 0 {
		h = 2 * Row
	}
	if p.MaxH > 0 {
		h = min(h, p.MaxH)
	}
	return h
}

// ScrollBy moves the content by wheel notches (a mouse wheel over the panel).
func (p *Panel) ScrollBy(wheel float32) {
	p.Scroll = max(0, min(p.height-p.visible(), p.Scroll-wheel*3*Row))
}

// Begin draws the background and title and starts the column.
func (p *Panel) Begin() {
	h := p.visible()
	rl.DrawRectangleRec(rl.Rectangle{X: p.X, Y: p.Y, Width: p.W, Height: h}, color.RGBA{22, 24, 29, 215})
	rl.DrawRectangleLinesEx(rl.Rectangle{X: p.X, Y: p.Y, Width: p.W, Height: h}, 1, color.RGBA{70, 76, 88, 255})
	p.Scroll = max(0, min(p.Scroll, p.height-h))
	rl.BeginScissorMode(int32(p.X), int32(p.Y), int32(p.W), int32(h))
	p.y = p.Y + 6 - p.Scroll
	if p.Title != "" {
		p.Header(p.Title)
	}
}

// End closes the column, records its height for the next frame and, when
// the content is taller than the panel, draws where the view is in it.
func (p *Panel) End() {
	if p.locked {
		gui.Unlock()
		p.locked = false
	}
	rl.EndScissorMode()
	p.height = p.y + p.Scroll - p.Y + 4
	if h := p.visible(); p.height > h+1 {
		bar := h * h / p.height
		at := p.Y + (h-bar)*p.Scroll/(p.height-h)
		rl.DrawRectangleRec(rl.Rectangle{X: p.X + p.W - 5, Y: at, Width: 3, Height: bar}, color.RGBA{130, 140, 160, 255})
	}
}

// row lays out the next widget; rows scrolled out of view still take their
// place but get no input.
func (p *Panel) row(h float32) rl.Rectangle {
	r := rl.Rectangle{X: p.X + 8, Y: p.y, Width: p.W - 16, Height: h}
	p.y += h + 4
	out := r.Y < p.Y || r.Y+r.Height > p.Y+p.visible()
	if out != p.locked {
		if out {
			gui.Lock()
		} else {
			gui.Unlock()
		}
		p.locked = out
	}
	return r
}

// Header is a bold line of text that starts a group of widgets.
func (p *Panel) Header(text string) {
	r := p.row(Row - 4)
	rl.DrawText(text, int32(r.X), int32(r.Y+2), TextSize, color.RGBA{255, 214, 120, 255})
}

// Text is a plain line of text.
func (p *Panel) Text(text string) {
	r := p.row(Row - 6)
	rl.DrawText(text, int32(r.X), int32(r.Y+1), TextSize, color.RGBA{200, 204, 212, 255})
}

// Paragraph is text wrapped at word breaks to the panel's width, one row
// per line, in a dimmer colour than Text: notes and explanations. A word
// longer than the width is cut at the edge.
func (p *Panel) Paragraph(text string) {
	width := int32(p.W - 16)
	line := ""
	flush := func() {
		r := p.row(Row - 6)
		rl.DrawText(line, int32(r.X), int32(r.Y+1), TextSize, color.RGBA{160, 166, 178, 255})
		line = ""
	}
	for _, w := range strings.Fields(text) {
		try := w
		if line != "" {
			try = line + " " + w
		}
		if line != "" && rl.MeasureText(try, TextSize) > width {
			flush()
			try = w
		}
		line = try
	}
	if line != "" {
		flush()
	}
}

// Gap adds vertical space (px).
func (p *Panel) Gap(h float32) { p.y += h }

// Button is a full-width push button; it reports a click.
func (p *Panel) Button(text string) bool { return gui.Button(p.row(Row), text) }

// Buttons lays out n equal buttons on one row and returns the index of the
// one clicked, or -1.
func (p *Panel) Buttons(texts ...string) int {
	r := p.row(Row)
	w := (r.Width - float32(len(texts)-1)*4) / float32(len(texts))
	hit := -1
	for i, t := range texts {
		b := rl.Rectangle{X: r.X + float32(i)*(w+4), Y: r.Y, Width: w, Height: r.Height}
		if gui.Button(b, t) {
			hit = i
		}
	}
	return hit
}

// Check is a check box with its label; it reports a change.
func (p *Panel) Check(text string, v *bool) bool {
	r := p.row(Row - 4)
	old := *v
	b := rl.Rectangle{X: r.X, Y: r.Y + 1, Width: r.Height - 2, Height: r.Height - 2}
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
// range. It reports a change.
func (p *Panel) Slider(label string, v *float32, lo, hi float32, format string) bool {
	return p.slider(label, v, lo, hi, func() string { return fmt.Sprintf(format, *v) })
}

// SliderText is Slider with a caption of the caller's instead of the value.
func (p *Panel) SliderText(label string, v *float32, lo, hi float32, text string) bool {
	return p.slider(label, v, lo, hi, func() string { return text })
}

func (p *Panel) slider(label string, v *float32, lo, hi float32, text func() string) bool {
	r := p.row(Row - 4)
	lw := r.Width * 0.42
	rl.DrawText(label, int32(r.X), int32(r.Y+2), TextSize, color.RGBA{200, 204, 212, 255})
	s := rl.Rectangle{X: r.X + lw, Y: r.Y, Width: r.Width - lw, Height: r.Height}
	old := *v
	gui.SliderBar(s, "", "", v, lo, hi)
	*v = max(lo, min(hi, *v))
	val := text()
	tw := float32(rl.MeasureText(val, TextSize))
	rl.DrawText(val, int32(s.X+s.Width-tw-4), int32(r.Y+2), TextSize, color.RGBA{250, 250, 250, 255})
	return *v != old
}

// Section is a header that opens and closes the group of widgets under it;
// it returns whether the group is open (the caller lays it out only then).
func (p *Panel) Section(title string, open *bool) bool {
	r := p.row(Row - 4)
	mark := "+ "
	if *open {
		mark = "- "
	}
	hover := rl.CheckCollisionPointRec(rl.GetMousePosition(), r) && !p.locked
	col := color.RGBA{255, 214, 120, 255}
	if hover {
		col = color.RGBA{255, 236, 180, 255}
		if rl.IsMouseButtonPressed(rl.MouseButtonLeft) {
			*open = !*open
		}
	}
	rl.DrawText(mark+title, int32(r.X), int32(r.Y+2), TextSize, col)
	return *open
}

// Choice is a set of mutually exclusive toggles, perRow to a row; it
// reports a change.
func (p *Panel) Choice(options []string, perRow int, v *int32) bool {
	old := *v
	var r rl.Rectangle
	w := float32(0)
	for i, o := range options {
		if i%perRow == 0 {
			r = p.row(Row)
			n := min(perRow, len(options)-i)
			w = (r.Width - float32(n-1)*3) / float32(n)
		}
		b := rl.Rectangle{X: r.X + float32(i%perRow)*(w+3), Y: r.Y, Width: w, Height: r.Height}
		on := *v == int32(i)
		gui.Toggle(b, o, &on)
		if on && *v != int32(i) {
			*v = int32(i)
		}
	}
	return *v != old
}

// Combo is a one-row choice that cycles through options (";"-separated) on
// each click; it reports a change.
func (p *Panel) Combo(options string, v *int32) bool {
	old := *v
	gui.ComboBox(p.row(Row), options, v)
	return *v != old
}
