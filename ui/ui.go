// Package ui wraps raygui in the few widgets kinelab's panels use — labelled
// sliders, check boxes, buttons, choices — laid out top to bottom in a panel,
// with one dark style for the whole app. Widgets are immediate mode: they
// draw and return the user's input in the same call, so a panel is the input
// stage of a frame; labs apply the values at their next update.
//
// Everything is laid out in UI units that Scale makes pixels, and text is
// drawn from a TrueType font at its pixel size (text.go). While recording
// (Record), each widget, line of text, panel row and block is listed with
// its rectangle, for the test that the UI fits every screen (record.go).
package ui

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	gui "github.com/gen2brain/raylib-go/raygui"
	rl "github.com/gen2brain/raylib-go/raylib"
)

// TextSize is the UI text height in units (see Scale); SmallText is the
// size of secondary text: axis labels, table cells, captions.
const (
	TextSize  = 18
	SmallText = 15
)

// Row is the height of one widget row in units.
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
	// A focused or dragged slider bar is drawn in the text colour by
	// default: the value printed over it went white on white.
	gui.SetStyle(gui.SLIDER, gui.TEXT_COLOR_FOCUSED, packed(color.RGBA{86, 124, 180, 255}))
	gui.SetStyle(gui.SLIDER, gui.TEXT_COLOR_PRESSED, packed(color.RGBA{96, 140, 200, 255}))
	gui.SetStyle(gui.DEFAULT, gui.TEXT_SIZE, TextSize)
	gui.SetStyle(gui.DEFAULT, gui.TEXT_SPACING, 0)
}

// Panel is a column of widgets in a translucent box. Keep one per screen
// region across frames: it remembers last frame's height to draw its
// background before the widgets of this frame are known. A panel taller
// than MaxH shows a window of its content that Scroll moves. Geometry is
// in UI units.
type Panel struct {
	X, Y, W float32 // top-left corner and width
	Title   string
	MaxH    float32 // visible height; 0: no limit
	Scroll  float32 // content scrolled out above the top
	// Reset, if set, puts the value at ptr (a pointer to a setting) back
	// to its default and reports whether it knew one: right-click on a
	// slider and a section's reset button use it.
	Reset func(ptr any) bool
	// Modal locks the panel's widgets: an overlay (a file browser) is open
	// over it and takes the mouse.
	Modal bool

	height    float32 // content height last frame
	y         float32
	locked    bool // raygui input is locked for rows out of view
	firstRow  int  // index of this frame's first recorded row
	section   string
	bound     map[string][]any // settings each section's widgets edited last frame
	boundNext map[string][]any
}

// Bounds is the screen rectangle the panel covered last frame, used to keep
// mouse drags over the UI from orbiting the camera.
func (p *Panel) Bounds() rl.Rectangle {
	return rl.Rectangle{X: p.X, Y: p.Y, Width: p.W, Height: p.visible()}
}

// visible is the height of the panel on screen.
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

// maxScroll is how far the content can scroll.
func (p *Panel) maxScroll() float32 { return max(0, p.height-p.visible()) }

// ScrollBy moves the content by wheel notches (a mouse wheel over the panel).
func (p *Panel) ScrollBy(wheel float32) {
	p.Scroll = max(0, min(p.maxScroll(), p.Scroll-wheel*3*Row))
}

