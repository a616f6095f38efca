package cost

import (
	"fmt"
	"image/color"

	rl "github.com/gen2brain/raylib-go/raylib"
	"github.com/go-gl/mathgl/mgl32"

	"kinelab/animsys/mathx"
	"kinelab/app"
	"kinelab/render"
	"kinelab/ui"
)

// costPanels remembers which panel sections are open.
type costPanels struct {
	maps, pick, finder bool
}

// sliders is every slider of the lab's panel, declared once: Panel draws
// them and CheckSettings keeps settings read from a file within them. The
// picked offset's ends are the maps' ranges.
func (l *Lab) sliders() ui.Ranges {
	s := &l.S
	return ui.Ranges{
		{Label: "Half-life", V: &s.Halflife, Lo: 0.01, Hi: 1, Format: "%.3f s"},
		{Label: "x range", V: &s.XRange, Lo: 0.05, Hi: 2, Format: "+-%.2f m"},
		{Label: "v range", V: &s.VRange, Lo: 0.5, Hi: 40, Format: "+-%.1f m/s"},
		{Label: "SAD w", V: &s.VelWeight, Lo: 0, Hi: 2, Format: "%.2f s"},
		{Label: "x", V: &s.PickX, Lo: -s.XRange, Hi: s.XRange, Format: "%+.3f m"},
		{Label: "v", V: &s.PickV, Lo: -s.VRange, Hi: s.VRange, Format: "%+.2f m/s"},
		{Label: "every", V: &s.AutoEvery, Lo: 0.5, Hi: 5, Format: "%.1f s"},
	}
}

// Panel implements app.Lab. It is also where a click in a heat map picks an
// offset (the panel is the frame's input stage): a plain click picks, and
// Ctrl+drag scrubs (Ctrl keeps the camera from orbiting). Picks and
// buttons ask (ask) rather than act, so the lab does not change while the
// frame is drawn.
func (l *Lab) Panel(p *app.Panel) {
	s, sec, sl := &l.S, &l.sec, l.sliders()
	if p.Section("Heat maps", &sec.maps) {
		p.Range(sl, &s.Halflife)
		p.Range(sl, &s.XRange)
		p.Range(sl, &s.VRange)
		p.Range(sl, &s.VelWeight)
	}
	if p.Section("Picked offset", &sec.pick) {
		sl = l.sliders() // with the maps' ranges the sliders above may have just moved
		p.Text("click a map, or Ctrl+drag")
		p.Range(sl, &s.PickX)
		p.Range(sl, &s.PickV)
		if p.Button("Next example (P)") {
			p.Ask(l.NextExample)
		}
	}
	if p.Section("Transition finder", &sec.finder) {
		// The clips in the order loaded, the playing one lit; a click asks
		// to play one from the start of its loop.
		names := make([]string, len(l.clips))
		for i := range l.clips {
			names[i] = l.clips[i].Name
		}
		if c := p.Select(names, 3, l.cur); c >= 0 {
			if i := l.clipStart(c); i >= 0 {
				p.Ask(l.playLater(i))
			}
		}
		p.Choice(costRankNames, 3, &s.RankBy)
		skip := "Skip the playing clip"
		if len(l.clips) == 1 {
			skip = "Skip frames within 1 s"
		}
		p.Check(skip, &s.SkipPlaying)
		p.Check("Auto: play the best", &s.Auto)
		p.Range(sl, &s.AutoEvery)
		p.Text("play target (table, right):")
		if r := p.Buttons("1", "2", "3", "4", "5"); r >= 0 {
			i := l.Ranked[r] // the target the table shows in row r now
			p.Ask(l.playLater(i))
		}
	}
}

// clipStart is the finder's candidate at the start of clip c's loop, or
// -1: the first of c's (buildCandidates lists each clip's from its start).
func (l *Lab) clipStart(c int) int {
	for i, k := range l.cands {
		if k.clip == c {
			return i
		}
	}
	return -1
}

// playLater is Play(i) as a panel asks for it, to run before the next
// update: dropped if a new character comes first (i is one of the old
// character's targets).
func (l *Lab) playLater(i int) func() {
	gen := l.characters
	return func() {
		if l.characters == gen {
			l.Play(i)
		}
	}
}

