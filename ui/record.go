package ui

import (
	rl "github.com/gen2brain/raylib-go/raylib"
)

// Recording: while on, every widget, line of text, panel row and block
// (panel, plot, readout, overlay) drawn through this package is listed with
// its rectangle (units), so a test can check that text fits where it is
// drawn, that readouts and panels do not overlap, and that every panel row
// can be scrolled into view. Off, it costs one branch per call.

// Kind is what a recorded Item is.
type Kind int

const (
	// KindText is a line of text; Box is where it must fit (the widget,
	// cell or block it belongs to), or empty for a free label that must
	// stay on the screen.
	KindText Kind = iota
	// KindWidget is a widget whose caption raygui draws: Name is the
	// caption and TextW its width, which must fit Rect.
	KindWidget
	// KindPanel, KindPlot and KindReadout are blocks of the screen that
	// must not overlap each other; Name says whose.
	KindPanel
	KindPlot
	KindReadout
	// KindOverlay is drawn over everything on purpose (help, file
	// browser, hover tips): it must fit the screen but may cover blocks.
	KindOverlay
	// KindRow is a panel row: Box is the panel's visible rectangle, and
	// Up and Down how far the content can still scroll each way.
	KindRow
)

func (k Kind) String() string {
	return [...]string{"text", "widget", "panel", "plot", "readout", "overlay", "row"}[k]
}

// Item is one recorded thing.
type Item struct {
	Kind     Kind
	Name     string
	Rect     rl.Rectangle // where it is drawn (units)
	Box      rl.Rectangle // text: where it must fit; row: the panel's view
	HasBox   bool
	TextW    float32 // widget: its caption's width (units)
	On       bool    // widget: a toggle shown on (the current choice)
	Up, Down float32 // row: the scroll left towards the top / bottom (units)
	Depth    int     // blocks open around it when drawn
	Owner    string  // the innermost block's name
}

var rec struct {
	on    bool
	items []Item
	stack []Item
}

// Record starts (or stops) recording and returns what was recorded since
// the last call.
func Record(on bool) []Item {
	out := rec.items
	rec.on, rec.items, rec.stack = on, nil, nil
	return out
}

func (it Item) add() {
	it.Depth = len(rec.stack)
	if n := len(rec.stack); n > 0 {
		it.Owner = rec.stack[n-1].Name
	}
	rec.items = append(rec.items, it)
}

// BeginBlock opens a block of kind k (a panel, plot, readout or overlay)
// covering r: text drawn until EndBlock must fit inside it.
func BeginBlock(k Kind, name string, r rl.Rectangle) {
	if !rec.on {
		return
	}
	it := Item{Kind: k, Name: name, Rect: r}
	it.add()
	rec.stack = append(rec.stack, it)
}

// EndBlock closes the innermost block.
func EndBlock() {
	if rec.on && len(rec.stack) > 0 {
		rec.stack = rec.stack[:len(rec.stack)-1]
	}
}

func recordText(text string, r rl.Rectangle, box *rl.Rectangle) {
	it := Item{Kind: KindText, Name: text, Rect: r}
	switch {
	case box != nil:
		it.Box, it.HasBox = *box, true
	case len(rec.stack) > 0:
		it.Box, it.HasBox = rec.stack[len(rec.stack)-1].Rect, true
	}
	it.add()
}

func recordWidget(text string, r rl.Rectangle) { recordToggle(text, r, false) }

// recordToggle records a widget that is a toggle, on or off.
func recordToggle(text string, r rl.Rectangle, on bool) {
	if rec.on && text != "" {
		Item{Kind: KindWidget, Name: text, Rect: r, TextW: Measure(text, TextSize), On: on}.add()
	}
}

// Redraw forgets what the frame being drawn has recorded so far: it is
// about to be drawn again (a layout that settles), and its items must be
// recorded once.
func Redraw() {
	if rec.on {
		rec.items, rec.stack = rec.items[:0], rec.stack[:0]
	}
}
