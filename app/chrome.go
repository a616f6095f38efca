package app

import (
	"fmt"
	"image/color"
	"slices"
	"strings"

	gui "github.com/gen2brain/raylib-go/raygui"
	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/app/flagrange"
	"kinelab/render"
	"kinelab/ui"
)

// The framework's screen furniture: the tab bar, the column of panels on
// the left (playback, messages, the lab's), the timeline, the help overlay.
// Everything is in UI units (see ui.Scale): the layout is written once for
// a 1280x720 screen and the scale makes it fit the window.

const (
	tabBarH   = 36  // units
	columnW   = 300 // the panel column's width (units)
	columnGap = 10
)

// screenLayout places the framework's parts on a screen of w x h units.
type screenLayout struct {
	Area     rl.Rectangle // free for the lab: right of the panels, under the tabs, above the timeline
	Timeline rl.Rectangle // empty without a timeline
	Plot     rl.Rectangle // the lab's plot, in the bottom right of Area
}

func layoutFor(w, h float32, timeline bool) screenLayout {
	var l screenLayout
	x := float32(columnW + 2*columnGap)
	bottom := h - columnGap
	if timeline {
		l.Timeline = rl.Rectangle{X: x, Y: bottom - timelineH, Width: w - x - columnGap, Height: timelineH}
		bottom = l.Timeline.Y - 8
	}
	l.Area = rl.Rectangle{X: x, Y: tabBarH + 8, Width: w - x - columnGap, Height: bottom - tabBarH - 8}
	pw := min(560, l.Area.Width*0.55)
	ph := min(280, l.Area.Height*0.45)
	l.Plot = rl.Rectangle{X: l.Area.X + l.Area.Width - pw, Y: l.Area.Y + l.Area.Height - ph, Width: pw, Height: ph}
	return l
}

// chrome is the framework's screen furniture and its state between
// frames.
type chrome struct {
	playPanel, labPanel, msgPanel ui.Panel
	showUI, showHelp              bool
	messages                      []Message    // notices and errors until dismissed
	dtOpen, viewOpen, mocapOpen   bool         // the playback panel's sections
	browser                       *fileBrowser // the open file browser, or nil
	lastView                      View         // the last frame's, for clicks
	statsW                        float32      // width of the tab bar's statistics last drawn (units)
	laidStatsW                    float32      // the width this frame's tab bar was laid out with
	settling                      bool         // drawing a frame again, locked (see draw)
}

func newChrome() chrome {
	return chrome{playPanel: ui.Panel{Title: "Playback"}, showUI: true}
}

// LabArea is the screen a lab has on a w x h screen (units) without a
// timeline: right of the panels, under the tabs (View.Area while
// drawing; this for layout outside it).
func LabArea(w, h float32) rl.Rectangle { return layoutFor(w, h, false).Area }

// LabPlot is the lab's plot rectangle on a w x h screen (units) without a
// timeline (View.Plot while drawing; this for layout outside it).
func LabPlot(w, h float32) rl.Rectangle { return layoutFor(w, h, false).Plot }

// Message is a notice or an error shown in the Messages panel until the
// user dismisses it. A Sticky one says something that changes what the
// user sees (a file left out, a figure not read as a human and what was
// turned off for it): it is listed first, and the panel shows it however
// many messages come after it, until it is dismissed.
type Message struct {
	Text   string
	Error  bool
	Sticky bool
}

// say adds a notice to the message list (and returns its text).
func (a *App) say(msg string) string {
	a.post(Message{Text: msg})
	return msg
}

// sayErr adds an error to the message list.
func (a *App) sayErr(msg string) { a.post(Message{Text: msg, Error: true}) }

// alert adds a notice that changes what the user sees (Message.Sticky).
func (a *App) alert(msg string) { a.post(Message{Text: msg, Sticky: true}) }

func (a *App) post(m Message) {
	c := &a.chrome
	c.messages = append(c.messages, m)
	for len(c.messages) > 20 { // the oldest go first, the sticky last
		i := max(0, slices.IndexFunc(c.messages, func(x Message) bool { return !x.Sticky }))
		c.messages = slices.Delete(c.messages, i, i+1)
	}
	if slices.ContainsFunc(c.messages, func(x Message) bool { return x.Sticky }) {
		c.msgPanel.ScrollToTop() // the sticky ones, listed first
	} else {
		c.msgPanel.ScrollToEnd() // the newest
	}
}

