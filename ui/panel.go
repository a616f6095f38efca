package ui

import (
	"image/color"
	"strings"

	gui "github.com/gen2brain/raylib-go/raygui"
	rl "github.com/gen2brain/raylib-go/raylib"
)

// The panel: a scrolling column of rows with a title, sections that open
// and close with a reset button, and lines of text.

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
	laidH     float32 // the height this frame's Begin laid the panel out with
	toEnd     bool    // scroll to the end once the content's height is known
	mark      float32 // where last frame's Mark was in the content, or -1
	markNext  float32 // this frame's
	laidMark  float32 // the mark this frame's Begin scrolled to
	y         float32
	locked    bool // raygui input is locked for rows out of view
	hidden    bool // the current row is cut by the panel's edge: not drawn
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

// ScrollToEnd shows the end of the content (the newest message) from the
// next frame on, as soon as the content's height is known: a Scroll set
// past the end would be clamped to last frame's, shorter, content. When
// what follows the last Mark does not fit, it shows its top instead (the
// start of a long message, which names its file).
func (p *Panel) ScrollToEnd() { p.toEnd = true }

// ScrollToTop shows the start of the content from the next frame on, in
// place of a ScrollToEnd asked for before.
func (p *Panel) ScrollToTop() { p.Scroll, p.toEnd = 0, false }

// Mark notes that the next row starts what ScrollToEnd must show first.
func (p *Panel) Mark() { p.markNext = p.y + p.Scroll - p.Y - 6 }

// Moved reports whether the frame just drawn laid the panel out from a
// height its content no longer has (its first frame, a section opened, a
// message added), or has yet to scroll to the end: drawn again, the panel
// would look different.
func (p *Panel) Moved() bool {
	return p.height != p.laidH || p.toEnd
}

// Begin draws the background and title and starts the column.
func (p *Panel) Begin() {
	p.laidH, p.laidMark = p.height, p.mark
	if p.toEnd {
		p.Scroll = p.maxScroll()
		if p.mark >= 0 {
			p.Scroll = min(p.Scroll, p.mark)
		}
	}
	h := p.visible()
	r := rl.Rectangle{X: p.X, Y: p.Y, Width: p.W, Height: h}
	BeginBlock(KindPanel, p.Title, r)
	rl.DrawRectangleRec(r, color.RGBA{22, 24, 29, 215})
	rl.DrawRectangleLinesEx(r, 1, color.RGBA{70, 76, 88, 255})
	p.Scroll = max(0, min(p.Scroll, p.maxScroll()))
	BeginScissor(r)
	p.hidden = false
	p.y = p.Y + 6 - p.Scroll
	p.markNext = -1
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
	p.mark = p.markNext
	if p.toEnd && p.height == p.laidH && p.mark == p.laidMark {
		p.toEnd = false // scrolled where the content now says
	}
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

// row lays out the next widget; rows scrolled out of view, even in part,
// still take their place but are not drawn and get no input.
func (p *Panel) row(h float32) rl.Rectangle {
	r := rl.Rectangle{X: p.X + 8, Y: p.y, Width: p.W - 16, Height: h}
	p.y += h + 4
	cut := r.Y < p.Y || r.Y+r.Height > p.Y+p.visible()
	if cut != p.hidden {
		// A row the panel's edge would cut is not drawn at all: a line of
		// a message shows whole or not (the scroll bar says there is more).
		if cut {
			rl.BeginScissorMode(0, 0, 0, 0) // BeginScissor rounds out: a pixel would show
		} else {
			BeginScissor(rl.Rectangle{X: p.X, Y: p.Y, Width: p.W, Height: p.visible()})
		}
		p.hidden = cut
	}
	out := cut || p.Modal
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
// widgets (the panel's title), wrapped when it is wider than the panel
// (see Wrap: a long name is shortened, and shown whole on hover).
func (p *Panel) Header(text string) {
	p.wrapped(text, Row-4, color.RGBA{255, 214, 120, 255})
}

// Text is a plain line of text.
func (p *Panel) Text(text string) {
	r := p.row(Row - 6)
	p.label(text, r, r.Width, color.RGBA{200, 204, 212, 255})
}

// Paragraph is text wrapped at word breaks to the panel's width, one row
// per line, in a dimmer colour than Text: notes and explanations. A word
// longer than the width is wrapped as Wrap says (a path after its slashes,
// a long name shortened and shown whole on hover).
func (p *Panel) Paragraph(text string) {
	p.ParagraphColor(text, color.RGBA{160, 166, 178, 255})
}

// ParagraphColor is Paragraph in colour col.
func (p *Panel) ParagraphColor(text string, col color.RGBA) {
	p.wrapped(text, Row-6, col)
}

// Wrap breaks text into lines no wider than width units at size: at
// spaces; a word too long for a line is broken after the slashes of a
// path, and what is still too long (a long file name) is shortened in its
// middle (Shorten) rather than broken inside a word.
func Wrap(text string, width, size float32) []string {
	var out []string
	for _, l := range wrapLines(text, width, func(s string) float32 { return Measure(s, size) }) {
		out = append(out, l.text)
	}
	return out
}

// line is a line of wrapped text; full is the word shortened to make it,
// if any (its tip).
type line struct{ text, full string }

// wrapLines is Wrap for text measured by measure (units), saying which
// lines shortened a word.
func wrapLines(text string, width float32, measure func(string) float32) []line {
	var out []line
	cur := ""
	flush := func() {
		if cur != "" {
			out = append(out, line{text: cur})
		}
		cur = ""
	}
	for _, w := range strings.Fields(text) {
		try := w
		if cur != "" {
			try = cur + " " + w
		}
		if measure(try) <= width {
			cur = try
			continue
		}
		flush()
		if measure(w) <= width {
			cur = w
			continue
		}
		for _, part := range strings.SplitAfter(w, "/") {
			if cur != "" && measure(cur+part) <= width {
				cur += part
				continue
			}
			flush()
			if measure(part) <= width {
				cur = part
				continue
			}
			out = append(out, line{text: shorten(part, width, measure), full: part})
		}
	}
	flush()
	return out
}

// wrapped lays out text wrapped to the panel's width, one row a line in
// colour col, each shortened word whole on hover.
func (p *Panel) wrapped(text string, rowH float32, col color.RGBA) {
	for _, l := range wrapLines(text, p.W-16, func(s string) float32 { return Measure(s, TextSize) }) {
		r := p.row(rowH)
		p.label(l.text, r, r.Width, col)
		Tip(r, l.full)
	}
}

// Gap adds vertical space.
func (p *Panel) Gap(h float32) { p.y += h }

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