// Begin draws the background and title and starts the column.
func (p *Panel) Begin() {
	h := p.visible()
	r := rl.Rectangle{X: p.X, Y: p.Y, Width: p.W, Height: h}
	BeginBlock(KindPanel, p.Title, r)
	rl.DrawRectangleRec(r, color.RGBA{22, 24, 29, 215})
	rl.DrawRectangleLinesEx(r, 1, color.RGBA{70, 76, 88, 255})
	p.Scroll = max(0, min(p.Scroll, p.maxScroll()))
	BeginScissor(r)
	p.y = p.Y + 6 - p.Scroll
	p.firstRow = len(rec.items)
	p.section = ""
	if p.boundNext == nil {
		p.bound, p.boundNext = map[string][]any{}, map[string][]any{}
	}
	for k, v := range p.boundNext {
		p.boundNext[k] = v[:0]
	}
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
	p.bound, p.boundNext = p.boundNext, p.bound
	if rec.on {
		for i := p.firstRow; i < len(rec.items); i++ {
			if it := &rec.items[i]; it.Kind == KindRow && it.Down < 0 {
				it.Up, it.Down = p.Scroll, max(0, p.height-p.visible())-p.Scroll
			}
		}
	}
	if h := p.visible(); p.height > h+1 {
		bar := h * h / p.height
		at := p.Y + (h-bar)*p.Scroll/(p.height-h)
		rl.DrawRectangleRec(rl.Rectangle{X: p.X + p.W - 5, Y: at, Width: 3, Height: bar}, color.RGBA{130, 140, 160, 255})
	}
	EndBlock()
}

// row lays out the next widget; rows scrolled out of view still take their
// place but get no input.
func (p *Panel) row(h float32) rl.Rectangle {
	r := rl.Rectangle{X: p.X + 8, Y: p.y, Width: p.W - 16, Height: h}
	p.y += h + 4
	out := r.Y < p.Y || r.Y+r.Height > p.Y+p.visible() || p.Modal
	if out != p.locked {
		if out {
			gui.Lock()
		} else {
			gui.Unlock()
		}
		p.locked = out
	}
	if rec.on {
		Item{Kind: KindRow, Name: p.Title, Rect: r, Box: p.Bounds(), HasBox: true, Down: -1}.add()
	}
	return r
}

// bind notes that the current section edits the setting at ptr.
func (p *Panel) bind(ptr any) {
	if p.boundNext != nil {
		p.boundNext[p.section] = append(p.boundNext[p.section], ptr)
	}
}

// label draws text in row r, vertically centred, cut to fit w with an
// ellipsis (the fit test still sees the whole text cut: that is a failure).
func (p *Panel) label(text string, r rl.Rectangle, w float32, col color.RGBA) {
	DrawTextIn(text, r.X, r.Y+(r.Height-TextSize)/2, TextSize, col, rl.Rectangle{X: r.X, Y: r.Y - 2, Width: w, Height: r.Height + 4})
}

// Header is a line of text in the heading colour that starts a group of
// widgets, wrapped when it is wider than the panel.
func (p *Panel) Header(text string) {
	for _, line := range Wrap(text, p.W-16, TextSize) {
		r := p.row(Row - 4)
		p.label(line, r, r.Width, color.RGBA{255, 214, 120, 255})
	}
}

// Text is a plain line of text.
func (p *Panel) Text(text string) {
	r := p.row(Row - 6)
	p.label(text, r, r.Width, color.RGBA{200, 204, 212, 255})
}

// Paragraph is text wrapped at word breaks to the panel's width, one row
// per line, in a dimmer colour than Text: notes and explanations. A word
// longer than the width (a path) is broken where it must.
func (p *Panel) Paragraph(text string) {
	p.ParagraphColor(text, color.RGBA{160, 166, 178, 255})
}

// ParagraphColor is Paragraph in colour col.
func (p *Panel) ParagraphColor(text string, col color.RGBA) {
	for _, line := range Wrap(text, p.W-16, TextSize) {
		r := p.row(Row - 6)
		p.label(line, r, r.Width, col)
	}
}

