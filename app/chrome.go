package app

import (
	"fmt"
	"image/color"
	"strings"

	gui "github.com/gen2brain/raylib-go/raygui"
	rl "github.com/gen2brain/raylib-go/raylib"

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

// Message is a notice or an error shown in the Messages panel until the
// user dismisses it.
type Message struct {
	Text  string
	Error bool
}

// say adds a notice to the message list (and returns its text).
func (a *App) say(msg string) string {
	a.post(Message{Text: msg})
	return msg
}

// sayErr adds an error to the message list.
func (a *App) sayErr(msg string) { a.post(Message{Text: msg, Error: true}) }

func (a *App) post(m Message) {
	a.messages = append(a.messages, m)
	if len(a.messages) > 20 { // the oldest go first
		a.messages = a.messages[len(a.messages)-20:]
	}
	a.msgPanel.Scroll = 1e9 // show the newest
}

// Messages lists the notices and errors not yet dismissed, oldest first.
func (a *App) Messages() []Message { return a.messages }

// drawUI draws the tab bar, the playback panel, the messages, the lab's
// panel and the timeline.
func (a *App) drawUI(lab Lab, v *View) {
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
	sw := ui.Measure(stats, ui.TextSize)
	room := w - sw - 40
	tw := min(150, room/float32(len(names))-4)
	if ui.Toggles(rl.Rectangle{X: 10, Y: 5, Width: float32(len(names))*(tw+4) - 4, Height: 26}, names, &tab) {
		a.switchLab(int(tab))
	}
	ui.DrawText(stats, w-sw-12, (tabBarH-ui.TextSize)/2, ui.TextSize, render.DimText)
	ui.EndBlock()

	h := float32(v.Height)
	p := &a.playPanel
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
		a.clock.Paused = !a.clock.Paused
	case 1:
		a.clock.Paused = true
		a.clock.Step()
	case 2:
		a.OpenBrowser()
	}
	p.Slider("Time scale", &a.clock.TimeScale, 0, 4, "%.2fx")
	if p.Section("Time step", &a.dtOpen) {
		p.Check("Fixed dt (else frame)", &a.clock.Fixed)
		hz := 1 / a.clock.FixedDt
		if p.SliderFor(&a.clock.FixedDt, "Tick rate", &hz, 10, 240, fmt.Sprintf("%.0f Hz", hz)) {
			a.clock.FixedDt = 1 / hz
		}
		j := a.clock.Jitter * 100
		p.SliderFor(&a.clock.Jitter, "dt jitter", &j, 0, 100, fmt.Sprintf("+-%.0f%%", j))
		a.clock.Jitter = j / 100
	}
	a.viewSection(p)
	a.mocapSection(p)
	p.End()
	y := p.Bounds().Y + p.Bounds().Height + 8

	// The messages sit at the bottom of the column, so one that comes or
	// goes does not move the lab's panel under the mouse.
	bottom := h - columnGap
	m := &a.msgPanel
	if len(a.messages) > 0 {
		m.X, m.W = columnGap, columnW
		m.MaxH = (h - y) * 0.4
		m.Y = bottom - m.Bounds().Height
		bottom = m.Y - 8
	}
	lp := &a.labPanel
	lp.X, lp.Y, lp.W = columnGap, y, columnW
	lp.MaxH = bottom - lp.Y
	lp.Title = lab.Title()
	lp.Reset = a.ResetSetting
	lp.Begin()
	lab.Panel(lp)
	lp.End()
	if len(a.messages) > 0 {
		a.drawMessages(m)
	}

	if t, ok := lab.(Timeliner); ok {
		if a.browser != nil {
			gui.Lock() // the panels' End unlocked raygui
		}
		a.drawTimeline(t, v.Timeline)
	}
}

// viewSection is the playback panel's section for how the UI looks: its
// scale and the joint labels.
func (a *App) viewSection(p *ui.Panel) {
	if !p.Section("View", &a.viewOpen) {
		return
	}
	auto := a.set.UIScale == 0
	if p.Check("Auto UI scale", &auto) {
		if auto {
			a.set.UIScale = 0
		} else {
			a.set.UIScale = ui.Scale()
		}
	}
	s := a.set.UIScale
	if s == 0 {
		s = ui.Scale()
	}
	if p.SliderFor(&a.set.UIScale, "UI scale", &s, 0.5, 4, fmt.Sprintf("%.2fx", s)) {
		a.set.UIScale = s // applied when the mouse button is let go (Frame)
	}
	p.Check("Label every joint", &a.set.LabelJoints)
}

// scaleDrag keeps the scale from changing under the mouse while a button
// is held (the UI-scale slider would move away from the mouse dragging
// it); a new scale applies on release.
func (a *App) scaleDrag() bool { return rl.IsMouseButtonDown(rl.MouseButtonLeft) }

