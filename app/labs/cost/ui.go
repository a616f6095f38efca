package cost

import (
	"fmt"
	"image/color"
	"slices"

	rl "github.com/gen2brain/raylib-go/raylib"

	"kinelab/app"
	"kinelab/render"
	"kinelab/ui"
)

// costPanels remembers which panel sections are open.
type costPanels struct {
	maps, pick, finder bool
}

// Panel implements app.Lab. It is also where a click in a heat map picks an
// offset (the panel is the frame's input stage): a plain click picks, and
// Ctrl+drag scrubs (Ctrl keeps the camera from orbiting).
func (l *Lab) Panel(p *ui.Panel) {
	s, sec := &l.S, &l.sec
	l.pickWithMouse()
	if p.Section("Heat maps", &sec.maps) {
		p.Slider("Half-life", &s.Halflife, 0.01, 1, "%.3f s")
		p.Slider("x range", &s.XRange, 0.05, 2, "+-%.2f m")
		p.Slider("v range", &s.VRange, 0.5, 40, "+-%.1f m/s")
		p.Slider("SAD w", &s.VelWeight, 0, 2, "%.2f s")
	}
	if p.Section("Picked offset", &sec.pick) {
		p.Text("click a map, or Ctrl+drag")
		p.Slider("x", &s.PickX, -s.XRange, s.XRange, "%+.3f m")
		p.Slider("v", &s.PickV, -s.VRange, s.VRange, "%+.2f m/s")
		if p.Button("Next example (P)") {
			l.NextExample()
		}
	}
	if p.Section("Transition finder", &sec.finder) {
		p.Choice(costRankNames, 3, &s.RankBy)
		skip := "Skip the playing clip"
		if len(l.clips) == 1 {
			skip = "Skip frames within 1 s"
		}
		p.Check(skip, &s.SkipPlaying)
		p.Check("Auto: play the best", &s.Auto)
		p.Slider("every", &s.AutoEvery, 0.5, 5, "%.1f s")
		p.Text("play target (table, right):")
		if r := p.Buttons("1", "2", "3", "4", "5"); r >= 0 {
			l.PlayRanked(r)
		}
	}
	l.refresh()
}

// pickWithMouse picks the offset under the mouse in a heat map on a click,
// or while Ctrl is held with the button down.
func (l *Lab) pickWithMouse() {
	down := rl.IsMouseButtonPressed(rl.MouseButtonLeft) ||
		rl.IsMouseButtonDown(rl.MouseButtonLeft) && (rl.IsKeyDown(rl.KeyLeftControl) || rl.IsKeyDown(rl.KeyRightControl))
	if !down {
		return
	}
	m := rl.GetMousePosition()
	lay := costMapLayout(float32(rl.GetScreenWidth()), float32(rl.GetScreenHeight()))
	for _, r := range lay.maps {
		if rl.CheckCollisionPointRec(m, r) {
			x, v := l.mapOffset(r, m)
			l.Pick(x, v)
			return
		}
	}
}

// Keys implements app.Lab.
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
	if l.inert {
		render.Skeleton(l.ghost.Pos, l.skel.Parents, render.DimText, render.DimText, 0.008)
	}
	r := float32(0.022)
	if body != nil {
		r = 0.008
	}
	render.Skeleton(l.global.Pos, l.skel.Parents, render.BoneColor, render.JointColor, r)
	for _, j := range l.joints {
		rl.DrawSphere(render.V3(l.global.Pos[j]), 0.035, render.TargetColor)
	}
	render.EndOnTop()
}

// Draw2D implements app.Lab: the three heat maps, the picked offset's curve and
// the finder's table.
func (l *Lab) Draw2D(v *app.View) {
	lay := costMapLayout(float32(v.Width), float32(v.Height))
	tex := l.textures()
	titles := [costMaps]string{"Exact: area |offset| dt", fmt.Sprintf("SAD: |x| + %.2f s |v|", l.S.VelWeight), "Error: exact - |2xy+v|/y^2"}
	units := [costMaps]string{"m*s", "m", "m*s"}
	for i := range lay.maps {
		l.drawMap(lay, i, tex.tex[i], titles[i], units[i])
	}
	l.drawCurve(v.Plot)
	table := rl.Rectangle{X: v.Plot.X, Y: lay.bottom + 8, Width: v.Plot.Width, Height: v.Plot.Y - 8 - lay.bottom - 8}
	l.drawTable(table)
	l.drawHover(lay, v.Mouse)
}

// drawTable lists the best targets with all three costs, and the last
// transition's predicted cost beside the one measured through FK.
func (l *Lab) drawTable(r rl.Rectangle) {
	const fs, row = 16, 19
	if r.Height < 3*row {
		return
	}
	rl.DrawRectangleRec(r, costPanelBg)
	rl.DrawRectangleLinesEx(r, 1, costPanelLine)
	other := int32(RankSAD)
	if l.S.RankBy == RankSAD {
		other = RankExact
	}
	x, y := int32(r.X+8), int32(r.Y+5)
	rows := min(costRanked, int((r.Height-2*row-8)/row))
	head := []string{"#", "target by " + costRankNames[l.S.RankBy], "exact m*s", "feature", "SAD m", costRankNames[other] + " #"}
	cells := make([][]string, rows)
	for i := range cells {
		if c := l.Ranked[i]; c >= 0 {
			cells[i] = []string{fmt.Sprint(i + 1), l.CandidateName(c), fmt.Sprintf("%.4f", l.costExact[c]),
				fmt.Sprintf("%.4f", l.costFeat[c]), fmt.Sprintf("%.3f", l.costSAD[c]), fmt.Sprint(l.RankOf(c, other))}
		}
	}
	// Columns as wide as their widest cell; on a narrow table the feature
	// column, then the other ranking's, are left out.
	width := make([]int32, len(head))
	for k, h := range head {
		width[k] = rl.MeasureText(h, fs) + 14
		for _, c := range cells {
			if c != nil {
				width[k] = max(width[k], rl.MeasureText(c[k], fs)+14)
			}
		}
	}
	show := []int{0, 1, 2, 3, 4, 5}
	sum := func() (s int32) {
		for _, k := range show {
			s += width[k]
		}
		return s
	}
	for _, drop := range []int{3, 5} {
		if sum() > int32(r.Width)-16 {
			show = slices.DeleteFunc(show, func(k int) bool { return k == drop })
		}
	}
	line := func(y int32, texts []string, col color.RGBA) {
		cx := x
		for _, k := range show {
			rl.DrawText(texts[k], cx, y, fs, col)
			cx += width[k]
		}
	}
	line(y, head, render.DimText)
	for i, c := range cells {
		y += row
		if c == nil {
			continue
		}
		col := render.TextColor
		if l.Ranked[i] == l.Target && l.inert {
			col = render.TargetColor
		}
		line(y, c, col)
	}
	y += row + 2
	msg := costFit(r.Width-16, fs, "press B or a number in the panel to play a target", "B plays the best target")
	if l.Target >= 0 {
		name := l.CandidateName(l.Target)
		msg = costFit(r.Width-16, fs,
			fmt.Sprintf("last: %s  predicted %.4f  measured %.4f m*s", name, l.Predicted, l.Measured),
			fmt.Sprintf("%s: predicted %.4f, measured %.4f", name, l.Predicted, l.Measured))
	}
	rl.DrawText(msg, x, y, fs, render.DimText)
}

// UIRects implements app.UIRecter: the three heat-map tiles.
func (l *Lab) UIRects(w, h int32) []rl.Rectangle {
	lay := costMapLayout(float32(w), float32(h))
	return lay.tiles[:]
}