// Messages lists the notices and errors not yet dismissed, oldest first.
func (a *App) Messages() []Message { return a.chrome.messages }

// DismissMessages dismisses every message, as Dismiss all does.
func (a *App) DismissMessages() { a.chrome.messages = a.chrome.messages[:0] }

// tabBar is the row of lab tabs on a w units wide screen for n labs,
// beside statistics statsW units wide: each tab as wide as the room they
// leave, at most tabMaxW units.
func tabBar(w float32, n int, statsW float32) rl.Rectangle {
	tw := min(tabMaxW, (w-statsW-40)/float32(n)-4)
	return rl.Rectangle{X: 10, Y: 5, Width: float32(n)*(tw+4) - 4, Height: 26}
}

const tabMaxW = 150

// tabRects are the lab tabs as drawn in tabBar(w, n, statsW): the input
// stage hit-tests the ones last drawn, so a click acts on what the user
// saw.
func tabRects(w float32, n int, statsW float32) []rl.Rectangle {
	return ui.ToggleRects(tabBar(w, n, statsW), n)
}

// drawUI draws the tab bar, the playback panel, the messages, the lab's
// panel and the timeline, and returns what the user asked of them; the
// frame applies that before the next update.
func (a *App) drawUI(lab Lab, v *View) (asked []func()) {
	c := &a.chrome
	w := float32(v.Width)
	bar := rl.Rectangle{Width: w, Height: tabBarH}
	ui.BeginBlock(ui.KindPanel, "tabs", bar)
	rl.DrawRectangleRec(bar, color.RGBA{22, 24, 29, 235})
	tab := int32(a.cur)
	gui.SetStyle(gui.TOGGLE, gui.GROUP_PADDING, 4)
	names := entryNames(a.entries)
	for i := range names {
		names[i] = fmt.Sprintf("%d %s", i+1, strings.ToUpper(names[i][:1])+names[i][1:])
	}
	stats := fmt.Sprintf("t %.2f s   frame %d   %d fps   F1 help", a.clock.Time, a.clock.Frame, rl.GetFPS())
	c.statsW = ui.Measure(stats, ui.TextSize)
	// The click on a tab was taken by the input stage (switchLab): the
	// toggles only show which lab is current.
	ui.Toggles(tabBar(w, len(names), c.statsW), names, &tab)
	ui.DrawText(stats, w-c.statsW-12, (tabBarH-ui.TextSize)/2, ui.TextSize, render.DimText)
	ui.EndBlock()

	h := float32(v.Height)
	p := &c.playPanel
	p.X, p.Y, p.W = columnGap, tabBarH+8, columnW
	p.MaxH = (h - p.Y) * 0.45
	p.Reset = a.ResetSetting
	p.Begin()
	label := "Pause"
	if a.clock.Paused {
		label = "Play"
	}
	switch p.Buttons(label, "Step", "Open...") {
	case 0:
		asked = append(asked, func() { a.clock.Paused = !a.clock.Paused })
	case 1:
		asked = append(asked, func() { a.clock.Paused = true; a.clock.Step() })
	case 2:
		asked = append(asked, a.OpenBrowser)
	}
	clock := a.clockRanges()
	p.Range(clock, &a.clock.TimeScale)
	if p.Section("Time step", &c.dtOpen) {
		p.Check("Fixed dt (else frame)", &a.clock.Fixed)
		p.Range(clock, &a.clock.FixedDt)
		p.Range(clock, &a.clock.Jitter)
	}
	a.viewSection(p)
	asked = append(asked, a.mocapSection(p)...)
	p.End()
	y := p.Bounds().Y + p.Bounds().Height + 8

	// The messages sit at the bottom of the column, so one that comes or
	// goes does not move the lab's panel under the mouse.
	bottom := h - columnGap
	m := &c.msgPanel
	if len(c.messages) > 0 {
		m.X, m.W = columnGap, columnW
		m.MaxH = (h - y) * 0.4
		m.Y = bottom - m.Bounds().Height
		bottom = m.Y - 8
	}
	lp := &c.labPanel
	lp.X, lp.Y, lp.W = columnGap, y, columnW
	lp.MaxH = bottom - lp.Y
	lp.Title = lab.Title()
	lp.Reset = a.ResetSetting
	lp.Begin()
	lab.Panel(&Panel{Panel: lp, asked: &asked})
	lp.End()
	if len(c.messages) > 0 {
		asked = append(asked, a.drawMessages(m)...)
	}

	if _, ok := lab.Timeline(); ok {
		if c.browser != nil || c.settling {
			gui.Lock() // the panels' End unlocked raygui
		}
		asked = append(asked, a.drawTimeline(lab, v.Timeline)...)
	}
	return asked
}