// pickWithMouse picks the offset under the mouse in a heat map on a
// click, or while Ctrl is held with the button down.
func (l *Lab) pickWithMouse(ptr app.Pointer) {
	if !ptr.Pressed && !(ptr.Held && ptr.Ctrl) {
		return
	}
	lay := costMapLayout(ui.Width(), ui.Height())
	for _, r := range lay.maps {
		if rl.CheckCollisionPointRec(ptr.Mouse, r) {
			l.Pick(l.mapOffset(r, ptr.Mouse))
			return
		}
	}
}

// Keys implements app.Lab. Keys run in the frame's input stage, so they
// act at once.
func (l *Lab) Keys() []app.Key {
	s := &l.S
	return []app.Key{
		{Code: rl.KeyP, Label: "P", Name: "pick", Help: "pick the next example offset", Action: l.NextExample},
		{Code: rl.KeyB, Label: "B", Name: "best", Help: "play the best-ranked target", Action: func() { l.PlayRanked(0) }},
		{Code: rl.KeyR, Label: "R", Name: "rank", Help: "rank targets by exact / SAD / feature", Action: func() { s.RankBy = (s.RankBy + 1) % int32(len(costRankNames)) }},
		{Code: rl.KeyA, Label: "A", Name: "auto", Help: "play the best target every few seconds on / off", Action: func() { s.Auto = !s.Auto }},
		{Code: rl.KeyEqual, Label: "+", Name: "halflife-up", Help: "half-life x1.25", Action: func() { l.ScaleHalflife(1.25) }},
		{Code: rl.KeyMinus, Label: "-", Name: "halflife-down", Help: "half-life /1.25", Action: func() { l.ScaleHalflife(0.8) }},
	}
}

// Draw3D implements app.Lab: the output pose (body when there is one, and its
// skeleton), the raw target pose as a ghost while the offset decays, and
// the joints the finder compares.
func (l *Lab) Draw3D(v *app.View) {
	body := v.BodyFor(&l.skel)
	if body != nil {
		body.Draw(l.global.Pos, l.global.Rot, l.global.Scl, render.SkinColor)
	}
	render.BeginOnTop()
	k := max(v.Scale, 1e-3) // sizes below are m at a human's size
	if l.inertializing() {
		render.Skeleton(l.ghost.Pos, l.skel.Parents, l.ground, render.DimText, render.DimText, 0.008*k)
	}
	r := float32(0.022)
	if body != nil {
		r = 0.008
	}
	render.Skeleton(l.global.Pos, l.skel.Parents, l.ground, render.BoneColor, render.JointColor, r*k)
	for _, j := range l.joints {
		rl.DrawSphere(render.V3(l.global.Pos[j]), 0.035*k, render.TargetColor)
	}
	render.EndOnTop()
}

// Draw2D implements app.Lab: the three heat maps, the picked offset's curve and
// the finder's table.
func (l *Lab) Draw2D(v *app.View) {
	lay := costMapLayout(float32(v.Width), float32(v.Height))
	table := rl.Rectangle{X: v.Plot.X, Y: lay.bottom + 8, Width: v.Plot.Width, Height: v.Plot.Y - 8 - lay.bottom - 8}
	// The joints' names first, off the maps, the plot and the table.
	v.DrawJointLabels(&l.skel, l.global.Pos, mgl32.Vec3{}, l.view.joint, lay.tiles[0], lay.tiles[1], lay.tiles[2], v.Plot, table)
	var tex [costMaps]rl.Texture2D // none before the first Upload: the maps draw empty
	if l.tex != nil {
		tex = l.tex.tex
	}
	titles := [costMaps]string{"Exact: area |offset| dt", fmt.Sprintf("SAD: |x| + %.2f s |v|", l.S.VelWeight), "Error: exact - |2xy+v|/y^2"}
	units := [costMaps]string{"m*s", "m", "m*s"}
	for i := range lay.maps {
		l.drawMap(lay, i, tex[i], titles[i], units[i])
	}
	l.drawCurve(v.Plot)
	l.drawTable(table)
	l.drawHover(lay, v.Mouse)
	if j := l.view.joint; j > 0 && j < l.skel.Len() {
		msg := fmt.Sprintf("%s: %.2f m/s, %.2f rad/s (propagated)", l.skel.Names[j], l.global.Vel[j].Len(), l.global.Ang[j].Len())
		r := ui.CaptionRect(0, 0, ui.TextSize, msg)
		ui.Caption("joint readout", v.Area.X, v.Area.Y+v.Area.Height-r.Height, ui.TextSize, []color.RGBA{render.TargetColor}, msg)
	}
}

