package ui

import (
	"image/color"
	"math"
	"strings"

	gui "github.com/gen2brain/raylib-go/raygui"
	rl "github.com/gen2brain/raylib-go/raylib"
	"golang.org/x/image/font/gofont/goregular"
)

// The UI is laid out in UI units: one unit is Scale() pixels. The App
// draws the 2D pass under a Camera2D zoomed by the scale and sets raylib's
// mouse scale to match, so panels, plots and readouts are written once in
// units and fit any window; text is drawn from a TrueType font rasterised
// at the pixel size it lands on, so it stays sharp at every scale (the
// scale is the one piece of state raygui and raylib's text keep globally,
// so it is kept here too).
var theme = struct {
	scale float32
	fonts map[int32]rl.Font // by pixel size
}{scale: 1}

// glyphs is what the UI draws: printable ASCII and the few symbols used.
var glyphs = func() []rune {
	var r []rune
	for c := rune(32); c < 127; c++ {
		r = append(r, c)
	}
	return append(r, '±', '²', '°', '·', '×', '…')
}()

// Scale is the size of one UI unit in pixels.
func Scale() float32 { return theme.scale }

// AutoScale is the UI scale for a window of w x h pixels on a monitor whose
// DPI scale is dpi: the UI is laid out for 1280x720 and grows with the
// window (it fills a 1920x1080 or a 3840x2160 window the same way), shrinks
// a little for small windows, and is never smaller than the monitor's DPI
// scale asks for.
func AutoScale(w, h int32, dpi float32) float32 {
	s := min(float32(w)/1280, float32(h)/720)
	s = max(0.75, min(4, s))
	if dpi > 1 && dpi < 8 {
		s = max(s, dpi)
	}
	return s
}

// SetScale makes one UI unit s pixels (clamped to 0.5-6): raygui's font,
// text size and the mouse scale follow. Call with the window open.
func SetScale(s float32) {
	if !(s >= 0.5) {
		s = 0.5
	}
	s = min(s, 6)
	if s == theme.scale && theme.fonts != nil {
		return
	}
	old := theme.fonts
	theme.scale, theme.fonts = s, map[int32]rl.Font{}
	gui.SetFont(font(TextSize))
	gui.SetStyle(gui.DEFAULT, gui.TEXT_SIZE, TextSize)
	gui.SetStyle(gui.DEFAULT, gui.TEXT_SPACING, 0)
	rl.SetMouseScale(1/s, 1/s)
	for _, f := range old {
		rl.UnloadFont(f)
	}
}

// Unload frees the fonts; call before the window closes.
func Unload() {
	for _, f := range theme.fonts {
		rl.UnloadFont(f)
	}
	theme.fonts = nil
	theme.scale = 1
}

// font returns the font for text of size units, rasterised at its pixel size.
func font(size float32) rl.Font {
	px := int32(math.Round(float64(size * theme.scale)))
	px = max(6, px)
	if f, ok := theme.fonts[px]; ok {
		return f
	}
	if theme.fonts == nil || !rl.IsWindowReady() {
		return rl.GetFontDefault()
	}
	f := rl.LoadFontFromMemory(".ttf", goregular.TTF, px, glyphs)
	rl.SetTextureFilter(f.Texture, rl.FilterBilinear)
	theme.fonts[px] = f
	return f
}

// Measure is the width (units) of text drawn at size units.
func Measure(text string, size float32) float32 {
	if text == "" {
		return 0
	}
	return rl.MeasureTextEx(font(size), text, size, 0).X
}

// snap rounds a coordinate (units) to a whole pixel, so glyphs land on the
// pixel grid of their atlas.
func snap(x float32) float32 { return float32(math.Round(float64(x*theme.scale))) / theme.scale }

// DrawText draws text with its top-left at (x, y) units, size units tall.
// It is recorded (see Record) as a line that must fit the innermost block
// being drawn (BeginBlock), or the screen.
func DrawText(text string, x, y, size float32, col color.RGBA) {
	drawText(text, x, y, size, col, nil)
}

// DrawTextIn is DrawText for text that must fit box (a table cell, a
// widget, a caption box): the fit test checks it against box.
func DrawTextIn(text string, x, y, size float32, col color.RGBA, box rl.Rectangle) {
	drawText(text, x, y, size, col, &box)
}