// drawHelp lists every key and mouse control over the scene, with the
// action names --do scripts use.
func (a *App) drawHelp(lab Lab, v *View) {
	var keys []Key
	for _, k := range a.Keys() {
		if !strings.HasPrefix(k.Name, "lab-") {
			keys = append(keys, k)
		}
	}
	keys = append(keys, Key{Label: fmt.Sprintf("1-%d", len(a.labs)), Name: "lab-NAME", Help: "switch lab: " + strings.Join(entryNames(a.entries), ", ")})
	const fs = ui.TextSize
	const line = fs * 1.25
	intro := []string{
		"Mouse: left-drag orbit, right-drag pan, wheel zoom; click a joint to pick it",
		"Ctrl+left-drag: move the lab's target. Esc: quit",
		"Sliders: right-click resets, double-click (or Enter) types a value",
		"Drop .bvh files on the window, or Open... (O) to browse for them",
	}
	labelW, nameW := float32(0), ui.Measure("--do name", fs)
	for _, k := range keys {
		labelW = max(labelW, ui.Measure(k.Label, fs))
		nameW = max(nameW, ui.Measure(k.Name, fs))
	}
	W, H := float32(v.Width), float32(v.Height)
	w := min(W-20, 900)
	helpW := w - 32 - labelW - 16 - nameW - 16
	type row struct {
		key, name string
		help      []string
	}
	var rows []row
	n := 0
	for _, k := range keys {
		r := row{k.Label, k.Name, ui.Wrap(k.Help, helpW, fs)}
		rows = append(rows, r)
		n += len(r.help)
	}
	var introLines []string
	for _, t := range intro {
		introLines = append(introLines, ui.Wrap(t, w-32, fs)...)
	}
	h := float32(n+len(introLines)+2)*line + 40
	// Too tall for the screen: the rows go in two columns.
	cols := 1
	if h > H-tabBarH-10 {
		cols = 2
		w = W - 20
		helpW = (w-32)/2 - labelW - 16 - nameW - 16
		n = 0
		for i := range rows {
			rows[i].help = ui.Wrap(keys[i].Help, helpW, fs)
			n += len(rows[i].help)
		}
		h = float32((n+1)/2+len(introLines)+2)*line + 40
	}
	x := (W - w) / 2
	y := max(tabBarH+4, (H-h)/2)
	box := rl.Rectangle{X: x, Y: y, Width: w, Height: h}
	ui.BeginBlock(ui.KindOverlay, "help", box)
	rl.DrawRectangleRec(box, color.RGBA{16, 18, 22, 240})
	rl.DrawRectangleLinesEx(box, 1, color.RGBA{110, 120, 140, 255})
	title := ui.Clip("kinelab keys - "+lab.Title(), w-32-nameW-16, fs)
	ui.DrawText(title, x+16, y+12, fs, color.RGBA{255, 214, 120, 255})
	colW := (w - 32) / float32(cols)
	ty := y + 12 + line*1.5
	for _, t := range introLines {
		ui.DrawText(t, x+16, ty, fs, render.TextColor)
		ty += line
	}
	ty += line / 2
	top := ty
	per := (n + cols - 1) / cols
	used := 0
	cx := x + 16
	for c := 0; c < cols; c++ {
		ui.DrawText("--do name", cx+colW-nameW-16, top-line*0.9, fs*0.8, render.DimText)
	}
	for _, r := range rows {
		if cols == 2 && used >= per && cx == x+16 {
			cx, ty = x+16+colW, top
		}
		cell := func(x0, w float32) rl.Rectangle {
			return rl.Rectangle{X: x0, Y: ty - 2, Width: w, Height: line*float32(len(r.help)) + 2}
		}
		ui.DrawTextIn(r.key, cx, ty, fs, color.RGBA{255, 236, 180, 255}, cell(cx, labelW+8))
		hx := cx + labelW + 16
		for i, t := range r.help {
			ui.DrawTextIn(t, hx, ty+float32(i)*line, fs, render.TextColor, cell(hx, helpW+4))
		}
		nx := cx + colW - nameW - 16
		ui.DrawTextIn(r.name, nx, ty, fs, render.DimText, cell(nx, nameW+8))
		ty += line * float32(len(r.help))
		used += len(r.help)
	}
	ui.EndBlock()
}

// ScrollPanels scrolls every panel of the column by wheel notches, as the
// mouse wheel over each does (negative: down to the end).
func (a *App) ScrollPanels(notches float32) {
	a.playPanel.ScrollBy(notches)
	a.msgPanel.ScrollBy(notches)
	a.labPanel.ScrollBy(notches)
}

// CloseBrowser closes the file browser.
func (a *App) CloseBrowser() { a.browser = nil }

// drawMessages draws the message list in panel m; each message has a
// close box, and Dismiss all clears them.
func (a *App) drawMessages(m *ui.Panel) {
	m.Title = fmt.Sprintf("Messages (%d)", len(a.messages))
	m.Begin()
	drop := -1
	for i, msg := range a.messages {
		col := color.RGBA{200, 204, 212, 255}
		if msg.Error {
			col = color.RGBA{255, 150, 130, 255}
		}
		if m.Note(msg.Text, col) {
			drop = i
		}
	}
	if len(a.messages) > 1 && m.Button("Dismiss all") {
		a.messages = a.messages[:0]
	}
	m.End()
	if drop >= 0 && drop < len(a.messages) {
		a.messages = append(a.messages[:drop], a.messages[drop+1:]...)
	}
}