// Point implements app.Lab: a click picks a joint of the character
// (or none).
func (l *Lab) Input(in *app.Input) {
	ptr := in.Pointer
	l.pickWithMouse(ptr)
	if ptr.Click {
		l.view.joint = max(0, ptr.JointAt(l.global.Pos, mgl32.Vec3{}))
	}
}

// drawTable lists the best targets with all three costs, and the last
// transition's predicted cost beside the one measured through FK.
func (l *Lab) drawTable(r rl.Rectangle) {
	const fs = ui.SmallText
	const row = fs * 1.25
	if r.Height < 3*row {
		return
	}
	ui.BeginBlock(ui.KindReadout, "finder table", r)
	defer ui.EndBlock()
	rl.DrawRectangleRec(r, costPanelBg)
	rl.DrawRectangleLinesEx(r, 1, costPanelLine)
	other := int32(RankSAD)
	if l.S.RankBy == RankSAD {
		other = RankExact
	}
	x, y := r.X+8, r.Y+5
	rows := min(costRanked, int((r.Height-2*row-8)/row))
	head := []string{"#", "target by " + costRankNames[l.S.RankBy], "exact m*s", "feature", "SAD m", costRankNames[other] + " #"}
	cells := make([][]string, rows)
	for i := range cells {
		if c := l.Ranked[i]; c >= 0 {
			cells[i] = []string{fmt.Sprint(i + 1), l.CandidateName(c), fmt.Sprintf("%.4f", l.costExact[c]),
				fmt.Sprintf("%.4f", l.costFeat[c]), fmt.Sprintf("%.3f", l.costSAD[c]), fmt.Sprint(l.RankOf(c, other))}
		}
	}
	// Columns as wide as their widest cell, the targets' at most half the
	// table (a long clip name is shortened in its middle); on a narrow
	// table the feature column, then the other ranking's, are left out.
	cols := make([]color.RGBA, rows)
	for i := range cols {
		cols[i] = render.TextColor
		if l.Ranked[i] == l.Target && l.inertializing() {
			cols[i] = render.TargetColor
		}
	}
	y = ui.DrawTable(&ui.Table{Head: head, Rows: cells, Colors: cols, HeadColor: render.DimText,
		Name: 1, NameMax: 0.5, KeepAfter: " @ ", Drop: []int{3, 5, 2}}, x, y, r.Width-16, r.Y+r.Height, fs, row)
	y += 2
	msg := ui.Fit(r.Width-16, fs, "press B or a number in the panel to play a target", "B plays the best target")
	name, full, tip := "", "", rl.Rectangle{}
	if l.Target >= 0 {
		// The target's name shortened in its middle before its costs go.
		full = l.CandidateName(l.Target)
		prefix, rest := "last: ", fmt.Sprintf("  predicted %.4f  measured %.4f m*s", l.Predicted, l.Measured)
		if ui.Measure(prefix+full+rest, fs) > r.Width-16 {
			prefix, rest = "", fmt.Sprintf(": predicted %.4f, measured %.4f", l.Predicted, l.Measured)
		}
		name = ui.Shorten(full, max(0, r.Width-16-ui.Measure(prefix+rest, fs)), fs)
		msg = prefix + name + rest
		tip = rl.Rectangle{X: x + ui.Measure(prefix, fs), Y: y, Width: ui.Measure(name, fs), Height: fs}
	}
	if y+fs <= r.Y+r.Height {
		ui.DrawText(msg, x, y, fs, render.DimText)
		if name != full {
			ui.Tip(tip, full)
		}
	}
}

// UIRects implements app.Lab: the three heat-map tiles.
func (l *Lab) UIRects(w, h int32) []rl.Rectangle {
	lay := costMapLayout(float32(w), float32(h))
	return lay.tiles[:]
}

// Settings implements app.Lab.
func (l *Lab) Settings() any { return &l.S }

// CheckSettings implements app.Lab: every slider within its
// ends, the ranking within its options.
func (l *Lab) CheckSettings() {
	s := &l.S
	s.RankBy = mathx.Clamp(s.RankBy, 0, int32(len(costRankNames)-1))
	l.sliders().Clamp()
	// The picked offset's ends are the maps' ranges, which the pass above
	// may have moved: a table made now has them.
	l.sliders().Clamp()
}