func drawText(text string, x, y, size float32, col color.RGBA, box *rl.Rectangle) {
	if text == "" {
		return
	}
	x, y = snap(x), snap(y)
	rl.DrawTextEx(font(size), text, rl.Vector2{X: x, Y: y}, size, 0, col)
	if rec.on {
		recordText(text, rl.Rectangle{X: x, Y: y, Width: Measure(text, size), Height: size}, box)
	}
}

// Fit returns the first of texts that fits width units at size, or the
// last one cut with an ellipsis.
func Fit(width, size float32, texts ...string) string {
	for _, s := range texts {
		if Measure(s, size) <= width {
			return s
		}
	}
	return Clip(texts[len(texts)-1], width, size)
}

// Shorten fits a name to width units at size by cutting out its middle:
// it keeps the start and the end with an ellipsis between
// ("03_rokoko…offset_fingers"), so names that differ at either end stay
// apart, and returns text that fits whole. Where it shortens a name, the
// caller shows the whole on hover (Tip).
func Shorten(text string, width, size float32) string {
	return shorten(text, width, func(s string) float32 { return Measure(s, size) })
}

// shorten is Shorten for text measured by measure (units): about as many
// runes kept as fit, half from each end, the cut moved to word breaks
// ('_', '-', '.', ' ', '/') where that loses at most three runes more.
func shorten(text string, width float32, measure func(string) float32) string {
	if measure(text) <= width {
		return text
	}
	if measure("…") > width {
		return ""
	}
	r := []rune(text)
	cut := func(head, tail int) string { return string(r[:head]) + "…" + string(r[len(r)-tail:]) }
	// Keeping one more rune never makes it narrower: search for the most
	// that fit, split evenly.
	lo, hi := 0, len(r)-1
	for lo < hi {
		n := (lo + hi + 1) / 2
		if measure(cut((n+1)/2, n/2)) <= width {
			lo = n
		} else {
			hi = n - 1
		}
	}
	isBreak := func(c rune) bool { return strings.ContainsRune("_-. /", c) }
	// score is how cleanly a cut keeping head and tail runes falls: one for
	// a head that ends a word and one for a tail that starts one, less one
	// for each that keeps a dangling break next to the ellipsis.
	score := func(head, tail int) int {
		s := 0
		if isBreak(r[head]) {
			s++
		}
		if isBreak(r[len(r)-tail-1]) {
			s++
		}
		if head > 0 && isBreak(r[head-1]) {
			s--
		}
		if tail > 0 && isBreak(r[len(r)-tail]) {
			s--
		}
		return s
	}
	// From the even split outwards, up to a quarter of the runes kept
	// either way, keeping up to three runes fewer than fit: the first cut
	// that falls cleanly at both ends, else at one; else the even one.
	best := func(n, want int) (string, bool) {
		for d := 0; d <= n/4; d++ {
			for _, head := range []int{(n+1)/2 - d, (n+1)/2 + d} {
				if tail := n - head; head >= 0 && tail >= 0 && score(head, tail) >= want {
					if s := cut(head, tail); measure(s) <= width {
						return s, true
					}
				}
			}
		}
		return "", false
	}
	for want := 2; want >= 1; want-- {
		for n := lo; n >= max(0, lo-3); n-- {
			if s, ok := best(n, want); ok {
				return s
			}
		}
	}
	return cut((lo+1)/2, lo/2)
}

// Clip cuts text to width units at size, ending it with an ellipsis when
// it was cut.
func Clip(text string, width, size float32) string {
	if Measure(text, size) <= width {
		return text
	}
	r := []rune(text)
	for len(r) > 0 && Measure(string(r)+"…", size) > width {
		r = r[:len(r)-1]
	}
	if len(r) == 0 {
		return ""
	}
	return string(r) + "…"
}

// Width and Height are the screen's size in UI units.
func Width() float32 { return float32(rl.GetScreenWidth()) / theme.scale }

// Height is the screen's height in UI units.
func Height() float32 { return float32(rl.GetScreenHeight()) / theme.scale }

// BeginScissor limits drawing to r (units); raylib's scissor takes pixels
// whatever the 2D camera.
func BeginScissor(r rl.Rectangle) {
	s := theme.scale
	x, y := float32(math.Floor(float64(r.X*s))), float32(math.Floor(float64(r.Y*s)))
	w, h := float32(math.Ceil(float64((r.X+r.Width)*s)))-x, float32(math.Ceil(float64((r.Y+r.Height)*s)))-y
	rl.BeginScissorMode(int32(x), int32(y), int32(max(0, w)), int32(max(0, h)))
}