// clockRanges is the playback panel's table of the clock's sliders, read
// by the panel and by the settings check: the time scale, the tick rate
// (a rate in Hz for the fixed step in seconds) and the dt jitter (a
// percentage of the fraction).
func (a *App) clockRanges() ui.Ranges {
	c := &a.clock
	return ui.Ranges{
		{Label: "Time scale", V: &c.TimeScale, Lo: 0, Hi: 4, Format: "%.2fx"},
		{Label: "Tick rate", V: &c.FixedDt, Lo: 10, Hi: 240, Format: "%.0f Hz",
			Get: func() float32 { return 1 / c.FixedDt }, Set: func(hz float32) { c.FixedDt = 1 / hz }},
		{Label: "dt jitter", V: &c.Jitter, Lo: 0, Hi: 100, Format: "+-%.0f%%",
			Get: func() float32 { return c.Jitter * 100 }, Set: func(p float32) { c.Jitter = p / 100 }},
	}
}

// viewSection is the playback panel's section for how the UI looks: its
// scale (0: automatic, from the window and DPI) and the joint labels.
func (a *App) viewSection(p *ui.Panel) {
	set := &a.settings.set
	if !p.Section("View", &a.chrome.viewOpen) {
		return
	}
	auto := set.UIScale == 0
	if p.Check("Auto UI scale", &auto) {
		if auto {
			set.UIScale = 0
		} else {
			set.UIScale = ui.Scale()
		}
	}
	s := set.UIScale
	if s == 0 {
		s = ui.Scale()
	}
	if p.SliderFor(&set.UIScale, "UI scale", &s, minUIScale, maxUIScale, fmt.Sprintf("%.2fx", s)) {
		set.UIScale = s // applied when the mouse button is let go (Frame)
	}
	p.Check("Label every joint", &set.LabelJoints)
}

// The UI scale's range (pixels per unit): --ui-scale, the View section's
// slider, a settings file (flagrange.UIScale).
var minUIScale, maxUIScale = float32(flagrange.UIScale.Min), float32(flagrange.UIScale.Max)

// ScrollPanels scrolls every panel of the column by wheel notches, as the
// mouse wheel over each does (negative: down to the end).
func (a *App) ScrollPanels(notches float32) {
	c := &a.chrome
	c.playPanel.ScrollBy(notches)
	c.msgPanel.ScrollBy(notches)
	c.labPanel.ScrollBy(notches)
}

// CloseBrowser closes the file browser.
func (a *App) CloseBrowser() { a.chrome.browser = nil }

// drawMessages draws the message list in panel m, the sticky messages
// first, each message with a close box, and Dismiss all; it returns the
// dismissals asked for.
func (a *App) drawMessages(m *ui.Panel) (asked []func()) {
	msgs := slices.Clone(a.chrome.messages)
	slices.SortStableFunc(msgs, func(x, y Message) int {
		switch {
		case x.Sticky && !y.Sticky:
			return -1
		case y.Sticky && !x.Sticky:
			return 1
		}
		return 0
	})
	m.Title = fmt.Sprintf("Messages (%d)", len(msgs))
	m.Begin()
	for i, msg := range msgs {
		if i == len(msgs)-1 && !msgs[0].Sticky {
			m.Mark() // a new message too long for the panel shows its start
		}
		col := color.RGBA{200, 204, 212, 255}
		if msg.Error {
			col = color.RGBA{255, 150, 130, 255}
		}
		if m.Note(msg.Text, col) {
			asked = append(asked, func() { a.Dismiss(msg) })
		}
	}
	if len(msgs) > 1 && m.Button("Dismiss all") {
		asked = append(asked, a.DismissMessages)
	}
	m.End()
	return asked
}

// Dismiss removes message msg (the first equal one) from the list, as
// its close box does; with the last sticky one gone, the panel shows the
// newest again.
func (a *App) Dismiss(msg Message) {
	c := &a.chrome
	if i := slices.Index(c.messages, msg); i >= 0 {
		c.messages = slices.Delete(c.messages, i, i+1)
	}
	if msg.Sticky && !slices.ContainsFunc(c.messages, func(x Message) bool { return x.Sticky }) {
		c.msgPanel.ScrollToEnd()
	}
}
