// Package ui wraps raygui in the few widgets kinelab's panels use — labelled
// sliders, check boxes, buttons, choices — laid out top to bottom in a panel,
// with one dark style for the whole app. Widgets are immediate mode: they
// draw and return the user's input in the same call, so a panel is the input
// stage of a frame; labs apply the values at their next update.
//
// Everything is laid out in UI units that Scale makes pixels, and text is
// drawn from a TrueType font at its pixel size (text.go); a name too long
// for its place is shortened in its middle (Shorten) and shown whole in a
// tip while the mouse is over it (Tip, DrawTip). While recording
// (Record), each widget, line of text, panel row and block is listed with
// its rectangle, for the test that the UI fits every screen (record.go).
package ui

import (
	"image/color"

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

// Button is a push button at r outside a panel; it reports a click.
func Button(r rl.Rectangle, text string) bool {
	recordWidget(text, r)
	return gui.Button(r, text)
}

// ToggleRects are the rectangles of n toggles filling r, as Toggles lays
// them out (for hit tests made before the toggles are drawn).
func ToggleRects(r rl.Rectangle, n int) []rl.Rectangle {
	w := (r.Width - float32(n-1)*3) / float32(n)
	out := make([]rl.Rectangle, n)
	for i := range out {
		out[i] = rl.Rectangle{X: r.X + float32(i)*(w+3), Y: r.Y, Width: w, Height: r.Height}
	}
	return out
}

// Toggles is a row of mutually exclusive toggles filling r; it reports a
// change of v.
func Toggles(r rl.Rectangle, options []string, v *int32) bool {
	old := *v
	for i, b := range ToggleRects(r, len(options)) {
		o := options[i]
		on := *v == int32(i)
		recordToggle(o, b, on)
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