// Caption draws lines of text in a dark box with its top-left at (x, y)
// units: readouts over the 3D scene stay legible. It returns the box, which
// is recorded as a readout (the fit test checks it overlaps no other).
func Caption(name string, x, y, size float32, cols []color.RGBA, lines ...string) rl.Rectangle {
	r := CaptionRect(x, y, size, lines...)
	BeginBlock(KindReadout, name, r)
	rl.DrawRectangleRec(r, color.RGBA{16, 18, 22, 215})
	pad := size * 0.3
	for i, t := range lines {
		c := cols[min(i, len(cols)-1)]
		DrawText(t, r.X+pad, r.Y+pad+float32(i)*size*1.25, size, c)
	}
	EndBlock()
	return r
}

// CaptionRect is the box Caption draws for lines at (x, y).
func CaptionRect(x, y, size float32, lines ...string) rl.Rectangle {
	w := float32(0)
	for _, t := range lines {
		w = max(w, Measure(t, size))
	}
	pad := size * 0.3
	return rl.Rectangle{X: x, Y: y, Width: w + 2*pad, Height: float32(len(lines))*size*1.25 + 2*pad - size*0.25}
}

// DrawTextRotated draws text turned a quarter anticlockwise (reading
// upwards) with its baseline start at (x, y) units: a vertical axis label.
func DrawTextRotated(text string, x, y, size float32, col color.RGBA) {
	if text == "" {
		return
	}
	rl.DrawTextPro(font(size), text, rl.Vector2{X: snap(x), Y: snap(y)}, rl.Vector2{}, -90, size, 0, col)
	if rec.on {
		w := Measure(text, size)
		recordText(text, rl.Rectangle{X: x, Y: y - w, Width: size, Height: w}, nil)
	}
}

// tip is the whole of a shortened name under the mouse this frame (Tip),
// drawn over everything by DrawTip.
var tip string

// Tip shows text, the whole of a name shortened to fit r (units), while
// the mouse is over r and the UI takes input (a modal overlay, or a panel
// row scrolled out of view, locks it); DrawTip draws it.
func Tip(r rl.Rectangle, text string) {
	if text != "" && !gui.IsLocked() && rl.CheckCollisionPointRec(rl.GetMousePosition(), r) {
		tip = text
	}
}

// DrawTip draws the tip asked for this frame (Tip), in a box below and
// right of the mouse and kept on the screen, and clears it. Call it once a
// frame, after everything it must cover; it is recorded as an overlay.
func DrawTip() {
	text := tip
	tip = ""
	if text == "" {
		return
	}
	const size, pad = TextSize, 5
	// The whole name must show: broken at any rune if wider than the screen.
	var lines []string
	for _, l := range wrapLines(text, Width()-2*pad-4, func(s string) float32 { return Measure(s, size) }) {
		lines = append(lines, breakRunes(l.full, l.text, Width()-2*pad-4, size)...)
	}
	w := float32(0)
	for _, l := range lines {
		w = max(w, Measure(l, size))
	}
	m := rl.GetMousePosition()
	r := rl.Rectangle{X: m.X + 12, Y: m.Y + 20, Width: w + 2*pad, Height: float32(len(lines))*size*1.25 + 2*pad - size*0.25}
	if r.X+r.Width > Width()-2 {
		r.X = max(0, Width()-2-r.Width)
	}
	if r.Y+r.Height > Height()-2 {
		r.Y = max(0, m.Y-8-r.Height)
	}
	BeginBlock(KindOverlay, "tip", r)
	rl.DrawRectangleRec(r, color.RGBA{12, 14, 18, 245})
	rl.DrawRectangleLinesEx(r, 1, color.RGBA{130, 170, 220, 255})
	for i, l := range lines {
		DrawText(l, r.X+pad, r.Y+pad+float32(i)*size*1.25, size, color.RGBA{240, 242, 246, 255})
	}
	EndBlock()
}

// DropTip forgets the tip asked for this frame: what it names is covered.
func DropTip() { tip = "" }

// breakRunes is a wrapped line in whole: full, the word it shortened,
// broken into lines of at most width units at size wherever it must; or
// the line itself when nothing was shortened.
func breakRunes(full, text string, width, size float32) []string {
	if full == "" {
		return []string{text}
	}
	var out []string
	r := []rune(full)
	for len(r) > 0 {
		n := len(r)
		for n > 1 && Measure(string(r[:n]), size) > width {
			n--
		}
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	return out
}