// Wrap breaks text into lines no wider than width units at size: at
// spaces, and inside a word too long for a line.
func Wrap(text string, width, size float32) []string {
	var out []string
	line := ""
	for _, w := range strings.Fields(text) {
		try := w
		if line != "" {
			try = line + " " + w
		}
		if Measure(try, size) <= width {
			line = try
			continue
		}
		if line != "" {
			out = append(out, line)
		}
		line = ""
		for Measure(w, size) > width {
			r := []rune(w)
			n := len(r) - 1
			for n > 1 && Measure(string(r[:n]), size) > width {
				n--
			}
			out = append(out, string(r[:n]))
			w = string(r[n:])
		}
		line = w
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

// Gap adds vertical space.
func (p *Panel) Gap(h float32) { p.y += h }

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
	lastAt float64 // time (s) and slider of the last click, for double-clicks
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
		now := rl.GetTime()
		if edit.lastOn == v && now-edit.lastAt < 0.35 {
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
	*v = max(lo, min(hi, *v))
	if !(*v == *v) { // NaN from a bad default
		*v = lo
	}
	val := text()
	tw := Measure(val, TextSize)
	DrawTextIn(val, s.X+s.Width-tw-4, s.Y+(s.Height-TextSize)/2, TextSize, color.RGBA{250, 250, 250, 255},
		rl.Rectangle{X: s.X, Y: s.Y - 2, Width: s.Width, Height: s.Height + 4})
	return *v != old
}

// typeValue draws the text field over slider s and applies the typed value
// on Enter (clamped to [lo, hi]); Esc or a click elsewhere cancels.
func (p *Panel) typeValue(v *float32, lo, hi float32, s rl.Rectangle) {
	for c := rl.GetCharPressed(); c > 0; c = rl.GetCharPressed() {
		if strings.ContainsRune("0123456789.-+eE", c) && len(edit.text) < 16 {
			edit.text += string(c)
		}
	}
	if rl.IsKeyPressed(rl.KeyBackspace) && edit.text != "" {
		edit.text = edit.text[:len(edit.text)-1]
	}
	done := false
	if rl.IsKeyPressed(rl.KeyEnter) || rl.IsKeyPressed(rl.KeyKpEnter) {
		if x, err := strconv.ParseFloat(strings.TrimSpace(edit.text), 32); err == nil && x == x {
			*v = max(lo, min(hi, float32(x)))
		}
		done = true
	}
	if rl.IsKeyPressed(rl.KeyEscape) || (rl.IsMouseButtonPressed(rl.MouseButtonLeft) && !rl.CheckCollisionPointRec(rl.GetMousePosition(), s)) {
		done = true
	}
	rl.DrawRectangleRec(s, color.RGBA{12, 14, 18, 255})
	rl.DrawRectangleLinesEx(s, 1, color.RGBA{170, 200, 240, 255})
	caret := ""
	if int(rl.GetTime()*2)%2 == 0 {
		caret = "_"
	}
	DrawTextIn(edit.text+caret, s.X+4, s.Y+(s.Height-TextSize)/2, TextSize, color.RGBA{250, 250, 250, 255},
		rl.Rectangle{X: s.X, Y: s.Y - 2, Width: s.Width, Height: s.Height + 4})
	if done {
		edit.target = nil
	}
}

// Section is a header that opens and closes the group of widgets under it;
// it returns whether the group is open (the caller lays it out only then).
// An open section whose widgets edit settings with defaults has a reset
// button at the right of its header.
func (p *Panel) Section(title string, open *bool) bool {
	if openAll {
		*open = true
	}
	r := p.row(Row - 4)
	p.section = title
	mark := "+ "
	if *open {
		mark = "- "
	}
	reset := rl.Rectangle{}
	if *open && p.Reset != nil && len(p.bound[title]) > 0 {
		w := Measure("reset", SmallText) + 10
		reset = rl.Rectangle{X: r.X + r.Width - w, Y: r.Y + 1, Width: w, Height: r.Height - 2}
	}
	head := r
	head.Width -= reset.Width + 4
	m := rl.GetMousePosition()
	live := !p.locked && !gui.IsLocked()
	hover := live && rl.CheckCollisionPointRec(m, head)
	col := color.RGBA{255, 214, 120, 255}
	if hover {
		col = color.RGBA{255, 236, 180, 255}
		if rl.IsMouseButtonPressed(rl.MouseButtonLeft) {
			*open = !*open
		}
	}
	p.label(mark+title, r, head.Width, col)
	if reset.Width > 0 {
		over := live && rl.CheckCollisionPointRec(m, reset)
		bg := color.RGBA{44, 47, 55, 255}
		if over {
			bg = color.RGBA{70, 100, 150, 255}
		}
		rl.DrawRectangleRec(reset, bg)
		DrawTextIn("reset", reset.X+5, reset.Y+(reset.Height-SmallText)/2, SmallText, color.RGBA{200, 204, 212, 255}, reset)
		if over && rl.IsMouseButtonPressed(rl.MouseButtonLeft) {
			for _, ptr := range p.bound[title] {
				p.Reset(ptr)
			}
		}
	}
	return *open
}

// openAll opens every section (the fit test lays out every row).
var openAll bool

// OpenAllSections makes every Section open from now on (for tests that
// must see every row).
func OpenAllSections(on bool) { openAll = on }

// Choice is a set of mutually exclusive toggles, perRow to a row (fewer
// when a caption would not fit; a caption wider than the panel, such as a
// loaded clip's name, is cut with an ellipsis); it reports a change.
func (p *Panel) Choice(options []string, perRow int, v *int32) bool {
	p.bind(v)
	old := *v
	p.grid(options, perRow, func(i int, b rl.Rectangle, text string) {
		on := *v == int32(i)
		gui.Toggle(b, text, &on)
		if on && *v != int32(i) {
			*v = int32(i)
		}
	})
	return *v != old
}

// ButtonGrid lays out buttons perRow to a row, as Choice does, and returns
// the index of the one clicked, or -1.
func (p *Panel) ButtonGrid(texts []string, perRow int) int {
	hit := -1
	p.grid(texts, perRow, func(i int, b rl.Rectangle, text string) {
		if gui.Button(b, text) {
			hit = i
		}
	})
	return hit
}

// grid lays out cells for texts, at most perRow to a row and only as many
// as fit their captions, and calls draw for each.
func (p *Panel) grid(texts []string, perRow int, draw func(i int, b rl.Rectangle, text string)) {
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
			text := Clip(texts[i+k], w-2*cellMargin, TextSize)
			recordWidget(text, b)
			draw(i+k, b, text)
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

// Note is a message of the panel's width, wrapped, in colour col, with a
// close box on its first line; it reports a click on the box.
func (p *Panel) Note(text string, col color.RGBA) bool {
	const box = 18
	closed := false
	for i, line := range Wrap(text, p.W-16-box-6, TextSize) {
		r := p.row(Row - 6)
		p.label(line, r, r.Width-box-6, col)
		if i == 0 {
			b := rl.Rectangle{X: r.X + r.Width - box, Y: r.Y + 1, Width: box, Height: r.Height - 2}
			closed = Button(b, "x")
		}
	}
	return closed
}

// Button is a push button at r outside a panel; it reports a click.
func Button(r rl.Rectangle, text string) bool {
	recordWidget(text, r)
	return gui.Button(r, text)
}

// Toggles is a row of mutually exclusive toggles filling r; it reports a
// change of v.
func Toggles(r rl.Rectangle, options []string, v *int32) bool {
	old := *v
	w := (r.Width - float32(len(options)-1)*3) / float32(len(options))
	for i, o := range options {
		b := rl.Rectangle{X: r.X + float32(i)*(w+3), Y: r.Y, Width: w, Height: r.Height}
		recordWidget(o, b)
		on := *v == int32(i)
		gui.Toggle(b, o, &on)
		if on && *v != int32(i) {
			*v = int32(i)
		}
	}
	return *v != old
}

// SliderBar is a bare slider at r over [lo, hi] with text printed on it;
// it reports a change.
func SliderBar(r rl.Rectangle, v *float32, lo, hi float32, text string) bool {
	old := *v
	gui.SliderBar(r, "", "", v, lo, hi)
	*v = max(lo, min(hi, *v))
	tw := Measure(text, TextSize)
	DrawTextIn(text, r.X+r.Width-tw-4, r.Y+(r.Height-TextSize)/2, TextSize, color.RGBA{250, 250, 250, 255},
		rl.Rectangle{X: r.X, Y: r.Y - 2, Width: r.Width, Height: r.Height + 4})
	return *v != old
}
